"""Powers as data: ``assets/powers/*.toml``, one power per table, validated when loaded.

A designer adds a power by writing a table; nothing in the engine changes. Every error names the
file, the power, the key and what was expected, and a file with an error adds no power at all.

Example::

    [fire-bolt]
    name = "Fire bolt"
    description = "A streak of flame at one creature you can see."
    action = "action"
    range_ft = 60
    attack = { bonus = 1 }
    damage = "2d6"
"""

from __future__ import annotations

import copy
import dataclasses
import tomllib
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from components import Visibility
from components.dice import Dice
from components.powers import ACTIONS, SHAPES, TARGETS, AreaShape, Made, Power
from components.rules import GRANTABLE_CONDITIONS
from components.terrain import MAX_RADIUS_FT
from game.content.files import MEGABYTE, UnreadableFile, read_bounded

ASSETS = Path(__file__).resolve().parents[2] / "assets"
POWERS_DIR = ASSETS / "powers"
SCRIPTS_DIR = ASSETS / "scripts"

class PowerError(ValueError):
    """A power file that cannot be used, with the file, power and key in the message."""


class _Reader:
    """Reads one power table, turning every mistake into a PowerError that says where it is."""

    def __init__(self, where: str, power_id: str, table: Mapping[str, Any]) -> None:
        self.where, self.power_id, self.table = where, power_id, table
        self.used: set[str] = set()

    def fail(self, key: str, expected: str, got: object) -> PowerError:
        return PowerError(f"{self.where}: power [{self.power_id}] key {key!r}: expected {expected}, got {got!r}")

    def get(self, key: str, kind: type | tuple[type, ...], expected: str, default: Any = None,
            required: bool = False) -> Any:
        self.used.add(key)
        if key not in self.table:
            if required:
                raise PowerError(f"{self.where}: power [{self.power_id}] is missing {key!r} ({expected})")
            return default
        value = self.table[key]
        if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
            raise self.fail(key, expected, value)
        if not isinstance(value, kind):
            raise self.fail(key, expected, value)
        return value

    def number(self, key: str, expected: str = "a number of feet above 0") -> float | None:
        value = self.get(key, (int, float), expected)
        if value is not None and value <= 0:
            raise self.fail(key, expected, value)
        return None if value is None else float(value)

    def dice(self, key: str) -> Dice | None:
        value = self.get(key, (str, int), 'dice like "2d6+3"')
        if value is None:
            return None
        try:
            return Dice.parse(value)
        except ValueError as err:
            raise PowerError(f"{self.where}: power [{self.power_id}] key {key!r}: {err}") from None

    def choice(self, key: str, options: tuple[str, ...], default: str | None = None) -> str | None:
        value = self.get(key, str, f"one of {', '.join(options)}", default)
        if value is not None and value not in options:
            raise self.fail(key, f"one of {', '.join(options)}", value)
        return value

    def made(self, key: str) -> Made | None:
        value = self.get(key, dict, "a table like { radius_ft = 10, level = \"no vision\" }")
        if value is None:
            return None
        unknown = set(value) - {"radius_ft", "level"}
        if unknown:
            raise self.fail(f"{key}.{sorted(unknown)[0]}", "only radius_ft and level", value[sorted(unknown)[0]])
        radius = value.get("radius_ft")
        if isinstance(radius, bool) or not isinstance(radius, (int, float)) or not 0 < radius <= MAX_RADIUS_FT:
            raise self.fail(f"{key}.radius_ft", f"a number of feet above 0, at most {MAX_RADIUS_FT:g}", radius)
        try:
            level = Visibility.parse(value.get("level", "normal" if key == "light" else "no vision"))
        except ValueError as err:
            raise PowerError(f"{self.where}: power [{self.power_id}] key '{key}.level': {err}") from None
        return Made(float(radius), level)

    def unknown_keys(self, known: set[str]) -> None:
        extra = sorted(set(self.table) - known)
        if extra:
            raise PowerError(f"{self.where}: power [{self.power_id}] has unknown key {extra[0]!r}; "
                             f"known keys: {', '.join(sorted(known))}")


_KEYS = {"name", "description", "action", "range_ft", "area", "targets", "attack", "save", "damage", "healing",
         "conditions", "push_ft", "pull_ft", "teleport", "flight", "area_effect", "light", "duration",
         "end_early", "script"}


def parse_power(power_id: str, table: object, where: str) -> Power:
    """Check one power's table and build it; PowerError names ``where``, the power and the key."""
    if not isinstance(table, dict):
        raise PowerError(f"{where}: [{power_id}] must be a table of keys, got {table!r}")
    r = _Reader(where, power_id, table)
    r.unknown_keys(_KEYS)
    area = None
    area_table = r.get("area", dict, 'a table like { shape = "burst", radius_ft = 10 }')
    if area_table is not None:
        shape = area_table.get("shape")
        if shape not in SHAPES:
            raise r.fail("area.shape", f"one of {', '.join(SHAPES)}", shape)
        size_key = "radius_ft" if shape == "burst" else "length_ft"
        size = area_table.get(size_key)
        if isinstance(size, bool) or not isinstance(size, (int, float)) or size <= 0:
            raise r.fail(f"area.{size_key}", f"a number of feet above 0 for a {shape}", size)
        width = area_table.get("width_ft", 5)
        if isinstance(width, bool) or not isinstance(width, (int, float)) or width <= 0:
            raise r.fail("area.width_ft", "a number of feet above 0", width)
        extra = set(area_table) - {"shape", "radius_ft", "length_ft", "width_ft"}
        if extra:
            raise r.fail(f"area.{sorted(extra)[0]}", "only shape, radius_ft, length_ft, width_ft", "an unknown key")
        area = AreaShape(shape, float(area_table.get("radius_ft", 0)), float(area_table.get("length_ft", 0)),
                         float(width))
    attack = r.get("attack", dict, "a table like { bonus = 2 }")
    save = r.get("save", dict, "a table like { dc = 13, half = true }")
    if attack is not None and save is not None:
        raise PowerError(f"{where}: power [{power_id}] has both 'attack' and 'save': choose one")
    attack_bonus = None
    if attack is not None:
        attack_bonus = attack.get("bonus", 0)
        if isinstance(attack_bonus, bool) or not isinstance(attack_bonus, int) or set(attack) - {"bonus"}:
            raise r.fail("attack.bonus", "an integer (the only key of attack)", attack)
    save_dc, save_half = None, False
    if save is not None:
        save_dc, save_half = save.get("dc"), save.get("half", False)
        if isinstance(save_dc, bool) or not isinstance(save_dc, int) or set(save) - {"dc", "half"}:
            raise r.fail("save.dc", "an integer difficulty (keys dc and half)", save)
        if not isinstance(save_half, bool):
            raise r.fail("save.half", "true or false", save_half)
    conditions = r.get("conditions", list, "a list of condition names", [])
    for condition in conditions:
        if condition not in GRANTABLE_CONDITIONS:
            raise r.fail("conditions", f"names from {', '.join(sorted(GRANTABLE_CONDITIONS))}", condition)
    duration = r.get("duration", int, "a whole number of rounds above 0")
    if duration is not None and duration <= 0:
        raise r.fail("duration", "a whole number of rounds above 0", duration)
    script = r.get("script", str, "a file name under assets/scripts, like \"chain.star\"")
    if script is not None and (not script.endswith(".star") or "/" in script or "\\" in script or ".." in script):
        raise r.fail("script", "a plain file name ending in .star under assets/scripts", script)
    power = Power(
        id=power_id,
        name=r.get("name", str, "the power's display name", required=True),
        description=r.get("description", str, "a sentence saying what it does", required=True),
        action=r.choice("action", ACTIONS, "action") or "action",
        range_ft=r.number("range_ft"),
        area=area,
        targets=r.choice("targets", TARGETS),
        attack_bonus=attack_bonus,
        save_dc=save_dc,
        save_half=save_half,
        damage=r.dice("damage"),
        healing=r.dice("healing"),
        conditions=tuple(conditions),
        push_ft=r.number("push_ft") or 0,
        pull_ft=r.number("pull_ft") or 0,
        teleport=r.get("teleport", bool, "true or false", False),
        flight=r.get("flight", bool, "true or false", False),
        creates_area=r.made("area_effect"),
        creates_light=r.made("light"),
        duration=duration,
        end_early=r.get("end_early", bool, "true or false", False),
        script=script,
        source=where,
    )
    if power.teleport and power.range_ft is None:
        raise r.fail("range_ft", "a range for a teleport (where can it land?)", None)
    if power.end_early and power.duration is None:
        raise r.fail("end_early", "a duration to end early", True)
    return power


def load_power_file(path: Path) -> dict[str, Power]:
    """Every power of one file; PowerError (naming the file) on the first problem, and nothing loaded."""
    try:
        data = tomllib.loads(read_bounded(path, 4 * MEGABYTE).decode("utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise PowerError(f"{path}: not valid TOML: {err}") from None
    except (UnreadableFile, UnicodeDecodeError, RecursionError) as err:
        raise PowerError(f"{path}: cannot read: {err}") from None
    return {power_id: parse_power(power_id, table, str(path)) for power_id, table in data.items()}


def load_powers(directory: Path | str = POWERS_DIR) -> dict[str, Power]:
    """Every power under ``directory`` (``*.toml``), checked, ids unique across files."""
    powers: dict[str, Power] = {}
    for path in sorted(Path(directory).glob("*.toml")):
        for power_id, power in load_power_file(path).items():
            if power_id in powers:
                raise PowerError(f"{path}: power [{power_id}] is already defined in {powers[power_id].source}")
            powers[power_id] = power
    return powers


_DEFAULT: dict[str, Power] | None = None


def default_powers() -> dict[str, Power]:
    """The shipped powers, read once per process (battles share the immutable table)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_powers()
    return _DEFAULT


@cache
def _power_tables(source: str) -> Mapping[str, Any]:
    """The raw TOML tables of one power file (cached: sweeps re-parse the same power often)."""
    return tomllib.loads(Path(source).read_text(encoding="utf-8"))


def apply_power_overrides(overrides: Iterable[tuple[str, Any]], base: Mapping[str, Power] | None = None
                          ) -> dict[str, Power]:
    """The power table with some fields replaced, each changed power re-validated by ``parse_power``.

    Keys are ``powers.ID.KEY`` where KEY is the power's TOML key (``damage``, ``range_ft``,
    ``attack.bonus``, ``save.dc``, ``area.radius_ft``, ...). The changed table goes through
    :func:`game.powers.parse_power` exactly as a designer's edit of the file would, so "9d" or a
    negative range is refused with the same message, rather than silently simulated.

    Raises:
        ValueError: an unknown power, or a value the power loader refuses (a PowerError).
    """
    powers = dict(default_powers() if base is None else base)
    tables: dict[str, dict[str, Any]] = {}
    for key, value in overrides:
        parts = key.split(".")
        if len(parts) < 3 or parts[0] != "powers":
            raise ValueError(f"override {key!r}: a power override is powers.ID.KEY, like powers.fireball.damage")
        power_id, path = parts[1], parts[2:]
        if power_id not in powers:
            raise ValueError(f"override {key!r}: unknown power {power_id!r}; known: {', '.join(sorted(powers))}")
        if power_id not in tables:
            power = powers[power_id]
            raw = _power_tables(power.source).get(power_id) if power.source else None
            if raw is None:  # a power made in code: rebuild its table from the dataclass is not possible
                raise ValueError(f"override {key!r}: power {power_id!r} has no source file to re-validate")
            tables[power_id] = copy.deepcopy(dict(raw))
        table: dict[str, Any] = tables[power_id]
        for part in path[:-1]:
            inner = table.setdefault(part, {})
            if not isinstance(inner, dict):
                raise ValueError(f"override {key!r}: {part!r} of power {power_id!r} is not a table")
            table = inner
        table[path[-1]] = value
    for power_id, table in tables.items():
        where = f"{powers[power_id].source} (overridden)"
        parsed = parse_power(power_id, table, where)
        # dataclasses.replace keeps the original's non-compared fields (its source) for messages.
        powers[power_id] = dataclasses.replace(parsed, source=powers[power_id].source)
    return powers
