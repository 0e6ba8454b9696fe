"""Everything one viewer sees at once: :func:`systems.visibility.sees` for every square of the map.

The window's fog asks which squares a team sees after every move. Asked square by square, that is a
Python walk along one line per square and viewer, which took seconds on a 128x128 map. Here every
line from the viewer steps together in numpy: tcod's Bresenham line (the same squares as
``tcod.los.bresenham``, which a test checks offset by offset) advanced one square a step for all the
lines still longer than that step, so the work is the sum of the lines' lengths in array operations.
The answer is the rules' "you can see" exactly as :func:`systems.visibility.sees` gives it: a line
clear of walls between the ends, no square at no vision on it (its ends included), either direction.

:func:`sight_table` is the same for every pair of squares of a small map without darkness, once: a
map played battle after battle (a simulation) asks new pairs for hundreds of battles, each a walk
in Python, where one table answers them all (see ``MapCaches.sight_table`` for when it is made).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from components import Visibility

_NO_VISION = int(Visibility.NO_VISION)
#: a map of at most this many squares a side gets a whole table of sight (see :func:`sight_table`)
SIGHT_TABLE_SIDE = 20

#: a line's squares by its step (dx, dy), from (0, 0), both ends included (``MapCaches.line_steps``)
LineSteps = Callable[[int, int], tuple[tuple[int, int], ...]]
#: ``table[ax][ay][bx][by]``: whether a viewer with some vision on ``(ax, ay)`` sees ``(bx, by)``
SightTable = list[list[list[list[bool]]]]


def seen_mask(walls: np.ndarray, levels: np.ndarray, viewer_level: int, here: tuple[int, int],
              already: np.ndarray | None = None) -> np.ndarray:
    """Boolean ``[x, y]`` mask of the squares a viewer on ``here`` whose own sight is ``viewer_level``
    sees (``walls``: the squares that block sight; ``levels``: the squares' visibility levels).

    ``already``: squares known to be seen (another viewer of the same team); they are not traced
    again and stay set in the answer.
    """
    seen = np.zeros(walls.shape, dtype=bool) if already is None else already.copy()
    if viewer_level == _NO_VISION:
        return seen
    dark = levels == _NO_VISION
    if dark[here]:  # every line starts or ends on the viewer's own square, both ways
        return seen
    xs, ys = np.nonzero(~seen & ~dark)
    if xs.size == 0:
        return seen
    dx, dy = xs - here[0], ys - here[1]
    opaque = walls | dark  # a wall between the ends, or any square at no vision, blocks the line
    clear = _clear_boxes(opaque, here, xs, ys)  # nothing opaque in the box the line stays in
    unsure = ~clear
    if unsure.any():
        clear[unsure] = _interiors_clear(opaque, np.full_like(xs[unsure], here[0]), np.full_like(ys[unsure], here[1]),
                                         dx[unsure], dy[unsure])
    unsure = ~clear  # Bresenham lines are not symmetric: try the way back for the blocked ones
    if unsure.any():
        clear[unsure] = _interiors_clear(opaque, xs[unsure], ys[unsure], -dx[unsure], -dy[unsure])
    seen[xs[clear], ys[clear]] = True
    return seen


def sight_table(walls: np.ndarray, steps: LineSteps) -> SightTable | None:
    """:func:`systems.visibility.sees` for every pair of squares of a small map on which no square is at
    no vision, for a viewer with some vision (``SightTable``); None on a map of more than
    ``SIGHT_TABLE_SIDE`` squares a side. ``walls``: the squares that block sight; ``steps``: the map's
    kept lines (``MapCaches.line_steps``), the very lines ``sees`` walks.

    Why a whole table: battle after battle on one map keeps finding pairs not asked before (some sixty a
    battle, each line walked in Python), while the table is one array operation per square a line may
    pass (every line through it, from every start at once), made once for the layout. Without darkness sight is the
    walls' alone, so every level grid of the layout shares it."""
    width, height = walls.shape
    if width > SIGHT_TABLE_SIDE or height > SIGHT_TABLE_SIDE:
        return None
    # the lines by the squares strictly inside them: each square s, the steps (dx, dy) whose line passes s
    through: dict[tuple[int, int], list[int]] = {}
    offsets = [(dx, dy) for dx in range(1 - width, width) for dy in range(1 - height, height)]
    for n, (dx, dy) in enumerate(offsets):
        for inside in steps(dx, dy)[1:-1]:
            through.setdefault(inside, []).append(n)
    # clear[n, x, y]: no wall strictly inside the line from (x, y) by the n-th step (a start whose line
    # leaves the map is never read); a wall at (x, y) + s blocks every line through s from (x, y)
    clear = np.ones((len(offsets), width, height), dtype=bool)
    padded = np.zeros((3 * width - 2, 3 * height - 2), dtype=bool)
    padded[width - 1:2 * width - 1, height - 1:2 * height - 1] = walls
    for (sx, sy), lines in through.items():
        moved = padded[width - 1 + sx:2 * width - 1 + sx, height - 1 + sy:2 * height - 1 + sy]
        if moved.any():
            clear[lines] &= ~moved
    by_step = clear.reshape(2 * width - 1, 2 * height - 1, width, height)
    # either direction will do (Bresenham lines are not symmetric)
    ax, ay, bx, by = np.indices((width, height, width, height), sparse=True)
    seen = by_step[bx - ax + width - 1, by - ay + height - 1, ax, ay] | by_step[ax - bx + width - 1,
                                                                              ay - by + height - 1, bx, by]
    table: SightTable = seen.tolist()
    return table


def _clear_boxes(opaque: np.ndarray, here: tuple[int, int], xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Whether nothing opaque lies in the box between ``here`` and each square (ends included): a
    line never leaves its ends' box, so such a line is clear without walking it. A summed-area table
    answers every box in a few array operations."""
    table = np.zeros((opaque.shape[0] + 1, opaque.shape[1] + 1), dtype=np.int64)
    table[1:, 1:] = opaque.cumsum(axis=0).cumsum(axis=1)
    low_x, high_x = np.minimum(xs, here[0]), np.maximum(xs, here[0]) + 1
    low_y, high_y = np.minimum(ys, here[1]), np.maximum(ys, here[1]) + 1
    inside = table[high_x, high_y] - table[low_x, high_y] - table[high_x, low_y] + table[low_x, low_y]
    return np.asarray(inside == 0)


def _interiors_clear(opaque: np.ndarray, x0: np.ndarray, y0: np.ndarray, dx: np.ndarray,
                     dy: np.ndarray) -> np.ndarray:
    """For each line from ``(x0, y0)`` by ``(dx, dy)``: whether no square strictly between its ends
    is ``opaque``. The lines step longest first, so the ones still stepping are a prefix; every few
    steps the lines already blocked stop stepping (on a walled map most are blocked early)."""
    length = np.maximum(np.abs(dx), np.abs(dy))
    line = np.argsort(-length, kind="stable")  # each row's line, rows sorted longest first
    length, dx, dy = length[line], dx[line], dy[line]
    major_x = np.abs(dx) > np.abs(dy)
    rows = [line, x0[line].copy(), y0[line].copy(), np.sign(dx), np.sign(dy), major_x,
            np.where(major_x, np.abs(dx), np.abs(dy)), np.where(major_x, np.abs(dy), np.abs(dx)), length]
    error = rows[6].copy()  # libtcod's line: the error starts at the major length, in steps of two
    clear = np.ones(length.size, dtype=bool)
    answer = np.zeros(length.size, dtype=bool)
    for k in range(1, int(length.max(initial=0))):
        n = int(np.searchsorted(-rows[8], -k, side="left"))  # lines longer than k: k-th square inside
        if n < clear.size:  # the rest have ended: their answer is final
            answer[rows[0][n:]] = clear[n:]
            rows, error, clear = [r[:n] for r in rows], error[:n], clear[:n]
        _, x, y, step_x, step_y, major_x, major, minor, _ = rows
        error = error - 2 * minor
        bump = error < 0
        error = np.where(bump, error + 2 * major, error)
        rows[1] = x = x + step_x * (major_x | bump)
        rows[2] = y = y + step_y * (~major_x | bump)
        clear &= ~opaque[x, y]
        if k % 8 == 0 and 4 * np.count_nonzero(~clear) > clear.size:  # blocked: answer stays False
            rows, error, clear = [r[clear] for r in rows], error[clear], clear[clear]
    answer[rows[0]] = clear
    return answer
