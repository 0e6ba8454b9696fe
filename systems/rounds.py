"""Rounds: every tick is one round; budgets reset at its start, surprise wears off at its end.

The first processor of the schedule; ``systems.round_end`` closes the round last, so that the two
bracket everything else in it.
"""

from __future__ import annotations

import esper

from components import Falling, Movement
from components.events import RoundStarted
from systems.grants import end_surprise
from systems.state import BattleState, Phase


def surprise_rounds(state: BattleState) -> tuple[int, int]:
    """The first and the last round the surprised stay surprised: combat's first round, and
    ``rules.surprise_rounds`` of them in all (the rules' "the first round of combat" by default). What
    the round system ends surprise after, and what a window tells the person whose creatures it is."""
    first = state.combat_first_round
    return first, first + state.rules.surprise_rounds - 1


class RoundSystem(esper.Processor):
    """Starts and ends rounds."""

    PHASES = frozenset({Phase.START, Phase.END})  # the only phases it runs in

    def __init__(self, state: BattleState) -> None:
        self.state = state

    def process(self, phase: Phase, actor: int | None = None) -> None:
        if phase is Phase.START:
            self._start()
        elif phase is Phase.END:
            self._end()

    def _start(self) -> None:
        state = self.state
        state.round += 1
        state.emit(RoundStarted(state.round))
        for _, movement in esper.get_component(Movement):
            movement.used_ft = 0
        for _, falling in esper.get_component(Falling):
            falling.fallen_this_round = 0

    def _end(self) -> None:
        state = self.state
        # Commands issued between ticks are for the next round: validate them against a full budget.
        for _, movement in esper.get_component(Movement):
            movement.used_ft = 0
        if state.in_combat and state.round >= surprise_rounds(state)[1]:
            end_surprise(state, spare_dead=True)
