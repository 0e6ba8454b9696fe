"""Checks of what a caller passes in, shared by the facade and the script bridge.

Each raises :class:`~game.battle.errors.IllegalCommand` (or ``UnknownEntity``) with a message a
person can act on, before anything changes; a script's bridge turns those into a refused call.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeGuard, cast

import esper
import numpy as np

from components import Conditions, Creature
from components.rules import DERIVED_CONDITIONS, GRANTABLE_CONDITIONS, Rules, speed_problem
from components.terrain import HEIGHT
from components.values import (
    AMOUNT,
    CREATURE_BONUS,
    CREATURE_HEALTH,
    CREATURE_SPEED,
    MAX_NAME,
    MAX_SOURCE,
    Bound,
    shown,
    unprintable,
)
from game.battle.errors import IllegalCommand, UnknownEntity
from game.battle.naming import lone_team_problem
from systems.areas import COMPASS
from systems.state import BattleState


def creature_id(entity: object, known: set[int]) -> int:
    """``entity`` as an int if it is a creature of this battle (``known`` holds their ids)."""
    if type(entity) is int and entity in known:
        return entity  # the common case, first: this is on every query's path
    if isinstance(entity, bool) or not isinstance(entity, (int, np.integer)) \
            or int(entity) not in known or not esper.has_component(int(entity), Creature):
        raise UnknownEntity(f"no creature with id {shown(entity)} in this battle")
    return int(entity)


def label(entity: int) -> str:
    """A creature as a message names it: "Orc (#3)"."""
    return f"{esper.component_for_entity(entity, Creature).name} (#{entity})"


def granted(entity: int, condition: str, source: str | None) -> None:
    """Refuse to remove a condition the creature has no grant of (by ``source``, when named): it was
    taken and changed nothing, so a misspelt source left the condition on without a word."""
    conditions = esper.component_for_entity(entity, Conditions)
    sources = conditions.granted.get(condition, {})
    if (sources and (source is None or source in sources)) or "dead" in conditions.active:
        return  # (the dead are a record: whatever is asked of them is taken, and changes nothing)
    holders = f" (granted by {', '.join(repr(s) for s in sorted(sources))})" if sources else \
        " (it has it, but from its state: light, fatigue, surprise)" if condition in conditions.active else ""
    by = "" if source is None else f" by {shown(source)}"
    raise IllegalCommand(f"cannot remove {condition!r} from {label(entity)}: no grant of it{by}{holders}")


def square(state: BattleState, x: object, y: object, what: str = "square") -> tuple[int, int]:
    """(x, y) as ints on this battle's grid."""
    try:
        return state.terrain.check_square(x, y, what)
    except ValueError as err:
        raise IllegalCommand(str(err)) from None


def amount(value: object, what: str) -> int:
    """A whole number of damage, healing or fatigue, in :data:`~components.values.AMOUNT`'s range."""
    return within(value, AMOUNT, what)


def within(value: object, bound: Bound, what: str) -> int:
    """A whole number in ``bound``'s range. Why: a number past it would still play, but the battle's
    save and replay keep numbers only up to a billion, so the battle could not be saved."""
    number = whole(value, what)
    problem = bound.problem(number)
    if problem:
        raise IllegalCommand(f"{what}: {problem}")
    return number


def condition_name(condition: object) -> str:
    """A condition that can be granted or removed (derived ones follow from Health and Fatigue)."""
    if not isinstance(condition, str):
        raise IllegalCommand(f"a condition is a name, not {shown(condition)}")
    name = condition.strip().lower()
    if name in DERIVED_CONDITIONS:
        raise IllegalCommand(f"{name!r} follows from Health and Fatigue and cannot be granted or removed")
    if name not in GRANTABLE_CONDITIONS:
        known = ", ".join(sorted(GRANTABLE_CONDITIONS))
        raise IllegalCommand(f"unknown condition {shown(condition)}: expected one of {known}")
    return name


def direction(value: object) -> tuple[int, int] | None:
    """Where a cone or line faces: a compass name ("n", "se", ...) or a step (dx, dy), not (0, 0)."""
    if value is None:
        return None
    if isinstance(value, str) and value.strip().lower() in COMPASS:
        return COMPASS[value.strip().lower()]
    if isinstance(value, (tuple, list)) and len(value) == 2 and all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) and -1024 <= v <= 1024 for v in value) \
            and tuple(value) != (0, 0):
        return int(value[0]), int(value[1])
    raise IllegalCommand(f"a direction is a compass point ({', '.join(COMPASS)}) or a step (dx, dy) of whole "
                         f"numbers in -1024..1024, not both 0; not {shown(value)}")


# ------------------------------------------------------------------ plain values a caller passes in
#
# Each check has a fast path for the well-formed value a program passes (``type(x) is ...``) before
# any slower test: planners ask forecasts, threats and outcomes thousands of times a battle.

_NUMBERS = (int, float, np.integer, np.floating)
#: The most feet a height or radius may be, up or down: a save's bound on a command's number, far past any map.
MAX_FEET = 1e9


def text(value: object, what: str, most: int = MAX_SOURCE) -> str:
    """A name, source or reason: a string of at most ``most`` characters without control characters
    (it is logged, saved and drawn; a replay file's commands come through here too)."""
    if type(value) is str and len(value) <= most and value.isprintable():
        return value
    if not isinstance(value, str):
        raise IllegalCommand(f"{what} must be text, not {shown(value)}")
    if len(value) > most:
        raise IllegalCommand(f"{what}: expected at most {most} characters, got {len(value):,}")
    bad = unprintable(value)
    if bad is not None:
        raise IllegalCommand(f"{what} may not hold control characters such as {bad}, not {shown(value)}")
    return value


def optional_text(value: object, what: str) -> str | None:
    """:func:`text`, or None."""
    return None if value is None else text(value, what)


def whole(value: object, what: str) -> int:
    """A whole number (an int or a numpy integer; a bool is not one, though Python says it is an int)."""
    if type(value) is int:
        return value
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise IllegalCommand(f"{what} must be a whole number, not {shown(value)}")
    return int(value)


def flag(value: object, what: str, hint: str = "") -> bool:
    """True or False (a numpy bool too): not a number, text or anything else that Python finds true.

    ``hint`` is said after the refusal, in brackets: what each answer means, where a wrong guess costs.
    """
    if value is True or value is False:
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    raise IllegalCommand(f"{what} must be True or False, not {shown(value)}" + (f" ({hint})" if hint else ""))


def feet(value: object, what: str) -> float:
    """A finite number of feet (int, float or a numpy number; not a bool, nan or infinity)."""
    if type(value) is float and -MAX_FEET <= value <= MAX_FEET:
        return value
    if isinstance(value, bool) or not isinstance(value, _NUMBERS):
        raise IllegalCommand(f"{what} must be a number of feet, not {shown(value)}")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not -MAX_FEET <= number <= MAX_FEET:  # (nan compares false: refused too)
        raise IllegalCommand(f"{what} must be a finite number of feet within -{MAX_FEET:.0f}..{MAX_FEET:.0f}, "
                             f"not {shown(value)}")
    return number


def height(value: object, what: str) -> float:
    """A height in feet in :data:`~components.terrain.HEIGHT`'s range, as a scenario file may give it.
    Why: a ledge or a creature a million feet up would fall 500 ft a round for thousands of rounds."""
    try:
        number = feet(value, what)
    except IllegalCommand:
        if isinstance(value, bool) or not isinstance(value, _NUMBERS):
            raise
        number = math.nan  # (infinite, nan or past a billion: the range a height has is what to say)
    if HEIGHT.problem(number):
        raise IllegalCommand(f"{what}: expected {HEIGHT}, got {shown(value)}")  # (as given, not as a float)
    return number


def optional_limit(value: object, what: str) -> float | None:
    """None (no limit), or a number of feet of at least 0 (kept as given: a cache is keyed by it)."""
    if value is None or (type(value) is int and value >= 0):
        return value
    number = feet(value, what)
    if number < 0:
        raise IllegalCommand(f"{what} must not be negative, not {shown(value)}")
    return value if type(value) is float else number


def names(value: object, what: str) -> tuple[str, ...]:
    """Names given as a list (a tuple, a set, any iterable but one string): each a string. A set's in
    sorted order: its own order is the string hashes', which differ from one process to the next (a
    creature's powers, its keys 1-9, came out in another order each run, and its log's replay elsewhere)."""
    if not listed(value):
        raise IllegalCommand(f"{what} must be a list of names, not {shown(value)}")
    found = tuple(sorted(value, key=repr)) if isinstance(value, (set, frozenset)) else tuple(value)
    for name in found:
        if not isinstance(name, str):
            raise IllegalCommand(f"{what} must be a list of names, and {shown(name)} is not one")
    return found


def known_team(state: BattleState, value: object, asked: str) -> str:
    """``value`` as the name of a team some creature of this battle is on (or was: the dead's count).

    Why: a team no creature is on sees nothing, has no turn and wins nothing, so a query about one
    answers as if it were a team that had lost everyone; a misspelt name read that way (``"bleu"``) gave
    an empty answer instead of an error.
    """
    teams = {esper.component_for_entity(e, Creature).team for e in state.creatures}
    if isinstance(value, str) and value in teams:
        return value
    known = ", ".join(sorted(teams)) or "none yet: no creature has been spawned"
    raise IllegalCommand(f"{asked}: no creature of this battle is on team {shown(value)}; its teams: {known}")


def place(state: BattleState, value: object, what: str = "square") -> tuple[int, int]:
    """A square given as a pair ``(x, y)`` (a tuple, list or array of two), on this battle's grid."""
    if type(value) is tuple and len(value) == 2:
        return square(state, value[0], value[1], what)
    if isinstance(value, (tuple, list, np.ndarray)) and len(value) == 2:
        return square(state, value[0], value[1], what)
    raise IllegalCommand(f"{what} must be a square (x, y), not {shown(value)}")


def from_square(state: BattleState, value: object, stands: Callable[[tuple[int, int]], bool]) -> tuple[int, int]:
    """A square a forecast is asked from, as :func:`place` reads it, that its user could stand on: not a
    wall, nor terrain that blocks it as a move there would (``stands``: ``orders.could_stand`` for the
    user, asked only of a square with blockers; a battlement stops walkers, not fliers), as ``spawn``
    and every move refuse.

    Why: a forecast from inside a wall, or from a portcullis (``blocks=["movement"]``), answered as if its
    user stood there (a blow struck from beside the target was legal), where no move could ever put it."""
    found = place(state, value, "from_square")
    if state.terrain.walls[found]:
        raise IllegalCommand(f"from_square {found} is a wall: no creature stands there to use a power from")
    if state.terrain.blockers[found] and not stands(found):
        raise IllegalCommand(f"from_square {found} is terrain that blocks its user: it could not stand there "
                             "to use a power from")
    return found


def listed(value: object) -> TypeGuard[Iterable[Any]]:
    """Whether ``value`` is a list of things (any iterable but a string, bytes or a mapping, whose
    iteration would give characters or keys)."""
    return isinstance(value, Iterable) and not isinstance(value, (str, bytes, Mapping))


def _pairs_of(values: object, first: type, second: type) -> bool:
    """Whether ``values`` is a list of pairs (tuples of two) of exactly these types: what a planner passes,
    checked in one pass so that its thousands of asks a battle cost little."""
    if type(values) is not list:
        return False
    for value in values:
        if type(value) is not tuple or len(value) != 2 or type(value[0]) is not first or type(value[1]) is not second:
            return False
    return True


def places(state: BattleState, values: object, what: str = "squares") -> list[tuple[int, int]]:
    """Squares given as a list (any iterable) of pairs ``(x, y)``, each on the grid.

    The list a planner passes (of tuples of two ints on the grid) is returned as it is."""
    if _pairs_of(values, int, int):
        return cast(list[tuple[int, int]], values)
    if not listed(values):
        raise IllegalCommand(f"{what} must be a list of squares (x, y), not {shown(values)}")
    return [place(state, value, f"each of {what}") for value in values]


def on_grid(state: BattleState, values: list[tuple[int, int]], what: str = "square") -> list[tuple[int, int]]:
    """:func:`square` of each of ``values`` (pairs, as :func:`places` returns them), in one pass: a
    planner's list of int pairs on the grid comes back as it is, with no call a square (it asks about
    hundreds a battle); otherwise each is checked by :func:`square`, which names the first bad one."""
    terrain = state.terrain
    width, height = terrain.width, terrain.height
    for x, y in values:
        if type(x) is not int or type(y) is not int or not 0 <= x < width or not 0 <= y < height:
            return [square(state, *value, what=what) for value in values]
    return values


def ids(values: object, what: str) -> Iterable[int]:
    """Creatures given as a list (any iterable) of ids (each is checked where it is read, as an int)."""
    if type(values) is list or type(values) is tuple or type(values) is set or type(values) is frozenset:
        return cast(Iterable[int], values)
    if not listed(values):
        raise IllegalCommand(f"{what} must be a list of creature ids, not {shown(values)}")
    return list(values)


def optional_ids(values: object, what: str) -> Iterable[int] | None:
    """:func:`ids`, or None (everyone)."""
    return None if values is None else ids(values, what)


def uses(values: object, asked: str) -> list[tuple[str, Mapping[str, Any]]]:
    """A planner's uses: a list of pairs ``(power_id, aim)``, the aim a mapping of ``target``,
    ``point`` and ``direction`` (each checked where it is read)."""
    if _pairs_of(values, str, dict):
        return cast(list[tuple[str, Mapping[str, Any]]], values)
    if not listed(values):
        raise IllegalCommand(f"{asked}: uses must be a list of (power_id, aim) pairs, not {shown(values)}")
    found = list(values)
    for use in found:
        if not isinstance(use, (tuple, list)) or len(use) != 2 or not isinstance(use[0], str) \
                or not isinstance(use[1], Mapping):
            raise IllegalCommand(f"{asked}: each use must be a pair (power_id, aim), the aim a mapping such as "
                                 f"{{'target': 3}} (empty for none), not {shown(use)}")
    return [(use[0], use[1]) for use in found]


def spawn_values(name: object, z: object, health: object, defense: object, flying: object, prepared: object,
                 team: object, attack_bonus: object, initiative_bonus: object, powers: object, fatigue: object
                 ) -> tuple[str, float | None, int, int, bool, bool, str | None, int, int, tuple[str, ...], int]:
    """``spawn``'s arguments of their kinds (numbers whole, flags True or False, names text), numpy
    numbers as Python's, and in the ranges a scenario file allows (fatigue's is the rules', which
    its component checks). Why here: a bool taken for a number, or a 0 for no team, made a creature
    nobody asked for; a health of 10**12 made one no save could keep."""
    label = text(name, "a creature's name", MAX_NAME)
    if team is not None and (not isinstance(team, str) or not team):
        raise IllegalCommand(f"team of {label!r} must be a non-empty name (None: it fights alone), not {shown(team)}")
    lone = None if team is None else lone_team_problem(team)
    if lone:
        raise IllegalCommand(f"team of {label!r}: {lone} (None: it fights alone)")
    numbers = tuple(within(value, bound, f"{what} of {label!r}") for value, what, bound in (
        (health, "health", CREATURE_HEALTH), (defense, "defense", CREATURE_BONUS),
        (attack_bonus, "attack bonus", CREATURE_BONUS), (initiative_bonus, "initiative bonus", CREATURE_BONUS),
        (fatigue, "fatigue", AMOUNT)))
    return (label, None if z is None else height(z, f"z of {label!r}"), numbers[0], numbers[1],
            flag(flying, f"flying of {label!r}"), flag(prepared, f"prepared of {label!r}"),
            None if team is None else text(team, f"team of {label!r}", MAX_NAME), numbers[2], numbers[3],
            names(powers, f"powers of {label!r}"), numbers[4])


def speed(value: object, rules: Rules, name: str) -> int:
    """A creature's own speed in feet, as a scenario file may give it: 0 (it never moves) or at
    least a square (a shorter walk never leaves its square), at most ``CREATURE_SPEED``."""
    feet_a_round = within(value, CREATURE_SPEED, f"speed of {name!r}")
    problem = speed_problem(feet_a_round, rules.square_ft)
    if problem:
        raise IllegalCommand(f"speed of {name!r}: {problem}")
    return feet_a_round


def component_kind(component: object) -> None:
    """What ``get`` is asked for: a component class (Health, Position, ...), not an instance or a name."""
    if not isinstance(component, type):
        raise IllegalCommand(f"get: the component must be a component class such as Health, not {shown(component)}")


def roll_kind(kind: object, sight: object, advantage: object, disadvantage: object) -> None:
    """``roll_mode``'s kind of roll (a name, which the rules then look up) and its flags."""
    if type(kind) is not str:
        raise IllegalCommand(f"the kind of roll must be a name such as 'attack' or 'notice', not {shown(kind)}")
    for value, what in ((sight, "sight"), (advantage, "advantage"), (disadvantage, "disadvantage")):
        flag(value, what)


def moved(value: object) -> None:
    """``forecast_reactions``' ``moved``: None, or a mapping of creatures to squares (each checked where read)."""
    if value is not None and not isinstance(value, Mapping):
        raise IllegalCommand(f"moved must be a mapping of creature ids to squares (x, y), not {shown(value)}")
