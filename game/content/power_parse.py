"""One power's TOML table checked and turned into a :class:`~components.powers.Power`.

Every number has a range, every key a type, and keys that contradict each other are refused with
the keys named, so that a designer's mistake is an error at load rather than a power that quietly
does nothing (an attack at "one enemy" aimed at an empty square hits nobody).

What a power reaches, by its keys. This table is the one place that says it; the engine reads it
through ``Power.has_area``, ``aims_at_point``, ``needs_direction`` and ``single_target``
(components/powers.py) and :mod:`systems.areas`, and the loader refuses the rows marked *refused*.
R is ``range_ft``; "-" is the key left out; "area" is ``area`` (burst, cone, line), and an
``area_effect`` or ``light`` is an area too (darkness, fog, light). :func:`contradiction` asks
``Power`` what a power aims at, it does not work it out::

    range_ft  area               targets                  aims at             reaches
    --------  -----------------  -----------------------  ------------------  ------------------------------------
    -         -                  - / creature/ally/enemy  a creature          one creature of that kind within
                                                                              reach (one square, heights counted)
    R         -                  - / creature/ally/enemy  a creature          one creature of that kind you see
                                                                              within R (heights counted)
    -         -                  self                     nothing             you
    R         - , teleport       - / self                 a square            you, landing there within R
    -         area_effect/light  - / self                 nothing             nobody: it is made around you
    R         area_effect/light  -                        a square            nobody: it is made around a square
                                                                              you see within R
    -         burst              - / self/allies/enemies  nothing             those of that kind in the burst
                                 / all                                        around you (all: everyone in it)
    R         burst              (as above)               a square            those of that kind in the burst
                                                                              around a square you see within R
    -         cone, line         (as above)               a direction         those of that kind in the cone or
                                                          (or a square to     line from you
                                                          face)
    R         cone, line         (as above)               a square (and a     those of that kind in the cone or
                                                          direction)          line from a square you see within R,
                                                                              facing away from you unless told
    any       any area, or       creature/ally/enemy      -                   *refused*: one creature, but the
              teleport                                                        power aims at an area or a square
    any       no burst/cone/     allies/enemies/all       -                   *refused*: "every ally" needs an
              line                                                            area to be in
    R         any but teleport   self                     -                   *refused*: a range on yourself
                                                                              means nothing

Heights count in every range and area (a burst catches a flier only within its radius in three
dimensions; see ``systems.geometry.distance_3d_ft``); cover and sight stay on the grid's plane.

Other contradictions refused: ``attack`` with ``save`` (one roll decides), ``push_ft`` with
``pull_ft``, ``teleport`` without a range, ``end_early`` without a ``duration``.

Ranges: ``range_ft``, ``push_ft``, ``pull_ft``, ``area.radius_ft``/``length_ft``/``width_ft`` and
the ``radius_ft`` of ``light`` and ``area_effect`` are feet above 0, at most 10000;
``attack.bonus`` -1000..1000; ``save.dc`` 1..1000; ``duration`` 1..1000 rounds; dice at most 1000
dice of 1..1000 sides with a bonus within -1000..1000 (see ``components.dice``), and ``damage`` and
``healing`` able to roll more than 0 (``-3``, ``1d4-4`` or ``0d6`` would always be 0), or ``0`` itself
(none: a sweep's way to switch it off). The ranges, the id's pattern and the dice rule are
``components.powers``' (``FEET``, ``ATTACK_BONUS``, ``SAVE_DC``, ``ID_PATTERN``, ``rolls_nothing``): a
power made in Python is held to the same ones (``game.battle.power_fields``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from components import Visibility
from components.creature import level_words
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
from game.content.checks import did_you_mean, script_name_problem
from game.content.recorded import script_problem

__all__ = ["KEYS", "PowerError", "contradiction", "parse_power"]

KEYS = frozenset({
    "name", "description", "action", "range_ft", "area", "targets", "attack", "save", "damage", "healing",
    "conditions", "push_ft", "pull_ft", "teleport", "flight", "area_effect", "light", "duration", "end_early",
    "script",
})
_FEET = f"a number of feet above 0, at most {MAX_RADIUS_FT:g}"
_SINGULAR = ("creature", "ally", "enemy")
_PLURAL_OF = MappingProxyType({"creature": "all", "ally": "allies", "enemy": "enemies"})
_PLURAL = ("allies", "enemies", "all")
_AREA_KEYS = frozenset({"shape", "radius_ft", "length_ft", "width_ft"})


def _span(bound: Bound) -> str:
    return f"{bound.lo:g}..{bound.hi:g}"


class PowerError(ValueError):
    """A power file that cannot be used, with the file, power and key in the message."""


class _Reader:
    """Reads one power table, turning every mistake into a PowerError that says where it is."""

    def __init__(self, where: str, power_id: str, table: Mapping[str, Any]) -> None:
        self.where, self.power_id, self.table = where, power_id, table

    def error(self, message: str) -> PowerError:
        return PowerError(f"{self.where}: power [{self.power_id}] {message}")

    def fail(self, key: str, expected: str, got: object) -> PowerError:
        """The refusal of ``key`` (shown clipped: an unknown key inside a table is the file's own, a
        stranger's megabyte included)."""
        return self.error(f"key {shown(key)}: expected {expected}, got {shown(got)}")

    def get(self, key: str, kind: type | tuple[type, ...], expected: str, default: Any = None,
            required: bool = False) -> Any:
        if key not in self.table:
            if required:
                raise self.error(f"is missing {key!r} ({expected})")
            return default
        value = self.table[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
            raise self.fail(key, expected, value)
        return value

    def words(self, key: str, check: Callable[[Any], str], expected: str) -> str:
        """A required text read by ``check`` (a name's or a description's length and characters)."""
        value = self.get(key, str, expected, required=True)
        try:
            return str(check(value))
        except checks.Bad as bad:
            raise self.error(f"key {key!r}: {bad}") from None

    def bounded(self, key: str, value: object, bound: Bound, expected: str) -> Any:
        """``value`` (found at ``key``) when ``bound`` allows it; ``expected`` says so in words."""
        if bound.problem(value):
            raise self.fail(key, expected, value)
        return value

    def feet(self, key: str) -> float | None:
        if key not in self.table:
            return None
        return float(self.bounded(key, self.table[key], FEET, _FEET))

    def dice(self, key: str) -> Dice | None:
        """Damage or healing dice; ones that can only roll below 0 are refused, since a roll counts
        at least 0 (as the GM's ``damage`` refuses a negative amount): ``-3`` or ``1d4-9`` would
        silently do nothing, in a file or a sweep's ``--set`` alike."""
        value = self.get(key, (str, int), 'dice like "2d6+3"')
        if value is None:
            return None
        if isinstance(value, str) and not value.isascii():  # "２d６" would read as 2d6: one spelling only
            raise self.fail(key, 'dice like "2d6+3", in ASCII digits', value)
        try:
            dice = Dice.parse(value)
        except ValueError as err:
            raise self.error(f"key {key!r}: {err}") from None
        if rolls_nothing(dice):
            raise self.fail(key, f'dice like "2d6+3" that can roll more than 0 (a roll counts at least 0, so this '
                                 f"{key} would always be 0; write 0 for none)", value)
        return dice

    def choice(self, key: str, options: tuple[str, ...], default: str | None = None) -> str | None:
        value = self.get(key, str, f"one of {', '.join(options)}", default)
        if value is not None and value not in options:
            raise self.fail(key, f"one of {', '.join(options)}{did_you_mean(value, options)}", value)
        return value

    def made(self, key: str) -> Made | None:
        value = self.get(key, dict, "a table like { radius_ft = 10, level = \"no vision\" }")
        if value is None:
            return None
        unknown = sorted(str(k) for k in set(value) - {"radius_ft", "level"})
        if unknown:
            raise self.fail(f"{key}.{unknown[0]}", "only radius_ft and level", value[unknown[0]])
        radius = self.bounded(f"{key}.radius_ft", value.get("radius_ft"), FEET, _FEET)
        level = value.get("level", "normal" if key == "light" else "no vision")
        if not isinstance(level, str):
            raise self.fail(f"{key}.level", f"a visibility level name ({level_words()})", level)
        try:
            return Made(float(radius), Visibility.parse(level))
        except ValueError as err:
            raise self.error(f"key '{key}.level': {err}") from None

    def unknown_keys(self) -> None:
        extra = sorted(str(k) for k in set(self.table) - KEYS)
        if extra:
            raise self.error(f"has unknown key {shown(extra[0])}{did_you_mean(extra[0], KEYS)}; "
                             f"known keys: {', '.join(sorted(KEYS))}")


def _area(r: _Reader) -> AreaShape | None:
    table = r.get("area", dict, 'a table like { shape = "burst", radius_ft = 10 }')
    if table is None:
        return None
    shape = table.get("shape")
    if not isinstance(shape, str) or shape not in SHAPES:
        raise r.fail("area.shape", f"one of {', '.join(SHAPES)}", shape)
    extra = sorted(str(k) for k in set(table) - _AREA_KEYS)
    if extra:
        hint = did_you_mean(extra[0], _AREA_KEYS)
        raise r.fail(f"area.{extra[0]}", f"only shape, radius_ft, length_ft, width_ft{hint}", "an unknown key")
    size_key = "radius_ft" if shape == "burst" else "length_ft"
    size = r.bounded(f"area.{size_key}", table.get(size_key), FEET,
                     f"a number of feet above 0 for a {shape}, at most {MAX_RADIUS_FT:g}")
    width = r.bounded("area.width_ft", table.get("width_ft", 5), FEET, _FEET)
    other = "length_ft" if shape == "burst" else "radius_ft"
    if other in table:
        raise r.error(f"keys 'area.shape' and 'area.{other}' conflict: a {shape} has a {size_key}, not a {other}")
    return AreaShape(shape, float(size) if shape == "burst" else 0.0, float(size) if shape != "burst" else 0.0,
                     float(width))


def _roll(r: _Reader) -> tuple[int | None, int | None, bool]:
    """The attack bonus, or the save's difficulty and whether a save halves (at most one of them)."""
    attack = r.get("attack", dict, "a table like { bonus = 2 }")
    save = r.get("save", dict, "a table like { dc = 13, half = true }")
    if attack is not None and save is not None:
        raise r.error("has both 'attack' and 'save': choose one")
    if attack is not None:
        _only(r, "attack", attack, ("bonus",))
        bonus = r.bounded("attack.bonus", attack.get("bonus", 0), ATTACK_BONUS, f"an integer in {_span(ATTACK_BONUS)}")
        return bonus, None, False
    if save is None:
        return None, None, False
    _only(r, "save", save, ("dc", "half"))
    dc = r.bounded("save.dc", save.get("dc"), SAVE_DC, f"an integer difficulty in {_span(SAVE_DC)}")
    half = save.get("half", False)
    if not isinstance(half, bool):
        raise r.fail("save.half", "true or false", half)
    return None, dc, half


def _only(r: _Reader, key: str, table: Mapping[str, Any], keys: tuple[str, ...]) -> None:
    """A table of ``keys`` alone: the first other key is named (with a "did you mean"), where the
    message named ``attack.bonus`` or ``save.dc`` for an ``attack = { bonsu = 2 }``."""
    extra = sorted(str(k) for k in set(table) - set(keys))
    if extra:
        raise r.fail(f"{key}.{extra[0]}", f"only {' and '.join(keys)}{did_you_mean(extra[0], keys)}", table[extra[0]])


def _conditions(r: _Reader) -> tuple[str, ...]:
    conditions = r.get("conditions", list, "a list of condition names", [])
    for condition in conditions:
        if not isinstance(condition, str) or condition not in GRANTABLE_CONDITIONS:
            names = sorted(GRANTABLE_CONDITIONS)
            raise r.fail("conditions", f"names from {', '.join(names)}{did_you_mean(condition, names)}", condition)
    try:
        checks.each_once(conditions, "condition")  # a second listing grants nothing more: a slip
    except checks.Bad as bad:
        raise r.error(f"key 'conditions': {bad}") from None
    return tuple(conditions)


def _duration(r: _Reader) -> int | None:
    if "duration" not in r.table:
        return None
    expected = f"a whole number of rounds above 0, at most {DURATION.hi:g}"
    return r.bounded("duration", r.table["duration"], DURATION, expected)


def _script(r: _Reader, script_dir: Path | None) -> str | None:
    where = "assets/scripts" if script_dir is None else str(script_dir)
    script = r.get("script", str, f"a file name under {where}, like \"chain.star\"")
    if script is None:
        return None
    if script_name_problem(script) is not None:
        raise r.fail("script", f"a plain file name ending in .star under {where}", script)
    problem = script_problem(script_dir, script) if script_dir is not None else None
    if problem is not None:  # the reason a reaction naming the same file gets
        raise r.error(f"key 'script': {shown(script)} cannot be read from {script_dir}: {problem}")
    return script


def parse_power(power_id: str, table: object, where: str, script_dir: Path | None = None) -> Power:
    """Check one power's table and build it.

    Args:
        power_id: the table's key, the power's id.
        table: the table as TOML gave it.
        where: what messages call its source (the file).
        script_dir: where its ``script`` must exist; None checks the name only (powers made in code).

    Raises:
        PowerError: naming ``where``, the power and the key: an id that is not 1 to 64 letters,
            digits, '_' or '-' (or is one of ``RESERVED_IDS``), a wrong type, a number out of its
            range, an unknown key (with a "did you mean"), a missing script or keys that contradict
            each other.
    """
    if not isinstance(power_id, str) or not ID_PATTERN.fullmatch(power_id):
        raise PowerError(f"{where}: power id {shown(power_id)} must be 1 to 64 letters, digits, '_' or '-'")
    if power_id in RESERVED_IDS:
        raise PowerError(f"{where}: power id {shown(power_id)} is reserved (the log and the simulation's table "
                         f"count falls, reaction scripts and damage of no power as {', '.join(sorted(RESERVED_IDS))}); "
                         f"expected another id")
    if not isinstance(table, dict):
        raise PowerError(f"{where}: [{power_id}] must be a table of keys, got {shown(table)}")
    r = _Reader(where, power_id, table)
    r.unknown_keys()
    attack_bonus, save_dc, save_half = _roll(r)
    power = Power(
        id=power_id,
        name=r.words("name", checks.name, "the power's display name"),
        description=r.words("description", checks.text, "a sentence saying what it does"),
        action=r.choice("action", ACTIONS, "action") or "action",
        range_ft=r.feet("range_ft"),
        area=_area(r),
        targets=r.choice("targets", TARGETS),
        attack_bonus=attack_bonus,
        save_dc=save_dc,
        save_half=save_half,
        damage=r.dice("damage"),
        healing=r.dice("healing"),
        conditions=_conditions(r),
        push_ft=r.feet("push_ft") or 0,
        pull_ft=r.feet("pull_ft") or 0,
        teleport=r.get("teleport", bool, "true or false", False),
        flight=r.get("flight", bool, "true or false", False),
        creates_area=r.made("area_effect"),
        creates_light=r.made("light"),
        duration=_duration(r),
        end_early=r.get("end_early", bool, "true or false", False),
        script=_script(r, script_dir),
        source=where,
    )
    if power.teleport and power.range_ft is None:
        raise r.fail("range_ft", "a range for a teleport (where can it land?)", None)
    if power.end_early and power.duration is None:
        raise r.fail("end_early", "a duration to end early", True)
    problem = contradiction(power)
    if problem:
        raise r.error(problem)
    return power


def _aiming_keys(power: Power) -> list[str]:
    """The keys that make a power aim at a square or a direction, as a designer wrote them."""
    keys = []
    if power.area is not None:
        keys.append(f"area ({power.area.shape})")
    for key, present in (("teleport", power.teleport), ("area_effect", power.creates_area is not None),
                         ("light", power.creates_light is not None)):
        if present:
            keys.append(key)
    if power.range_ft is not None:
        keys.append("range_ft")
    return keys


def contradiction(power: Power) -> str | None:
    """Why the keys of ``power`` contradict each other (naming them), or None when they make sense.

    The refused rows of the table in this module's docstring, asked of ``Power`` itself.
    """
    targets = power.targets
    if power.push_ft and power.pull_ft:
        return "keys 'push_ft' and 'pull_ft' conflict: a power pushes or pulls, not both"
    if targets in _SINGULAR and (power.has_area or power.teleport):
        aims = "an area" if power.has_area else "a square"
        way = (f"use targets = {_PLURAL_OF[targets]!r} with an area" if power.has_area
               else "use targets = 'self' for a teleport, which carries its user to the square")
        return (f"keys 'targets' and {', '.join(repr(k) for k in _aiming_keys(power))} conflict: targets = "
                f"{targets!r} is one creature, but those keys make the power reach {aims}; {way}, or drop "
                f"those keys")
    if targets in _PLURAL and power.area is None:
        return (f"keys 'targets' and 'area' conflict: targets = {targets!r} means every such creature in an "
                f"area, but the power has no 'area'; for one creature use 'ally', 'enemy' or 'creature'")
    if targets == "self" and power.range_ft is not None and not power.teleport:
        return ("keys 'targets' and 'range_ft' conflict: a power on yourself has no range unless it teleports "
                "you; drop the range (an area without a range is centred on you)")
    return None
