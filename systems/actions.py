"""Actions: a creature's own commands (move, stand, use a power), resolved on its turn.

Moving follows paths around walls within the creature's speed. The path functions are pure so that
the facade can validate a move when it is issued and the renderer can show where a creature may go,
with exactly the numbers the system will use. Commands this system does not know (powers) go to the
handler registered for their type in ``state.handlers``: the game layer plugs powers in there
without the systems importing it.
"""

from __future__ import annotations

import math

import esper
import numpy as np
import tcod.path

from components import Conditions, Falling, Movement, Position, Rules, Terrain
from components.commands import Move, Stand
from components.events import CommandRefused, Moved, StoodUp
from systems.state import BattleState, Phase
from systems.vitals import can_act

UNREACHABLE = np.iinfo(np.int32).max


def _weights(rules: Rules) -> tuple[int, int, int]:
    """Edge costs (cardinal, diagonal) and the divisor that turns a path cost into squares.

    With alternating diagonals, 2 for a straight step and 3 for a diagonal, halved and rounded
    down, gives exactly 5-10-5: d diagonals and s straights cost s + d + d // 2 squares.
    """
    return (1, 1, 1) if rules.diagonal == "one" else (2, 3, 2)


def _raw_distances(terrain: Terrain, rules: Rules, start: tuple[int, int]) -> np.ndarray:
    """tcod's Dijkstra over the walls, in edge-cost units (see ``_weights``)."""
    cardinal, diagonal, _ = _weights(rules)
    cost = np.where(terrain.walls, 0, 1).astype(np.int32)
    dist = tcod.path.maxarray((terrain.width, terrain.height), dtype=np.int32)
    dist[start] = 0
    tcod.path.dijkstra2d(dist, cost, cardinal, diagonal, out=dist)
    return dist


def step_costs(terrain: Terrain, rules: Rules, start: tuple[int, int]) -> np.ndarray:
    """Cost in feet of the cheapest path from ``start`` to every square; unreachable squares are huge."""
    dist = _raw_distances(terrain, rules, start)
    feet = (dist // _weights(rules)[2]).astype(np.int64) * rules.square_ft
    feet[dist == UNREACHABLE] = UNREACHABLE
    return feet


def find_path(terrain: Terrain, rules: Rules, start: tuple[int, int], goal: tuple[int, int]
              ) -> tuple[list[tuple[int, int]], int] | None:
    """The cheapest path from ``start`` to ``goal`` around walls and its cost in feet, or None."""
    if terrain.walls[goal]:
        return None
    dist = _raw_distances(terrain, rules, start)
    if dist[goal] == UNREACHABLE:
        return None
    steps = tcod.path.hillclimb2d(dist, goal, True, True)[::-1]
    path = [(int(x), int(y)) for x, y in steps]
    return path, int(dist[goal]) // _weights(rules)[2] * rules.square_ft


def speed_for_round(movement: Movement, conditions: Conditions, rules: Rules) -> int:
    """A creature's speed this round in feet: slowed multiplies it by the rules' factor (half)."""
    if "slowed" in conditions.active:
        return math.floor(movement.speed_ft * rules.slowed_speed_factor)
    return movement.speed_ft


def move_problem(terrain: Terrain, rules: Rules, position: Position, movement: Movement,
                 conditions: Conditions, falling: Falling, goal: tuple[int, int],
                 occupied: set[tuple[int, int]]) -> str | None:
    """Why a move to ``goal`` is illegal right now, in words a player can act on; None if it is legal."""
    if not can_act(conditions):
        state = next(s for s in ("dead", "unconscious", "downed") if s in conditions.active)  # the worst
        return f"it is {state} and cannot move"
    if falling.start_z is not None:
        return "it is falling"
    if "restrained" in conditions.active:
        return "it is restrained"
    if terrain.walls[goal]:
        return f"square {goal} is a wall"
    if goal != position.square and goal in occupied:
        return f"square {goal} is taken by another creature"
    found = find_path(terrain, rules, position.square, goal)
    if found is None:
        return f"no path to {goal} around the walls"
    left = speed_for_round(movement, conditions, rules) - movement.used_ft
    if found[1] > left:
        return f"square {goal} is {found[1]} ft away and it has {max(left, 0)} ft of movement left this round"
    return None


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

    def _occupied(self, mover: int) -> set[tuple[int, int]]:
        return {p.square for e, (p, c) in esper.get_components(Position, Conditions)
                if e != mover and "dead" not in c.active}

    def _move(self, command: Move) -> None:
        state, entity = self.state, command.actor
        position = esper.component_for_entity(entity, Position)
        movement = esper.component_for_entity(entity, Movement)
        conditions = esper.component_for_entity(entity, Conditions)
        falling = esper.component_for_entity(entity, Falling)
        goal = (command.x, command.y)
        problem = move_problem(state.terrain, state.rules, position, movement, conditions, falling, goal,
                               self._occupied(entity))
        if problem:
            state.emit(CommandRefused(state.round, entity, f"move to {goal}", problem))
            return
        found = find_path(state.terrain, state.rules, position.square, goal)
        assert found is not None  # move_problem found it a moment ago
        start = position.square
        movement.used_ft += found[1]
        position.x, position.y = goal
        position.z = max(position.z, float(state.terrain.ground[goal]))
        state.mark_moved(entity)
        state.emit(Moved(state.round, entity, start, goal, found[1], position.z))

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
