"""The one place that declares the order of the systems, and installs them into a world.

Order matters: falls become hits, hits become fatigue, vision feeds flat-footed, and the derived
conditions are computed last from everything before them. Each processor runs in every phase it
takes part in, in this order; a test pins the list.
"""

from __future__ import annotations

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
from systems.rounds import RoundEndSystem, RoundSystem
from systems.state import BattleState
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


def install(state: BattleState) -> list[esper.Processor]:
    """Add one instance of each system to the current esper world, highest priority first.

    esper runs higher priorities first, so priorities count down from the length of ``ORDER``;
    passing ``priority=`` explicitly matters, since esper's default overwrites the class attribute.
    """
    processors = []
    for rank, system in enumerate(ORDER):
        processor = system(state)  # type: ignore[call-arg]
        esper.add_processor(processor, priority=len(ORDER) - rank)
        processors.append(processor)
    return processors
