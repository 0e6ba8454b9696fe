"""A creature's queued orders: where they will leave it, and whether one more move is legal.

A move is checked when it is issued against where the creature will be after what it has already
queued this turn; the action system checks it again when it resolves. Both the facade and the
script bridge queue through here.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

import esper

from components import Conditions, Falling, Movement, Position
from components.commands import ActorCommand, Move, Stand
from game.battle.errors import IllegalCommand
from game.battle.validate import label, square
from systems.actions import move_problem
from systems.state import BattleState
from systems.vitals import is_flying


def projection(state: BattleState, entity: int, then: Sequence[ActorCommand] = ()) -> tuple[Position, Movement]:
    """Where the creature will be, at what height, and what movement it will have used, after its
    queued commands and then ``then`` (a planner's what-if: nothing is queued, nothing checked)
    (new objects: a caller may keep them).

    The height is where each move leaves it (a walker on the ground it ends on): a forecast after a
    queued climb starts from the top, not from where the creature stands now.
    """
    position = esper.component_for_entity(entity, Position)
    movement = esper.component_for_entity(entity, Movement)
    here, used, z = _through_queue(state, entity, position, movement, then)
    return Position(here[0], here[1], z), Movement(movement.speed_ft, used, movement.flying)


def projected_square(state: BattleState, entity: int) -> tuple[int, int]:
    """The square the creature will stand on after its queued commands (``projection``'s square)."""
    position = esper.component_for_entity(entity, Position)
    if not state.actions.get(entity):
        return position.square
    return _through_queue(state, entity, position, esper.component_for_entity(entity, Movement), ())[0]


def _through_queue(state: BattleState, entity: int, position: Position, movement: Movement,
                   then: Sequence[ActorCommand]) -> tuple[tuple[int, int], int, float]:
    """The square its queued moves (and ``then``) leave it on, the movement used by then (a stand
    costs half its speed), each move counted only where a path still leads, and its height there,
    as the move leaves it (``systems.actions.walk``): a walker on the ground (a climb raises it, a
    step down lands it), a flier at its height or the ground's if higher. A walk that steps off a
    ledge short of its goal is taken to reach it: the fall and the refusal of what is queued after
    it are the resolution's (the move's own forecast shows the fall)."""
    here, used, z = position.square, movement.used_ft, position.z
    queued = state.actions.get(entity)
    if not queued and not then:
        return here, used, z
    flying = is_flying(movement, esper.component_for_entity(entity, Conditions))
    for command in (*(queued or ()), *then):
        if isinstance(command, Move):
            goal = (command.x, command.y)
            cost = state.paths.cost(here, goal, limit_ft=movement.speed_ft, flying=flying)
            if cost is None:
                continue
            floor = float(state.terrain.ground[goal])
            here, used, z = goal, used + cost, max(z, floor) if flying else floor
        elif isinstance(command, Stand):
            used += movement.speed_ft // 2
    return here, used, z


def move_goal(state: BattleState, entity: int, x: object, y: object) -> tuple[int, int]:
    """The destination, if the creature may move there after its queued commands; else IllegalCommand."""
    goal = square(state, x, y, "destination")
    if state.actions.get(entity):
        position, movement = projection(state, entity)
    else:  # nothing queued: it starts from where it is (the check only reads them)
        position = esper.component_for_entity(entity, Position)
        movement = esper.component_for_entity(entity, Movement)
    problem = move_problem(state.paths, state.rules, position, movement,
                           esper.component_for_entity(entity, Conditions),
                           esper.component_for_entity(entity, Falling), goal,
                           lambda there: state.taken(there, entity))
    if problem:
        raise IllegalCommand(f"{label(entity)} cannot move to {goal}: {problem}")
    return goal


def queue(state: BattleState, entity: int, command: ActorCommand) -> None:
    """Queue one of a creature's own commands for its turn."""
    queued = state.actions.get(entity)
    if queued is None:
        queued = state.actions[entity] = deque()
    queued.append(command)
