"""What each field of a :class:`~components.powers.Power` handed to the battle in Python must hold.

A power file's loader (``game.content.power_parse``) reads every key into its type and range, but a
``Power`` a developer builds by hand reaches the battle unread: ``Power("nova", ..., damage="2d6")``
was taken, and the first forecast of it failed deep inside with ``AttributeError: 'str' object has
no attribute 'sides'``, naming neither the power nor the field. A table given to the battle
(``Battle(powers=...)``, ``b.powers = ...``) is checked field by field here instead, and a wrong one
is refused naming the power, the field and what it must be. The id, name and description are held
to a file's rules too (an id of 1 to 64 letters, digits, '_' or '-', none of ``RESERVED_IDS``; a name
not blank, at most 80 characters, no control characters), and the ranges and the dice rule are the
ones the loader reads (``components.powers``). What the fields mean together (a ``teleport`` aimed
at an enemy, an ``allies`` target with no area) stays the loader's to judge.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from components import Visibility
from components.dice import Dice
from components.powers import (
    ACTIONS,
    ATTACK_BONUS,
    FEET,
    ID_PATTERN,
    RESERVED_IDS,
    SAVE_DC,
    SHAPES,
    TARGETS,
    AreaShape,
    Made,
    Power,
    rolls_nothing,
)
from components.rules import GRANTABLE_CONDITIONS
from components.terrain import MAX_RADIUS_FT
from components.values import DURATION, Bound, shown
from game.content import checks

# The ranges are components.powers', which a power file's loader (game.content.power_parse) reads too.
SHOVE = Bound(0, MAX_RADIUS_FT, whole=False, unit="ft")  # a push or pull: 0 for none
_DICE = 'dice, a components.dice.Dice such as Dice.parse("2d6+3")'


def _id(value: object) -> str | None:
    if not isinstance(value, str) or not ID_PATTERN.fullmatch(value):
        return f"expected 1 to 64 letters, digits, '_' or '-', got {shown(value)}"
    if value in RESERVED_IDS:
        return (f"expected an id other than {', '.join(RESERVED_IDS)}, kept for damage no power deals (the log "
                f"and simulate would count the two as one), got {value!r}")
    return None


def _words(check: Callable[[object], object]) -> Callable[[object], str | None]:
    """A text read by one of ``game.content.checks``' checkers, as a power file's name and description are."""
    def problem(value: object) -> str | None:
        try:
            check(value)
        except checks.Bad as bad:
            return str(bad)
        return None
    return problem


def _flag(value: object) -> str | None:
    return None if isinstance(value, bool) else f"expected True or False, got {shown(value)}"


def _one_of(options: tuple[str, ...] | frozenset[str], optional: bool = False) -> Callable[[object], str | None]:
    def check(value: object) -> str | None:
        if (optional and value is None) or (isinstance(value, str) and value in options):
            return None
        return f"expected {'None or ' if optional else ''}one of {', '.join(sorted(options))}, got {shown(value)}"
    return check


def _bounded(bound: Bound, optional: bool = False) -> Callable[[object], str | None]:
    def check(value: object) -> str | None:
        if optional and value is None:
            return None
        problem = bound.problem(value)
        if problem is None or not optional:
            return problem
        return "expected None or " + problem.removeprefix("expected ")
    return check


def _dice(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, Dice):
        return f"expected None or {_DICE}, got {shown(value)}"
    problem = value.range_problem()
    if problem is not None:
        return f"expected {problem}, got {value!r}"
    if rolls_nothing(value):  # (a roll counts at least 0: as a file's "1d4-9" is refused, these would always be 0)
        return f"expected dice that can roll more than 0, or Dice(0, 0) for none, got {value!r}"
    return None


def _area(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, AreaShape):
        return f"expected None or a components.powers.AreaShape, got {shown(value)}"
    if value.shape not in SHAPES:
        return f"expected an area shape of {', '.join(SHAPES)}, got {shown(value.shape)}"
    size = "radius_ft" if value.shape == "burst" else "length_ft"
    for name in (size, "width_ft"):
        problem = FEET.problem(getattr(value, name))
        if problem is not None:
            return f"{name} {problem}"
    return None


def _made(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, Made):
        return f"expected None or a components.powers.Made, got {shown(value)}"
    if not isinstance(value.level, Visibility):
        return f"level: expected a components.Visibility, got {shown(value.level)}"
    problem = FEET.problem(value.radius_ft)
    return None if problem is None else f"radius_ft {problem}"


def _conditions(value: object) -> str | None:
    if isinstance(value, tuple) and all(isinstance(c, str) and c in GRANTABLE_CONDITIONS for c in value) \
            and len(set(value)) == len(value):  # (a file's second listing is refused: it grants nothing more)
        return None
    return f"expected a tuple of {', '.join(sorted(GRANTABLE_CONDITIONS))}, each once, got {shown(value)}"


def _script(value: object) -> str | None:
    problem = None if value is None else checks.script_name_problem(value)
    return None if problem is None else f'expected None or a script\'s plain file name like "chain.star": {problem}'


#: Each field a caller gives a ``Power``, and its check (None when the value is right).
_FIELDS: Mapping[str, Callable[[object], str | None]] = MappingProxyType({
    "id": _id, "name": _words(checks.name), "description": _words(checks.text),
    "action": _one_of(ACTIONS), "range_ft": _bounded(FEET, optional=True), "area": _area,
    "targets": _one_of(TARGETS, optional=True),
    "attack_bonus": _bounded(ATTACK_BONUS, optional=True), "save_dc": _bounded(SAVE_DC, optional=True),
    "save_half": _flag, "damage": _dice, "healing": _dice, "conditions": _conditions,
    "push_ft": _bounded(SHOVE), "pull_ft": _bounded(SHOVE), "teleport": _flag, "flight": _flag,
    "creates_area": _made, "creates_light": _made, "duration": _bounded(DURATION, optional=True),
    "end_early": _flag, "script": _script,
})


def field_problem(power: Power) -> str | None:
    """The first field of ``power`` that holds what no power file could give it, in words ("damage:
    expected None or dice, ..., got '2d6'"), or None when every field is of its kind and range."""
    for name, check in _FIELDS.items():
        problem = check(getattr(power, name))
        if problem is not None:
            return f"{name}: {problem}"
    return None
