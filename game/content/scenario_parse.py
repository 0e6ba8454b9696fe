"""A scenario's TOML data checked whole: every key's type and range, the map, and what it names.

:func:`parse` turns the data of one file (or of a file with overrides applied) into the fields of a
:class:`~game.content.scenario.Scenario`, or raises one :class:`ScenarioError` listing every
problem. The allowed range of every number is in the field specs below and in the scenario format
docstring (game/content/scenario.py); the rules' own ranges are ``components.rules.RULE_BOUNDS``.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import cached_property
from pathlib import Path
from typing import Any

from components import Rules, Visibility
from components.rules import field_problem, order_problems, speed_problem
from components.terrain import HEIGHT, MAX_AREAS, MAX_LIGHTS, MAX_LIT_SQUARES, MAX_RADIUS_FT, reach_squares
from components.terrain import MAX_GRID_SIDE as MAX_MAP_SIDE  # squares along each side: the grid's own limit
from components.values import CREATURE_BONUS, CREATURE_HEALTH, CREATURE_SPEED, SEEDS, Bound, shown
from game.content import checks as c
from game.content.checks import MISSING, FieldSpec, Problems
from game.content.powers import PowerFileCache, PowerLibrary, runs_in_process, script_folder
from game.content.recorded import RecordedFiles, ScriptReads
from game.content.references import check_power_scripts, check_reactions, scenario_library
from game.content.scenario_costs import MAX_AREA_SQUARES, MAX_WALK_SQUARES, area_problem, walk_problem
from game.content.scenario_model import MAX_CREATURES, CreatureSpec, LegendEntry, LightSpec, ScenarioError, TeamSpec
from game.content.scenario_teams import CONTROLS, MAX_TEAMS, TEAM_FIELDS, check_sides, check_teams
from game.content.toml_values import with_overrides

__all__ = ["CONTROLS", "CREATURE_FIELDS", "LEGEND_FIELDS", "LIGHT_FIELDS", "MAX_CREATURES", "MAX_CREATURES_LARGE",
           "MAX_AREA_SQUARES", "MAX_MAP_SIDE", "MAX_TEAMS", "MAX_WALK_SQUARES", "RULE_FIELDS",
           "TEAM_FIELDS", "TOP_FIELDS", "Context", "parse"]

#: ...and on a map of more than ``LARGE_MAP_SQUARES`` squares, at most this many (each plan there
#: searches bigger windows: 50 creatures on 1024x1024 with full-map lights took 7 s a round).
MAX_CREATURES_LARGE = 25
LARGE_MAP_SQUARES = 512 * 512


def max_creatures(width: int, height: int) -> int:
    """How many creatures a scenario may have on a map this size (``docs/limits.md``)."""
    return MAX_CREATURES_LARGE if width * height > LARGE_MAP_SQUARES else MAX_CREATURES

SQUARE = Bound(0, MAX_MAP_SIDE - 1, unit="(a square)")
RADIUS = Bound(0, MAX_RADIUS_FT, whole=False, unit="ft")
HEALTH, BONUS, SPEED = CREATURE_HEALTH, CREATURE_BONUS, CREATURE_SPEED
FATIGUE = Bound(0, 100)


LEGEND_FIELDS: FieldSpec = types.MappingProxyType({
    "ground": (c.number(HEIGHT), 0.0), "wall": (c.boolean, False), "soft": (c.boolean, False),
    "name": (c.text_line, ""), "blocks": (c.block_names, ()), "cover": (c.boolean, None),
})
LIGHT_FIELDS: FieldSpec = types.MappingProxyType({
    "x": (c.whole(SQUARE), MISSING), "y": (c.whole(SQUARE), MISSING), "radius_ft": (c.number(RADIUS), MISSING),
    "level": (c.level, Visibility.NORMAL),
})
AREA_FIELDS: FieldSpec = types.MappingProxyType(dict(LIGHT_FIELDS, level=(c.level, Visibility.POOR)))
CREATURE_FIELDS: FieldSpec = types.MappingProxyType({
    "key": (c.key, MISSING), "name": (c.name, None), "team": (c.team_name, MISSING),
    "x": (c.whole(SQUARE), MISSING), "y": (c.whole(SQUARE), MISSING), "z": (c.number(HEIGHT), None),
    "health": (c.whole(HEALTH), 10), "defense": (c.whole(BONUS), 10), "attack_bonus": (c.whole(BONUS), 0),
    "speed": (c.whole(SPEED), None), "initiative_bonus": (c.whole(BONUS), 0), "powers": (c.power_ids, ()),
    "prepared": (c.boolean, True), "flying": (c.boolean, False), "reactions": (c.scripts, ()),
    "fatigue": (c.whole(FATIGUE), 0),
})
_HEAD_FIELDS: FieldSpec = types.MappingProxyType({
    "name": (c.text_line, None), "description": (c.text, ""), "seed": (c.whole(SEEDS), 0),
    "ambient": (c.level, Visibility.NORMAL), "reactions": (c.scripts, ()), "power_files": (c.relative_files, ()),
})
TOP_FIELDS = ("name", "description", "seed", "ambient", "map", "lights", "areas", "rules", "teams", "creatures",
              "reactions", "power_files")
RULE_FIELDS = tuple(f.name for f in fields(Rules))


@dataclass(frozen=True)
class Context:
    """Where a scenario's data came from, which decides where its scripts and power files are found.

    ``path`` is its file (None for text with no file); ``library`` the powers already loaded for it
    (overrides reuse the original's); ``trusted`` which script host parses its scripts (None: the
    project's own scenarios in-process, any other in the sandboxed worker); ``files`` the power files
    the caller has already read (its own cache, or a fresh one for this load); ``recorded`` the power
    files and scripts a save or replay recorded, read instead of the disk.
    """

    source: str
    path: str | None = None
    overrides: tuple[tuple[str, Any], ...] = ()
    library: PowerLibrary | None = None
    trusted: bool | None = None
    files: PowerFileCache = field(default_factory=PowerFileCache, compare=False)
    recorded: RecordedFiles | None = None
    #: scripts parsed already (an overridden copy's original's: see ``ScriptReads.parsed``)
    parsed: Mapping[tuple[str, bool], frozenset[str]] = field(default_factory=dict, compare=False)

    @cached_property
    def reads(self) -> ScriptReads:
        """Where its scripts are read from, keeping the text of each (see game.content.recorded)."""
        return ScriptReads(None if self.recorded is None else self.recorded.scripts, bounded=True,
                           parsed=dict(self.parsed))

    @cached_property
    def script_dir(self) -> Path:
        return script_folder(self.path)

    @cached_property
    def parse_trusted(self) -> bool:
        return runs_in_process(self.path, self.recorded is not None) if self.trusted is None else self.trusted

    def fail(self, problems: Problems) -> ScenarioError:
        where = f"{self.source} {with_overrides(self.overrides)}" if self.overrides else self.source
        return ScenarioError(where, problems.items)


def check_rules(value: Any, problems: Problems) -> Rules:
    """The rules table; each field is checked by ``components.rules`` itself, so that its ranges and
    the order of its numbers (``RULE_ORDER``: no threshold past the fatigue track's end) live in one place."""
    table = c.table_of(value, "rules", problems)
    if table is None:
        return Rules()
    before = len(problems)
    c.unknown_keys(table, RULE_FIELDS, "rules", problems)
    for name in RULE_FIELDS:
        problem = field_problem(name, table[name]) if name in table else None
        if problem:  # "rules.speed_ft: expected a whole number in 0..10000 ft, got ..."
            problems.items.append(problem)
    if len(problems) == before:  # each in its range: now whether they contradict each other
        problems.items.extend(order_problems({**Rules().as_dict(), **table}, table))
    if len(problems) != before:
        return Rules()
    return Rules.from_mapping(table)


def _legend(value: Any, problems: Problems) -> dict[str, LegendEntry]:
    legend: dict[str, LegendEntry] = {}
    table = c.table_of(value, "map.legend", problems)
    for char, entry in (table or {}).items():
        where = f"map.legend.{shown(char)}"
        if len(char) != 1:
            problems.add(where, "a legend key must be exactly one character")
            continue
        entry_table = c.table_of(entry, where, problems)
        checked = c.check_fields(entry_table, LEGEND_FIELDS, where, problems) if entry_table is not None else None
        if checked is not None:
            legend[char] = LegendEntry(**checked)
    return legend


def _rows(rows: Any, legend: Mapping[str, LegendEntry], problems: Problems) -> None:
    """The rows' shape (at most 1024 by 1024, all one length) and characters, checked in that order
    so that a huge map is refused before it is read square by square."""
    width, height = len(rows[0]), len(rows)
    if width == 0:
        problems.add("map.rows[0]", "a row must have at least one square")
    for name, size in (("width", max(len(r) for r in rows)), ("height", height)):
        if size > MAX_MAP_SIDE:
            problems.add("map.rows", f"the map {name} is {size} squares; at most {MAX_MAP_SIDE}")
    if problems.items:
        return
    chars = ", ".join(repr(ch) for ch in legend)
    for y, row in enumerate(rows):
        if len(row) != width:
            problems.add(f"map.rows[{y}]", f"has {len(row)} squares but map.rows[0] has {width}; "
                                            f"all rows must be the same length")
            continue
        for x, char in enumerate(row):
            if char not in legend:
                problems.add(f"map.rows[{y}] column {x}", f"unknown character {char!r}; legend has {chars}")


def check_map(value: Any, problems: Problems) -> tuple[tuple[str, ...], dict[str, LegendEntry]] | None:
    """The map's rows and legend, or None when either is wrong (reported)."""
    table = c.table_of(value, "map", problems)
    if table is None:
        return None
    mine = Problems()
    c.unknown_keys(table, ("rows", "legend"), "map", mine)
    rows = table.get("rows", MISSING)
    if rows is MISSING:
        mine.add("map.rows", "missing (required): an array of strings, one per row of squares")
    elif not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        mine.add("map.rows", f"expected a non-empty array of strings, got {c.describe(rows)}")
    if "legend" not in table:
        mine.add("map.legend", "missing (required): a table from each map character to what it is")
    legend = _legend(table["legend"], mine) if "legend" in table else {}
    if not mine.items:
        _rows(rows, legend, mine)
    problems.items.extend(mine.items)
    return None if mine.items else (tuple(rows), legend)


def _on_map(spec: Mapping[str, Any], where: str, grid: tuple[tuple[str, ...], Mapping[str, LegendEntry]] | None,
            problems: Problems, walls_ok: bool) -> None:
    if grid is None:
        return
    rows, legend = grid
    x, y, width, height = spec["x"], spec["y"], len(rows[0]), len(rows)
    if not (0 <= x < width and 0 <= y < height):
        problems.add(where, f"square ({x}, {y}) is off the {width}x{height} map "
                            f"(x 0..{width - 1}, y 0..{height - 1})")
    elif not walls_ok and legend[rows[y][x]].wall:
        problems.add(where, f"square ({x}, {y}) is a wall ({rows[y][x]!r} in map.rows[{y}] column {x})")


def _lights(data: Mapping[str, Any], section: str, grid: Any, problems: Problems) -> tuple[LightSpec, ...]:
    spec, most = (LIGHT_FIELDS, MAX_LIGHTS) if section == "lights" else (AREA_FIELDS, MAX_AREAS)
    if isinstance(data.get(section), list) and len(data[section]) > most:
        problems.add(section, f"{len(data[section])} entries; a map takes at most {most}")
        return ()
    out = []
    for i, table in enumerate(c.tables_of(data.get(section, []), section, problems)):
        checked = c.check_fields(table, spec, f"{section}[{i}]", problems)
        if checked is not None:
            _on_map(checked, f"{section}[{i}]", grid, problems, walls_ok=True)
            out.append(LightSpec(**checked))
    return tuple(out)


def check_lit_squares(grid: Any, rules: Rules, lights: tuple[LightSpec, ...], areas: tuple[LightSpec, ...],
                      problems: Problems) -> None:
    """The budget of squares that lights and areas reach together (``MAX_LIT_SQUARES``)."""
    if grid is None or not (lights or areas):
        return
    width, height = len(grid[0][0]), len(grid[0])
    total = sum(reach_squares(width, height, s.radius_ft, rules.square_ft) for s in (*lights, *areas))
    if total > MAX_LIT_SQUARES:
        key = "lights" if not areas else "areas" if not lights else "lights, areas"
        problems.add(key, f"{len(lights)} lights and {len(areas)} areas on a {width}x{height} map reach "
                          f"{total:,} squares together (each counts the box its radius spans, at most the whole "
                          f"map); expected 0..{MAX_LIT_SQUARES:,}: fewer or smaller lights and areas, or a "
                          f"smaller map")


@dataclass
class _Creatures:
    """What checking one creature needs of the rest of the scenario."""

    context: Context
    grid: Any
    rules: Rules
    declared: Any
    teams: Mapping[str, TeamSpec]
    library: PowerLibrary
    keys: dict[str, int]
    squares: dict[tuple[int, int], str]
    #: whether ``library`` holds every power file the scenario names (else unknown names are not checked)
    complete: bool = True
    #: the errors of broken power files said already (each is said once, by the first creature it concerns)
    told: set[str] = field(default_factory=set)

    def where(self, i: int, table: Mapping[str, Any]) -> tuple[str, str]:
        """How problems name creature ``i`` (and its square): ``creatures[1]`` (``creatures[1] (orc) x, y``) in
        a file, and ``creatures.orc`` as an override names it (``--set creatures.orc.health=0``) once the
        scenario has overrides, since the file's order is not what the person who swept it wrote."""
        key = table.get("key")
        if self.context.overrides and c.is_key(key):
            return f"creatures.{key}", f"creatures.{key} x, y"
        return f"creatures[{i}]", f"creatures[{i}] ({key}) x, y"

    def check(self, i: int, table: dict[str, Any], problems: Problems) -> CreatureSpec | None:
        where, square_at = self.where(i, table)
        checked = c.check_fields(table, CREATURE_FIELDS, where, problems)
        if checked is None:
            return None
        key, bad = checked["key"], len(problems)
        if key in self.keys:
            problems.add(f"{where}.key", f"duplicate key {key!r} (also creatures[{self.keys[key]}])")
        self.keys.setdefault(key, i)
        if isinstance(self.declared, dict) and checked["team"] not in self.declared:
            problems.add(f"{where}.team", f"unknown team {shown(checked['team'])}"
                                          f"{c.did_you_mean(checked['team'], self.teams)}; teams are "
                                          f"{', '.join(repr(t) for t in self.teams) or '(none)'}")
        _on_map(checked, square_at, self.grid, problems, walls_ok=False)
        square = (checked["x"], checked["y"])
        if len(problems) == bad and square in self.squares:
            problems.add(square_at, f"square {square} is already taken by {self.squares[square]!r}")
        rows, legend = self.grid if self.grid is not None and len(problems) == bad else ((), {})
        ground = legend[rows[square[1]][square[0]]].ground if rows else None
        if ground is not None and checked["z"] is not None and checked["z"] < ground:  # (spawn raises it unsaid)
            problems.add(f"{where}.z", f"expected the ground of {square} ({ground:g} ft) or above (leave z out to "
                                       f"stand on it), got {checked['z']:g}")
        self.squares.setdefault(square, key)
        self.check_references(where, checked, problems)
        if checked["fatigue"] > self.rules.max_fatigue:
            problems.add(f"{where}.fatigue", f"expected 0..{self.rules.max_fatigue} (the fatigue track), "
                                             f"got {checked['fatigue']}")
        speed = checked["speed"]
        speed_wrong = None if speed is None else speed_problem(speed, self.rules.square_ft)
        if speed_wrong:
            problems.add(f"{where}.speed", speed_wrong)
        checked["name"] = checked["name"] if checked["name"] is not None else key
        return CreatureSpec(**checked)

    def check_references(self, where: str, checked: Mapping[str, Any], problems: Problems) -> None:
        before = len(problems)
        for power in checked["powers"]:
            problem = self.library.problem(power, self.told)
            if problem and self.complete:  # else it may be in the file that did not load, reported already
                problems.add(f"{where}.powers", problem)
        folder, trusted = self.context.script_dir, self.context.parse_trusted
        reads = self.context.reads
        if len(problems) == before:
            check_power_scripts(checked["powers"], f"{where}.powers", self.library, folder, trusted, problems, reads)
        check_reactions(checked["reactions"], f"{where}.reactions", folder, trusted, problems, reads)


def check_costs(specs: list[CreatureSpec], rules: Rules, grid: Any, library: PowerLibrary,
                problems: Problems) -> None:
    """The creatures' walks and their powers' areas, each within its budget of squares
    (game.content.scenario_costs)."""
    if grid is not None:  # (else the map is wrong, reported: nothing to measure them on)
        width, height = len(grid[0][0]), len(grid[0])
        for found in (walk_problem(specs, rules, width, height),
                      area_problem(specs, library.powers, rules, width, height)):
            if found:
                problems.add("creatures", found)


def _library(context: Context, files: tuple[str, ...], problems: Problems) -> tuple[PowerLibrary, RecordedFiles]:
    """The shipped powers and the scenario's own files, and the text of each power file (when
    overriding: the original's library; its texts stay the original's)."""
    if context.library is not None:
        return context.library, RecordedFiles()
    folder = Path(context.path).resolve().parent if context.path is not None else None
    return scenario_library(files, folder, context.script_dir, problems, context.files, context.recorded)


def parse(data: dict[str, Any], context: Context) -> dict[str, Any]:
    """The fields of a Scenario (all but source, path, text and overrides) from one file's data.

    Raises:
        ScenarioError: every problem found, each naming its key or square.
    """
    problems = Problems()
    c.unknown_keys(data, TOP_FIELDS, "", problems)
    head = c.check_each(data, _HEAD_FIELDS, problems)  # a bad seed must not lose power_files
    grid = check_map(data["map"], problems) if "map" in data else None
    if "map" not in data:
        problems.add("map", "missing (required): [map] with rows and legend")
    rules = check_rules(data.get("rules", {}), problems)
    lights, areas = _lights(data, "lights", grid, problems), _lights(data, "areas", grid, problems)
    teams = check_teams(data, problems)
    before_library = len(problems)
    library, texts = _library(context, head.get("power_files", ()), problems)
    # A power file that did not load (or a power_files key that was wrong) leaves the table short:
    # a creature's power that is not in it may be in that file, so it is not called unknown.
    complete = "power_files" in head and len(problems) == before_library
    check_reactions(head.get("reactions", ()), "reactions", context.script_dir, context.parse_trusted, problems,
                    context.reads)
    check_lit_squares(grid, rules, lights, areas, problems)
    creatures = _Creatures(context, grid, rules, data.get("teams"), teams, library, {}, {}, complete)
    allowed = MAX_CREATURES if grid is None else max_creatures(len(grid[0][0]), len(grid[0]))
    crowded = isinstance(data.get("creatures"), list) and len(data["creatures"]) > allowed
    if crowded:
        size = "" if grid is None else f" on a {len(grid[0][0])}x{len(grid[0])} map"
        problems.add("creatures", f"{len(data['creatures'])} entries; expected 2..{allowed} creatures{size}")
        data = {k: v for k, v in data.items() if k != "creatures"}
    before = len(problems)
    specs = [creatures.check(i, table, problems)
             for i, table in enumerate(c.tables_of(data.get("creatures", []), "creatures", problems))]
    if len(problems) == before and not crowded:  # every creature read: now whether they make a battle
        check_sides(specs, teams, problems)
        check_costs([s for s in specs if s is not None], rules, grid, library, problems)
    if problems.items:
        raise context.fail(problems)
    assert grid is not None
    rows, legend = grid
    default_name = Path(context.source).stem if context.path else context.source
    return {
        "name": head["name"] if head.get("name") is not None else default_name,
        "description": head["description"], "seed": head["seed"], "width": len(rows[0]), "height": len(rows),
        "ambient": head["ambient"], "rules": rules, "rows": rows, "legend": types.MappingProxyType(legend),
        "lights": lights, "areas": areas, "teams": types.MappingProxyType(teams),
        "creatures": tuple(s for s in specs if s is not None), "reactions": head["reactions"],
        "power_files": head["power_files"], "power_library": library,
        "files": RecordedFiles(texts.power_files, types.MappingProxyType(dict(context.reads.read)), texts.shipped),
    }
