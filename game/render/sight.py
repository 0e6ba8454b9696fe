"""What a team surely saw at each moment of several events read together: no pygame here.

The window reads the battle's new events after each step, with the team's sight as it was at the
last reading (``before``) and as it is now (``after``); Enter plays several computer turns as one
step. Neither sight holds for every event between: a darkness made in the first turn hides what the
team saw before it, a light made in the last shows what the team did not see before it. Counting a
square seen before the step as seen for all of it named a creature that walked into a darkness
cast over squares the team had seen, though it never saw it, and gave away its square.

So each moment gets only what holds for sure: the sight before, while nothing that may narrow it
has happened yet (an area made, a light ending, a creature of the team that moves, dies or loses
its sight), and the sight after, once nothing that may widen it is still to come. Between, a
square neither covers counts as unseen: the log says less, and never more, than the team saw. The
feed (the team's log), the fog (what it saw made) and the motion (a walk it watched) all ask this
one function.

Which events change a team's sight is the rules' own answer (``Battle.visible_squares``,
``systems.visibility``): the squares' levels (the map's lights, areas and walls) and, for each
living creature of the team, its square and its own vision there, worsened only by blinded and
dazzled. Nothing else counts, and the feed names every enemy only where its square is surely seen:
an event counted as changing the sight when it does not (a creature of the team knocked prone, a
blessing ending) left moments where neither sight held, and an enemy that stood in plain sight
throughout them was told as someone unseen.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from components.events import (
    AreaCreated,
    AttackRolled,
    CombatStarted,
    CommandRefused,
    ConditionGained,
    ConditionLost,
    Damaged,
    Died,
    Downed,
    EffectEnded,
    FatigueChanged,
    Fell,
    Healed,
    InitiativeRolled,
    Landed,
    MapChanged,
    PowerUsed,
    Revived,
    RoundEnded,
    RoundStarted,
    SaveRolled,
    ScriptFailed,
    Spawned,
    StoodUp,
    TurnStarted,
    Unconscious,
)
from systems.visibility import VISION_CONDITIONS

#: events that change no creature's sight, whoever they are about: a fall changes only a creature's
#: height, and a downed or unconscious creature still sees (only the dead are left out of a team's)
_SIGHT_UNCHANGED = (AttackRolled, CombatStarted, CommandRefused, Damaged, FatigueChanged, Fell, Healed,
                    InitiativeRolled, Landed, Downed, PowerUsed, Revived, RoundEnded, RoundStarted, SaveRolled,
                    ScriptFailed, StoodUp, TurnStarted, Unconscious)
#: the conditions a creature's own vision reads (the rule's own list), and the one that leaves it out of
#: its team's sight (``Battle.visible_squares``; announced as ``Died``)
SIGHT_CONDITIONS = VISION_CONDITIONS | {"dead"}
#: effect id -> the kinds of what it made on the map ("light", "area"): what its end takes away
Veils = Mapping[int, frozenset[str]]


def veils_of(record: Sequence[Any]) -> dict[int, frozenset[str]]:
    """What each effect of a battle's event ``record`` made on the map: every light or area an effect
    holds was made by ``systems.powers.make_veil``, which reports it as an ``AreaCreated`` with the
    effect's id (0: none, held by no effect). An effect made none of either (a blessing, a blinding:
    its conditions go with their own events) changes nobody's sight when it ends."""
    found: dict[int, set[str]] = {}
    for event in record:
        if type(event) is AreaCreated and event.effect:
            found.setdefault(event.effect, set()).add(event.what)
    return {effect: frozenset(kinds) for effect, kinds in found.items()}


def changes(event: Any, ours: Callable[[int], bool], veils: Veils | None = None) -> tuple[bool, bool]:
    """Whether an event may narrow the team's sight, and whether it may widen it (``ours``: whether a
    creature is on the team; ``veils``: what each effect made on the map, ``veils_of`` the whole
    record, without which an effect's end may do both). Anything not known to leave it alone may do
    both: an unknown event counted as neither would let a sight stand for moments it did not hold."""
    if isinstance(event, _SIGHT_UNCHANGED):
        return False, False
    if isinstance(event, AreaCreated):  # a light only brightens; fog, smoke or darkness only dims
        return event.what != "light", event.what == "light"
    if isinstance(event, EffectEnded) and veils is not None:  # (its lights and areas go with it)
        made = veils.get(event.effect, frozenset())
        return "light" in made, bool(made - {"light"})
    if isinstance(event, EffectEnded | MapChanged):
        return True, True
    entity = getattr(event, "entity", None)
    if isinstance(entity, int) and not isinstance(entity, bool) and not ours(entity):
        return False, False  # (another team's creature: the team's sight is its own creatures')
    if isinstance(event, ConditionGained | ConditionLost) and event.condition not in SIGHT_CONDITIONS:
        return False, False  # (prone, slowed, flat-footed: its eyes see as they did)
    if isinstance(event, Spawned | ConditionLost):
        return False, True
    if isinstance(event, Died | ConditionGained):
        return True, False
    return True, True  # a move, push or teleport of the team's own, or anything else


def sure_sight(events: Sequence[Any], ours: Callable[[int], bool], before: Any, after: Any,
               veils: Veils | None = None) -> list[Any] | None:
    """The squares the team surely saw at each moment of ``events``: before the first, and after each
    (one ``[x, y]`` mask more than there are events; the masks are shared, not copied).

    Args:
        events: the events read together.
        ours: whether a creature is on the team.
        before: its sight at the last reading, before ``events`` (None: not known, none counted).
        after: its sight now, after them (None: no fog, and None is returned).
        veils: what each effect made on the map (``veils_of`` the battle's whole record; None: the end
            of any effect counts as narrowing and widening the sight).
    """
    if after is None:
        return None
    usable = before is not None and getattr(before, "shape", None) == after.shape
    nothing = np.zeros(after.shape, dtype=bool)
    both = before | after if usable else after
    marks = [changes(event, ours, veils) for event in events]
    narrowed = [False]  # narrowed[i]: something among events[:i] may have narrowed the sight
    for narrows, _ in marks:
        narrowed.append(narrowed[-1] or narrows)
    widens_later = [False] * (len(events) + 1)  # widens_later[i]: something among events[i:] may widen it
    for i in range(len(events) - 1, -1, -1):
        widens_later[i] = widens_later[i + 1] or marks[i][1]
    sights: list[Any] = []
    for old, new in zip(narrowed, widens_later, strict=True):
        from_before, from_after = usable and not old, not new
        sights.append(both if from_before and from_after else before if from_before else after if from_after
                      else nothing)
    return sights
