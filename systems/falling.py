"""Falling: a creature with nothing under it falls, up to a set distance each round, and lands hurt.

The fall's damage depends on its whole distance, so a fall that spans rounds keeps where it started
in the ``Falling`` component; the landing becomes an ordinary hit for the damage system.
"""

from __future__ import annotations

import esper

from components import Conditions, Falling, Fatigue, Health, Movement, Position, Rules
from components.commands import Hit
from components.dice import die
from components.events import Fell, Landed
from components.powers import FALL
from systems.drops import fall_dice
from systems.state import BattleState, Phase
from systems.vitals import is_dead, is_flying


def round_fall_left(falling: Falling, rules: Rules) -> float:
    """How far a creature may still fall this round: a round's fall less what it has fallen in it.
    What the falling system drops it by, and what a walk's harmless steps down must fit in."""
    return rules.fall_ft_per_round - falling.fallen_this_round


def is_unsupported(state: BattleState, entity: int) -> bool:
    """Whether nothing holds the creature up where it is: above the ground there, and not flying.
    The turn refuses its orders while it is so ("it is falling"), and its powers' checks say so."""
    position = esper.component_for_entity(entity, Position)
    if position.z <= state.terrain.ground_at((position.x, position.y)):  # (its square, without the property's call)
        return False
    return not is_flying(esper.component_for_entity(entity, Movement), esper.component_for_entity(entity, Conditions))


class FallingSystem(esper.Processor):
    """Starts, continues and ends falls.

    It runs in the GM phase too: support taken away between orders (an effect ended early, flight
    revoked, the ground lowered) drops the creature at once, and the damage system settles its
    landing in the same phase, as a fall after an order settles before the next. Not before the
    battle's first round: a battle being set up (a creature spawned in the air before its flight is
    granted, the ground drawn under creatures already placed) is not yet one in which anyone falls;
    what is unsupported then falls at the first tick's start.
    """

    PHASES = frozenset({Phase.START, Phase.TURN, Phase.END, Phase.GM})  # the only phases it runs in

    def __init__(self, state: BattleState) -> None:
        self.state = state

    def process(self, phase: Phase, actor: int | None = None) -> None:
        if phase not in self.PHASES:
            return
        state = self.state
        if phase is Phase.GM and state.round == 0:
            return  # still being set up: the first tick looks at whoever moved or had the map change
        if state.terrain.version != state.falls_seen_map:
            # The ground may have dropped away under anyone (a floor gives way): look at everyone.
            state.falls_seen_map = state.terrain.version
            candidates = {e for e, _ in esper.get_component(Position)} | state.in_air
        elif state.moved or state.in_air:
            candidates = state.moved | state.in_air
        else:
            return  # nobody moved and nobody is in the air: nothing can fall (most turns' end)
        state.moved.clear()
        for entity in sorted(candidates):
            if esper.entity_exists(entity):
                self._fall(entity)

    def _fall(self, entity: int) -> None:
        state, rules, terrain = self.state, self.state.rules, self.state.terrain
        position = esper.component_for_entity(entity, Position)
        falling = esper.component_for_entity(entity, Falling)
        ground = terrain.ground_at(position.square)
        if position.z == ground and falling.start_z is None and entity not in state.in_air:
            return  # on the ground, and no fall under way: whatever else holds, nothing changes
        movement = esper.component_for_entity(entity, Movement)
        health = esper.component_for_entity(entity, Health)
        fatigue = esper.component_for_entity(entity, Fatigue)
        if is_dead(health, fatigue):
            self.state.in_air.discard(entity)
            return
        if position.z < ground:
            position.z = ground  # the ground rose under it (set_ground): it stands on top, flier or not
        if is_flying(movement, esper.component_for_entity(entity, Conditions)):
            falling.start_z = None  # flight caught it: a fall under way ends unhurt
            self.state.in_air.discard(entity)
            return
        if position.z <= ground:
            if falling.start_z is None:
                self.state.in_air.discard(entity)
            else:
                self._land(entity, falling, ground)  # it met the ground mid-fall: it fell all the same
            return
        if falling.start_z is None:
            falling.start_z = position.z
        room = round_fall_left(falling, rules)
        if room <= 0:
            self.state.in_air.add(entity)
            return
        top = position.z
        position.z = max(ground, position.z - room)
        falling.fallen_this_round += top - position.z
        state.emit(Fell(state.round, entity, top, position.z))
        state.mark_moved(entity)
        if position.z > ground:
            self.state.in_air.add(entity)
            return
        self._land(entity, falling, ground)

    def _land(self, entity: int, falling: Falling, ground: float) -> None:
        state, rules = self.state, self.state.rules
        position = esper.component_for_entity(entity, Position)
        assert falling.start_z is not None
        distance = max(falling.start_z - ground, 0.0)  # (the ground may have risen past where it began)
        soft = bool(state.terrain.soft[position.square])
        dice = fall_dice(distance, soft, rules)
        damage = sum([die(state.rng, rules.fall_die_sides) for _ in range(dice)])
        falling.start_z = None
        self.state.in_air.discard(entity)
        state.emit(Landed(state.round, entity, distance, dice, damage, soft))
        if damage > 0:
            state.health_queue.append(Hit(entity, damage, FALL, landing=True))
            esper.component_for_entity(entity, Conditions).grant("prone", FALL)
            state.dirty.add(entity)
