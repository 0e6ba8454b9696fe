"""The resources every system shares: rules, the map, the generator, queues and the event log.

esper holds entities and components; everything else a battle is lives here, one instance per
battle, handed to each processor when the battle installs it. Systems keep nothing of their own
between calls, so this object and the components are the whole battle: a snapshot copies them and
a restore puts them back. Systems talk only through this state, the components and the events they
append: never by calling each other.
"""

from __future__ import annotations

import enum
import random
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import esper
import numpy as np

from components import Conditions, Position
from components.commands import ActorCommand, ChangeFatigue, GmCommand, HealthRequest
from components.effects import ActiveEffect
from components.events import Event
from components.powers import Power
from components.rules import Rules
from components.terrain import Terrain
from systems.caches import MapCaches
from systems.paths import Paths


class Phase(enum.Enum):
    """When in a round the processors are running.

    START: the round begins and commands no creature acts out (a GM's damage and heal) resolve.
    TURN: one creature's turn: its own queued commands resolve, then their consequences.
    END: the round ends (surprise wears off) and the derived state settles.
    GM: right after an immediate command between turns (a condition granted, combat started, an
    effect ended, a light lit, a creature spawned): it is applied, vision and conditions settle and
    their events are recorded at once.
    REFRESH: cover only, recomputed for a query between ticks; it records no event, so looking
    never changes what happens.
    """

    START = "start"
    TURN = "turn"
    END = "end"
    GM = "gm"
    REFRESH = "refresh"

    # A member is one object compared by identity, so its identity is an exact hash; Enum's own
    # hashes the member's name in Python, and a phase is looked up some 150 times a battle (each
    # phase's processors, the PHASES guards): about 30 us of a 4v4's rules and set-up.
    __hash__ = object.__hash__


class ScriptRunner(Protocol):
    """What the game layer plugs in to run a power's script (``systems`` never imports ``game``)."""

    def run(self, script: str, function: str, ctx: dict[str, Any], *args: Any) -> bool: ...


#: Fields of the state that are the battle itself (copied by a snapshot); the rest are wiring
#: (handlers, the script runner, caches) or values that never change (rules, powers).
SNAPSHOT_FIELDS = (
    "terrain", "events", "round", "in_combat", "combat_first_round", "order", "actor", "round_open",
    "round_order", "turn_index", "creatures",
    "health_queue", "fatigue_queue", "gm_queue", "actions", "moved", "dirty", "positions_version",
    "effects", "last_effect_id", "spent", "squares", "levels", "levels_version", "levels_of_map",
    "announced", "in_air", "falls_seen_map", "cover_seen", "cover_keys", "looked",
)


@dataclass(slots=True)
class BattleState:
    """Per-battle resources, outside the ECS because they are not per-entity."""

    rules: Rules
    terrain: Terrain
    rng: random.Random
    caches: MapCaches = field(default_factory=MapCaches)
    powers: Mapping[str, Power] = field(default_factory=dict)
    powers_version: int = 0  # grows each time the table is replaced (checks and answers about powers key on it)
    foreign_runs: int = 0  # phases in which a processor of trusted Python's ran (it may have changed anything)
    scripts: ScriptRunner | None = None
    events: list[Event] = field(default_factory=list)
    round: int = 0
    in_combat: bool = False
    combat_first_round: int = 0
    order: list[int] = field(default_factory=list)
    actor: int | None = None  # whose turn it is
    round_open: bool = False  # a round has begun and its turns are under way
    round_order: list[int] = field(default_factory=list)  # this round's turns, fixed when it began
    turn_index: int = -1  # the turn of ``round_order`` being played
    creatures: list[int] = field(default_factory=list)  # every creature ever spawned, in spawn order
    health_queue: deque[HealthRequest] = field(default_factory=deque)
    fatigue_queue: deque[ChangeFatigue] = field(default_factory=deque)
    gm_queue: deque[GmCommand] = field(default_factory=deque)
    actions: dict[int, deque[ActorCommand]] = field(default_factory=dict)
    moved: set[int] = field(default_factory=set)  # square or height changed: the falling system looks
    dirty: set[int] = field(default_factory=set)  # anything changed: vision and conditions are derived again
    looked: set[int] = field(default_factory=set)  # square or height changed: vision is looked at again
    positions_version: int = 0
    #: how the action system resolves a command it does not itself: False when its check refused it
    handlers: dict[type, Callable[[Any], bool | None]] = field(default_factory=dict)
    effects: dict[int, ActiveEffect] = field(default_factory=dict)
    last_effect_id: int = 0
    effect_end_hooks: list[Callable[[ActiveEffect], None]] = field(default_factory=list)
    spent: dict[tuple[int, int, str], int] = field(default_factory=dict)  # (entity, round, action) -> uses
    squares: dict[tuple[int, int], set[int]] = field(default_factory=dict)  # who stands where
    levels: np.ndarray | None = None  # the visibility system's level grid, [x, y] of Visibility values
    levels_version: int = 0  # grows each time ``levels`` is recomputed (answers about sight key on it)
    levels_of_map: int = -1  # the terrain version ``levels`` was computed for
    #: (levels_version, the answers about sight for this level grid, the layout's whole table of them
    #: when the grid has no darkness and the map is small, else None): the answers live in the caches,
    #: shared by every battle whose walls and level grid are these (None: look them up again)
    sight: tuple[int, dict[tuple[tuple[int, int], tuple[int, int]], bool], Any] | None = None
    #: plain-list copies of grids read square by square, each kept with the very array it copies (see
    #: ``systems.visibility.rows_of``); derived, so a snapshot leaves them out
    rows: dict[str, tuple[np.ndarray, list[list[Any]]]] = field(default_factory=dict)
    announced: dict[int, dict[str, str]] = field(default_factory=dict)  # entity -> condition -> why
    in_air: set[int] = field(default_factory=set)  # creatures still falling at the end of a round
    falls_seen_map: int = -1  # the terrain version the falling system last looked at everyone for
    cover_seen: tuple[int, int] = (-1, -1)  # (positions, terrain) versions cover was computed for
    cover_keys: dict[int, tuple[int | None, tuple[int, int], tuple[int, int] | None]] = field(default_factory=dict)
    paths: Paths = field(init=False)

    def __post_init__(self) -> None:
        self.paths = Paths(self.terrain, self.rules, self.caches)

    def emit(self, event: Event) -> None:
        """Record a fact; the only way systems report what happened."""
        self.events.append(event)

    def new_effect_id(self) -> int:
        """A fresh id for an ongoing effect (powers and scripts that make lights and areas)."""
        self.last_effect_id += 1
        return self.last_effect_id

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

    def taken(self, square: tuple[int, int], mover: int | None = None, also: int | None = None) -> bool:
        """Whether a living creature other than ``mover`` (and ``also``: a pusher counted elsewhere)
        stands on ``square`` (the dead don't block)."""
        for entity in self.squares.get(square, ()):
            if entity != mover and entity != also \
                    and "dead" not in esper.component_for_entity(entity, Conditions).active:
                return True
        return False

    def mark_moved(self, entity: int) -> None:
        """A creature's square or height changed: falling, vision and cover look again (its
        conditions follow only if its vision changed: nothing else they derive from moved)."""
        self.moved.add(entity)
        self.looked.add(entity)
        self.positions_version += 1


def check_stamp(state: BattleState) -> tuple[object, ...]:
    """Everything a command's check (``use_problem``, ``move_problem``) reads, as counters: equal
    stamps mean an equal answer.

    Whatever changes a creature (a move, a hit, a condition, a use spent, a refusal) records an
    event, so the length of the log stands for all of it; the rest changes without one: squares and
    heights (positions), walls and light (terrain, level grid), the round, whose turn it is, combat,
    and the power table. A command found legal when issued is checked again at resolution only when
    its stamp differs (an earlier order of the same turn resolved, someone moved, ...).
    """
    return (len(state.events), state.positions_version, state.terrain.version, state.levels_version, state.round,
            state.actor, state.in_combat, state.powers_version, state.foreign_runs)
