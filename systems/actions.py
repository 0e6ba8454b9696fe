"""Actions: a creature's own commands (move, stand, use a power), resolved on its turn.

Moving follows paths around walls within the creature's speed. The path functions are pure so that
the facade can validate a move when it is issued and the renderer can show where a creature may go,
with exactly the numbers the system will use. Commands this system does not know (powers) go to the
handler registered for their type in ``state.handlers``: the game layer plugs powers in there
without the systems importing it.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Iterable

import esper
import numpy as np
import tcod.path

from components import Conditions, Falling, Movement, Position, Rules, Terrain
from components.commands import Move, Stand
from components.events import CommandRefused, Moved, StoodUp
from systems.geometry import distance_ft, walls_key
from systems.state import BattleState, Phase
from systems.vitals import can_act

UNREACHABLE = np.iinfo(np.int32).max


def _weights(rules: Rules) -> tuple[int, int, int]:
    """Edge costs (cardinal, diagonal) and the divisor that turns a path cost into squares.

    With alternating diagonals, 2 for a straight step and 3 for a diagonal, halved and rounded
    down, gives exactly 5-10-5: d diagonals and s straights cost s + d + d // 2 squares.
    """
    return (1, 1, 1) if rules.diagonal == "one" else (2, 3, 2)


_CACHE: OrderedDict[tuple[object, ...], np.ndarray] = OrderedDict()
_CACHE_SIZE = 1024


def distance_map(terrain: Terrain, rules: Rules, roots: Iterable[tuple[int, int]],
                 window: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """Path cost from the nearest of ``roots`` to every square, around walls, in edge-cost units.

    tcod's ``Pathfinder`` over a ``SimpleGraph`` does the search (its ``dijkstra2d`` leaks about
    4 KiB of C memory a call in tcod 21, which a long simulation cannot afford). ``window`` is
    ``(x0, y0, x1, y1)``: only that part of the map is searched. Squares not reached are
    ``UNREACHABLE``.
    """
    cardinal, diagonal, _ = _weights(rules)
    x0, y0, x1, y1 = window or (0, 0, terrain.width, terrain.height)
    cost = np.where(terrain.walls[x0:x1, y0:y1], 0, 1).astype(np.int32)
    finder = tcod.path.Pathfinder(tcod.path.SimpleGraph(cost=cost, cardinal=cardinal, diagonal=diagonal))
    for x, y in roots:
        finder.add_root((x - x0, y - y0))
    finder.resolve()
    full = tcod.path.maxarray((terrain.width, terrain.height), dtype=np.int32)
    full[x0:x1, y0:y1] = finder.distance
    return full


def _raw_distances(terrain: Terrain, rules: Rules, start: tuple[int, int], limit_ft: float | None = None
                   ) -> np.ndarray:
    """Path costs from ``start`` in edge-cost units (see ``_weights``), cached per map version.

    With ``limit_ft``, only the window a creature could reach is searched (every step costs at
    least one square), which makes a 30 ft move on a 64x64 map many times cheaper. The same
    question is asked when a move is issued, when it resolves, by the computer player and by every
    battle of a simulation on one map, so the answers are kept (read-only) per layout of walls.
    """
    key = (walls_key(terrain), rules.diagonal, rules.square_ft, start, limit_ft)
    cached = _CACHE.get(key)
    if cached is not None:
        _CACHE.move_to_end(key)
        return cached
    window = None
    if limit_ft is not None:
        reach = int(max(limit_ft, 0) // rules.square_ft) + 1
        window = (max(0, start[0] - reach), max(0, start[1] - reach),
                  min(terrain.width, start[0] + reach + 1), min(terrain.height, start[1] + reach + 1))
    dist = distance_map(terrain, rules, [start], window)
    dist.flags.writeable = False
    _CACHE[key] = dist
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return dist


def step_costs(terrain: Terrain, rules: Rules, start: tuple[int, int], limit_ft: float | None = None
               ) -> np.ndarray:
    """Cost in feet of the cheapest path from ``start`` to every square (within ``limit_ft`` if given);
    unreachable squares are huge."""
    dist = _raw_distances(terrain, rules, start, limit_ft)
    feet = (dist // _weights(rules)[2]).astype(np.int64) * rules.square_ft
    feet[dist == UNREACHABLE] = UNREACHABLE
    return feet


def path_cost(terrain: Terrain, rules: Rules, start: tuple[int, int], goal: tuple[int, int],
              limit_ft: float | None = None) -> int | None:
    """Feet of the cheapest path from ``start`` to ``goal`` around walls, or None if there is none.

    With ``limit_ft``, a goal that needs a longer path is reported as None too.
    """
    if terrain.walls[goal]:
        return None
    dist = _raw_distances(terrain, rules, start, limit_ft)
    if dist[goal] == UNREACHABLE:
        return None
    return int(dist[goal]) // _weights(rules)[2] * rules.square_ft


def find_path(terrain: Terrain, rules: Rules, start: tuple[int, int], goal: tuple[int, int],
              limit_ft: float | None = None) -> tuple[list[tuple[int, int]], int] | None:
    """The cheapest path from ``start`` to ``goal`` (every square, both ends included) and its cost."""
    cost = path_cost(terrain, rules, start, goal, limit_ft)
    if cost is None:
        return None
    steps = tcod.path.hillclimb2d(_raw_distances(terrain, rules, start, limit_ft), goal, True, True)[::-1]
    return [(int(x), int(y)) for x, y in steps], cost


def speed_for_round(movement: Movement, conditions: Conditions, rules: Rules) -> int:
    """A creature's speed this round in feet: slowed multiplies it by the rules' factor (half)."""
    if "slowed" in conditions.active:
        return math.floor(movement.speed_ft * rules.slowed_speed_factor)
    return movement.speed_ft


def move_problem(terrain: Terrain, rules: Rules, position: Position, movement: Movement,
                 conditions: Conditions, falling: Falling, goal: tuple[int, int],
                 taken: Callable[[tuple[int, int]], bool]) -> str | None:
    """Why a move to ``goal`` is illegal right now, in words a player can act on; None if it is legal.

    ``taken(square)`` says whether another living creature stands on a square.
    """
    if not can_act(conditions):
        state = next(c for c in ("dead", "unconscious", "downed") if c in conditions.active)
        return f"it is {state} and cannot move"
    if falling.start_z is not None:
        return "it is falling"
    if "restrained" in conditions.active:
        return "it is restrained"
    if terrain.walls[goal]:
        return f"square {goal} is a wall"
    if goal != position.square and taken(goal):
        return f"square {goal} is taken by another creature"
    left = max(speed_for_round(movement, conditions, rules) - movement.used_ft, 0)
    straight = distance_ft(position.square, goal, rules)
    if straight > left:
        return f"square {goal} is {straight} ft away and it has {left} ft of movement left this round"
    cost = path_cost(terrain, rules, position.square, goal, limit_ft=left)
    if cost is None:
        if path_cost(terrain, rules, position.square, goal) is None:
            return f"no path to {goal} around the walls"
        return f"the way around the walls to {goal} is longer than the {left} ft of movement it has left"
    if cost > left:
        return f"square {goal} is {cost} ft away around the walls and it has {left} ft of movement left"
    return None


def flies(movement: Movement, conditions: Conditions) -> bool:
    """Whether the creature flies: innately (``Movement.flying``) or by a granted ``flying`` condition."""
    return movement.flying or conditions.has_granted("flying")


def walk(terrain: Terrain, path: list[tuple[int, int]], z: float, flying: bool) -> tuple[tuple[int, int], float]:
    """Where a move along ``path`` (both ends included) stops, and the height it stops at.

    A flyer goes all the way, rising to the ground of the goal if it is higher. A walker keeps its
    height (raised by higher ground), and the first square with nothing under that height is where
    it steps off: the move stops there and the creature falls.
    """
    if flying:
        return path[-1], max(z, float(terrain.ground[path[-1]]))
    for square in path[1:]:
        ground = float(terrain.ground[square])
        z = max(z, ground)
        if ground < z:
            return square, z
    return path[-1], z


def _describe(command: object) -> str:
    """A command as the log names it: "move to (3, 4)", "stand", "use strike"."""
    if isinstance(command, Move):
        return f"move to {(command.x, command.y)}"
    if isinstance(command, Stand):
        return "stand"
    power = getattr(command, "power", None)
    return f"use {power}" if power is not None else type(command).__name__.lower()


class ActionSystem(esper.Processor):
    """Resolves the acting creature's own commands on its turn, in the order it issued them."""

    def __init__(self, state: BattleState) -> None:
        self.state = state

    def process(self, phase: Phase, actor: int | None = None) -> None:
        if phase is not Phase.TURN or actor is None:
            return
        queue = self.state.actions.get(actor)
        while queue:
            command = queue.popleft()
            if self._unsupported(actor):
                self.state.emit(CommandRefused(self.state.round, actor, _describe(command), "it is falling"))
                continue
            if isinstance(command, Move):
                self._move(command)
            elif isinstance(command, Stand):
                self._stand(command)
            else:
                handler = self.state.handlers.get(type(command))
                if handler is None:
                    self.state.emit(CommandRefused(self.state.round, actor, type(command).__name__,
                                                   "no handler for this kind of command"))
                else:
                    handler(command)

    def _unsupported(self, entity: int) -> bool:
        """Whether nothing holds the creature up (it stepped off something this turn and will fall)."""
        position = esper.component_for_entity(entity, Position)
        if position.z <= self.state.terrain.ground[position.square]:
            return False
        return not flies(esper.component_for_entity(entity, Movement), esper.component_for_entity(entity, Conditions))

    def _move(self, command: Move) -> None:
        state, entity = self.state, command.actor
        position = esper.component_for_entity(entity, Position)
        movement = esper.component_for_entity(entity, Movement)
        conditions = esper.component_for_entity(entity, Conditions)
        falling = esper.component_for_entity(entity, Falling)
        goal = (command.x, command.y)
        problem = move_problem(state.terrain, state.rules, position, movement, conditions, falling, goal,
                               lambda square: state.taken(square, entity))
        if problem:
            state.emit(CommandRefused(state.round, entity, f"move to {goal}", problem))
            return
        left = speed_for_round(movement, conditions, state.rules) - movement.used_ft
        found = find_path(state.terrain, state.rules, position.square, goal, limit_ft=left)
        assert found is not None  # move_problem found it a moment ago
        path, cost = found
        start = position.square
        stop, z = walk(state.terrain, path, position.z, flies(movement, conditions))
        if stop != goal:
            cost = path_cost(state.terrain, state.rules, start, stop, limit_ft=left) or 0
        movement.used_ft += cost
        state.place(entity, position, stop)
        position.z = z
        state.emit(Moved(state.round, entity, start, stop, cost, position.z))

    def _stand(self, command: Stand) -> None:
        state, entity = self.state, command.actor
        conditions = esper.component_for_entity(entity, Conditions)
        movement = esper.component_for_entity(entity, Movement)
        if not can_act(conditions):
            state.emit(CommandRefused(state.round, entity, "stand", "it cannot act"))
            return
        if "prone" not in conditions.granted:
            state.emit(CommandRefused(state.round, entity, "stand", "it is not prone"))
            return
        movement.used_ft += movement.speed_ft // 2
        conditions.revoke("prone")
        state.dirty.add(entity)
        state.emit(StoodUp(state.round, entity))
