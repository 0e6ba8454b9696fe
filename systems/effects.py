"""Durations: when a power's effect runs out, everything it granted is taken back.

Permanent changes (damage, healing, where a push left someone) stay; conditions, lights, areas and
flight it granted go, unless another live source still grants them. A creature whose flight ends in
the air is marked moved, so the falling system drops it.
"""

from __future__ import annotations

import esper

from components.commands import RevokeCondition
from components.effects import ActiveEffect
from components.events import EffectEnded
from systems.grants import revoke_condition
from systems.state import BattleState, Phase


def runs_out(effect: ActiveEffect, round_now: int) -> bool:
    """Whether the effect's duration is over when round ``round_now`` ends (it ends then)."""
    return effect.ends_after_round <= round_now


def end_effect(state: BattleState, effect: ActiveEffect, reason: str) -> None:
    """Revert one effect's grants and record that it ended. Safe to call once per effect only."""
    if effect.ended:
        return
    effect.ended = True
    for entity, condition in effect.conditions:
        if esper.entity_exists(entity):
            revoke_condition(state, RevokeCondition(entity, condition, effect.source))
    changed = False
    for light_id in effect.lights:
        changed |= state.terrain.lights.pop(light_id, None) is not None
    for area_id in effect.areas:
        changed |= state.terrain.areas.pop(area_id, None) is not None
    if changed:
        state.terrain.touch()
    state.emit(EffectEnded(state.round, effect.id, effect.power, effect.user, reason))
    for hook in state.effect_end_hooks:
        hook(effect)


class EffectSystem(esper.Processor):
    """Ends the effects whose duration ran out with this round."""

    PHASES = frozenset({Phase.END})  # the only phases it runs in

    def __init__(self, state: BattleState) -> None:
        self.state = state

    def process(self, phase: Phase, actor: int | None = None) -> None:
        if phase is not Phase.END:
            return
        state = self.state
        for effect in list(state.effects.values()):
            if runs_out(effect, state.round):
                del state.effects[effect.id]
                end_effect(state, effect, "duration over")
