"""The core every part of the Battle facade stands on: one esper world, one state, one generator.

esper 3 keeps its worlds in module state, so every public method first switches to this battle's
own world (the ``entry`` decorator): two battles never see each other's entities, and no caller
ever calls ``esper.switch_world`` itself. Methods that change the battle are ``command``s: they are
recorded in the command log, which with the seed is all a replay needs.
"""

from __future__ import annotations

import functools
import random
import uuid
import weakref
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

import esper

from components import Rules, Terrain
from components.effects import ActiveEffect
from components.events import Event, MapChanged
from components.powers import Power
from components.values import SEEDS
from game.battle import validate, validate_whole
from game.battle.errors import IllegalCommand
from game.battle.logged import logged_call
from game.battle.memo import StampedMemo
from game.battle.reactions import ScriptHook, new_hosts
from game.battle.recording import LogEntry, Recording
from game.content.powers import SCRIPTS_DIR, default_powers
from game.scripting import Limits, ScriptError, ScriptHosts
from systems import schedule
from systems.caches import MapCaches
from systems.state import BattleState, Phase

F = TypeVar("F", bound=Callable[..., Any])

def _drop_world(name: str, hosts: ScriptHosts | None) -> None:
    """Delete a battle's world (esper refuses to delete the active one, so step out first)."""
    if hosts is not None:
        hosts.close()
    if name not in esper.list_worlds():
        return
    if esper.current_world == name:
        esper.switch_world("default")
    esper.delete_world(name)


def _enter(battle: BattleCore) -> None:
    """Make the battle's world esper's current one (a closed battle has none)."""
    if battle.closed:
        raise RuntimeError("this battle is closed")
    if esper.current_world != battle.world_name:
        esper.switch_world(battle.world_name)


def entry(method: F) -> F:
    """Switch esper to this battle's world before running a public method."""

    @functools.wraps(method)
    def wrapper(self: BattleCore, *args: Any, **kwargs: Any) -> Any:
        # (a planner asks a few hundred questions a battle, each through here: _enter's tests are written
        # out, as most asks need neither, and a call without keywords passes none on, which costs less)
        if self.closed or esper.current_world != self.world_name:
            _enter(self)
        if kwargs:
            return method(self, *args, **kwargs)
        return method(self, *args)

    return wrapper  # type: ignore[return-value]


def command(method: F) -> F:
    """An entry that changes the battle: recorded in the command log once it succeeds.

    Calls made by another command are not logged twice; calls a turn controller makes during
    ``tick`` are logged inside that tick's entry (its ``orders``).
    """
    name = method.__name__

    @functools.wraps(method)
    def wrapper(self: BattleCore, *args: Any, **kwargs: Any) -> Any:
        recording = self.recording
        if recording.supposed or recording.interrupted is not None:
            raise IllegalCommand(recording.refusal(name))
        if recording.depth == 0:
            recording.serial += 1
        log_args, log_kwargs = args, kwargs
        if recording.depth == 0 or (recording.depth == 1 and recording.orders is not None):  # to be logged
            args, kwargs, log_args, log_kwargs = logged_call(args, kwargs)  # (copies: see game.battle.logged)
        recording.depth += 1
        try:
            _enter(self)
            result = method(self, *args, **kwargs)
        finally:
            recording.depth -= 1
        recording.done(name, log_args, log_kwargs)
        return result

    wrapper.is_command = True  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]


class BattleCore:
    """A battle's world, state and script hook; the parts of the facade build on this.

    Args:
        seed: seeds the battle's one generator, 0..2**63-1; the same seed and commands give the same events.
        width: squares along x.
        height: squares along y.
        rules: a :class:`Rules` table or a mapping of overrides (``{"cover_bonus": 4}``).
        powers: the powers creatures may use, by id; the shipped ``assets/powers`` by default.
        trusted_scripts: run Starlark scripts in this process (fast; for the designer's own files).
            False runs them in a worker process with a memory limit and a wall clock: use it for
            anything from a scenario written by someone else.
        script_dir: where power and reaction scripts are read from.
        script_limits: the budget of each script call (steps, commands, time, memory).
        caches: answers about the map to share with other battles on it (a scenario's, a
            simulation worker's); the battle's own by default.
        script_hosts: script hosts to share with other battles; the battle's own (closed with it)
            by default.
        script_texts: the scripts' texts by file name, read instead of ``script_dir`` (a save or
            replay carries the texts its battle ran, so a later edit of a file cannot change it).

    Raises:
        IllegalCommand: a seed that is not a whole number in 0..2**63-1, a grid size out of range, a
            rules override the rules table refuses, a power table that is not a mapping of power ids
            to :class:`~components.powers.Power` (each under its own id), a ``trusted_scripts`` that is
            not True or False, or another argument not of the kind named above.
    """

    def __init__(self, seed: int = 0, width: int = 16, height: int = 16,
                 rules: Rules | Mapping[str, Any] | None = None, powers: Mapping[str, Power] | None = None,
                 trusted_scripts: bool = True, script_dir: str | Path = SCRIPTS_DIR,
                 script_limits: Limits = Limits(), caches: MapCaches | None = None,
                 script_hosts: ScriptHosts | None = None, script_texts: Mapping[str, str] | None = None) -> None:
        self.closed = True  # until the world exists, so a failed __init__ leaves nothing half-made
        seed, width, height, trusted_scripts = validate_whole.battle_options(
            seed, width, height, trusted_scripts, script_dir, script_limits, caches, script_hosts, script_texts)
        # a negative seed would play its absolute value's battle (Python's generator takes the
        # magnitude), a silent alias: refused, as every --seed flag and scenario refuses it
        seed = validate.within(seed, SEEDS, "seed")
        try:
            table = rules if isinstance(rules, Rules) else Rules.from_mapping(rules)
        except ValueError as err:  # (an IllegalCommand, as every refusal of the battle's arguments is)
            raise IllegalCommand(str(err)) from None
        try:
            terrain = Terrain(width, height)
        except ValueError as err:
            raise IllegalCommand(str(err)) from None
        self.seed = seed
        self.state = BattleState(rules=table, terrain=terrain, rng=random.Random(seed),
                                 caches=caches if caches is not None else MapCaches(),
                                 powers=dict(default_powers()) if powers is None
                                 else validate_whole.power_table(powers))
        self.recording = Recording()
        self.ids: set[int] = set()
        #: the last entity id esper handed out in this battle's world (a restore takes creatures away, never
        #: their ids: see ``Snapshots.skip_ids``)
        self.last_entity = 0
        #: the names a person reads, numbered where creatures share one; (creatures counted, names)
        self.display_names: tuple[tuple[int, int], dict[int, str]] = ((0, -1), {})
        #: ``powers.ID.KEY`` overrides that made ``powers`` (a simulation's sweep); saves record them
        self.power_overrides: tuple[tuple[str, Any], ...] = ()
        #: forecasts' answers kept while the battle's stamp holds (see game.battle.memo); an attack's chance
        #: by its parts (``Outcomes._chances``, ``Tactics._best_blow``), an enemy's menace by all it reads
        #: (``Tactics._known_menace``), hold for the battle's whole life
        self.memo = StampedMemo(lasting=("attack_chances", "menaces"))
        if script_hosts is None and trusted_scripts:
            # In-process hosts need no closing, so battles on one map's caches share them: a
            # script is parsed and frozen once for all of them (a worker host is a process: own).
            script_hosts = self.state.caches.owned("script_hosts", new_hosts)
        own_hosts = new_hosts() if script_hosts is None else None
        self.scripts = ScriptHook(self, self.state, self.ids, script_hosts or own_hosts,  # type: ignore[arg-type]
                                  trusted=trusted_scripts, script_dir=script_dir, limits=script_limits,
                                  record=self.recording.note, files=self.state.caches.owned("script_files", dict),
                                  texts=script_texts)
        self.state.scripts = self.scripts
        self.state.effect_end_hooks.append(self._effect_ended)
        self.world_name = f"battle-{uuid.uuid4().hex}"
        previous = esper.current_world
        esper.switch_world(self.world_name)
        self.phases = schedule.install(self.state)  # runs each phase's systems only
        esper.switch_world(previous)
        self._finalizer = weakref.finalize(self, _drop_world, self.world_name, own_hosts)
        self.closed = False

    # ------------------------------------------------------------------ lifecycle

    def close(self) -> None:
        """Delete this battle's world (and its own script hosts); it cannot be used afterwards.

        What it recorded stays readable (events, command log, state). The state lets go of its
        wiring (the systems' handlers, the script hook, the effect-end hooks), which tied it in
        cycles to the systems and the battle: a closed battle is then freed as soon as it is
        dropped, not by Python's cycle collector, whose full collections a simulation's thousands
        of closed battles kept triggering (0.3 ms a greedy battle on the bench 4v4).

        Raises:
            IllegalCommand: called while a command runs (from an ``on`` handler or a ``tick``
                controller): the command would go on in a world that is gone (a KeyError from esper).
        """
        if not self.closed:
            if self.recording.depth:  # a handler or controller inside a tick: the tick would go on in no world
                raise IllegalCommand("close: a command (a tick or a turn) is under way; close the battle once "
                                     "it has returned, not from a handler or controller inside it")
            self.closed = True
            self._finalizer()
            state = self.state
            state.handlers.clear()
            state.effect_end_hooks.clear()
            state.scripts = None

    def __enter__(self) -> BattleCore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def make_current(self) -> None:
        """Make this battle's world esper's current one (trusted code may have switched away).

        Raises:
            RuntimeError: the battle is closed (switching to its name made esper an empty world of it).
        """
        _enter(self)

    # ------------------------------------------------------------------ what it is

    @property
    def command_log(self) -> list[LogEntry]:
        """Every command so far, in order: with the seed, all a replay needs (a copy, as ``events`` is)."""
        return list(self.recording.log)

    @property
    def powers(self) -> Mapping[str, Power]:
        """The powers creatures may use, by id (read-only: give the battle a new table to change one,
        so that every answer kept about the old one is asked again)."""
        return MappingProxyType(self.state.powers)

    @powers.setter
    def powers(self, table: Mapping[str, Power]) -> None:
        """Replace the table, before any power has been used.

        Why not after: the command log does not record the table, and a replay (a save's load, a
        rewind) gives every command the table the battle was made with or ends with; a use made under
        an older table would replay under the new one, and the two battles would part.

        Raises:
            IllegalCommand: a power has already been used in this battle; the table is not a mapping of
                power ids to powers; or it lacks a power a creature of the battle has.
        """
        checked = validate_whole.power_table(table)
        _enter(self)
        validate_whole.powers_kept(self.state, checked)
        validate_whole.table_replaceable(self.state, self.recording.log)
        self.state.powers = checked
        self.state.powers_version += 1

    @property
    def rules(self) -> Rules:
        """The rules table in force."""
        return self.state.rules

    @property
    def width(self) -> int:
        return self.state.terrain.width

    @property
    def height(self) -> int:
        return self.state.terrain.height

    @property
    def round(self) -> int:
        """Rounds begun so far."""
        return self.state.round

    @property
    def in_combat(self) -> bool:
        return self.state.in_combat

    @property
    def events(self) -> list[Event]:
        """Every event so far, oldest first (a copy: the record itself cannot be edited)."""
        return list(self.state.events)

    @property
    def terrain(self) -> Terrain:
        """The map (read it; change it through the map commands so that caches and logs follow)."""
        return self.state.terrain

    @command
    def script_out(self, call: int, script: str, function: str, reason: str) -> None:
        """Replay a script failure no count decides (a wall clock, a memory limit, a crash): script
        call number ``call`` fails with ``reason``, and the script is out, instead of running again.

        Battles record it themselves, in the command log, just before the command it happened in.

        Raises:
            IllegalCommand: an entry no battle could have recorded.
        """
        try:
            self.scripts.expect_failure(call, script, function, reason)
        except (ValueError, ScriptError) as err:
            raise IllegalCommand(f"script_out: {err}") from None

    # ------------------------------------------------------------------ helpers for the parts

    def check(self, entity: object) -> int:
        """``entity`` as an int if it is one of this battle's creatures; UnknownEntity otherwise."""
        if type(entity) is int and entity in self.ids:
            return entity  # creature_id's common case, first: every query and order starts here
        return validate.creature_id(entity, self.ids)

    def _settle(self) -> None:
        """Let vision and conditions catch up after a command, announcing what changed (a command's own
        step: called from outside one, what it announced was in no log and ran in whatever world was current)."""
        self.phases.run(Phase.GM)

    def _mid_battle(self, what: str, x: int, y: int) -> None:
        """Announce a change of the map once the battle is under way (a map command's own step, as ``_settle``)."""
        if self.state.round > 0:
            self.state.emit(MapChanged(self.state.round, what, x, y))

    def _effect_ended(self, effect: ActiveEffect) -> None:
        """A scripted power's ``on_end(ctx)`` runs when its effect ends (what it does resolves next)."""
        if effect.script:
            ctx = {"user": effect.user, "power": effect.power, "round": self.state.round, "target": -1,
                   "x": -1, "y": -1, "effect": effect.id}
            self.scripts.run(effect.script, "on_end", ctx)
