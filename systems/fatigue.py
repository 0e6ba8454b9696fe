"""Fatigue gained or recovered outside of damage (exhaustion, rest, powers), kept within 0..maximum.

The thresholds themselves (slowed, disadvantage, unconscious) are read from the rules table by the
conditions system and by rolls; this system only moves the track.
"""

from __future__ import annotations

import esper

from components import Fatigue, Health
from components.events import FatigueChanged
from systems.state import BattleState, Phase
from systems.vitals import is_dead


class FatigueSystem(esper.Processor):
    """Drains the fatigue queue."""

    PHASES = frozenset({Phase.START, Phase.TURN, Phase.END})  # the only phases it runs in

    def __init__(self, state: BattleState) -> None:
        self.state = state

    def process(self, phase: Phase, actor: int | None = None) -> None:
        if phase not in self.PHASES:
            return
        state = self.state
        while state.fatigue_queue:
            change = state.fatigue_queue.popleft()
            if not esper.entity_exists(change.target):
                continue
            fatigue = esper.component_for_entity(change.target, Fatigue)
            if is_dead(esper.component_for_entity(change.target, Health), fatigue):
                continue
            level = min(fatigue.maximum, max(0, fatigue.level + change.amount))
            if level == fatigue.level:
                continue
            delta, fatigue.level = level - fatigue.level, level
            state.dirty.add(change.target)
            state.emit(FatigueChanged(state.round, change.target, delta, level, change.reason))
