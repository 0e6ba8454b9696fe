"""What each field of a :class:`~components.powers.Power` handed to the battle in Python must hold.

A power file's loader (``game.content.power_parse``) reads every key into its type and range, but a
``Power`` a developer builds by hand reaches the battle unread: ``Power("nova", ..., damage="2d6")``
was taken, and the first forecast of it failed deep inside with ``AttributeError: 'str' object has
no attribute 'sides'``, naming neither the power nor the field. A table given to the battle
(``Battle(powers=...)``, ``b.powers = ...``) is checked field by field here instead, and a wrong one
is refused naming the power, the field and what it must be. What the fields mean together (a
``teleport`` aimed at an enemy, an ``allies`` target with no area) stays the loader's to judge.
"""

from __future__ import annotations

from collections.abc import Callable

from components import Visibility
from components.dice import MAX_BONUS, MAX_DICE, MAX_SIDES, Dice
from components.powers import ACTIONS, SHAPES, TARGETS, AreaShape, Made, Power
from components.rules import GRANTABLE_CONDITIONS
from components.terrain import MAX_RADIUS_FT
from components.values import DURATION, Bound, shown

#: The ranges a power file holds the same numbers to (``game.content.power_parse``).
FEET = Bound(0, MAX_RADIUS_FT, whole=False, unit="ft", above=True)
SHOVE = Bound(0, MAX_RADIUS_FT, whole=False, unit="ft")  # a push or pull: 0 for none
ATTACK_BONUS = Bound(-1000, 1000)
SAVE_DC = Bound(1, 1000)
_DICE = 'dice, a components.dice.Dice such as Dice.parse("2d6+3")'


def _text(value: object) -> str | None:
    return None if isinstance(value, str) else f"expected text, got {shown(value)}"


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
    count, sides, bonus = value.count, value.sides, value.bonus
    if any(isinstance(n, bool) or not isinstance(n, int) for n in (count, sides, bonus)) \
            or not 0 <= count <= MAX_DICE or not (0 if count == 0 else 1) <= sides <= MAX_SIDES \
            or not -MAX_BONUS <= bonus <= MAX_BONUS:
        return (f"expected at most {MAX_DICE} dice of 1..{MAX_SIDES} sides and a bonus within "
                f"±{MAX_BONUS}, got {value!r}")
    if count * sides + bonus <= 0 and (count, sides, bonus) != (0, 0, 0):
        # (a roll counts at least 0: as a file's "1d4-9" is refused, these would always be 0)
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
    if isinstance(value, tuple) and all(isinstance(c, str) and c in GRANTABLE_CONDITIONS for c in value):
        return None
    return f"expected a tuple of {', '.join(sorted(GRANTABLE_CONDITIONS))}, got {shown(value)}"


def _optional_text(value: object) -> str | None:
    return None if value is None else _text(value)


#: Each field a caller gives a ``Power``, and its check (None when the value is right).
_FIELDS: dict[str, Callable[[object], str | None]] = {
    "id": _text, "name": _text, "description": _text,
    "action": _one_of(ACTIONS), "range_ft": _bounded(FEET, optional=True), "area": _area,
    "targets": _one_of(TARGETS, optional=True),
    "attack_bonus": _bounded(ATTACK_BONUS, optional=True), "save_dc": _bounded(SAVE_DC, optional=True),
    "save_half": _flag, "damage": _dice, "healing": _dice, "conditions": _conditions,
    "push_ft": _bounded(SHOVE), "pull_ft": _bounded(SHOVE), "teleport": _flag, "flight": _flag,
    "creates_area": _made, "creates_light": _made, "duration": _bounded(DURATION, optional=True),
    "end_early": _flag, "script": _optional_text,
}


def field_problem(power: Power) -> str | None:
    """The first field of ``power`` that holds what no power file could give it, in words ("damage:
    expected None or dice, ..., got '2d6'"), or None when every field is of its kind and range."""
    for name, check in _FIELDS.items():
        problem = check(getattr(power, name))
        if problem is not None:
            return f"{name}: {problem}"
    return None
