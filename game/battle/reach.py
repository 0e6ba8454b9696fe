"""Which squares a move accepts: ``reachable``'s last step, apart from the creature commands.

A walk that steps off a ledge short of its goal stops where it steps off, and a move whose walk
would stop on another creature is refused (``systems.actions.landing_problem``). A way's cost alone
cannot tell that, so where some other creature stands below a step a walk could take, the squares
whose way could pass it are walked as the move would walk them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import esper
import numpy as np

from components import Position
from systems.actions import landing_problem, walk
from systems.drops import steps_off
from systems.state import BattleState


def refuse_landings(state: BattleState, entity: int, mask: np.ndarray, costs: np.ndarray,
                    taken: list[tuple[int, int]], here: tuple[int, int], z: float, left: int, room: float) -> None:
    """Clear from ``mask`` (the squares a walk of ``entity`` from ``here`` at height ``z`` reaches within
    ``left`` ft, ``costs`` from there) those whose walk would step off a ledge onto a ``taken`` square
    (``room``: the fall the round has left it)."""
    ground = state.terrain.ground
    top = max(float(ground.max()), z)  # (on level ground no walk steps down)
    for step in [t for t in taken if ground[t] < top and _a_step_down(state, t, z, room)]:
        for goal in zip(*np.nonzero(mask & _beyond(costs, step, left, state.rules.square_ft))):
            if _lands_on_another(state, entity, here, z, (int(goal[0]), int(goal[1])), left, room):
                mask[goal] = False


def _a_step_down(state: BattleState, square: tuple[int, int], z: float, room: float) -> bool:
    """Whether a walk could stop at ``square`` by stepping off a ledge onto it (``walk``'s test, with
    the highest the walker could come from: a neighbour's ground, or its own height ``z``)."""
    ground, rules = state.terrain.ground, state.rules
    x, y = square
    drop = max(float(ground[max(x - 1, 0):x + 2, max(y - 1, 0):y + 2].max()), z) - float(ground[square])
    return steps_off(drop, bool(state.terrain.soft[square]), room, rules)


def _beyond(costs: np.ndarray, step: tuple[int, int], left: int, square_ft: int) -> np.ndarray:
    """The squares a way within ``left`` could reach by way of ``step``: dearer than ``step``, and near
    enough to it for what is left after reaching it (a lower bound of the grid distance)."""
    spare = left - float(costs[step])
    if spare <= 0:
        return np.zeros(costs.shape, dtype=bool)
    xs, ys = np.indices(costs.shape)
    apart = np.maximum(np.abs(xs - step[0]), np.abs(ys - step[1])) * square_ft
    found: np.ndarray = (costs > costs[step]) & (apart <= spare)
    return found


def _lands_on_another(state: BattleState, entity: int, here: tuple[int, int], z: float, goal: tuple[int, int],
                      left: int, room: float) -> bool:
    """Whether the walk to ``goal`` steps off a ledge where another creature stands, which the move
    refuses (``landing_problem``): the move's own way and walk, as its forecast finds them."""
    found = state.paths.find(here, goal, limit_ft=left, flying=False)
    if found is None:
        return False
    stop, _ = walk(state.terrain, found[0], z, False, state.rules, room)
    return landing_problem(state, entity, goal, stop) is not None


@contextmanager
def unseen_absent(state: BattleState, unseen: Iterable[int]) -> Iterator[None]:
    """The square index without the ``unseen`` creatures, for one question: what a player who cannot
    see them is shown. A window must not give away where a hidden enemy stands by a hole in the
    squares its creature can reach, or by a forecast saying the square is taken; the move itself is
    still refused when it is given. Each square's own set is put back after, untouched."""
    saved: dict[tuple[int, int], set[int]] = {}
    for entity in unseen:
        square = esper.component_for_entity(entity, Position).square
        held = state.squares.get(square)
        if held is None or entity not in held:
            continue
        saved.setdefault(square, held)
        left = held - {entity}
        if left:
            state.squares[square] = left
        else:
            del state.squares[square]
    try:
        yield
    finally:
        state.squares.update(saved)
