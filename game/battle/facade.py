"""The Battle facade: one grid, one seeded generator and one esper world per battle.

Everything outside the engine (tests, the renderer, scripts, simulations) goes through this class.
Commands are validated when issued, so a person gets an error at once and nothing changes; they are
applied by the systems at the next ``tick``. esper 3 keeps its worlds in module state, so every
public method first switches to this battle's own world: two battles never see each other.
"""

from __future__ import annotations

import functools
import itertools
import random
import weakref
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import esper
import numpy as np

from components import (
    Abilities,
    Area,
    Conditions,
    Cover,
    Creature,
    Defense,
    Falling,
    Fatigue,
    Health,
    Light,
    Movement,
    Position,
    Readiness,
    Rules,
    Terrain,
    Visibility,
    Vision,
)
from components.commands import ChangeFatigue, Heal, Hit, Move, Stand, UsePower
from components.effects import ActiveEffect
from components.events import CombatStarted, CommandRefused, Event, InitiativeRolled, MapChanged, Spawned, TurnStarted
from components.powers import Power
from components.rules import DERIVED_CONDITIONS, GRANTABLE_CONDITIONS, ROLL_KINDS
from components.terrain import MAX_AREAS, MAX_LIGHTS, MAX_RADIUS_FT
from game.battle.abilities import PowerUse, area_squares, can_see
from game.battle.errors import IllegalCommand, UnknownEntity
from game.battle.reactions import ScriptHook
from game.content.powers import SCRIPTS_DIR, default_powers
from game.scripting import Limits, ScriptError
from systems import schedule
from systems.actions import find_path, flies, move_problem, path_cost, speed_for_round, step_costs, walk
from systems.cover import has_cover
from systems.effects import end_effect
from systems.rolls import roll_die
from systems.state import BattleState, Phase
from systems.vitals import can_act, is_dead

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])

_world_numbers = itertools.count(1)


def _drop_world(name: str) -> None:
    """Delete a battle's esper world (esper refuses to delete the active one, so step out first)."""
    if name not in esper.list_worlds():
        return
    if esper.current_world == name:
        esper.switch_world("default")
    esper.delete_world(name)


def _entry(method: F) -> F:
    """Switch esper to this battle's world before running a public method."""

    @functools.wraps(method)
    def wrapper(self: Battle, *args: Any, **kwargs: Any) -> Any:
        if self._closed:
            raise RuntimeError("this battle is closed")
        if esper.current_world != self._world:
            esper.switch_world(self._world)
        return method(self, *args, **kwargs)

    return wrapper  # type: ignore[return-value]


def _command(method: F) -> F:
    """An entry that changes the battle: recorded in the command log once it succeeds.

    The log (method name and arguments) is what replays and saves need: the same seed and the same
    log give the same events. Calls made by another command are not logged twice; calls a turn
    controller makes during ``tick`` are logged inside that tick's entry (its ``orders``).
    """
    entered = _entry(method)

    @functools.wraps(method)
    def wrapper(self: Battle, *args: Any, **kwargs: Any) -> Any:
        self._depth += 1
        try:
            result = entered(self, *args, **kwargs)
        finally:
            self._depth -= 1
        if self._depth == 0:
            if method.__name__ == "tick":
                kwargs = {"orders": self._last_orders} if self._last_orders else {}
            self.command_log.append((method.__name__, args, kwargs))
        elif self._depth == 1 and self._orders is not None:
            self._orders.append([method.__name__, list(args), kwargs])
        return result

    wrapper.is_command = True  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]


def _amount(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise IllegalCommand(f"{what} must be a whole number, not {value!r}")
    if value < 0:
        raise IllegalCommand(f"{what} must not be negative, not {value}")
    return int(value)


class Battle:
    """A tactical battle on a square grid.

    Args:
        seed: seeds the battle's one generator; the same seed and commands give the same events.
        width: squares along x.
        height: squares along y.
        rules: a :class:`Rules` table or a mapping of overrides (``{"cover_bonus": 4}``).
        powers: the powers creatures may use, by id; the shipped ``assets/powers`` by default.
        trusted_scripts: run Starlark scripts in this process (fast; for the designer's own files).
            False runs them in a worker process with a memory limit and a wall clock: use it for
            anything from a scenario written by someone else.
        script_dir: where power and reaction scripts are read from.
        script_limits: the budget of each script call (steps, commands, time, memory).
    """

    def __init__(self, seed: int = 0, width: int = 16, height: int = 16,
                 rules: Rules | Mapping[str, Any] | None = None, powers: Mapping[str, Power] | None = None,
                 trusted_scripts: bool = True, script_dir: str | Path = SCRIPTS_DIR,
                 script_limits: Limits = Limits()) -> None:
        self._closed = True  # until the world exists, so a failed __init__ leaves nothing half-made
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise IllegalCommand(f"seed must be an integer, not {seed!r}")
        table = rules if isinstance(rules, Rules) else Rules.from_mapping(rules)
        try:
            terrain = Terrain(width, height)
        except ValueError as err:
            raise IllegalCommand(str(err)) from None
        self.seed = seed
        self.state = BattleState(rules=table, terrain=terrain, rng=random.Random(seed))
        self.command_log: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
        self._depth = 0
        self._orders: list[list[Any]] | None = None  # commands a turn controller is issuing now
        self._last_orders: list[list[Any]] = []
        self._spawned: list[int] = []
        self._ids: set[int] = set()
        self._next_map_id = itertools.count(1)
        self.powers: dict[str, Power] = dict(default_powers() if powers is None else powers)
        #: ``powers.ID.KEY`` overrides that made ``powers`` (a simulation's sweep); saves record them
        self.power_overrides: tuple[tuple[str, Any], ...] = ()
        self.scripts = ScriptHook(self, trusted=trusted_scripts, script_dir=script_dir, limits=script_limits)
        self._power_use = PowerUse(self)
        self.state.handlers[UsePower] = self._power_use.resolve
        self.state.effect_end_hooks.append(self._effect_ended)
        self._world = f"battle-{next(_world_numbers)}"
        previous = esper.current_world
        esper.switch_world(self._world)
        schedule.install(self.state)
        esper.switch_world(previous)
        self._finalizer = weakref.finalize(self, _drop_world, self._world)
        self._closed = False

    # ------------------------------------------------------------------ lifecycle

    def close(self) -> None:
        """Delete this battle's world; the battle cannot be used afterwards."""
        if not self._closed:
            self._closed = True
            self._finalizer()

    def __enter__(self) -> Battle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

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
        """Rounds played so far (each ``tick`` is one)."""
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

    # ------------------------------------------------------------------ helpers

    def _enter(self) -> None:
        """Make this battle's world esper's current one (trusted code may have switched away)."""
        if esper.current_world != self._world:
            esper.switch_world(self._world)

    def _check(self, entity: object) -> int:
        if type(entity) is int and entity in self._ids:
            return entity  # the common case, first: this is on every query's path
        if isinstance(entity, bool) or not isinstance(entity, (int, np.integer)) \
                or not esper.entity_exists(int(entity)) or not esper.has_component(int(entity), Creature):
            raise UnknownEntity(f"no creature with id {entity!r} in this battle")
        return int(entity)

    def _label(self, entity: int) -> str:
        return f"{esper.component_for_entity(entity, Creature).name} (#{entity})"

    def _settle(self) -> None:
        """Let vision and conditions catch up with an immediate change, announcing what changed."""
        esper.process(Phase.GM)

    def _square(self, x: object, y: object, what: str = "square") -> tuple[int, int]:
        try:
            return self.state.terrain.check_square(x, y, what)
        except ValueError as err:
            raise IllegalCommand(str(err)) from None

    def _new_map_id(self) -> int:
        """A fresh id for a light or an area (powers create them too)."""
        return next(self._next_map_id)

    def _mid_battle(self, what: str, x: int, y: int) -> None:
        if self.state.round > 0:
            self.state.emit(MapChanged(self.state.round, what, x, y))

    # ------------------------------------------------------------------ creatures

    @_command
    def spawn(self, name: str, x: int, y: int, z: float = 0, health: int = 10, defense: int = 10,
              flying: bool = False, prepared: bool = True, *, team: str | None = None, speed: int | None = None,
              attack_bonus: int = 0, initiative_bonus: int = 0, powers: Iterable[str] = (), fatigue: int = 0) -> int:
        """Put a creature on the grid and return its entity id.

        ``z`` is raised to the ground of its square (standing on a ledge); a creature spawned above
        the ground without flying falls at the next tick. Without a ``team`` it fights alone.
        """
        square = self._square(x, y, f"spawn square of {name!r}")
        terrain = self.state.terrain
        if terrain.walls[square]:
            raise IllegalCommand(f"cannot spawn {name!r} at {square}: it is a wall")
        if isinstance(z, bool) or not isinstance(z, (int, float)) or not np.isfinite(z):
            raise IllegalCommand(f"z of {name!r} must be a finite number of feet, not {z!r}")
        if isinstance(health, bool) or not isinstance(health, int) or health <= 0:
            raise IllegalCommand(f"health of {name!r} must be a positive whole number, not {health!r}")
        speed_ft = self.state.rules.speed_ft if speed is None else _amount(speed, f"speed of {name!r}")
        known = tuple(powers)
        for power_id in known:
            if power_id not in self.powers:
                raise IllegalCommand(f"cannot spawn {name!r}: unknown power {power_id!r}")
        try:
            parts = [
                Health(health, health),
                Fatigue(fatigue, self.state.rules.max_fatigue),
                Position(square[0], square[1], max(float(z), float(terrain.ground[square]))),
                Defense(defense, attack_bonus),
                Movement(speed_ft, 0, bool(flying)),
                Falling(),
                Readiness(bool(prepared), initiative_bonus),
                Conditions(),
                Vision(),
                Cover(),
                Abilities(known),
            ]
            if not isinstance(initiative_bonus, int) or isinstance(initiative_bonus, bool):
                raise ValueError(f"initiative bonus must be an integer, not {initiative_bonus!r}")
            Creature(name, team or "-")
        except ValueError as err:
            raise IllegalCommand(f"cannot spawn {name!r}: {err}") from None
        entity = esper.create_entity(*parts)
        creature = Creature(name, team or f"solo-{entity}")
        esper.add_component(entity, creature)
        self._spawned.append(entity)
        self._ids.add(entity)
        if self.state.in_combat:
            self.state.order.append(entity)
        position = parts[2]
        assert isinstance(position, Position)
        self.state.emit(Spawned(self.state.round, entity, name, creature.team, position.x, position.y, position.z))
        self.state.place(entity, position, position.square)
        self._settle()
        return entity

    @_entry
    def creatures(self) -> list[int]:
        """Every creature ever spawned, the dead included, in spawn order."""
        return list(self._spawned)

    @_entry
    def get(self, entity: int, component: type[T]) -> T:
        """One component of a creature; UnknownEntity (a KeyError) when either does not exist."""
        entity = self._check(entity)
        if component is Cover:
            esper.process(Phase.REFRESH)
        try:
            return esper.component_for_entity(entity, component)
        except KeyError:
            raise UnknownEntity(f"{self._label(entity)} has no {component.__name__} component") from None

    @_entry
    def name(self, entity: int) -> str:
        return esper.component_for_entity(self._check(entity), Creature).name

    @_entry
    def team(self, entity: int) -> str:
        return esper.component_for_entity(self._check(entity), Creature).team

    @_entry
    def conditions(self, entity: int) -> set[str]:
        """Every condition the creature has, derived ones (downed, slowed, flat-footed, ...) included."""
        return set(esper.component_for_entity(self._check(entity), Conditions).active)

    @_entry
    def is_alive(self, entity: int) -> bool:
        """Not dead (a downed or unconscious creature is alive)."""
        entity = self._check(entity)
        return not is_dead(esper.component_for_entity(entity, Health), esper.component_for_entity(entity, Fatigue))

    @_entry
    def can_act(self, entity: int) -> bool:
        """Alive and not downed or unconscious: able to carry out commands of its own."""
        return can_act(esper.component_for_entity(self._check(entity), Conditions))

    @_entry
    def standing_teams(self) -> set[str]:
        """Teams that still have a creature able to act: a battle is decided when one is left."""
        return {esper.component_for_entity(e, Creature).team for e in self._spawned
                if can_act(esper.component_for_entity(e, Conditions))}

    # ------------------------------------------------------------------ the map

    @_command
    def set_ground(self, x: int, y: int, height_ft: float, soft: bool = False) -> None:
        """Ground height of a square in feet, and whether it is soft (hay, water) to land on.

        Mid-battle this is a floor giving way: whoever is left above the ground falls next tick.
        """
        square = self._square(x, y)
        if isinstance(height_ft, bool) or not isinstance(height_ft, (int, float)) or not np.isfinite(height_ft):
            raise IllegalCommand(f"ground height at {square} must be a number of feet, not {height_ft!r}")
        terrain = self.state.terrain
        terrain.ground[square] = float(height_ft)
        terrain.soft[square] = bool(soft)
        terrain.touch()
        self._mid_battle("ground", *square)

    @_command
    def add_wall(self, x: int, y: int) -> None:
        """Make a square solid: it blocks movement, sight and light, and gives cover."""
        square = self._square(x, y)
        for entity, position in esper.get_component(Position):
            if position.square == square:
                raise IllegalCommand(f"cannot put a wall at {square}: {self._label(entity)} stands there")
        self.state.terrain.walls[square] = True
        self.state.terrain.touch()
        self._mid_battle("wall added", *square)
        self._settle()

    @_command
    def remove_wall(self, x: int, y: int) -> None:
        square = self._square(x, y)
        self.state.terrain.walls[square] = False
        self.state.terrain.touch()
        self._mid_battle("wall removed", *square)
        self._settle()

    def _light_args(self, x: int, y: int, radius_ft: float, level: Visibility | str | int, what: str
                    ) -> tuple[tuple[int, int], float, Visibility]:
        square = self._square(x, y, f"{what} centre")
        if isinstance(radius_ft, bool) or not isinstance(radius_ft, (int, float)) \
                or not 0 <= radius_ft <= MAX_RADIUS_FT:
            raise IllegalCommand(f"{what} radius must be a number of feet in 0..{MAX_RADIUS_FT:g}, not {radius_ft!r}")
        held = self.state.terrain.lights if what == "light" else self.state.terrain.areas
        if len(held) >= (MAX_LIGHTS if what == "light" else MAX_AREAS):
            raise IllegalCommand(f"the map already has {len(held)} {what}s, the most it takes")
        try:
            return square, float(radius_ft), Visibility.parse(level)
        except ValueError as err:
            raise IllegalCommand(f"{what} level: {err}") from None

    @_command
    def add_light(self, x: int, y: int, radius_ft: float, level: Visibility | str | int = Visibility.NORMAL,
                  source: str = "map") -> int:
        """A light (a torch): within ``radius_ft``, where it reaches around walls, visibility is at least
        ``level``. Returns an id for :meth:`remove_light`."""
        square, radius, parsed = self._light_args(x, y, radius_ft, level, "light")
        light_id = self._new_map_id()
        self.state.terrain.lights[light_id] = Light(square[0], square[1], radius, parsed, source)
        self.state.terrain.touch()
        self._mid_battle("light", *square)
        self._settle()
        return light_id

    @_command
    def remove_light(self, light_id: int) -> None:
        if light_id not in self.state.terrain.lights:
            raise IllegalCommand(f"no light with id {light_id!r}")
        light = self.state.terrain.lights.pop(light_id)
        self.state.terrain.touch()
        self._mid_battle("light out", light.x, light.y)
        self._settle()

    @_command
    def add_area(self, x: int, y: int, radius_ft: float, level: Visibility | str | int = Visibility.POOR,
                 source: str = "map") -> int:
        """An obscuring area (fog, smoke): within ``radius_ft`` visibility is at most ``level``.
        Returns an id for :meth:`remove_area`."""
        square, radius, parsed = self._light_args(x, y, radius_ft, level, "area")
        area_id = self._new_map_id()
        self.state.terrain.areas[area_id] = Area(square[0], square[1], radius, parsed, source)
        self.state.terrain.touch()
        self._mid_battle("area", *square)
        self._settle()
        return area_id

    @_command
    def remove_area(self, area_id: int) -> None:
        if area_id not in self.state.terrain.areas:
            raise IllegalCommand(f"no area with id {area_id!r}")
        area = self.state.terrain.areas.pop(area_id)
        self.state.terrain.touch()
        self._mid_battle("area gone", area.x, area.y)
        self._settle()

    @_command
    def set_ambient(self, level: Visibility | str | int) -> None:
        """The whole map's visibility before lights and areas (day NORMAL, night TERRIBLE)."""
        try:
            self.state.terrain.ambient = Visibility.parse(level)
        except ValueError as err:
            raise IllegalCommand(f"ambient level: {err}") from None
        self.state.terrain.touch()
        self._mid_battle("ambient", 0, 0)
        self._settle()

    @_entry
    def visibility_at(self, x: int, y: int) -> Visibility:
        """The visibility level of a square (ambient, lights and areas; no creature's conditions)."""
        return self._level_at(self._square(x, y))

    # ------------------------------------------------------------------ commands

    @_command
    def damage(self, entity: int, amount: int, source: str = "gm") -> None:
        """One hit of ``amount`` damage, applied at the start of the next tick, in the order issued."""
        entity = self._check(entity)
        self.state.health_queue.append(Hit(entity, _amount(amount, "damage"), source))

    @_command
    def heal(self, entity: int, amount: int, source: str = "gm") -> None:
        """Heal ``amount`` points at the start of the next tick (never above the maximum)."""
        entity = self._check(entity)
        self.state.health_queue.append(Heal(entity, _amount(amount, "healing"), source))

    @_command
    def add_fatigue(self, entity: int, amount: int = 1, reason: str = "gm") -> None:
        """Gain fatigue at the start of the next tick (exhaustion); the track stops at its maximum."""
        entity = self._check(entity)
        self.state.fatigue_queue.append(ChangeFatigue(entity, _amount(amount, "fatigue"), reason))

    @_command
    def recover_fatigue(self, entity: int, amount: int = 1, reason: str = "rest") -> None:
        """Lose fatigue at the start of the next tick (rest); the track stops at 0."""
        entity = self._check(entity)
        self.state.fatigue_queue.append(ChangeFatigue(entity, -_amount(amount, "fatigue"), reason))

    def _projection(self, entity: int) -> tuple[Position, Movement]:
        """Where the creature will be, and what movement it will have used, after its queued commands."""
        position = esper.component_for_entity(entity, Position)
        movement = esper.component_for_entity(entity, Movement)
        square, used = position.square, movement.used_ft
        for command in self.state.actions.get(entity, ()):
            if isinstance(command, Move):
                cost = path_cost(self.state.terrain, self.state.rules, square, (command.x, command.y),
                                 limit_ft=movement.speed_ft)
                if cost is not None:
                    square, used = (command.x, command.y), used + cost
            elif isinstance(command, Stand):
                used += movement.speed_ft // 2
        return Position(square[0], square[1], position.z), Movement(movement.speed_ft, used, movement.flying)

    def _validate_move(self, entity: int, x: object, y: object) -> tuple[int, int]:
        """The destination, if the creature may move there after its queued commands; else IllegalCommand."""
        goal = self._square(x, y, "destination")
        position, movement = self._projection(entity)
        problem = move_problem(self.state.terrain, self.state.rules, position, movement,
                               esper.component_for_entity(entity, Conditions),
                               esper.component_for_entity(entity, Falling), goal,
                               lambda square: self.state.taken(square, entity))
        if problem:
            raise IllegalCommand(f"{self._label(entity)} cannot move to {goal}: {problem}")
        return goal

    def _queue(self, entity: int, command: Any) -> None:
        """Queue one of a creature's own commands for its turn."""
        self.state.actions.setdefault(entity, deque()).append(command)

    @_command
    def move(self, entity: int, x: int, y: int) -> None:
        """Move along the cheapest path around walls, on the creature's turn, within its speed.

        Stepping off a ledge is legal: the creature keeps its height and falls from there.
        """
        entity = self._check(entity)
        self._queue(entity, Move(entity, *self._validate_move(entity, x, y)))

    @_command
    def stand(self, entity: int) -> None:
        """Get up from prone on the creature's turn, for half its speed."""
        entity = self._check(entity)
        conditions = esper.component_for_entity(entity, Conditions)
        if "prone" not in conditions.granted:
            raise IllegalCommand(f"{self._label(entity)} is not prone")
        if not can_act(conditions):
            raise IllegalCommand(f"{self._label(entity)} cannot act")
        self._queue(entity, Stand(entity))

    @_entry
    def reachable(self, entity: int) -> np.ndarray:
        """Boolean ``[x, y]`` mask of the squares the creature could move to now (for a UI)."""
        entity = self._check(entity)
        position, movement = self._projection(entity)
        conditions = esper.component_for_entity(entity, Conditions)
        if not can_act(conditions):
            return np.zeros(self.state.terrain.walls.shape, dtype=bool)
        left = max(speed_for_round(movement, conditions, self.state.rules) - movement.used_ft, 0)
        mask = step_costs(self.state.terrain, self.state.rules, position.square, limit_ft=left) <= left
        for square in list(self.state.squares):
            if square != position.square and self.state.taken(square, entity):
                mask[square] = False
        return mask

    @_entry
    def fall_if_moved(self, entity: int, x: int, y: int) -> tuple[tuple[int, int], float] | None:
        """Where and how far the creature would fall if ordered to move to (x, y) now, after its
        queued commands: the square it steps off onto and the drop in feet; None when it would not
        fall (it flies, innately or by a condition, or never walks off anything).

        A query for a UI's warning, answered with the rules the move itself uses.

        Raises:
            IllegalCommand: the move itself would be refused (the same error ``move`` raises).
            UnknownEntity: no such creature.
        """
        entity = self._check(entity)
        goal = self._validate_move(entity, x, y)
        position, movement = self._projection(entity)
        conditions = esper.component_for_entity(entity, Conditions)
        if flies(movement, conditions):
            return None
        left = speed_for_round(movement, conditions, self.state.rules) - movement.used_ft
        found = find_path(self.state.terrain, self.state.rules, position.square, goal, limit_ft=left)
        if found is None:
            return None
        stop, z = walk(self.state.terrain, found[0], position.z, flying=False)
        drop = z - float(self.state.terrain.ground[stop])
        return (stop, drop) if drop > 0 else None

    @_command
    def add_condition(self, entity: int, condition: str, source: str = "gm") -> None:
        """Grant a condition now (dazzled, blinded, prone, ...). Derived ones cannot be granted."""
        entity = self._check(entity)
        name = self._condition_name(condition)
        conditions = esper.component_for_entity(entity, Conditions)
        if "dead" in conditions.active:
            return  # the dead are a record: nothing changes them
        conditions.grant(name, source)
        self.state.dirty.add(entity)
        self._settle()

    @_command
    def remove_condition(self, entity: int, condition: str, source: str | None = None) -> None:
        """End a granted condition now: every grant of it, or only ``source``'s."""
        entity = self._check(entity)
        name = self._condition_name(condition)
        conditions = esper.component_for_entity(entity, Conditions)
        if "dead" in conditions.active:
            return
        conditions.revoke(name, source)
        self.state.dirty.add(entity)
        if name == "flying":
            self.state.mark_moved(entity)  # without flight it may have nothing under it: look again
        self._settle()

    @staticmethod
    def _condition_name(condition: object) -> str:
        if not isinstance(condition, str):
            raise IllegalCommand(f"a condition is a name, not {condition!r}")
        name = condition.strip().lower()
        if name in DERIVED_CONDITIONS:
            raise IllegalCommand(f"{name!r} follows from Health and Fatigue and cannot be granted or removed")
        if name not in GRANTABLE_CONDITIONS:
            known = ", ".join(sorted(GRANTABLE_CONDITIONS))
            raise IllegalCommand(f"unknown condition {condition!r}: expected one of {known}")
        return name

    # ------------------------------------------------------------------ combat and time

    @_command
    def start_combat(self) -> list[int]:
        """Roll initiative and fix the turn order; creatures not prepared are surprised for the first round.

        Prepared creatures roll d20 + initiative bonus, ties settled by the generator; the surprised
        roll nothing and act after them, in an order also drawn from the generator.
        """
        state = self.state
        if state.in_combat:
            raise IllegalCommand("combat has already started")
        rolled: list[tuple[int, float, int]] = []
        surprised: list[tuple[float, int]] = []
        for entity in self._spawned:
            health, fatigue = esper.component_for_entity(entity, Health), esper.component_for_entity(entity, Fatigue)
            if is_dead(health, fatigue):
                continue
            readiness = esper.component_for_entity(entity, Readiness)
            if readiness.prepared or state.rules.surprise_rounds == 0:
                roll = roll_die(state.rng, state.rules.initiative_die, self.roll_mode(entity, "initiative"))
                total = roll + readiness.initiative_bonus
                state.emit(InitiativeRolled(state.round, entity, roll, total))
                rolled.append((-total, state.rng.random(), entity))
            else:
                surprised.append((state.rng.random(), entity))
                esper.component_for_entity(entity, Conditions).grant("surprised", "surprise")
                state.dirty.add(entity)
        state.order = [e for *_, e in sorted(rolled)] + [e for _, e in sorted(surprised)]
        state.in_combat = True
        state.combat_first_round = state.round + 1
        state.emit(CombatStarted(state.round, tuple(state.order)))
        self._settle()
        return list(state.order)

    @_command
    def end_combat(self) -> None:
        """Leave combat: no turn order, and surprise (if any is left) ends."""
        self.state.in_combat = False
        self.state.order = []
        for entity, conditions in esper.get_component(Conditions):
            if conditions.revoke("surprised", "surprise"):
                self.state.dirty.add(entity)
        self._settle()

    @_entry
    def turn_order(self) -> list[int]:
        """Who acts in what order: initiative order in combat, spawn order outside it."""
        if self.state.in_combat:
            return list(self.state.order)
        return [e for e in self._spawned if not is_dead(esper.component_for_entity(e, Health),
                                                        esper.component_for_entity(e, Fatigue))]

    @_command
    def tick(self, controller: Callable[[Battle, int], None] | None = None,
             orders: list[list[Any]] | None = None) -> None:
        """Play one round: the systems in their fixed order (see ``systems.schedule``).

        Start of round (GM damage and heals resolve), then each creature's turn in turn order (its
        own commands, then their consequences: falls, damage), then the end of the round.

        Args:
            controller: called as ``controller(battle, actor)`` at the start of each living
                creature's turn, so that a computer player (or a person, through a UI) decides with
                the battle as it is at that moment; the commands it issues resolve in that turn.
            orders: what controllers issued in a recorded tick, ``[[actor, [[name, args, kwargs],
                ...]], ...]``; replays pass it instead of a controller (the log records it).
        """
        state = self.state
        recorded = {int(actor): commands for actor, commands in (orders or [])}
        self._last_orders = []
        esper.process(Phase.START)
        self.scripts.react()
        for actor in self.turn_order():
            conditions = esper.component_for_entity(actor, Conditions)
            if "dead" in conditions.active:
                state.actions.pop(actor, None)
                continue
            state.actor = actor
            if state.in_combat:
                state.emit(TurnStarted(state.round, actor))
            self.scripts.react()
            if controller is not None or actor in recorded:
                self._turn_orders(actor, controller, recorded.get(actor, ()))
            if state.actions.get(actor) or state.health_queue or state.fatigue_queue or state.moved:
                esper.process(Phase.TURN, actor)
                self.scripts.react()
        state.actor = None
        esper.process(Phase.END)
        self.scripts.react()

    def _effect_ended(self, effect: ActiveEffect) -> None:
        """A scripted power's ``on_end(ctx)`` runs when its effect ends (what it does resolves next)."""
        if effect.script:
            ctx = {"user": effect.user, "power": effect.power, "round": self.state.round, "target": -1,
                   "x": -1, "y": -1, "effect": effect.id}
            self.scripts.run(effect.script, "on_end", ctx)

    @classmethod
    def is_command(cls, name: str) -> bool:
        """Whether ``name`` is one of the commands a log may hold (what replays and saves may call)."""
        return bool(getattr(getattr(cls, name, None), "is_command", False))

    def _turn_orders(self, actor: int, controller: Callable[[Battle, int], None] | None,
                     recorded: Iterable[list[Any]]) -> None:
        """Let the controller (or the recorded orders) issue this turn's commands, and log them."""
        self._orders = []
        try:
            if controller is not None:
                if esper.component_for_entity(actor, Conditions).active.isdisjoint({"unconscious", "dead"}):
                    try:
                        controller(self, actor)
                    except ValueError as err:  # an illegal order: refused, and the round goes on
                        self.state.emit(CommandRefused(self.state.round, actor, "controller", str(err)))
                        self._orders.append(["refused", [str(err)], {}])
            else:
                for name, args, kwargs in recorded:
                    if name == "refused":
                        self.state.emit(CommandRefused(self.state.round, actor, "controller", str(args[0])))
                    elif self.is_command(name) and name != "tick":
                        getattr(self, name)(*args, **kwargs)
                    else:
                        raise IllegalCommand(f"a recorded order names {name!r}, which is not a battle command")
        finally:
            if self._orders:
                self._last_orders.append([actor, self._orders])
            self._orders = None
            self._enter()

    def run(self, rounds: int) -> None:
        """Tick ``rounds`` times."""
        for _ in range(rounds):
            self.tick()

    # ------------------------------------------------------------------ powers

    def power(self, power_id: str) -> Power:
        """The power with this id; IllegalCommand naming the known ids otherwise."""
        try:
            return self.powers[power_id]
        except (KeyError, TypeError):
            raise IllegalCommand(f"unknown power {power_id!r}; known: {', '.join(sorted(self.powers))}") from None

    @_entry
    def powers_of(self, entity: int) -> list[str]:
        """The powers a creature has (all the battle's powers if it was given none)."""
        own = esper.component_for_entity(self._check(entity), Abilities).powers
        return list(own) if own else sorted(self.powers)

    @_command
    def use_power(self, user: int, power_id: str, target: int | None = None,
                  point: tuple[int, int] | None = None) -> None:
        """Use a power on the user's turn: at a creature (``target``) or a square (``point``).

        Checked now (range, sight, surprise, action already spent, unknown power) and again when it
        resolves; every step of it comes out as events.
        """
        user = self._check(user)
        power = self.power(power_id)
        if target is not None:
            target = self._check(target)
        if point is not None:
            point = self._square(*point, what="point") if isinstance(point, (tuple, list)) and len(point) == 2 \
                else self._square(point, None, what="point")
        position, _ = self._projection(user)
        queued = [c for c in self.state.actions.get(user, ()) if isinstance(c, UsePower)]
        problem = self._power_use.problem(power, user, target, point, position.square, queued)
        if problem:
            raise IllegalCommand(f"{self._label(user)} cannot use {power.name}: {problem}")
        self._queue(user, UsePower(user, power.id, target, point))

    @_command
    def end_power(self, user: int, effect_id: int) -> None:
        """End an ongoing power early, when its data allows it (``end_early = true``)."""
        user = self._check(user)
        effect = self.state.effects.get(effect_id)
        if effect is None or effect.user != user:
            raise IllegalCommand(f"{self._label(user)} has no ongoing effect {effect_id!r}")
        if not effect.can_end_early:
            raise IllegalCommand(f"{self.power(effect.power).name} cannot be ended early")
        del self.state.effects[effect_id]
        end_effect(self.state, effect, "ended early")
        self._settle()

    @_entry
    def effects(self) -> list[dict[str, Any]]:
        """Ongoing effects: id, power, user, last round."""
        return [{"id": e.id, "power": e.power, "user": e.user, "ends_after_round": e.ends_after_round}
                for e in self.state.effects.values()]

    @_entry
    def can_see(self, viewer: int, target: int | tuple[int, int]) -> bool:
        """A clear line between the squares and some vision (not NO_VISION) between them."""
        viewer = self._check(viewer)
        return can_see(self.state, viewer, self._target_square(target))

    @_entry
    def squares_in_area(self, power_id: str, user: int, point: tuple[int, int] | None = None
                        ) -> list[tuple[int, int]]:
        """The squares a power's area would cover if ``user`` aimed it at ``point`` (for a UI)."""
        power = self.power(power_id)
        user = self._check(user)
        if power.area is None:
            return [] if point is None else [self._target_square(point)]
        origin = esper.component_for_entity(user, Position).square
        return area_squares(self.state, power, origin, None if point is None else self._target_square(point))

    # ------------------------------------------------------------------ rolls and defence

    def _level_at(self, square: tuple[int, int]) -> Visibility:
        assert self.state.levels is not None
        return Visibility(int(self.state.levels[square]))

    def _target_square(self, target: int | tuple[int, int]) -> tuple[int, int]:
        if isinstance(target, tuple):
            return self._square(*target, what="target square")
        return esper.component_for_entity(self._check(target), Position).square

    @_entry
    def defense_against(self, target: int, attacker: int) -> int:
        """The target's Defense against this attacker: base, +cover from it, -flat-footed."""
        target, attacker = self._check(target), self._check(attacker)
        rules = self.state.rules
        defense = esper.component_for_entity(target, Defense).base
        if self.has_cover(target, attacker):
            defense += rules.cover_bonus
        if "flat-footed" in esper.component_for_entity(target, Conditions).active:
            defense -= rules.flat_footed_penalty
        return defense

    @_entry
    def has_cover(self, target: int, attacker: int) -> bool:
        """Whether the target has cover from this attacker right now."""
        target, attacker = self._check(target), self._check(attacker)
        return has_cover(self.state.terrain, self.state.rules, esper.component_for_entity(attacker, Position).square,
                         esper.component_for_entity(target, Position).square)

    @_entry
    def roll_mode(self, entity: int, kind: str, target: int | tuple[int, int] | None = None, sight: bool = True,
                  *, advantage: bool = False, disadvantage: bool = False) -> str:
        """How a roll is made: "normal", "advantage", "disadvantage" or "critical failure".

        The roller's vision (or, against a target, the worse of it and the target square's level)
        gives disadvantage on Notice when poor or worse and on attacks when terrible or worse; with no
        vision, a Notice roll that relies on ``sight`` fails critically. Fatigue at the threshold gives
        disadvantage on every roll. Advantage and disadvantage together cancel out.
        """
        entity = self._check(entity)
        if kind not in ROLL_KINDS:
            raise IllegalCommand(f"unknown roll kind {kind!r}: expected one of {', '.join(sorted(ROLL_KINDS))}")
        rules = self.state.rules
        level = esper.component_for_entity(entity, Vision).level
        if target is not None:
            level = min(level, self._level_at(self._target_square(target)))
        if kind == "notice" and sight and level == Visibility.NO_VISION:
            return "critical failure"
        if esper.component_for_entity(entity, Fatigue).level >= rules.disadvantage_at_fatigue:
            disadvantage = True
        if kind == "notice" and level <= Visibility.POOR:
            disadvantage = True
        if kind == "attack" and level <= Visibility.TERRIBLE:
            disadvantage = True
        if advantage and disadvantage:
            return "normal"
        return "advantage" if advantage else "disadvantage" if disadvantage else "normal"

    # ------------------------------------------------------------------ extending the battle

    @_command
    def attach_reaction(self, script: str, entity: int | None = None) -> None:
        """Run a Starlark script's reactions (``on_damaged``, ``on_downed``, ``on_fell``, ``on_landed``,
        ``on_turn_start``, ``on_round_end``) for one creature's events, or for every event when no
        creature is given. The script is loaded now, so a broken one is refused at once."""
        if entity is not None:
            entity = self._check(entity)
        try:
            functions = self.scripts.load(script)
        except ScriptError as err:
            raise IllegalCommand(f"cannot attach reaction script: {err}") from None
        from game.battle.reactions import REACTIONS
        if not functions & set(REACTIONS.values()):
            raise IllegalCommand(f"{script} defines no reaction; expected one of {', '.join(REACTIONS.values())}")
        self.scripts.skip_to_now()
        self.scripts.reactions.append((script, entity))

    def on(self, event_type: type[Event], handler: Callable[[Battle, Event], None]) -> None:
        """Trusted Python: call ``handler(battle, event)`` for each event of this type, during ticks.

        For developers only (it runs with the engine's full power); designers use reaction scripts.
        A handler talks back through the public commands, which resolve at the next opportunity.
        """
        self.scripts.python_handlers.setdefault(event_type, []).append(handler)

    @_entry
    def add_system(self, processor: esper.Processor, priority: int) -> None:
        """Trusted Python: add an esper processor to this battle's world.

        It is called as ``process(phase, actor)`` in every phase (see ``systems.state.Phase``);
        ``priority`` places it in ``systems.schedule.ORDER`` (higher runs earlier; the built-in
        systems have priorities ``len(ORDER)`` down to 1).
        """
        esper.add_processor(processor, priority=priority)

    # ------------------------------------------------------------------ replay

    @classmethod
    def replay(cls, seed: int, width: int, height: int, rules: Rules | Mapping[str, Any] | None,
               commands: Iterable[tuple[str, tuple[Any, ...], dict[str, Any]]], **options: Any) -> Battle:
        """A new battle with the same seed, fed the same command log: it produces the same events.

        ``options`` are the rest of the original's constructor arguments (``powers``,
        ``script_dir``, ``trusted_scripts``, ...), which the log does not record.
        """
        battle = cls(seed=seed, width=width, height=height, rules=rules, **options)
        for name, args, kwargs in commands:
            if not cls.is_command(name):
                raise IllegalCommand(f"the log names {name!r}, which is not a battle command")
            getattr(battle, name)(*args, **kwargs)
        return battle
