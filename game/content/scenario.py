"""Scenarios: a battle described in a TOML file, validated whole before anything is built from it.

One loader serves play, tests and simulations, so a file that plays is a file that tests and a
simulation sweep (:meth:`Scenario.with_overrides`) goes through the very same checks as a person
editing the file by hand. Every problem is reported in one :class:`ScenarioError` whose message names
the file and the key (``creatures[2].health``) or the map square (``map.rows[3] column 7``), so a
typo costs one look, not a debugging session.

File format (coordinates are squares, 0-based: row ``r`` of ``map.rows`` is ``y = r`` and the
character in column ``c`` is ``x = c``; heights and radii are feet)::

    name = "The ledge"                    # optional, defaults to the file name
    description = "Step off onto the hay."
    seed = 7                              # the battle's generator; build(seed=...) overrides it
    ambient = "normal"                    # normal | poor | terrible | no vision

    [map]
    rows = [                              # all rows the same length; the map is len(row) x len(rows)
      "^^^...",
      "^^^h..",
      "###...",
    ]
    [map.legend]                          # every character used in rows must be here
    "." = { ground = 0 }                  # ground height in feet (default 0)
    "^" = { ground = 30, name = "ledge" } # name: optional, for people and renderers
    "h" = { ground = 0, soft = true }     # soft: landing here halves falling dice (hay, water)
    "#" = { wall = true }                 # blocks movement, sight and light; gives cover

    [[lights]]                            # at least `level` within radius_ft where it reaches
    x = 4
    y = 1
    radius_ft = 20
    level = "normal"                      # default normal

    [[areas]]                             # at most `level` within radius_ft (smoke, fog)
    x = 1
    y = 1
    radius_ft = 10
    level = "no vision"                   # default poor

    [rules]                               # any field of components.Rules
    cover_bonus = 4

    [teams.knights]
    control = "human"                     # human | computer (default computer)
    colour = "#3060d0"                    # optional "#rrggbb"

    [[creatures]]
    key = "sir_hugo"                      # unique; letters, digits, _ and -; used by overrides
    name = "Sir Hugo"                     # optional, defaults to key
    team = "knights"                      # must be a [teams.NAME]
    x = 1
    y = 0
    # optional, with defaults: z (the ground of the square), health = 10, defense = 10,
    # attack_bonus = 0, speed (rules.speed_ft), initiative_bonus = 0, powers = [],
    # prepared = true (false: surprised when combat starts), flying = false
    powers = ["strike"]

Unknown keys anywhere are errors (with a "did you mean" when one is close), because a misspelt
``helth`` silently meaning "default health" is the worst kind of bug in a balance sweep.
"""

from __future__ import annotations

import copy
import difflib
import math
import re
import tomllib
import types
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from components import Rules, Visibility
from components.terrain import MAX_AREAS, MAX_LIGHTS, MAX_RADIUS_FT
from game.battle.facade import Battle
from game.content.files import MEGABYTE, UnreadableFile, read_bounded
from game.content.powers import ASSETS, SCRIPTS_DIR, PowerError, default_powers

__all__ = [
    "CreatureSpec",
    "LegendEntry",
    "LightSpec",
    "Scenario",
    "ScenarioError",
    "TeamSpec",
    "load_scenario",
    "load_scenario_text",
]

CONTROLS = ("human", "computer")
_PALETTE = ("#3060d0", "#d03030", "#30a050", "#d0a020", "#9040c0", "#20a0b0")
_KEY_RE = re.compile(r"^[A-Za-z0-9_-]+$")
_COLOUR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")


_SHOWN_PROBLEMS = 25  # a file with a mistake on every line says so without printing megabytes


class ScenarioError(ValueError):
    """A scenario file (or an override of one) that cannot be used, with every problem found.

    A ValueError so that callers that only know "bad input" catch it. ``source`` is the file (or
    the name given to :func:`load_scenario_text`); ``problems`` holds one line per problem, each
    naming the key or square, so tools can show them separately.
    """

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = list(problems)
        if len(self.problems) == 1:
            message = f"{source}: {self.problems[0]}"
        else:
            shown = self.problems[:_SHOWN_PROBLEMS]
            listed = "\n".join(f"  - {p}" for p in shown)
            more = len(self.problems) - len(shown)
            tail = f"\n  ... and {more} more" if more else ""
            message = f"{source}: {len(self.problems)} problems:\n{listed}{tail}"
        super().__init__(message)


# ---------------------------------------------------------------------------------------------- specs


@dataclass(frozen=True, slots=True)
class LegendEntry:
    """What one map character means."""

    ground: float = 0.0
    wall: bool = False
    soft: bool = False
    name: str = ""


@dataclass(frozen=True, slots=True)
class LightSpec:
    """A light or an obscuring area, as the file gives it."""

    x: int
    y: int
    radius_ft: float
    level: Visibility


@dataclass(frozen=True, slots=True)
class TeamSpec:
    """A side: who controls it and the colour a renderer draws it in."""

    name: str
    control: str
    colour: str


@dataclass(frozen=True, slots=True)
class CreatureSpec:
    """One creature of the scenario; ``z``/``speed`` None mean "the ground" / "the rules' speed"."""

    key: str
    name: str
    team: str
    x: int
    y: int
    z: float | None = None
    health: int = 10
    defense: int = 10
    attack_bonus: int = 0
    speed: int | None = None
    initiative_bonus: int = 0
    powers: tuple[str, ...] = ()
    prepared: bool = True
    flying: bool = False
    reactions: tuple[str, ...] = ()
    fatigue: int = 0


@dataclass(frozen=True)
class Scenario:
    """A validated scenario: everything needed to build a fresh battle, any number of times.

    Immutable so that one loaded scenario can be built again and again (simulations, replays)
    without one run leaking into the next; :meth:`with_overrides` makes a changed copy.
    """

    name: str
    description: str
    seed: int
    width: int
    height: int
    ambient: Visibility
    rules: Rules
    rows: tuple[str, ...]
    legend: Mapping[str, LegendEntry]
    lights: tuple[LightSpec, ...]
    areas: tuple[LightSpec, ...]
    teams: Mapping[str, TeamSpec]
    creatures: tuple[CreatureSpec, ...]
    source: str = "<string>"
    path: str | None = None
    text: str = field(default="", repr=False)
    overrides: tuple[tuple[str, Any], ...] = ()
    reactions: tuple[str, ...] = ()
    _data: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def trusted(self) -> bool:
        """Whether its scripts may run in this process: only the project's own scenarios (``assets/``).

        A scenario from anywhere else may come from a stranger, so its scripts run in the sandboxed
        worker, where a memory bomb or a runaway loop cannot take the game down.
        """
        if self.path is None:
            return False
        return Path(self.path).resolve().is_relative_to(ASSETS)

    @property
    def script_dir(self) -> Path:
        """Where its reaction scripts are read from: ``scripts/`` beside the scenario or one folder up,
        else the shipped ``assets/scripts``."""
        if self.path is not None:
            here = Path(self.path).resolve().parent
            for candidate in (here / "scripts", here.parent / "scripts"):
                if candidate.is_dir():
                    return candidate
        return SCRIPTS_DIR

    # ------------------------------------------------------------------ queries

    def square(self, x: int, y: int) -> LegendEntry:
        """The legend entry of square (x, y)."""
        return self.legend[self.rows[y][x]]

    def creature(self, key: str) -> CreatureSpec:
        """The creature with this key (KeyError naming the known keys if there is none)."""
        for spec in self.creatures:
            if spec.key == key:
                return spec
        raise KeyError(f"no creature {key!r} in {self.source}; keys: {', '.join(c.key for c in self.creatures)}")

    def _squares(self) -> Iterator[tuple[int, int, LegendEntry]]:
        for y, row in enumerate(self.rows):
            for x, char in enumerate(row):
                yield x, y, self.legend[char]

    # ------------------------------------------------------------------ building

    def build(self, seed: int | None = None, trusted: bool | None = None) -> Battle:
        """A fresh battle with the map, lights, areas, ambient level and creatures of this scenario.

        Args:
            seed: the battle's seed; None uses the scenario's own ``seed``.
            trusted: run its scripts in-process (default: only for the project's own scenarios).
        """
        return self.build_with_ids(seed, trusted)[0]

    def build_with_ids(self, seed: int | None = None, trusted: bool | None = None
                       ) -> tuple[Battle, dict[str, int]]:
        """Like :meth:`build`, also returning each creature key's entity id.

        ``trusted`` overrides :attr:`trusted` (a simulation worker that is itself a sandbox may run
        a stranger's scripts in-process).

        Everything goes through the battle's own commands (so the command log holds the build, and
        replays and saves can rebuild it and check it); walls go in before lights so that the level
        grid is not recomputed with every light for every wall.
        """
        battle = Battle(seed=self.seed if seed is None else seed, width=self.width, height=self.height,
                        rules=self.rules, trusted_scripts=self.trusted if trusted is None else trusted,
                        script_dir=self.script_dir)
        ids: dict[str, int] = {}
        try:
            for x, y, entry in self._squares():
                if not entry.wall and (entry.ground != 0 or entry.soft):
                    battle.set_ground(x, y, entry.ground, entry.soft)
            for x, y, entry in self._squares():
                if entry.wall:
                    battle.add_wall(x, y)
            if self.ambient != Visibility.NORMAL:
                battle.set_ambient(self.ambient)
            for light in self.lights:
                battle.add_light(light.x, light.y, light.radius_ft, light.level)
            for area in self.areas:
                battle.add_area(area.x, area.y, area.radius_ft, area.level)
            for spec in self.creatures:
                ids[spec.key] = battle.spawn(
                    spec.name, spec.x, spec.y, z=0 if spec.z is None else spec.z, health=spec.health,
                    defense=spec.defense, flying=spec.flying, prepared=spec.prepared, team=spec.team,
                    speed=spec.speed, attack_bonus=spec.attack_bonus, initiative_bonus=spec.initiative_bonus,
                    powers=list(spec.powers), fatigue=spec.fatigue)
            for script in self.reactions:
                battle.attach_reaction(script)
            for spec in self.creatures:
                for script in spec.reactions:
                    battle.attach_reaction(script, ids[spec.key])
        except ValueError as err:
            battle.close()
            # Validation should have caught it; if the battle's rules are stricter, still say where.
            raise ScenarioError(self.source, [f"the battle refused the scenario: {err}"]) from err
        except BaseException:
            battle.close()
            raise
        return battle, ids

    def powers_by_entity(self, ids: Mapping[str, int]) -> dict[int, tuple[str, ...]]:
        """Each entity's power ids, given :meth:`build_with_ids`'s key->entity map (for the power UI/AI)."""
        return {ids[spec.key]: spec.powers for spec in self.creatures if spec.key in ids}

    # ------------------------------------------------------------------ overrides

    def with_overrides(self, overrides: Mapping[str, Any]) -> Scenario:
        """A new scenario with some values replaced, validated exactly like a file.

        Keys are dotted paths: ``name``, ``description``, ``seed``, ``ambient``, ``rules.FIELD``,
        ``creatures.KEY.FIELD``, ``teams.NAME.FIELD``, ``lights.N.FIELD``, ``areas.N.FIELD``,
        ``map.legend.CHAR.FIELD``. Simulations sweep these, so an unknown key is an error that names
        it rather than a silently ignored setting.

        Raises:
            ScenarioError: an unknown key, or a value the scenario's checks refuse.
        """
        if not isinstance(overrides, Mapping):
            raise ScenarioError(self.source, [f"overrides must be a mapping of dotted keys, not {overrides!r}"])
        data = copy.deepcopy(dict(self._data))
        problems: list[str] = []
        for key, value in overrides.items():
            problem = _apply_override(data, key, value)
            if problem:
                problems.append(f"override {key!r}: {problem}")
        if problems:
            raise ScenarioError(self.source, problems)
        done = dict(self.overrides)
        done.update(overrides)
        return _parse(data, self.source, self.text, self.path, tuple(done.items()))


# ---------------------------------------------------------------------------------------------- loading


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario file; nothing is built until :meth:`Scenario.build`.

    Raises:
        ScenarioError: the file cannot be read, is not TOML, or has any problem (all are listed).
    """
    source = str(path)
    try:
        raw = read_bounded(path, 16 * MEGABYTE)
    except UnreadableFile as err:
        raise ScenarioError(source, [str(err)]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ScenarioError(source, [f"not UTF-8 text (byte {err.start})"]) from None
    return _load(text, source, source)


def load_scenario_text(text: str, name: str = "<string>") -> Scenario:
    """Validate a scenario given as TOML text (tests, saves that carry their scenario); ``name`` is
    what error messages call it."""
    return _load(text, name, None)


def _load(text: str, source: str, path: str | None) -> Scenario:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ScenarioError(source, [f"TOML syntax error: {err}"]) from None
    except RecursionError:
        raise ScenarioError(source, ["arrays or tables nested too deeply to be a scenario"]) from None
    return _parse(data, source, text, path, ())


# ---------------------------------------------------------------------------------------------- checks


class _Problems:
    """Collects problems so that one error lists them all, instead of one per attempt."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, key: str, message: str) -> None:
        self.items.append(f"{key}: {message}")


def _type_name(value: object) -> str:
    names = {bool: "true/false", int: "a whole number", float: "a number", str: "a string", list: "an array",
             dict: "a table"}
    return names.get(type(value), type(value).__name__)


def _describe(value: object) -> str:
    return f"{_type_name(value)} ({value!r})" if not isinstance(value, (dict, list)) else _type_name(value)


def _join(where: str, name: str) -> str:
    """``creatures[2]`` + ``health`` -> ``creatures[2].health``; top-level keys stand alone."""
    return f"{where}.{name}" if where else name


def _unknown_keys(table: Mapping[str, Any], known: Iterator[str] | tuple[str, ...] | list[str], where: str,
                  problems: _Problems) -> None:
    known = list(known)
    for key in table:
        if key not in known:
            close = difflib.get_close_matches(str(key), known, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            problems.add(_join(where, str(key)), f"unknown key{hint}; expected one of {', '.join(known)}")


# A field checker returns the converted value or raises _Bad with what was expected.
class _Bad(Exception):
    pass


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Bad(f"expected a whole number, got {_describe(value)}")
    return value


def _positive_int(value: Any) -> int:
    if _int(value) <= 0:
        raise _Bad(f"expected a whole number above 0, got {value!r}")
    return value


def _non_negative_int(value: Any) -> int:
    if _int(value) < 0:
        raise _Bad(f"expected a whole number of 0 or more, got {value!r}")
    return value


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise _Bad(f"expected a number, got {_describe(value)}")
    return float(value)


def _non_negative(value: Any) -> float:
    if _number(value) < 0:
        raise _Bad(f"expected a number of 0 or more, got {value!r}")
    return float(value)


def _radius(value: Any) -> float:
    if not 0 <= _number(value) <= MAX_RADIUS_FT:
        raise _Bad(f"expected a radius in feet from 0 to {MAX_RADIUS_FT:g}, got {value!r}")
    return float(value)


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _Bad(f"expected true or false, got {_describe(value)}")
    return value


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise _Bad(f"expected a string, got {_describe(value)}")
    return value


def _level(value: Any) -> Visibility:
    if not isinstance(value, str):
        raise _Bad(f"expected a visibility level name (normal, poor, terrible, no vision), got {_describe(value)}")
    try:
        return Visibility.parse(value)
    except ValueError as err:
        raise _Bad(str(err)) from None


def _control(value: Any) -> str:
    if _str(value) not in CONTROLS:
        raise _Bad(f"expected one of {', '.join(repr(c) for c in CONTROLS)}, got {value!r}")
    return value


def _colour(value: Any) -> str:
    if not isinstance(value, str) or not _COLOUR_RE.match(value):
        raise _Bad(f"expected a colour as \"#rrggbb\", got {value!r}")
    return value.lower()


def _key(value: Any) -> str:
    if not isinstance(value, str) or not _KEY_RE.match(value):
        raise _Bad(f"expected a key of letters, digits, '_' and '-', got {value!r}")
    return value


def _scripts(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(
            isinstance(s, str) and s.endswith(".star") and "/" not in s and "\\" not in s and ".." not in s
            for s in value):
        raise _Bad(f"expected an array of script file names ending in .star, got {value!r}")
    return tuple(value)


def _powers(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(p, str) and p for p in value):
        raise _Bad(f"expected an array of power ids (strings), got {value!r}")
    return tuple(value)


_MISSING = object()

# name -> (checker, default); _MISSING means required.
_LEGEND_FIELDS: dict[str, tuple[Callable[[Any], Any], Any]] = {
    "ground": (_number, 0.0), "wall": (_bool, False), "soft": (_bool, False), "name": (_str, ""),
}
_LIGHT_FIELDS: dict[str, tuple[Callable[[Any], Any], Any]] = {
    "x": (_int, _MISSING), "y": (_int, _MISSING), "radius_ft": (_radius, _MISSING),
    "level": (_level, Visibility.NORMAL),
}
_AREA_FIELDS = dict(_LIGHT_FIELDS, level=(_level, Visibility.POOR))
_TEAM_FIELDS: dict[str, tuple[Callable[[Any], Any], Any]] = {
    "control": (_control, "computer"), "colour": (_colour, None),
}
_CREATURE_FIELDS: dict[str, tuple[Callable[[Any], Any], Any]] = {
    "key": (_key, _MISSING), "name": (_str, None), "team": (_str, _MISSING), "x": (_int, _MISSING),
    "y": (_int, _MISSING), "z": (_number, None), "health": (_positive_int, 10), "defense": (_int, 10),
    "attack_bonus": (_int, 0), "speed": (_non_negative_int, None), "initiative_bonus": (_int, 0),
    "powers": (_powers, ()), "prepared": (_bool, True), "flying": (_bool, False),
    "reactions": (_scripts, ()), "fatigue": (_non_negative_int, 0),
}
_TOP_FIELDS = ("name", "description", "seed", "ambient", "map", "lights", "areas", "rules", "teams", "creatures",
               "reactions")
_RULE_FIELDS = {f.name: f.type for f in fields(Rules)}


def _table(value: Any, where: str, problems: _Problems) -> dict[str, Any] | None:
    if not isinstance(value, dict):
        problems.add(where, f"expected a table, got {_describe(value)}")
        return None
    return value


def _array_of_tables(value: Any, where: str, problems: _Problems) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        problems.add(where, f"expected an array of tables ([[{where}]]), got {_describe(value)}")
        return []
    return value


def _fields(table: Mapping[str, Any], spec: Mapping[str, tuple[Callable[[Any], Any], Any]], where: str,
            problems: _Problems) -> dict[str, Any] | None:
    """Check one table against its field spec; None when any field is wrong (already reported)."""
    before = len(problems.items)
    _unknown_keys(table, tuple(spec), where, problems)
    out: dict[str, Any] = {}
    for name, (check, default) in spec.items():
        if name not in table:
            if default is _MISSING:
                problems.add(_join(where, name), "missing (required)")
            else:
                out[name] = default
            continue
        try:
            out[name] = check(table[name])
        except _Bad as bad:
            problems.add(_join(where, name), str(bad))
    return out if len(problems.items) == before else None


def _check_rules(value: Any, problems: _Problems) -> Rules:
    table = _table(value, "rules", problems)
    if table is None:
        return Rules()
    before = len(problems.items)
    _unknown_keys(table, tuple(_RULE_FIELDS), "rules", problems)
    for name, kind in _RULE_FIELDS.items():
        if name not in table:
            continue
        item = table[name]
        try:
            if kind == "int":
                _int(item)
            elif kind == "float":
                _number(item)
            elif kind == "bool":
                _bool(item)
            elif kind == "str":
                _str(item)
        except _Bad as bad:
            problems.add(f"rules.{name}", str(bad))
    if len(problems.items) != before:
        return Rules()
    try:
        return Rules.from_mapping(table)
    except ValueError as err:
        # Rules' own message names the field ("rules: rules.diagonal must be ...").
        problems.items.append(str(err))
        return Rules()


def _check_map(value: Any, problems: _Problems) -> tuple[tuple[str, ...], dict[str, LegendEntry]] | None:
    table = _table(value, "map", problems)
    if table is None:
        return None
    before = len(problems.items)
    _unknown_keys(table, ("rows", "legend"), "map", problems)
    rows = table.get("rows", _MISSING)
    legend_raw = table.get("legend", _MISSING)
    if rows is _MISSING:
        problems.add("map.rows", "missing (required): an array of strings, one per row of squares")
    elif not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        problems.add("map.rows", f"expected a non-empty array of strings, got {_describe(rows)}")
    legend: dict[str, LegendEntry] = {}
    if legend_raw is _MISSING:
        problems.add("map.legend", "missing (required): a table from each map character to what it is")
    elif (legend_table := _table(legend_raw, "map.legend", problems)) is not None:
        for char, entry in legend_table.items():
            where = f"map.legend.{char!r}"
            if len(char) != 1:
                problems.add(where, "a legend key must be exactly one character")
                continue
            entry_table = _table(entry, where, problems)
            if entry_table is None:
                continue
            checked = _fields(entry_table, _LEGEND_FIELDS, where, problems)
            if checked is not None:
                legend[char] = LegendEntry(**checked)
    if len(problems.items) != before:
        return None
    assert isinstance(rows, list)
    width = len(rows[0])
    if width == 0:
        problems.add("map.rows[0]", "a row must have at least one square")
    chars = ", ".join(repr(c) for c in legend)
    for y, row in enumerate(rows):
        if len(row) != width:
            problems.add(f"map.rows[{y}]", f"has {len(row)} squares but map.rows[0] has {width}; "
                                            f"all rows must be the same length")
            continue
        for x, char in enumerate(row):
            if char not in legend:
                problems.add(f"map.rows[{y}] column {x}", f"unknown character {char!r}; legend has {chars}")
    for name, size in (("width", width), ("height", len(rows))):
        if size > 1024:
            problems.add("map.rows", f"the map {name} is {size} squares; at most 1024")
    if len(problems.items) != before:
        return None
    return tuple(rows), legend


def _check_on_map(spec: dict[str, Any], where: str, rows: tuple[str, ...] | None,
                  legend: Mapping[str, LegendEntry], problems: _Problems, walls_ok: bool) -> None:
    if rows is None:
        return
    x, y, width, height = spec["x"], spec["y"], len(rows[0]), len(rows)
    if not (0 <= x < width and 0 <= y < height):
        problems.add(where, f"square ({x}, {y}) is off the {width}x{height} map "
                            f"(x 0..{width - 1}, y 0..{height - 1})")
    elif not walls_ok and legend[rows[y][x]].wall:
        problems.add(where, f"square ({x}, {y}) is a wall ({rows[y][x]!r} in map.rows[{y}] column {x})")


def _known_powers() -> set[str]:
    """The shipped power ids (read once per process: sweeps re-validate scenarios often)."""
    return set(default_powers())


def _parse(data: dict[str, Any], source: str, text: str, path: str | None,
           overrides: tuple[tuple[str, Any], ...]) -> Scenario:
    problems = _Problems()
    _unknown_keys(data, _TOP_FIELDS, "", problems)
    top = _fields({k: v for k, v in data.items() if k in ("name", "description", "seed", "ambient", "reactions")},
                  {"name": (_str, None), "description": (_str, ""), "seed": (_int, 0),
                   "ambient": (_level, Visibility.NORMAL), "reactions": (_scripts, ())}, "", problems) or {}

    grid = _check_map(data["map"], problems) if "map" in data else None
    if "map" not in data:
        problems.add("map", "missing (required): [map] with rows and legend")
    rows, legend = grid if grid else (None, {})

    rules = _check_rules(data.get("rules", {}), problems)

    lights: list[LightSpec] = []
    areas: list[LightSpec] = []
    for section, spec, out in (("lights", _LIGHT_FIELDS, lights), ("areas", _AREA_FIELDS, areas)):
        most = MAX_LIGHTS if section == "lights" else MAX_AREAS
        if isinstance(data.get(section), list) and len(data[section]) > most:
            problems.add(section, f"{len(data[section])} entries; a map takes at most {most}")
            continue
        for i, table in enumerate(_array_of_tables(data.get(section, []), section, problems)):
            where = f"{section}[{i}]"
            checked = _fields(table, spec, where, problems)
            if checked is not None:
                _check_on_map(checked, where, rows, legend, problems, walls_ok=True)
                out.append(LightSpec(**checked))

    teams: dict[str, TeamSpec] = {}
    if "teams" not in data:
        problems.add("teams", "missing (required): one [teams.NAME] table per side")
    elif (teams_table := _table(data["teams"], "teams", problems)) is not None:
        for i, (team, table) in enumerate(teams_table.items()):
            where = f"teams.{team}"
            if _table(table, where, problems) is None:
                continue
            checked = _fields(table, _TEAM_FIELDS, where, problems)
            if checked is not None:
                colour = checked["colour"] or _PALETTE[i % len(_PALETTE)]
                teams[team] = TeamSpec(team, checked["control"], colour)

    creatures: list[CreatureSpec] = []
    seen_keys: dict[str, int] = {}
    seen_squares: dict[tuple[int, int], str] = {}
    try:
        known_powers: set[str] | None = _known_powers()
    except PowerError as err:  # the powers data itself is broken: say so here rather than crash
        problems.add("creatures.powers", f"cannot check power ids: the powers did not load: {err}")
        known_powers = None
    for i, table in enumerate(_array_of_tables(data.get("creatures", []), "creatures", problems)):
        where = f"creatures[{i}]"
        checked = _fields(table, _CREATURE_FIELDS, where, problems)
        if checked is None:
            continue
        key = checked["key"]
        bad = len(problems.items)
        if key in seen_keys:
            problems.add(f"{where}.key", f"duplicate key {key!r} (also creatures[{seen_keys[key]}])")
        seen_keys.setdefault(key, i)
        declared = data.get("teams")
        if isinstance(declared, dict) and checked["team"] not in declared:
            problems.add(f"{where}.team", f"unknown team {checked['team']!r}; teams are "
                                          f"{', '.join(repr(t) for t in teams) or '(none)'}")
        _check_on_map(checked, f"{where} ({key}) x, y", rows, legend, problems, walls_ok=False)
        square = (checked["x"], checked["y"])
        if len(problems.items) == bad and square in seen_squares:
            problems.add(f"{where} ({key}) x, y", f"square {square} is already taken by {seen_squares[square]!r}")
        seen_squares.setdefault(square, key)
        if known_powers is not None:
            for power in checked["powers"]:
                if power not in known_powers:
                    problems.add(f"{where}.powers", f"unknown power {power!r}; known powers: "
                                                    f"{', '.join(sorted(known_powers)) or '(none)'}")
        checked["name"] = checked["name"] if checked["name"] is not None else key
        most = rules.max_fatigue
        if checked["fatigue"] > most:
            problems.add(f"{where}.fatigue", f"expected 0..{most} (the fatigue track), got {checked['fatigue']}")
        creatures.append(CreatureSpec(**checked))

    if problems.items:
        where = source if not overrides else \
            f"{source} (with overrides {', '.join(f'{k}={v!r}' for k, v in overrides)})"
        raise ScenarioError(where, problems.items)
    assert rows is not None
    default_name = Path(source).stem if path else source
    return Scenario(
        name=top["name"] if top.get("name") is not None else default_name,
        description=top["description"], seed=top["seed"], width=len(rows[0]), height=len(rows),
        ambient=top["ambient"], rules=rules, rows=rows, legend=types.MappingProxyType(legend),
        lights=tuple(lights), areas=tuple(areas), teams=types.MappingProxyType(teams),
        creatures=tuple(creatures), source=source, path=path, text=text, overrides=overrides,
        reactions=tuple(top.get("reactions", ())), _data=copy.deepcopy(data),
    )


def _apply_override(data: dict[str, Any], key: object, value: Any) -> str | None:
    """Put one override into the raw file data; return why the key is bad, or None."""
    if not isinstance(key, str) or not key:
        return "keys are dotted strings such as 'creatures.ogre.health'"
    parts = key.split(".")
    head = parts[0]
    if head in ("name", "description", "seed", "ambient") and len(parts) == 1:
        data[head] = value
        return None
    if head == "rules" and len(parts) == 2:
        if parts[1] not in _RULE_FIELDS:
            close = difflib.get_close_matches(parts[1], list(_RULE_FIELDS), n=1)
            return f"unknown rule {parts[1]!r}" + (f" (did you mean {close[0]!r}?)" if close else "")
        rules = data.setdefault("rules", {})
        if not isinstance(rules, dict):
            return "the file's [rules] is not a table"
        rules[parts[1]] = value
        return None
    if head == "creatures" and len(parts) == 3:
        if parts[2] not in _CREATURE_FIELDS or parts[2] == "key":
            return f"unknown creature field {parts[2]!r}; expected one of " \
                   f"{', '.join(f for f in _CREATURE_FIELDS if f != 'key')}"
        for table in data.get("creatures", []):
            if isinstance(table, dict) and table.get("key") == parts[1]:
                table[parts[2]] = value
                return None
        keys = [t.get("key") for t in data.get("creatures", []) if isinstance(t, dict)]
        return f"no creature with key {parts[1]!r}; keys: {', '.join(map(str, keys))}"
    if head == "teams" and len(parts) == 3:
        teams = data.get("teams", {})
        if parts[1] not in teams:
            return f"no team {parts[1]!r}; teams: {', '.join(teams)}"
        if parts[2] not in _TEAM_FIELDS:
            return f"unknown team field {parts[2]!r}; expected one of {', '.join(_TEAM_FIELDS)}"
        teams[parts[1]][parts[2]] = value
        return None
    if head in ("lights", "areas") and len(parts) == 3:
        items = data.get(head, [])
        if not parts[1].isdigit() or int(parts[1]) >= len(items):
            return f"no {head} entry {parts[1]!r}; there are {len(items)} (0-based index)"
        if parts[2] not in _LIGHT_FIELDS:
            return f"unknown field {parts[2]!r}; expected one of {', '.join(_LIGHT_FIELDS)}"
        items[int(parts[1])][parts[2]] = value
        return None
    if head == "map" and len(parts) == 4 and parts[1] == "legend":
        legend = data.get("map", {}).get("legend", {})
        if parts[2] not in legend:
            return f"no legend character {parts[2]!r}"
        if parts[3] not in _LEGEND_FIELDS:
            return f"unknown legend field {parts[3]!r}; expected one of {', '.join(_LEGEND_FIELDS)}"
        legend[parts[2]][parts[3]] = value
        return None
    return ("unknown key; expected name, description, seed, ambient, rules.FIELD, creatures.KEY.FIELD, "
            "teams.NAME.FIELD, lights.N.FIELD, areas.N.FIELD or map.legend.CHAR.FIELD")
