"""The one place that declares the order of the systems, and installs them into a world.

Order matters: falls become hits, hits become fatigue, vision feeds flat-footed, and the derived
conditions are computed last from everything before them. Each processor runs in every phase it
takes part in, in this order; a test pins the list.
"""

from __future__ import annotations

from collections.abc import Iterable

import esper

from systems.actions import ActionSystem
from systems.conditions import ConditionSystem
from systems.cover import CoverSystem
from systems.damage import DamageSystem
from systems.effects import EffectSystem
from systems.falling import FallingSystem
from systems.fatigue import FatigueSystem
from systems.gm import GmSystem
from systems.powers import PowerSystem
from systems.round_end import RoundEndSystem
from systems.rounds import RoundSystem
from systems.state import BattleState, Phase
from systems.visibility import VisibilitySystem

ORDER: tuple[type[esper.Processor], ...] = (
    RoundSystem,        # round start (movement budgets) and end (surprise wears off)
    GmSystem,           # the GM's immediate commands: conditions, combat, effects ended early
    ActionSystem,       # the acting creature's own commands, in order: move, stand, use a power
    PowerSystem,        # resolves the uses the action system hands it: rolls, hits, grants, areas
    EffectSystem,       # effects whose time ran out end, their grants go (a flight ending drops you)
    FallingSystem,      # unsupported creatures fall, landings become hits
    DamageSystem,       # hits and heals in the order issued; 0 health adds fatigue
    FatigueSystem,      # fatigue gained or recovered outside of damage
    VisibilitySystem,   # the level grid and each creature's Vision
    CoverSystem,        # cover of each creature against its nearest enemy
    ConditionSystem,    # derived conditions (downed, slowed, flat-footed, ...) and their events
    RoundEndSystem,     # the round is over
)


class Schedule:
    """The processors of one battle's world by phase, so a phase calls only the systems in it.

    ``esper.process`` calls every processor in every phase, and most return at once: a turn that
    only moves would make twelve calls for four systems. Each built-in system declares ``PHASES``;
    a processor without it (trusted Python's ``Battle.add_system``) runs in every phase. The order
    is esper's: higher priority first, equal priorities in the order added.
    """

    def __init__(self, state: BattleState | None = None) -> None:
        self.state = state
        self.entries: list[tuple[int, esper.Processor]] = []
        self.by_phase: dict[Phase, list[esper.Processor]] = {phase: [] for phase in Phase}
        self.foreign: set[Phase] = set()  # the phases a processor without declared PHASES runs in

    def add(self, processor: esper.Processor, priority: int) -> None:
        """Add a processor to this world (esper's list too) and to the phases it runs in."""
        self.add_all(((processor, priority),))

    def add_all(self, processors: Iterable[tuple[esper.Processor, int]]) -> None:
        """Add processors with their priorities, as one :meth:`add` each would, phases worked out once.

        Why: every battle installs twelve systems, and placing them one at a time asked each phase
        about every processor twelve times over (Phase hashes in Python): most of a new battle's cost.
        """
        for processor, priority in processors:
            esper.add_processor(processor, priority=priority)
            self.entries.append((priority, processor))
        self.entries.sort(key=lambda entry: -entry[0])  # stable, as esper's own sort
        by_phase = self.by_phase
        for placed in by_phase.values():
            placed.clear()
        self.foreign.clear()
        for _, processor in self.entries:
            phases = getattr(processor, "PHASES", None)
            if phases is None:  # none declared (trusted Python's): every phase
                phases = by_phase
                self.foreign.update(by_phase)
            for phase in phases:
                by_phase[phase].append(processor)

    def run(self, phase: Phase, actor: int | None = None) -> None:
        """``esper.process(phase, actor)`` for the processors in ``phase`` only (entities deleted
        since the last call go first, as esper does)."""
        esper.clear_dead_entities()
        for processor in self.by_phase[phase]:
            processor.process(phase, actor)
        if phase in self.foreign and self.state is not None:
            # trusted Python may have changed anything: what was worked out about the battle is asked again
            self.state.foreign_runs += 1


def install(state: BattleState) -> Schedule:
    """Add one instance of each system to the current esper world, highest priority first.

    esper runs higher priorities first, so priorities count down from the length of ``ORDER``;
    passing ``priority=`` explicitly matters, since esper's default overwrites the class attribute.
    """
    schedule = Schedule(state)
    schedule.add_all((system(state), len(ORDER) - rank) for rank, system in enumerate(ORDER))  # type: ignore[call-arg]
    return schedule
