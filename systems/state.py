"""The resources every system shares: rules, the map, the generator, queues and the event log.

esper holds entities and components; what is not per-entity lives here, one instance per battle,
handed to each processor when the battle installs it. Systems talk only through this state, the
components and the events they append: never by calling each other.
"""

from __future__ import annotations

import enum
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import esper
import numpy as np

from components import Conditions, Position
from components.commands import ActorCommand, ChangeFatigue, HealthRequest
from components.effects import ActiveEffect
from components.events import Event
from components.rules import Rules
from components.terrain import Terrain


class Phase(enum.Enum):
    """When in a tick the processors are running.

    START: the round begins and commands no creature acts out (a GM's damage and heal) resolve.
    TURN: one creature's turn: its own queued commands resolve, then their consequences.
    END: the round ends (surprise wears off) and the derived state settles.
    GM: right after an immediate change between ticks (a condition granted, a light lit, a creature
    spawned): vision and conditions settle and their events are recorded at once.
    REFRESH: cover only, recomputed for a query between ticks; it records no event, so looking
    never changes what happens.
    """

    START = "start"
    TURN = "turn"
    END = "end"
    GM = "gm"
    REFRESH = "refresh"


@dataclass(slots=True)
class BattleState:
    """Per-battle resources, outside the ECS because they are not per-entity."""

    rules: Rules
    terrain: Terrain
    rng: random.Random
    events: list[Event] = field(default_factory=list)
    round: int = 0
    in_combat: bool = False
    combat_first_round: int = 0
    order: list[int] = field(default_factory=list)
    actor: int | None = None
    health_queue: deque[HealthRequest] = field(default_factory=deque)
    fatigue_queue: deque[ChangeFatigue] = field(default_factory=deque)
    actions: dict[int, deque[ActorCommand]] = field(default_factory=dict)
    moved: set[int] = field(default_factory=set)
    dirty: set[int] = field(default_factory=set)
    positions_version: int = 0
    handlers: dict[type, Callable[[Any], None]] = field(default_factory=dict)
    effects: dict[int, ActiveEffect] = field(default_factory=dict)
    effect_end_hooks: list[Callable[[ActiveEffect], None]] = field(default_factory=list)
    squares: dict[tuple[int, int], set[int]] = field(default_factory=dict)  # who stands where
    levels: np.ndarray | None = None  # the visibility system's level grid, [x, y] of Visibility values
    levels_version: int = 0  # grows each time ``levels`` is recomputed (caches of sight key on it)

    def emit(self, event: Event) -> None:
        """Record a fact; the only way systems report what happened."""
        self.events.append(event)

    def place(self, entity: int, position: Position, square: tuple[int, int]) -> None:
        """Put a creature on a square, keeping the square index current; the one way x, y change."""
        old = self.squares.get(position.square)
        if old is not None:
            old.discard(entity)
            if not old:
                del self.squares[position.square]
        position.x, position.y = square
        self.squares.setdefault(square, set()).add(entity)
        self.mark_moved(entity)

    def taken(self, square: tuple[int, int], mover: int | None = None) -> bool:
        """Whether a living creature other than ``mover`` stands on ``square`` (the dead don't block)."""
        for entity in self.squares.get(square, ()):
            if entity != mover and "dead" not in esper.component_for_entity(entity, Conditions).active:
                return True
        return False

    def mark_moved(self, entity: int) -> None:
        """A creature's square or height changed: falling, vision, cover and conditions look again."""
        self.moved.add(entity)
        self.dirty.add(entity)
        self.positions_version += 1
