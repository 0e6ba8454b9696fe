"""The GM's immediate commands: conditions granted and revoked, combat started and ended, effects ended.

They are issued between turns and take effect at once: the facade queues one and runs the GM
phase, where this system applies it before vision and conditions settle, so their events come out
in the same call. Initiative is rolled here, with the battle's generator.
"""

from __future__ import annotations

import esper

from components import Conditions, Fatigue, Health, Readiness
from components.commands import EndCombat, EndEffect, GrantCondition, RevokeCondition, StartCombat
from components.events import CombatStarted, InitiativeRolled
from systems.effects import end_effect
from systems.grants import SURPRISE, end_surprise, grant_condition, revoke_condition
from systems.rolls import roll_die, roll_mode
from systems.state import BattleState, Phase
from systems.vitals import is_dead


def start_combat(state: BattleState) -> None:
    """Roll initiative and fix the turn order; creatures not prepared are surprised for the first round.

    Prepared creatures roll a die + initiative bonus, ties settled by the generator; the surprised
    roll nothing and act after them, in an order also drawn from the generator.
    """
    rolled: list[tuple[int, float, int]] = []
    surprised: list[tuple[float, int]] = []
    for entity in state.creatures:
        if is_dead(esper.component_for_entity(entity, Health), esper.component_for_entity(entity, Fatigue)):
            continue
        readiness = esper.component_for_entity(entity, Readiness)
        if readiness.prepared or state.rules.surprise_rounds == 0:
            roll = roll_die(state.rng, state.rules.initiative_die, roll_mode(state, entity, "initiative").mode)
            total = roll + readiness.initiative_bonus
            state.emit(InitiativeRolled(state.round, entity, roll, total))
            rolled.append((-total, state.rng.random(), entity))
        else:
            surprised.append((state.rng.random(), entity))
            esper.component_for_entity(entity, Conditions).grant("surprised", SURPRISE)
            state.dirty.add(entity)
    state.order = [e for *_, e in sorted(rolled)] + [e for _, e in sorted(surprised)]
    state.in_combat = True
    state.combat_first_round = state.round + 1
    state.emit(CombatStarted(state.round, tuple(state.order)))


def end_combat(state: BattleState) -> None:
    """Leave combat: no turn order, and surprise (if any is left) ends."""
    state.in_combat = False
    state.order = []
    end_surprise(state, spare_dead=False)


class GmSystem(esper.Processor):
    """Applies the queued GM commands, in the order issued, in the GM phase."""

    PHASES = frozenset({Phase.GM})  # the only phases it runs in

    def __init__(self, state: BattleState) -> None:
        self.state = state

    def process(self, phase: Phase, actor: int | None = None) -> None:
        state = self.state
        if phase is not Phase.GM:
            return
        while state.gm_queue:
            command = state.gm_queue.popleft()
            match command:
                case GrantCondition():
                    grant_condition(state, command)
                case RevokeCondition():
                    revoke_condition(state, command)
                case StartCombat():
                    start_combat(state)
                case EndCombat():
                    end_combat(state)
                case EndEffect():
                    effect = state.effects.pop(command.effect, None)
                    if effect is not None:
                        end_effect(state, effect, command.reason)
