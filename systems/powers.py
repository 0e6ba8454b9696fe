"""Powers: a creature's use of a power resolves on its turn into rolls, hits, heals and grants.

The power system is installed with the others and registers itself as the action system's handler
for ``UsePower``, so a turn's moves and powers resolve in the order they were issued. It reads
components, the power table on the state and the command, and writes events and requests (hits and
heals for the damage system, counted condition grants, lights and areas with a source), so a
duration can take back exactly what a use gave. A power's script runs through the runner the game
layer plugged into ``state.scripts``; this system never calls the facade.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import esper

from components import Position, Visibility
from components.commands import GrantCondition, Heal, Hit, UsePower
from components.effects import ActiveEffect
from components.events import AreaCreated, AttackRolled, CommandRefused, PowerUsed, SaveRolled
from components.powers import Power, effect_source, power_source
from components.terrain import MAX_AREAS, MAX_LIGHTS, Area, Light
from systems.areas import area_centre, creatures_reached
from systems.forces import push, teleport
from systems.grants import grant_condition
from systems.power_checks import attack_terms, halved, save_terms, use_problem
from systems.rolls import roll_die
from systems.state import BattleState, Phase, check_stamp


def script_ctx(rnd: int, power: str, user: int, target: int | None, point: tuple[int, int] | None,
               effect: int = -1) -> dict[str, Any]:
    """What a power's script reads of its use (``ctx``'s plain fields): the same for the real call and
    for a what-if of it (``Battle.foresee_script``), so the what-if answers as the call would."""
    return {"user": user, "power": power, "round": rnd, "target": target if target is not None else -1,
            "x": point[0] if point else -1, "y": point[1] if point else -1, "effect": effect}


def make_veil(state: BattleState, kind: str, centre: tuple[int, int], radius_ft: float, level: Visibility,
              source: str, effect: ActiveEffect | None) -> int:
    """Put a light (``kind`` "light") or an obscuring area ("area") on the map for ``source``, note its
    map id on ``effect`` (whose end takes it away), and report it: the one way a power's use and a
    script make one, so both leave the same map and the same ``AreaCreated``. Returns the map id."""
    x, y = centre
    if kind == "area":
        map_id = state.terrain.add_area(Area(x, y, radius_ft, level, source))
        if effect is not None:
            effect.areas.append(map_id)
    else:
        map_id = state.terrain.add_light(Light(x, y, radius_ft, level, source))
        if effect is not None:
            effect.lights.append(map_id)
    state.emit(AreaCreated(state.round, effect.id if effect else 0, kind, x, y, radius_ft, level.name.lower()))
    return map_id


def spent_this_round(state: BattleState) -> dict[tuple[int, int, str], int]:
    """The uses spent this round (``state.spent``), once earlier rounds' tallies are dropped: only
    this round's count against an action, and a long battle keeps no tally of every round."""
    spent = state.spent
    if spent and next(iter(spent))[1] < state.round:  # (kept in the order spent: the oldest first)
        spent = state.spent = {k: v for k, v in spent.items() if k[1] >= state.round}
    return spent


class PowerSystem(esper.Processor):
    """Resolves ``UsePower`` commands for the action system, in the order a creature issued them."""

    PHASES = frozenset({Phase.START})  # the only phases it runs in

    def __init__(self, state: BattleState) -> None:
        self.state = state
        state.handlers[UsePower] = self.resolve

    def process(self, phase: Phase, actor: int | None = None) -> None:
        """Uses resolve when the action system reaches them; here only old rounds' tallies go."""
        if phase is Phase.START:
            spent_this_round(self.state)

    def resolve(self, command: UsePower) -> bool:
        """Resolve one use on the user's turn: checked again, then rolled and applied target by target.
        False when the check refused it (the action system refuses what relied on it)."""
        state = self.state
        power = state.powers[command.power]
        actor, rnd = command.actor, state.round
        if (command.checked is None or command.checked != check_stamp(state)) and self._refused(command, power):
            return False
        spent = spent_this_round(state)
        key = (actor, rnd, power.action)
        spent[key] = spent.get(key, 0) + 1
        state.emit(PowerUsed(rnd, actor, power.id, command.target, command.point))
        effect = None
        if power.duration is not None:
            effect_id = state.new_effect_id()
            effect = ActiveEffect(effect_id, power.id, actor, effect_source(effect_id),
                                  rnd + power.duration, power.end_early, power.script)
            state.effects[effect.id] = effect  # before the scripts run: what they grant is the effect's too
        source = effect.source if effect else power_source(power.id)
        script, scripts = power.script, state.scripts
        run = partial(scripts.run, script) if scripts is not None and script else None  # its hooks, if any
        ctx = script_ctx(state.round, power.id, command.actor, command.target, command.point,
                         effect.id if effect else -1) if run is not None else {}
        if run is not None:
            run("on_use", ctx)
        for target in creatures_reached(state, power, actor, command.target, command.point,
                                        direction=command.direction):
            outcome = self._outcome(power, actor, target)
            if outcome == "miss":
                continue
            self._apply(power, actor, target, source, effect, saved=outcome == "half")
            if run is not None:
                run("on_hit", ctx, target)
        if power.teleport and command.point is not None:
            teleport(state, actor, command.point)
        if power.creates_area or power.creates_light:
            self._create(power, command, effect)
        return True

    def _refused(self, command: UsePower, power: Power) -> bool:
        """Check the use again (the battle changed since it was issued); a refusal is an event."""
        state = self.state
        problem = use_problem(state, power, command.actor, command.target, command.point, direction=command.direction)
        if problem:
            state.emit(CommandRefused(state.round, command.actor, f"use {power.id}", problem))
        return bool(problem)


    def _outcome(self, power: Power, user: int, target: int) -> str:
        """Roll the attack or the save, if any: "hit" (effects apply), "half" (saved, half damage) or "miss"."""
        state = self.state
        if power.attack_bonus is not None:
            terms = attack_terms(state, power, user, target)
            roll = roll_die(state.rng, 20, terms.mode.mode)
            hit = terms.hits(roll)
            state.emit(AttackRolled(state.round, user, target, power.id, roll, terms.mode.mode, roll + terms.bonus,
                                    terms.defense.value, hit, terms.defense.cover))
            return "hit" if hit else "miss"
        if power.save_dc is not None:
            mode, dc = save_terms(state, power, target)
            roll = roll_die(state.rng, 20, mode.mode)
            success = roll >= dc
            state.emit(SaveRolled(state.round, target, power.id, roll, mode.mode, roll, dc, success))
            if not success:
                return "hit"
            return "half" if power.save_half else "miss"
        return "hit"

    def _apply(self, power: Power, user: int, target: int, source: str, effect: ActiveEffect | None,
               saved: bool) -> None:
        """Apply a power's effects to one target that it reached (``saved``: it made a half save)."""
        state = self.state
        if power.damage is not None:
            amount = power.damage.roll(state.rng)
            state.health_queue.append(Hit(target, halved(amount) if saved else amount, power_source(power.id)))
        if power.healing is not None:
            state.health_queue.append(Heal(target, power.healing.roll(state.rng), power_source(power.id)))
        if saved:
            return  # a successful save against a half-damage power takes the damage only
        for name in power.grants:  # (a target is alive: grant_condition's sparing of the dead never applies)
            grant_condition(state, GrantCondition(target, name, source, None if effect is None else effect.id))
        if power.push_ft or power.pull_ft:
            push(state, user, target, power.push_ft or power.pull_ft, away=bool(power.push_ft))

    def _create(self, power: Power, command: UsePower, effect: ActiveEffect | None) -> None:
        """Put the light or area a power makes where it lands (at the point, or on the user)."""
        state = self.state
        where = area_centre(power, esper.component_for_entity(command.actor, Position).square, command.point)
        source = effect.source if effect else power_source(power.id)
        for made, kind in ((power.creates_area, "area"), (power.creates_light, "light")):
            if made is None:
                continue
            held, most = (state.terrain.areas, MAX_AREAS) if kind == "area" else (state.terrain.lights, MAX_LIGHTS)
            if len(held) >= most:
                state.emit(CommandRefused(state.round, command.actor, f"use {power.id}",
                                          f"the map already holds the most {kind}s it takes"))
                continue
            make_veil(state, kind, where, made.radius_ft, made.level, source, effect)
