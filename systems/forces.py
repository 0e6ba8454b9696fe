"""Forced movement: pushes, pulls and teleports, one function each for powers and scripts alike."""

from __future__ import annotations

import esper
import numpy as np

from components import Conditions, Fatigue, Health, Movement, Position
from components.events import Pushed, Teleported
from components.terrain import Blocks
from systems.state import BattleState
from systems.vitals import is_dead, is_flying


def push_landing(state: BattleState, origin: tuple[int, int], target: int, feet: float, away: bool,
                 start: tuple[int, int] | None = None, z: float | None = None,
                 pusher: int | None = None) -> tuple[int, int]:
    """Where a push (away from ``origin``) or pull (toward it) of ``feet`` would leave ``target``
    (standing on ``start`` at height ``z`` when given: a forecast of it standing elsewhere).

    Square by square: walls, cliff faces and creatures stop it, and so does an edge, since over a
    drop there is nothing under the creature and it falls there. A forecast asks this; so does the
    push itself. ``pusher`` stands on ``origin`` (a forecast's from a square it would move to, or
    blink to, first): the square it stands on now is no obstacle then, and ``origin`` is.
    """
    position = esper.component_for_entity(target, Position)
    start = position.square if start is None else start
    height = position.z if z is None else z
    sx = int(np.sign(start[0] - origin[0])) * (1 if away else -1)
    sy = int(np.sign(start[1] - origin[1])) * (1 if away else -1)
    if (sx, sy) == (0, 0):
        return start
    flying = is_flying(esper.component_for_entity(target, Movement), esper.component_for_entity(target, Conditions))
    terrain = state.terrain
    stops = terrain.blocking(Blocks.PUSHES | (Blocks.FLIERS if flying else Blocks.MOVEMENT))
    x, y = start
    for _ in range(int(feet // state.rules.square_ft)):
        nx, ny = x + sx, y + sy
        if not terrain.inside(nx, ny) or stops[nx, ny] or _taken(state, (nx, ny), target, pusher, origin):
            break
        if terrain.ground[nx, ny] > height:
            break  # a cliff face: you cannot push someone into rock
        x, y = nx, ny
        if not flying and terrain.ground[nx, ny] < height:
            break  # shoved over the edge
    return (x, y)


def _taken(state: BattleState, square: tuple[int, int], target: int, pusher: int | None,
           origin: tuple[int, int]) -> bool:
    """Whether a living creature other than the pushed one stands on ``square``, the pusher counted
    on ``origin`` (not where it stands now) when it is named."""
    if pusher is None:
        return state.taken(square, target)
    return square == origin or state.taken(square, target, also=pusher)


def push(state: BattleState, user: int, target: int, feet: float, away: bool) -> None:
    """Push (away from ``user``) or pull (toward it) ``target``; the dead are a record and stay put."""
    if is_dead(esper.component_for_entity(target, Health), esper.component_for_entity(target, Fatigue)):
        return
    origin = esper.component_for_entity(user, Position).square
    position = esper.component_for_entity(target, Position)
    start = position.square
    landing = push_landing(state, origin, target, feet, away, pusher=user)
    if landing != start:
        state.place(target, position, landing)
        state.emit(Pushed(state.round, target, start, landing, user))


def teleport(state: BattleState, entity: int, square: tuple[int, int]) -> None:
    """Move ``entity`` to ``square`` at once, standing on its ground."""
    position = esper.component_for_entity(entity, Position)
    start = position.square
    state.place(entity, position, square)
    position.z = float(state.terrain.ground[square])
    state.emit(Teleported(state.round, entity, start, square))
