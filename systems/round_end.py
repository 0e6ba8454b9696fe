"""The round's close: the last processor of the schedule says the round is over, once every
consequence of it (falls, damage, fatigue, effects running out) has been announced."""

from __future__ import annotations

import esper

from components.events import RoundEnded
from systems.state import BattleState, Phase


class RoundEndSystem(esper.Processor):
    """Closes the round last, after every consequence of it has been announced."""

    PHASES = frozenset({Phase.END})  # the only phases it runs in

    def __init__(self, state: BattleState) -> None:
        self.state = state

    def process(self, phase: Phase, actor: int | None = None) -> None:
        if phase is Phase.END:
            self.state.emit(RoundEnded(self.state.round))
