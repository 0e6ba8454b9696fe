"""Scenarios: a battle described in a TOML file, validated whole before anything is built from it.

One loader serves play, tests and simulations, so a file that plays is a file that tests and a
simulation sweep (:meth:`Scenario.with_overrides`) goes through the very same checks as a person
editing the file by hand. Every problem is reported in one :class:`ScenarioError` whose message names
the file and the key (``creatures[2].health``; under overrides as they name it,
``creatures.ogre.health``) or the map square (``map.rows[3] column 7``), so a typo costs one look,
not a debugging session.

File format (coordinates are squares, 0-based: row ``r`` of ``map.rows`` is ``y = r`` and the
character in column ``c`` is ``x = c``; heights and radii are feet)::

    name = "The ledge"                    # optional, defaults to the file name; names everywhere:
                                          # at most 80 characters, no control characters
    description = "Step off onto the hay."  # at most 4,000 characters; line breaks allowed
    seed = 7                              # the battle's generator (0..2**63-1); build(seed=...) overrides it
    ambient = "normal"                    # normal | poor | terrible | no vision
    reactions = []                        # reaction scripts for every event, e.g. ["rally.star"]
    # power_files = ["my_powers.toml"]    # the scenario's own powers, paths inside its folder (see below)

    [map]
    rows = [                              # all rows the same length; at most 1024 x 1024 squares
      "^^^...",
      "^^^h..",
      "###...",
    ]
    [map.legend]                          # every character used in rows must be here
    "." = { ground = 0 }                  # ground height in feet, -10000..10000 (default 0)
    "^" = { ground = 30, name = "ledge" } # name: optional, for people and renderers
    "h" = { ground = 0, soft = true }     # soft: landing here halves falling dice (hay, water)
    "#" = { wall = true }                 # blocks movement, sight and light; gives cover
    "|" = { blocks = ["movement", "pushes", "fliers"] }   # an arrow slit: see and shoot through it
                                          # blocks: any of movement, sight, light, areas, pushes,
                                          # fliers; cover = true|false (default: when it blocks
                                          # movement) - it hides whoever stands behind it

    [[lights]]                            # at least `level` within radius_ft where it reaches
    x = 4
    y = 1
    radius_ft = 20                        # 0..10000; at most 512 lights and 512 areas, and together
                                          # they reach at most 2**27 squares (each counts the box
                                          # its radius spans, at most the map: docs/limits.md)
    level = "normal"                      # default normal

    [[areas]]                             # at most `level` within radius_ft (smoke, fog)
    x = 1
    y = 1
    radius_ft = 10
    level = "no vision"                   # default poor

    [rules]                               # any field of components.Rules, each within its range;
                                          # fatigue thresholds at most max_fatigue
                                          # (components.rules.RULE_ORDER)
    cover_bonus = 4

    [teams.knights]                       # a name --policy can write: no '=' or ',', no edge spaces
                                          # (at most 50 teams)
    control = "human"                     # human | computer (default computer)
    colour = "#3060d0"                    # optional "#rrggbb"

    [teams.raiders]                       # a battle needs creatures on at least two teams

    [[creatures]]                         # at most 50 (docs/limits.md)
    key = "sir_hugo"                      # unique; 1-64 letters, digits, _ and -; used by overrides
    name = "Sir Hugo"                     # optional, defaults to key
    team = "knights"                      # must be a [teams.NAME]
    x = 1
    y = 0
    # optional, with defaults and ranges: z (the ground of the square; -10000..10000),
    # health = 10 (1..100000), defense = 10, attack_bonus = 0 and initiative_bonus = 0
    # (each -1000..1000), speed (rules.speed_ft; 0 or one square..10000), fatigue = 0 (0..rules.max_fatigue),
    # powers = [] (none: every power of the battle; each listed once), reactions = [] (scripts
    # for its own events), prepared = true (false: surprised when combat starts), flying = false
    powers = ["strike"]

    [[creatures]]
    key = "raider"
    team = "raiders"
    x = 5
    y = 2

Unknown keys anywhere are errors (with a "did you mean" when one is close), because a misspelt
``helth`` silently meaning "default health" is the worst kind of bug in a balance sweep.

A scenario folder is self-contained: scripts (``reactions``, and the ``script`` of its powers) are
read from ``scripts/`` beside the scenario (never a parent folder's), else from the shipped
``assets/scripts``; its own powers come from ``power_files``, TOML power files (the format of
``assets/powers``) named by paths relative to the scenario's folder, which may not leave it. They
add to the shipped powers; an id that is already a shipped power is an error. So a stranger's
scenario is one folder (``ambush.toml``, ``my_powers.toml``, ``scripts/hex.star``) that works from
anywhere. Every script and power file it names is read, and every script parsed, when it loads: a
missing or broken one is refused with the key that names it. At most 16 power files, and a battle holds at most 128
powers, the shipped ones included; at most 32 scripts, of 128 KiB together (docs/limits.md).
"""

from __future__ import annotations

import copy
import dataclasses
import tomllib
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from components import Rules, Visibility
from components.powers import Power
from game.battle.facade import Battle
from game.content.files import SCENARIO_BYTES, UnreadableFile, bom_hint, read_text, too_long_number
from game.content.powers import PowerFileCache, PowerLibrary, runs_in_process, script_folder, shipped_library
from game.content.recorded import RecordedFiles
from game.content.scenario_map import draw_map
from game.content.scenario_model import CreatureSpec, LegendEntry, LightSpec, ScenarioError, TeamSpec
from game.content.scenario_overrides import override_problem
from game.content.scenario_parse import Context, parse
from game.scripting import ScriptHosts
from systems.caches import MapCaches

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



@dataclass(frozen=True)
class Scenario:
    """A validated scenario: everything needed to build a fresh battle, any number of times.

    Immutable so that one loaded scenario can be built again and again (simulations, replays)
    without one run leaking into the next; :meth:`with_overrides` makes a changed copy.
    ``power_library`` holds the powers its battles use: the shipped ones and its ``power_files``;
    ``parse_trusted`` is the ``trusted`` its loader was given (which host parsed its scripts; None:
    decided by where it lives), kept so that :meth:`with_overrides` checks the same way.
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
    power_files: tuple[str, ...] = ()
    #: the text of every power file and script it read (saves and replays record them); with
    #: ``recorded`` it reads nothing from disk: its power files and scripts are these texts
    files: RecordedFiles = field(default_factory=RecordedFiles, repr=False, compare=False)
    recorded: bool = field(default=False, compare=False)
    power_library: PowerLibrary | None = field(default=None, repr=False, compare=False)
    parse_trusted: bool | None = field(default=None, repr=False, compare=False)
    _data: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)
    #: the scripts its load parsed (game.content.recorded.ScriptReads.parsed), not parsed again by an override
    _parsed: Mapping[tuple[str, bool], frozenset[str]] = field(default_factory=dict, repr=False, compare=False)
    #: What its battles work out about the map (paths, cover lines) and their in-process script
    #: hosts, shared by every battle built from it (and from its overridden copies): answers keyed
    #: by the layout of walls, so no battle sees another's state.
    caches: MapCaches = field(default_factory=MapCaches, repr=False, compare=False)

    @property
    def trusted(self) -> bool:
        """Whether its scripts may run in this process: only the project's own scenarios (``assets/``;
        see :func:`game.content.powers.runs_in_process`)."""
        return runs_in_process(self.path, self.recorded)

    def trusts(self, trusted: bool | None) -> bool:
        """Whether its battles run scripts in this process: ``trusted`` when given, else :attr:`trusted`."""
        return self.trusted if trusted is None else trusted

    @property
    def script_dir(self) -> Path:
        """Where its scripts are read from (see :func:`game.content.powers.script_folder`)."""
        return script_folder(self.path)

    @property
    def library(self) -> PowerLibrary:
        """Its powers: the shipped ones and its own ``power_files``."""
        return self.power_library if self.power_library is not None else shipped_library()

    @property
    def powers(self) -> Mapping[str, Power]:
        """Every power its battles know, by id."""
        return self.library.powers

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

    # ------------------------------------------------------------------ building

    def build(self, seed: int | None = None, trusted: bool | None = None) -> Battle:
        """A fresh battle with the map, lights, areas, ambient level and creatures of this scenario.

        Args:
            seed: the battle's seed; None uses the scenario's own ``seed``.
            trusted: run its scripts in-process (default: only for the project's own scenarios).

        Raises:
            ScenarioError: the battle refused part of it (validation should have caught it).
        """
        return self.build_with_ids(seed, trusted)[0]

    def build_with_ids(self, seed: int | None = None, trusted: bool | None = None,
                       script_hosts: ScriptHosts | None = None,
                       scripts: Mapping[str, str] | None = None) -> tuple[Battle, dict[str, int]]:
        """Like :meth:`build`, also returning each creature key's entity id.

        ``trusted`` overrides :attr:`trusted` (a simulation worker that is itself a sandbox may run
        a stranger's scripts in-process). ``script_hosts``: hosts shared with other battles (a
        simulation worker's, so that a script-host process serves all its battles); by default an
        untrusted battle starts a host process of its own and stops it when it closes.
        ``scripts``: the texts its scripts are read from, by file name, whatever the folder holds now
        (a save checks its battle's build against the scripts that battle read).

        Everything goes through the battle's own commands (so the command log holds the build, and
        replays and saves can rebuild it and check it); walls go in before lights so that the level
        grid is not recomputed with every light for every wall.

        Raises:
            ScenarioError: the battle refused part of it (validation should have caught it).
        """
        battle = self.new_battle(seed, trusted, script_hosts, scripts)
        return battle, self.finish(battle, lambda: self.place(battle))

    def finish(self, battle: Battle, placed: Callable[[], dict[str, int]]) -> dict[str, int]:
        """Its creatures placed by ``placed`` (a build, or a template's copy), its reactions attached:
        each key's entity id. Raises ScenarioError, the half-made battle closed, if the battle refuses."""
        try:
            ids = placed()
            self.attach_reactions(battle, ids)
        except ValueError as err:
            battle.close()
            raise ScenarioError(self.source, [f"the battle refused the scenario: {err}"]) from err
        except BaseException:
            battle.close()
            raise
        return ids

    def new_battle(self, seed: int | None = None, trusted: bool | None = None,
                   script_hosts: ScriptHosts | None = None, scripts: Mapping[str, str] | None = None) -> Battle:
        """The empty battle :meth:`build_with_ids` fills (same arguments): its grid, rules, powers and scripts."""
        if scripts is None and self.recorded:
            scripts = self.files.scripts
        battle = Battle(seed=self.seed if seed is None else seed, width=self.width, height=self.height,
                        rules=self.rules, powers=self.powers,
                        trusted_scripts=self.trusts(trusted), script_dir=self.script_dir,
                        caches=self.caches, script_hosts=script_hosts,
                        script_texts=scripts)
        # the scripts as its load read and checked them, whatever the folder holds by a first use
        battle.scripts.reads.keep(self.files.scripts)
        return battle

    def place(self, battle: Battle) -> dict[str, int]:
        """Issue the build's commands for the map, lights, areas and creatures; each key's entity id.
        (What a simulation's battle template keeps: the reactions are attached to each battle.)"""
        draw_map(battle, self.rows, self.legend, self.ambient, self.lights, self.areas)
        ids: dict[str, int] = {}
        for spec in self.creatures:
            ids[spec.key] = battle.spawn(
                spec.name, spec.x, spec.y, z=spec.z, health=spec.health,
                defense=spec.defense, flying=spec.flying, prepared=spec.prepared, team=spec.team,
                speed=spec.speed, attack_bonus=spec.attack_bonus, initiative_bonus=spec.initiative_bonus,
                powers=list(spec.powers), fatigue=spec.fatigue)
        return ids

    def attach_reactions(self, battle: Battle, ids: Mapping[str, int]) -> None:
        """Issue the build's last commands: the scenario's reaction scripts, then each creature's."""
        for script in self.reactions:
            battle.attach_reaction(script)
        for spec in self.creatures:
            for script in spec.reactions:
                battle.attach_reaction(script, ids[spec.key])

    def powers_by_entity(self, ids: Mapping[str, int]) -> dict[int, tuple[str, ...]]:
        """Each entity's power ids, given :meth:`build_with_ids`'s key->entity map (for the power UI/AI)."""
        return {ids[spec.key]: spec.powers for spec in self.creatures if spec.key in ids}

    # ------------------------------------------------------------------ overrides

    def with_overrides(self, overrides: Mapping[str, Any]) -> Scenario:
        """A new scenario with some values replaced, validated exactly like a file.

        Keys are dotted paths: ``name``, ``description``, ``seed``, ``ambient``, ``rules.FIELD``,
        ``creatures.KEY.FIELD``, ``teams.NAME.FIELD``, ``lights.N.FIELD``, ``areas.N.FIELD``,
        ``map.legend.CHAR.FIELD``. Simulations sweep these, so an unknown key is an error that names
        it (with a "did you mean") rather than a silently ignored setting. The scenario's powers
        are kept (its power files are not read again).

        Raises:
            ScenarioError: an unknown key, or a value the scenario's checks refuse (with its range).
        """
        if not isinstance(overrides, Mapping):
            raise ScenarioError(self.source, ["overrides must be a mapping of dotted keys, "
                                              f"not {type(overrides).__name__}"])
        data = copy.deepcopy(dict(self._data))
        problems = [problem for k, v in overrides.items() if (problem := override_problem(data, k, v))]
        if problems:
            raise ScenarioError(self.source, problems)
        done = dict(self.overrides)
        done.update(overrides)
        context = Context(self.source, self.path, tuple(done.items()), self.library, self.parse_trusted,
                          recorded=self.files if self.recorded else None, parsed=self._parsed)
        made = _made(data, context, self.text)  # its power files are the original's: so are their texts
        return dataclasses.replace(made, files=RecordedFiles(self.files.power_files, made.files.scripts,
                                                             self.files.shipped))


# ---------------------------------------------------------------------------------------------- loading


def load_scenario(path: str | Path, *, trusted: bool | None = None, files: PowerFileCache | None = None) -> Scenario:
    """Read and validate a scenario file; nothing is built until :meth:`Scenario.build`.

    Args:
        path: the TOML file (its folder holds its scripts and power files).
        trusted: parse its scripts in this process (None: only the project's own scenarios; a
            simulation worker that is itself a sandbox passes True).
        files: the power files the caller has read already (a window or a simulation worker keeps
            one :class:`~game.content.powers.PowerFileCache`); read afresh without one.

    Raises:
        ScenarioError: the file cannot be read, is not TOML, or has any problem (all are listed).
    """
    source = str(path)
    try:
        text = read_text(path, SCENARIO_BYTES)
    except UnreadableFile as err:
        raise ScenarioError(source, [str(err)]) from None
    return _load(text, Context(source, source, trusted=trusted, files=files or PowerFileCache()))


def load_scenario_text(text: str, name: str = "<string>", *, path: str | Path | None = None,
                       trusted: bool | None = None, files: PowerFileCache | None = None,
                       recorded: RecordedFiles | None = None) -> Scenario:
    """Validate a scenario given as TOML text (tests, saves that carry their scenario).

    Args:
        text: the TOML.
        name: what error messages call it.
        path: the file it was read from, if any: its folder holds its scripts and power files.
        trusted: as for :func:`load_scenario`.
        files: as for :func:`load_scenario`.
        recorded: the power files and scripts a save or replay recorded: they are read instead of
            the disk, and its scripts run sandboxed unless ``trusted`` says otherwise.

    Raises:
        ScenarioError: it is not TOML or has any problem (all are listed).
    """
    if not isinstance(text, str):
        raise ScenarioError(name, [f"expected the scenario as text, not {type(text).__name__}"])
    return _load(text, Context(name, None if path is None else str(path), trusted=trusted,
                               files=files or PowerFileCache(), recorded=recorded))


def _load(text: str, context: Context) -> Scenario:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ScenarioError(context.source, [f"TOML syntax error: {err}{bom_hint(text)}"]) from None
    except RecursionError:
        raise ScenarioError(context.source, ["arrays or tables nested too deeply to be a scenario"]) from None
    except ValueError:  # a number of more digits than Python converts (sys.get_int_max_str_digits)
        raise ScenarioError(context.source, [too_long_number(text)]) from None
    return _made(data, context, text)


def _made(data: dict[str, Any], context: Context, text: str) -> Scenario:
    parsed = parse(data, context)
    # ``data`` is the scenario's own (fresh from tomllib, or a copy made for the overrides).
    return Scenario(**parsed, source=context.source, path=context.path, text=text, overrides=context.overrides,
                    parse_trusted=context.trusted, _data=data, recorded=context.recorded is not None,
                    _parsed=types.MappingProxyType(context.reads.parsed))
