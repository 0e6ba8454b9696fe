"""Using powers: who a power reaches, whether it may be used, and what it does when it resolves.

Validation is one function (``problem``) called twice: when the command is issued, so that a person
gets the error at once, and when it resolves on the user's turn, since the world may have changed.
Resolution turns a power into the same requests the rest of the engine uses (hits, heals, counted
condition grants, lights and areas with a source), so durations can take back exactly what it gave.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING

import esper
import numpy as np
import tcod.map

from components import Conditions, Creature, Defense, Fatigue, Health, Movement, Position, Vision
from components.commands import Heal, Hit, UsePower
from components.effects import ActiveEffect
from components.events import AreaCreated, AttackRolled, CommandRefused, PowerUsed, Pushed, SaveRolled, Teleported
from components.powers import Power
from components.terrain import MAX_AREAS, MAX_LIGHTS, Area, Light
from systems.geometry import distance_ft, within_radius
from systems.rolls import roll_die
from systems.state import BattleState
from systems.visibility import sees
from systems.vitals import can_act, is_dead

if TYPE_CHECKING:
    from game.battle.facade import Battle

_CONE_COS = 1 / math.sqrt(1.25)  # half-angle atan(1/2): the cone is as wide as it is far


def area_squares(state: BattleState, power: Power, origin: tuple[int, int], point: tuple[int, int] | None
                 ) -> list[tuple[int, int]]:
    """The squares a power's area covers, walls and what they shadow excluded.

    A burst is centred on ``point`` (or on the user at ``origin`` without a range); a cone or line
    starts at the user and points at ``point``.
    """
    assert power.area is not None
    terrain, rules = state.terrain, state.rules
    shape = terrain.walls.shape
    if power.area.shape == "burst":
        centre = point if (power.range_ft is not None and point is not None) else origin
        mask = within_radius(shape, centre, power.area.radius_ft, rules)
    else:
        if point is None or point == origin:
            return []
        centre = origin
        xs = (np.arange(shape[0]) - origin[0])[:, None].astype(float)
        ys = (np.arange(shape[1]) - origin[1])[None, :].astype(float)
        dx, dy = point[0] - origin[0], point[1] - origin[1]
        norm = math.hypot(dx, dy)
        ux, uy = dx / norm, dy / norm
        along = xs * ux + ys * uy
        length = power.area.length_ft / rules.square_ft
        if power.area.shape == "cone":
            dist = np.hypot(xs, ys)
            reach = within_radius(shape, origin, power.area.length_ft, rules)
            mask = reach & (along >= _CONE_COS * dist) & (dist > 0)
        else:
            across = np.abs(xs * uy - ys * ux)
            half_width = power.area.width_ft / rules.square_ft / 2
            mask = (along > 0) & (along <= length + 0.5) & (across < half_width + 1e-9)
    seen = tcod.map.compute_fov(~terrain.walls, centre, radius=0, light_walls=False,
                                algorithm=tcod.constants.FOV_SYMMETRIC_SHADOWCAST)
    mask = mask & seen & ~terrain.walls
    return [(int(x), int(y)) for x, y in zip(*np.nonzero(mask))]


def can_see(state: BattleState, viewer: int, square: tuple[int, int], here: tuple[int, int] | None = None) -> bool:
    """The rules' "you can see" from the viewer's square (or ``here``, where it will stand): see
    ``systems.visibility.sees``."""
    assert state.levels is not None
    here = here or esper.component_for_entity(viewer, Position).square
    level = esper.component_for_entity(viewer, Vision).level
    # Sight depends on the walls and the level grid alone: a use is checked when issued and again
    # when it resolves, so answers are kept per computed grid (walls change only with the grid).
    key = (state.terrain.uid, state.levels_version, int(level), here, square)
    found = _SIGHT.get(key)
    if found is None:
        if len(_SIGHT) > 50_000:
            _SIGHT.clear()
        found = _SIGHT[key] = sees(state.terrain.walls, state.levels, level, here, square)
    return found


_SIGHT: dict[tuple[int, int, int, tuple[int, int], tuple[int, int]], bool] = {}


class PowerUse:
    """Validates and resolves ``UsePower`` commands for one battle."""

    def __init__(self, battle: Battle) -> None:
        self.battle = battle
        self.state = battle.state
        self.spent: dict[tuple[int, int, str], int] = {}  # (entity, round, action kind) -> uses
        self._effect_ids = iter(range(1, 2**62))

    def new_effect_id(self) -> int:
        """A fresh id for an ongoing effect (scripts that create areas and lights use these too)."""
        return next(self._effect_ids)

    # ------------------------------------------------------------------ who and where

    def targets(self, power: Power, user: int, target: int | None, point: tuple[int, int] | None) -> list[int]:
        """The creatures a use reaches (before attack rolls and saves), in entity order."""
        if power.targets == "self" and power.area is None:
            return [user]
        if power.area is None:
            return [] if target is None else [target]
        origin = esper.component_for_entity(user, Position).square
        squares = set(area_squares(self.state, power, origin, point))
        team = esper.component_for_entity(user, Creature).team
        found = []
        for entity, (position, creature, health, fatigue) in sorted(
                esper.get_components(Position, Creature, Health, Fatigue)):
            if position.square not in squares or is_dead(health, fatigue):
                continue
            if power.targets in ("allies", "ally") and creature.team != team:
                continue
            if power.targets in ("enemies", "enemy") and creature.team == team:
                continue
            found.append(entity)
        return found

    def problem(self, power: Power, user: int, target: int | None, point: tuple[int, int] | None,
                user_square: tuple[int, int] | None = None, queued: Iterable[UsePower] = ()) -> str | None:
        """Why this use is illegal now, in words a player can act on; None when it is legal."""
        state, rules = self.state, self.state.rules
        conditions = esper.component_for_entity(user, Conditions)
        if not can_act(conditions):
            return "it cannot act (downed, unconscious or dead)"
        if "surprised" in conditions.active:
            return "it is surprised and cannot use powers this round"
        known = self.battle.powers_of(user)
        if known and power.id not in known:
            return f"it does not have the power {power.id!r} (it has {', '.join(known)})"
        if power.action != "free":
            used = self.spent.get((user, state.round + (0 if state.actor == user else 1), power.action), 0)
            used += sum(1 for q in queued if self.battle.power(q.power).action == power.action)
            if used >= 1 and state.in_combat:
                return f"it has already used its {power.action} this round"
        here = user_square or esper.component_for_entity(user, Position).square
        reach = power.range_ft if power.range_ft is not None else float(rules.square_ft)
        if power.single_target:
            if target is None:
                return f"{power.name} needs a target creature"
            if not esper.entity_exists(target) or not esper.has_component(target, Creature):
                return f"there is no creature {target!r} in this battle"
            if is_dead(esper.component_for_entity(target, Health), esper.component_for_entity(target, Fatigue)):
                return f"{esper.component_for_entity(target, Creature).name} is dead"
            t_square = esper.component_for_entity(target, Position).square
            same_team = esper.component_for_entity(target, Creature).team == esper.component_for_entity(
                user, Creature).team
            if power.targets in ("enemy", "enemies") and same_team:
                return "the target must be an enemy"
            if power.targets in ("ally", "allies") and not same_team:
                return "the target must be an ally"
            gap = distance_ft(here, t_square, rules)
            if gap > reach:
                return f"the target is {gap} ft away and {power.name} reaches {reach:g} ft"
            if target != user and not can_see(state, user, t_square, here):
                return "it cannot see the target (no clear line, or no vision)"
            return None
        if power.aims_at_point:
            if point is None:
                return f"{power.name} needs a point to aim at"
            if not state.terrain.inside(*point):
                return f"point {point} is off the grid"
            if power.range_ft is not None:
                gap = distance_ft(here, point, rules)
                if gap > power.range_ft:
                    return f"point {point} is {gap} ft away and {power.name} reaches {power.range_ft:g} ft"
                if not can_see(state, user, point, here):
                    return f"it cannot see point {point}"
            elif point == here:
                return f"{power.name} needs a direction: aim at another square"
        if power.teleport:
            if point is None:
                return f"{power.name} needs a point to land on"
            if state.terrain.walls[point]:
                return f"point {point} is a wall"
            if state.taken(point, user):
                return f"point {point} is taken"
        return None

    # ------------------------------------------------------------------ resolution

    def resolve(self, command: UsePower) -> None:
        """Resolve one use on the user's turn (the handler the action system calls)."""
        state = self.state
        power = self.battle.power(command.power)
        problem = self.problem(power, command.actor, command.target, command.point)
        if problem:
            state.emit(CommandRefused(state.round, command.actor, f"use {power.id}", problem))
            return
        key = (command.actor, state.round, power.action)
        if self.spent and next(iter(self.spent))[1] < state.round:
            self.spent = {k: v for k, v in self.spent.items() if k[1] >= state.round}  # old rounds are over
        self.spent[key] = self.spent.get(key, 0) + 1
        state.emit(PowerUsed(state.round, command.actor, power.id, command.target, command.point))
        effect = None
        if power.duration is not None:
            effect_id = self.new_effect_id()
            effect = ActiveEffect(effect_id, power.id, command.actor, f"effect:{effect_id}",
                                  state.round + power.duration, power.end_early, power.script)
        source = effect.source if effect else f"power:{power.id}"
        if effect is not None:
            state.effects[effect.id] = effect  # before the scripts run: what they grant is the effect's too
        hook = self.battle.scripts
        ctx = {"user": command.actor, "power": power.id, "round": state.round,
               "target": command.target if command.target is not None else -1,
               "x": command.point[0] if command.point else -1, "y": command.point[1] if command.point else -1,
               "effect": effect.id if effect else -1}
        if power.script and hook is not None:
            hook.run(power.script, "on_use", ctx)
        for target in self.targets(power, command.actor, command.target, command.point):
            outcome = self._outcome(power, command.actor, target)
            if outcome == "miss":
                continue
            self._apply(power, command.actor, target, source, effect, halved=outcome == "half")
            if power.script and hook is not None:
                hook.run(power.script, "on_hit", ctx, target)
        self._teleport(power, command)
        self._create(power, command, effect)

    def _outcome(self, power: Power, user: int, target: int) -> str:
        """Roll the attack or the save, if any: "hit" (effects apply), "half" (saved, half damage) or "miss"."""
        state = self.state
        if power.attack_bonus is not None:
            mode = self.battle.roll_mode(user, "attack", target=target)
            roll = roll_die(state.rng, 20, mode)
            total = roll + esper.component_for_entity(user, Defense).attack_bonus + power.attack_bonus
            defense = self.battle.defense_against(target, user)
            hit = mode != "critical failure" and total >= defense
            cover = self.battle.has_cover(target, user)
            state.emit(AttackRolled(state.round, user, target, power.id, roll, mode, total, defense, hit, cover))
            return "hit" if hit else "miss"
        if power.save_dc is not None:
            mode = self.battle.roll_mode(target, "save")
            roll = roll_die(state.rng, 20, mode)
            success = roll >= power.save_dc
            state.emit(SaveRolled(state.round, target, power.id, roll, mode, roll, power.save_dc, success))
            if not success:
                return "hit"
            return "half" if power.save_half else "miss"
        return "hit"

    def _apply(self, power: Power, user: int, target: int, source: str, effect: ActiveEffect | None,
               halved: bool) -> None:
        """Apply a power's effects to one target that it reached (``halved``: it made a half save)."""
        state = self.state
        if power.damage is not None:
            amount = power.damage.roll(state.rng)
            if halved:
                amount //= 2
            state.health_queue.append(Hit(target, amount, f"power:{power.id}"))
        if power.healing is not None:
            state.health_queue.append(Heal(target, power.healing.roll(state.rng), f"power:{power.id}"))
        if halved:
            return  # a successful save against a half-damage power takes the damage only
        conditions = esper.component_for_entity(target, Conditions)
        grants = list(power.conditions) + (["flying"] if power.flight else [])
        for name in grants:
            conditions.grant(name, source)
            if effect is not None:
                effect.conditions.append((target, name))
        if grants:
            state.dirty.add(target)
        if power.push_ft or power.pull_ft:
            self._force(user, target, power.push_ft or power.pull_ft, away=bool(power.push_ft))

    def _force(self, user: int, target: int, feet: float, away: bool) -> None:
        """Push (away) or pull (toward) square by square; walls, cliffs and creatures stop it, and so
        does an edge: over a drop there is nothing under the creature, and it falls there."""
        state = self.state
        if is_dead(esper.component_for_entity(target, Health), esper.component_for_entity(target, Fatigue)):
            return  # the dead are a record: nothing moves them
        flying = esper.component_for_entity(target, Movement).flying or \
            esper.component_for_entity(target, Conditions).has_granted("flying")
        origin = esper.component_for_entity(user, Position).square
        position = esper.component_for_entity(target, Position)
        start = position.square
        sx = int(np.sign(start[0] - origin[0])) * (1 if away else -1)
        sy = int(np.sign(start[1] - origin[1])) * (1 if away else -1)
        if (sx, sy) == (0, 0):
            return
        x, y = start
        for _ in range(int(feet // state.rules.square_ft)):
            nx, ny = x + sx, y + sy
            if not state.terrain.inside(nx, ny) or state.terrain.walls[nx, ny] or state.taken((nx, ny), target):
                break
            if state.terrain.ground[nx, ny] > position.z:
                break  # a cliff face: you cannot push someone into rock
            x, y = nx, ny
            if not flying and state.terrain.ground[nx, ny] < position.z:
                break  # shoved over the edge
        if (x, y) != start:
            state.place(target, position, (x, y))
            state.emit(Pushed(state.round, target, start, (x, y), user))

    def _teleport(self, power: Power, command: UsePower) -> None:
        if not power.teleport or command.point is None:
            return
        state = self.state
        position = esper.component_for_entity(command.actor, Position)
        start = position.square
        state.place(command.actor, position, command.point)
        position.z = float(state.terrain.ground[command.point])
        state.emit(Teleported(state.round, command.actor, start, command.point))

    def _create(self, power: Power, command: UsePower, effect: ActiveEffect | None) -> None:
        state = self.state
        if not (power.creates_area or power.creates_light):
            return
        where = command.point if (command.point is not None and power.range_ft is not None) else \
            esper.component_for_entity(command.actor, Position).square
        source = effect.source if effect else f"power:{power.id}"
        for made, kind in ((power.creates_area, "area"), (power.creates_light, "light")):
            if made is None:
                continue
            held = state.terrain.areas if kind == "area" else state.terrain.lights
            if len(held) >= (MAX_AREAS if kind == "area" else MAX_LIGHTS):
                state.emit(CommandRefused(state.round, command.actor, f"use {power.id}",
                                          f"the map already holds the most {kind}s it takes"))
                continue
            map_id = self.battle._new_map_id()
            if kind == "area":
                state.terrain.areas[map_id] = Area(where[0], where[1], made.radius_ft, made.level, source)
                if effect is not None:
                    effect.areas.append(map_id)
            else:
                state.terrain.lights[map_id] = Light(where[0], where[1], made.radius_ft, made.level, source)
                if effect is not None:
                    effect.lights.append(map_id)
            state.terrain.touch()
            state.emit(AreaCreated(state.round, effect.id if effect else 0, kind, where[0], where[1],
                                   made.radius_ft, made.level.name.lower()))

