"""The corner lines of cover: how many of the four lines from an attacker's square to a defender's
corners pass through a solid square, for one pair, for many at once, or for a whole row of defenders.

Split from :mod:`systems.cover` (which keeps the answers, asks them and runs the cover system): this is
the geometry alone, the same float operations whichever way a pair is asked (see ``systems.cover`` for
the rule and for see-through cover).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import numpy as np

from components import Terrain
from components.terrain import Blocks

_EPS = 1e-9  # well below the narrowest real crossing on a 1024-square grid, well above float error


def _crossing(px: float, py: float, qx: float, qy: float, xs: np.ndarray, ys: np.ndarray) -> bool:
    """Whether the segment P->Q passes through the open interior of any square (xs[i], ys[i]).

    Liang-Barsky clipping against each open unit square; an interval of zero length is a graze.
    """
    dx, dy = qx - px, qy - py  # never 0: centres are half-integers, corners whole numbers
    tx1, tx2 = (xs - px) / dx, (xs + 1 - px) / dx
    ty1, ty2 = (ys - py) / dy, (ys + 1 - py) / dy
    lo = np.maximum(np.maximum(np.minimum(tx1, tx2), np.minimum(ty1, ty2)), 0.0)
    hi = np.minimum(np.minimum(np.maximum(tx1, tx2), np.maximum(ty1, ty2)), 1.0)
    return bool(np.any(hi - lo > _EPS))


def blocked_lines(walls: np.ndarray, attacker: tuple[int, int], defender: tuple[int, int]) -> int:
    """How many of the four corner lines from ``attacker`` to ``defender`` a wall blocks (0-4)."""
    ax, ay = attacker
    bx, by = defender
    x0, x1 = min(ax, bx), max(ax, bx)
    y0, y1 = min(ay, by), max(ay, by)
    sub = walls[x0:x1 + 1, y0:y1 + 1]
    if not sub.any():
        return 0
    xs, ys = np.nonzero(sub)
    xs = xs + x0
    ys = ys + y0
    keep = ~(((xs == ax) & (ys == ay)) | ((xs == bx) & (ys == by)))
    if not keep.any():
        return 0
    xs, ys = xs[keep].astype(np.float64), ys[keep].astype(np.float64)
    px, py = ax + 0.5, ay + 0.5
    corners = ((bx, by), (bx + 1, by), (bx, by + 1), (bx + 1, by + 1))
    return sum(_crossing(px, py, cx, cy, xs, ys) for cx, cy in corners)


_WINDOWS = (4, 8, 16, 32)  # pairs are batched by the size of their bounding box


def _offsets(window: int) -> np.ndarray:
    offsets = np.stack(np.meshgrid(np.arange(window), np.arange(window), indexing="ij"), -1).reshape(-1, 2)
    offsets.flags.writeable = False
    return offsets


#: Each window's square offsets, made once (read-only: shared by every call).
_OFFSETS: Mapping[int, np.ndarray] = MappingProxyType({w: _offsets(w) for w in _WINDOWS})


def blocked_lines_many(walls: np.ndarray, attackers: np.ndarray, defenders: np.ndarray) -> np.ndarray:
    """``blocked_lines`` for many pairs at once: ``(n, 2)`` squares in, ``(n,)`` counts out.

    Pairs are batched by the size of their bounding box and clipped against every square of it in
    one vectorised pass per batch; only pairs more than 32 squares apart fall back to one at a time.
    """
    n = len(attackers)
    counts = np.zeros(n, dtype=np.int64)
    if n == 0:
        return counts
    span = np.abs(attackers - defenders).max(axis=1)
    done = np.zeros(n, dtype=bool)
    for window in _WINDOWS:
        idx = np.flatnonzero(~done & (span < window))
        if len(idx):
            counts[idx] = _batch(walls, attackers[idx], defenders[idx], _OFFSETS[window])
            done[idx] = True
    for i in np.flatnonzero(~done):
        counts[i] = blocked_lines(walls, (int(attackers[i, 0]), int(attackers[i, 1])),
                                  (int(defenders[i, 0]), int(defenders[i, 1])))
    return counts


def _batch(walls: np.ndarray, attackers: np.ndarray, defenders: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Corner lines blocked for pairs whose bounding boxes fit in the window ``offsets`` spans."""
    counts = np.zeros(len(attackers), dtype=np.int64)
    lo = np.minimum(attackers, defenders)
    span = np.abs(attackers - defenders)
    cells = lo[:, None, :] + offsets[None, :, :]                            # (p, k, 2)
    inside = np.all(offsets[None, :, :] <= span[:, None, :], axis=2)        # within the box
    cx = np.minimum(cells[..., 0], walls.shape[0] - 1)
    cy = np.minimum(cells[..., 1], walls.shape[1] - 1)
    solid = inside & walls[cx, cy]
    solid &= ~(np.all(cells == attackers[:, None, :], axis=2) | np.all(cells == defenders[:, None, :], axis=2))
    busy = np.flatnonzero(solid.any(axis=1))
    if not len(busy):
        return counts
    solid = solid[busy]
    sx, sy = cells[busy, :, 0].astype(np.float64), cells[busy, :, 1].astype(np.float64)
    px = attackers[busy, 0:1] + 0.5
    py = attackers[busy, 1:2] + 0.5
    counts[busy] = _corners_blocked(solid, sx, sy, px, py, defenders[busy, 0:1], defenders[busy, 1:2])
    return counts


def _corners_blocked(solid: np.ndarray, sx: np.ndarray, sy: np.ndarray, px: np.ndarray | float,
                     py: np.ndarray | float, bx: np.ndarray, by: np.ndarray) -> np.ndarray:
    """Per pair (a row of ``solid``), how many of the defender's four corner lines from the
    attacker's centre ``(px, py)`` pass through one of its solid squares ``(sx, sy)`` (``bx, by``: the
    defender's square). One piece of arithmetic (:func:`crossings`) for the batch and the row, so a
    pair gets the same count whichever way it is asked."""
    total = np.zeros(len(solid), dtype=np.int64)
    for ox, oy in _CORNERS:
        total += np.any(solid & crossings(sx, sy, px, py, bx, by, ox, oy), axis=1)
    return total


_CORNERS = ((0, 0), (1, 0), (0, 1), (1, 1))  # a defender's corners, from its square's own corner
_CORNER_X, _CORNER_Y = (np.array([[c[i]] for c in _CORNERS]) for i in (0, 1))  # the same, as (4, 1) columns


def crossings(sx: np.ndarray, sy: np.ndarray, px: np.ndarray | float, py: np.ndarray | float, bx: np.ndarray,
               by: np.ndarray, ox: int | np.ndarray, oy: int | np.ndarray) -> np.ndarray:
    """Element by element (any shapes that broadcast), whether the line from the attacker's centre
    ``(px, py)`` to the corner ``(bx + ox, by + oy)`` of the defender's square passes through the open
    inside of the solid square ``(sx, sy)``: slab clipping, an interval of zero length a graze."""
    dx, dy = bx + ox - px, by + oy - py
    tx1, tx2 = (sx - px) / dx, (sx + 1 - px) / dx
    ty1, ty2 = (sy - py) / dy, (sy + 1 - py) / dy
    t_in = np.maximum(np.maximum(np.minimum(tx1, tx2), np.minimum(ty1, ty2)), 0.0)
    t_out = np.minimum(np.minimum(np.maximum(tx1, tx2), np.maximum(ty1, ty2)), 1.0)
    crossed: np.ndarray = t_out - t_in > _EPS
    return crossed


def solids_for(terrain: Terrain, attacker: tuple[int, int]) -> np.ndarray:
    """The squares that block an attacker's corner lines: every cover-giving square, except the
    see-through ones right beside the attacker (it leans to the opening)."""
    solid = terrain.blocking(Blocks.COVER)
    if not terrain.has_blockers():
        return solid
    x, y = attacker
    window = (slice(max(0, x - 1), x + 2), slice(max(0, y - 1), y + 2))
    lean = solid[window] & ~terrain.blocking(Blocks.SIGHT)[window]
    if not lean.any():
        return solid
    mine = solid.copy()
    mine[window] &= ~lean
    return mine


_ROW_SPAN = 15  # a row is every defender whose pair fits the 16-square window (the map's usual reach)
_ROW_BUDGET = 12_000  # defender x solid square pairs one row may clip; past it, pairs are asked one by one


_FEW_SOLIDS = 64  # up to this many solid squares on a map (none see-through), a pair is clipped alone

#: a map's few solid squares, x-major, and their running counts (``counts[x][y]``: those left of x, above y)
FewSolids = tuple[tuple[tuple[int, int], ...], list[list[int]]]


def few_solids(terrain: Terrain) -> FewSolids | None:
    """The squares that block every attacker's corner lines, for :func:`blocked_among`; None when there
    are more than a few, or see-through ones (which do not block an attacker beside them)."""
    if terrain.has_blockers():
        return None
    solid = terrain.blocking(Blocks.COVER)
    xs, ys = np.nonzero(solid)
    if len(xs) > _FEW_SOLIDS:
        return None
    counts = np.zeros((solid.shape[0] + 1, solid.shape[1] + 1), dtype=np.int64)
    counts[1:, 1:] = solid.cumsum(axis=0).cumsum(axis=1)
    return tuple(zip(xs.tolist(), ys.tolist())), counts.tolist()


def blocked_among(solids: FewSolids, attacker: tuple[int, int], defender: tuple[int, int]) -> int:
    """:func:`blocked_lines` on a map whose solid squares are ``solids`` (see :func:`few_solids`), in
    whole numbers: the same count, for a pair asked alone (a planner asks about a tenth of a row).

    Why it is the same: a solid square of the box other than the two ends lies wholly beyond the
    attacker's centre and short of the defender's corner along the line (what lies outside that
    stretch of the line, within the box, is in the two end squares, whose insides no other square's
    inside meets), so the segment passes through its open inside exactly when the whole line does:
    when the square's four corners lie strictly on both sides of it (a graze touches with one side
    empty). In half squares every end and corner is a whole number, so each side is the sign of a
    whole cross product, exact, as ``blocked_lines``' float clipping is (its quotients' divisors are at
    most 2049 on a 1024-square grid: two that differ differ by far more than ``_EPS``). Plain integer
    arithmetic: no numpy call, each of which costs more than a pair's whole count."""
    ax, ay = attacker
    bx, by = defender
    x0, x1 = (ax, bx) if ax < bx else (bx, ax)
    y0, y1 = (ay, by) if ay < by else (by, ay)
    squares, counts = solids
    if not counts[x1 + 1][y1 + 1] - counts[x0][y1 + 1] - counts[x1 + 1][y0] + counts[x0][y0]:
        return 0  # nothing solid in the box
    px, py = 2 * ax + 1, 2 * ay + 1  # the attacker's centre, in half squares
    # each solid square in the box (but the two ends): its low corner from the centre, in half squares;
    # the squares are x-major, so those of the box's columns are the slice the running counts bound
    near = [(2 * x - px, 2 * y - py) for x, y in squares[counts[x0][-1]:counts[x1 + 1][-1]]
            if y0 <= y <= y1 and (x != ax or y != ay) and (x != bx or y != by)]
    if not near:
        return 0
    blocked = 0
    ox, oy = 2 * bx - px, 2 * by - py  # the line to the defender's low corner (never 0 on an axis: whole less odd)
    for dx, dy in ((ox, oy), (ox + 2, oy), (ox, oy + 2), (ox + 2, oy + 2)):  # to each of its four corners
        # a square's corner (lx + 2i, ly + 2j) is on the side dx * (ly + 2j) - dy * (lx + 2i) of the line:
        # its low corner's side plus 2i * -dy plus 2j * dx; crossed when the least is below 0 and the most above
        low = (-2 * dx if dx > 0 else 0) + (2 * dy if dy < 0 else 0)
        high = (-2 * dx if dx < 0 else 0) + (2 * dy if dy > 0 else 0)
        for lx, ly in near:
            if low < dx * ly - dy * lx < high:
                blocked += 1
                break
    return blocked


#: an attacker's row of counts: its window ``(x0, y0, x1, y1)`` and the counts of its squares, x-major
CoverRow = tuple[int, int, int, int, list[int]]


def row_of(solid: np.ndarray, attacker: tuple[int, int]) -> CoverRow | None:
    """``blocked_lines`` from ``attacker`` to every square within ``_ROW_SPAN`` of it, at once.

    An attacker asked about once is asked about again from other squares (a planner weighs several
    squares against each enemy, turn after turn), so its whole row is clipped in one pass against
    the solid squares of its window (few on a real map) instead of one numpy pass per pair. The
    arithmetic is :func:`_batch`'s (:func:`crossings`), so every count is the one a pair alone gets.
    None when the window holds too many solid squares to be worth it. Kept as one list (see
    :func:`row_count`): a planner asks a tenth of a row, and an answer kept per pair costs more to
    file than its share of the clipping.
    """
    ax, ay = attacker
    x0, x1 = max(ax - _ROW_SPAN, 0), min(ax + _ROW_SPAN + 1, solid.shape[0])
    y0, y1 = max(ay - _ROW_SPAN, 0), min(ay + _ROW_SPAN + 1, solid.shape[1])
    every = np.arange((x1 - x0) * (y1 - y0)).reshape(-1, 1)  # the window's squares, x-major (as meshgrid "ij")
    bx, by = every // (y1 - y0) + x0, every % (y1 - y0) + y0
    counts = np.zeros(len(bx), dtype=np.int64)
    wx, wy = np.nonzero(solid[x0:x1, y0:y1])
    if len(wx) * len(bx) > _ROW_BUDGET:
        return None
    wx, wy = wx + x0, wy + y0
    ex, ey = wx - bx, wy - by  # a square lies between the two ends on an axis when it is on neither side of both
    inside = (ex * (wx - ax) <= 0) & (ey * (wy - ay) <= 0) & ~((wx == ax) & (wy == ay)) & ((ex | ey) != 0)
    # only the (defender, solid square) pairs whose box holds the square are clipped (a fifth of them on an
    # open map), each by :func:`crossings`' arithmetic, as a pair alone is (the four corners at once, a row each)
    pair, wall = np.nonzero(inside)
    if len(pair):
        sx, sy = wx[wall].astype(np.float64), wy[wall].astype(np.float64)
        crossed = crossings(sx, sy, ax + 0.5, ay + 0.5, bx[pair, 0], by[pair, 0], _CORNER_X, _CORNER_Y)
        lines = np.zeros((len(_CORNERS), len(bx)), dtype=bool)
        corner, hit = np.nonzero(crossed)
        lines[corner, pair[hit]] = True
        counts = lines.sum(axis=0)
    return x0, y0, x1, y1, counts.tolist()


def row_count(row: CoverRow, defender: tuple[int, int]) -> int | None:
    """The count ``row`` (see :func:`row_of`) holds for ``defender``, None outside its window."""
    x0, y0, x1, y1, counts = row
    x, y = defender
    if x0 <= x < x1 and y0 <= y < y1:
        return counts[(x - x0) * (y1 - y0) + y - y0]
    return None


TABLE_SIDE = 32  # maps of at most this many squares a side (and few solid ones) get a whole table of counts

#: every pair's count on a map of few solid squares: ``table[ax][ay][dx][dy]``, the last level a ``bytes`` of
#: the column's counts (plain Python: a planner reads thousands a battle, and a numpy scalar costs more to
#: read than a dict's item; bytes, not lists, for a table of a million counts that the collector never walks)
CoverTable = list[list[list[bytes]]]


def cover_table(solids: FewSolids, shape: tuple[int, int]) -> CoverTable | None:
    """:func:`blocked_among` for every (attacker, defender) pair of a map of at most ``TABLE_SIDE`` squares
    a side whose solid squares are ``solids``, at once (None on a bigger map).

    Why a whole table: battle after battle on one map keeps finding pairs not asked before (a hundred a
    battle, each clipped alone), while the table costs about a tenth of a second on a 32x32 map with 64
    solid squares. The arithmetic is :func:`blocked_among`'s, in whole numbers, so the counts are the
    same: a solid square (other than the two ends) in the pair's box blocks a corner line when its
    corners lie strictly on both sides of it. Each solid square is one bit of a mask (``few_solids``
    keeps at most 64: eight bytes), so a pair's corner line is blocked when the mask of the squares the
    line from the attacker to that corner point crosses meets the mask of the squares in the pair's box."""
    width, height = shape
    if width > TABLE_SIDE or height > TABLE_SIDE:
        return None
    counts = np.zeros((width, height, width + 1, height + 1), dtype=np.int8)  # (attacker, corner point)
    if solids[0]:
        flat = counts.reshape(-1)  # a pair's counts sit at its defender's low corner point
        crossed, boxed = _crossed(width, height, solids[0]), _boxed(width, height, solids[0])
        for ox, oy in _CORNERS:  # a corner is a shift along the flat (attacker, corner point) axis
            shift = ox * (height + 1) + oy
            flat[:len(flat) - shift] += (crossed[:, shift:] & boxed[:, :len(flat) - shift]).any(axis=0)
    columns = np.ascontiguousarray(counts[:, :, :width, :height]).view(f"V{height}")
    table: CoverTable = columns.reshape(width, height, width).tolist()
    return table


def _crossed(width: int, height: int, squares: tuple[tuple[int, int], ...]) -> np.ndarray:
    """For each attacker and corner point ``(i, j)`` of the grid, flattened, the solid squares whose
    open inside the line from the attacker's centre to that point crosses: bit ``s % 8`` of byte
    ``s // 8`` for ``squares[s]`` (a line's side of a square as in :func:`blocked_among`)."""
    shape = (width, height, width + 1, height + 1)
    # in half squares, int16: exact, a side being at most 4 * (2 * TABLE_SIDE) ** 2 = 16,384 either way
    xs, ys = np.arange(width + 1, dtype=np.int16), np.arange(height + 1, dtype=np.int16)
    dx = 2 * xs[None, :] - 2 * xs[:width, None] - 1  # (ax, i): centre to corner point
    dy = 2 * ys[None, :] - 2 * ys[:height, None] - 1  # (ay, j)
    low_x, high_x = np.where(dx > 0, -2 * dx, 0), np.where(dx < 0, -2 * dx, 0)
    low_y, high_y = np.where(dy < 0, 2 * dy, 0), np.where(dy > 0, 2 * dy, 0)
    # a square's low corner l from the centre lies on the side dx * ly - dy * lx = 2y dx - 2x dy + dy (2ax + 1)
    # - dx (2ay + 1); less low + 1, low < side < high becomes one unsigned compare with high - low - 1
    rest_y = dy[None, :, :] * (2 * xs[:width, None, None] + 1) - low_y[None, :, :] - 1  # (ax, ay, j)
    rest_x = dx[:, None, :] * (2 * ys[None, :height, None] + 1) + low_x[:, None, :]  # (ax, ay, i)
    rest = rest_y[:, :, None, :] - rest_x[:, :, :, None]
    span = (high_x - low_x)[:, None, :, None] + (high_y - low_y)[None, :, None, :] - 1
    along_x = np.broadcast_to(dx[:, None, :, None], shape).copy()
    along_y = np.broadcast_to(dy[None, :, None, :], shape).copy()
    side, part, crossing = np.empty(shape, np.int16), np.empty(shape, np.int16), np.empty(shape, bool)
    crossed = np.zeros(((len(squares) + 7) // 8, along_x.size), dtype=np.uint8)
    for s, (x, y) in enumerate(squares):
        np.multiply(along_x, 2 * y, out=side)
        side -= np.multiply(along_y, 2 * x, out=part)
        side += rest
        np.less(side.view(np.uint16), span.view(np.uint16), out=crossing)
        crossed[s // 8] |= np.multiply(crossing.view(np.uint8), 1 << s % 8).reshape(-1)  # (no 8-bit shift in SIMD)
    return crossed


def _boxed(width: int, height: int, squares: tuple[tuple[int, int], ...]) -> np.ndarray:
    """For each attacker and defender (on the corner points' grid, those past the map empty), flattened,
    the solid squares in the pair's box other than the two ends, as bits like :func:`_crossed`'s."""
    sx, sy = (np.array(c) for c in zip(*squares))
    xs, ys = np.arange(width + 1), np.arange(height + 1)
    between_x = _bit_planes((sx - xs[:width, None, None]) * (sx - xs[None, :, None]) <= 0)  # (byte, ax, dx)
    between_y = _bit_planes((sy - ys[:height, None, None]) * (sy - ys[None, :, None]) <= 0)  # (byte, ay, dy)
    between_x[:, :, width] = 0
    between_y[:, :, height] = 0
    own = ~_bit_planes((sx == xs[:, None, None]) & (sy == ys[None, :, None]))  # (byte, x, y): all but its own
    boxed = between_x[:, :, None, :, None] & between_y[:, None, :, None, :] & own[:, None, None, :, :]
    boxed &= own[:, :width, :height, None, None]
    flat: np.ndarray = boxed.reshape(len(boxed), -1)
    return flat


def _bit_planes(flags: np.ndarray) -> np.ndarray:
    """``flags`` (its last axis a solid square's) as bytes of bits, the byte first (see :func:`_crossed`)."""
    planes = np.zeros(((flags.shape[-1] + 7) // 8,) + flags.shape[:-1], dtype=np.uint8)
    for s in range(flags.shape[-1]):
        planes[s // 8] |= flags[..., s].view(np.uint8) << s % 8
    return planes
