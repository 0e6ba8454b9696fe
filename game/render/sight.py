"""What a team surely saw at each moment of several events read together: no pygame here.

The window reads the battle's new events after each step, with the team's sight as it was at the
last reading (``before``) and as it is now (``after``); Enter plays several computer turns as one
step. Neither sight holds for every event between: a darkness made in the first turn hides what the
team saw before it, a light made in the last shows what the team did not see before it. Counting a
square seen before the step as seen for all of it named a creature that walked into a darkness
cast over squares the team had seen, though it never saw it, and gave away its square.

So each moment gets only what holds for sure: the sight before, while nothing that may narrow it
has happened yet (an area made, a light ending, a creature of the team that moves, falls, goes
down or loses its sight), and the sight after, once nothing that may widen it is still to come.
Between, a square neither covers counts as unseen: the log says less, and never more, than the
team saw. The feed (the team's log), the fog (what it saw made) and the motion (a walk it watched)
all ask this one function.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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
    Healed,
    InitiativeRolled,
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

#: events that change no creature's sight, whoever they are about
_QUIET = (AttackRolled, CombatStarted, CommandRefused, Damaged, FatigueChanged, Healed, InitiativeRolled,
          PowerUsed, RoundEnded, RoundStarted, SaveRolled, ScriptFailed, StoodUp, TurnStarted)


def changes(event: Any, ours: Callable[[int], bool]) -> tuple[bool, bool]:
    """Whether an event may narrow the team's sight, and whether it may widen it (``ours``: whether a
    creature is on the team). Anything not known to leave it alone may do both: an unknown event
    counted as neither would let a sight stand for moments it did not hold."""
    if isinstance(event, _QUIET):
        return False, False
    if isinstance(event, AreaCreated):  # a light only brightens; fog, smoke or darkness only dims
        return event.what != "light", event.what == "light"
    if isinstance(event, EffectEnded | MapChanged):  # (an effect's end takes its lights and areas away)
        return True, True
    entity = getattr(event, "entity", None)
    if isinstance(entity, int) and not isinstance(entity, bool) and not ours(entity):
        return False, False  # (another team's creature: the team's sight is its own creatures')
    if isinstance(event, Spawned | Revived | ConditionLost):
        return False, True
    if isinstance(event, Died | Downed | Unconscious | ConditionGained):
        return True, False
    return True, True  # a move, push, teleport or fall of the team's own, or anything else


def sure_sight(events: Sequence[Any], ours: Callable[[int], bool], before: Any, after: Any) -> list[Any] | None:
    """The squares the team surely saw at each moment of ``events``: before the first, and after each
    (one ``[x, y]`` mask more than there are events; the masks are shared, not copied).

    Args:
        events: the events read together.
        ours: whether a creature is on the team.
        before: its sight at the last reading, before ``events`` (None: not known, none counted).
        after: its sight now, after them (None: no fog, and None is returned).
    """
    if after is None:
        return None
    usable = before is not None and getattr(before, "shape", None) == after.shape
    nothing = np.zeros(after.shape, dtype=bool)
    both = before | after if usable else after
    marks = [changes(event, ours) for event in events]
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
