"""Cover: whether walls hide a defender from an attacker, on the grid.

The rules' "3/4 of your body blocked" becomes: of the four lines from the centre of the attacker's
square to the corners of the defender's square, enough pass through the inside of a solid square.
The two creatures' own squares never block, and grazing an edge or a corner does not count.
"""

from __future__ import annotations

import esper
import numpy as np

from components import Conditions, Cover, Creature, Position, Rules, Terrain
from systems.state import BattleState, Phase

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


_WINDOW = 8  # pairs whose bounding box fits in 8x8 squares are done together in one numpy pass
_OFFSETS = np.stack(np.meshgrid(np.arange(_WINDOW), np.arange(_WINDOW), indexing="ij"), -1).reshape(-1, 2)


def blocked_lines_many(walls: np.ndarray, attackers: np.ndarray, defenders: np.ndarray) -> np.ndarray:
    """``blocked_lines`` for many pairs at once: ``(n, 2)`` squares in, ``(n,)`` counts out.

    Close pairs (the usual case against a nearest enemy) are clipped against every square of their
    bounding box in one vectorised pass; the few far pairs fall back to the one-pair function.
    """
    n = len(attackers)
    counts = np.zeros(n, dtype=np.int64)
    if n == 0:
        return counts
    lo = np.minimum(attackers, defenders)
    span = np.abs(attackers - defenders)
    near = np.all(span < _WINDOW, axis=1)
    idx = np.flatnonzero(near)
    if len(idx):
        cells = lo[idx, None, :] + _OFFSETS[None, :, :]                      # (p, k, 2)
        inside = np.all(_OFFSETS[None, :, :] <= span[idx, None, :], axis=2)  # within the box
        cx = np.minimum(cells[..., 0], walls.shape[0] - 1)
        cy = np.minimum(cells[..., 1], walls.shape[1] - 1)
        solid = inside & walls[cx, cy]
        own = np.all(cells == attackers[idx, None, :], axis=2) | np.all(cells == defenders[idx, None, :], axis=2)
        solid &= ~own
        busy = np.flatnonzero(solid.any(axis=1))
        if len(busy):
            sel = idx[busy]
            solid = solid[busy]
            sx, sy = cells[busy, :, 0].astype(np.float64), cells[busy, :, 1].astype(np.float64)
            px = attackers[sel, 0:1] + 0.5
            py = attackers[sel, 1:2] + 0.5
            total = np.zeros(len(sel), dtype=np.int64)
            for ox, oy in ((0, 0), (1, 0), (0, 1), (1, 1)):
                dx = defenders[sel, 0:1] + ox - px
                dy = defenders[sel, 1:2] + oy - py
                tx1, tx2 = (sx - px) / dx, (sx + 1 - px) / dx
                ty1, ty2 = (sy - py) / dy, (sy + 1 - py) / dy
                t_in = np.maximum(np.maximum(np.minimum(tx1, tx2), np.minimum(ty1, ty2)), 0.0)
                t_out = np.minimum(np.minimum(np.maximum(tx1, tx2), np.maximum(ty1, ty2)), 1.0)
                total += np.any(solid & (t_out - t_in > _EPS), axis=1)
            counts[sel] = total
    for i in np.flatnonzero(~near):
        counts[i] = blocked_lines(walls, (int(attackers[i, 0]), int(attackers[i, 1])),
                                  (int(defenders[i, 0]), int(defenders[i, 1])))
    return counts


def has_cover(terrain: Terrain, rules: Rules, attacker: tuple[int, int], defender: tuple[int, int]) -> bool:
    """Whether the defender has cover from the attacker under these rules (off when the GM says so)."""
    if not rules.cover_enabled or attacker == defender:
        return False
    return blocked_lines(terrain.walls, attacker, defender) >= rules.cover_lines_needed


def nearest_enemies(squares: np.ndarray, teams: np.ndarray, rules: Rules) -> np.ndarray:
    """Index of each creature's nearest enemy (another team), or -1; ties go to the lower index.

    Computed team by team against everyone else in small integers, so two teams of 500 cost two
    500x500 passes rather than one 1000x1000 pass of 64-bit values.

    Args:
        squares: ``(n, 2)`` int array of (x, y).
        teams: ``(n,)`` array of team ids (ints).
    """
    n = len(squares)
    best = np.full(n, -1, dtype=np.int64)
    coords = squares.astype(np.int16)
    for team in np.unique(teams):
        mine = np.flatnonzero(teams == team)
        theirs = np.flatnonzero(teams != team)
        if not len(theirs):
            continue
        ax = np.abs(coords[mine, None, 0] - coords[None, theirs, 0])
        ay = np.abs(coords[mine, None, 1] - coords[None, theirs, 1])
        if rules.diagonal == "one":
            dist = np.maximum(ax, ay)
        else:
            dist = np.maximum(ax, ay) + np.minimum(ax, ay) // 2
        best[mine] = theirs[np.argmin(dist, axis=1)]
    return best


class CoverSystem(esper.Processor):
    """Finds each living creature's nearest enemy and whether it has cover from it.

    Nearest enemies are recomputed when anyone moved; the corner lines only for the pairs whose
    squares or walls changed, which on a busy map is a small share of the creatures.
    """

    def __init__(self, state: BattleState) -> None:
        self.state = state
        self._positions_version = -1
        self._terrain_version = -1
        self._cache: dict[int, tuple[int | None, tuple[int, int], tuple[int, int] | None]] = {}

    def process(self, phase: Phase, actor: int | None = None) -> None:
        if phase not in (Phase.END, Phase.REFRESH):
            return
        state = self.state
        if (state.positions_version, state.terrain.version) == (self._positions_version, self._terrain_version):
            return
        if state.terrain.version != self._terrain_version:
            self._cache.clear()
        self._positions_version, self._terrain_version = state.positions_version, state.terrain.version
        living = [(e, p, c, cr) for e, (p, c, cr, _) in esper.get_components(Position, Cover, Creature, Conditions)
                  if "dead" not in _.active]
        if not living:
            return
        team_ids: dict[str, int] = {}
        squares = np.array([(p.x, p.y) for _, p, _, _ in living], dtype=np.int64)
        teams = np.array([team_ids.setdefault(cr.team, len(team_ids)) for _, _, _, cr in living])
        nearest = nearest_enemies(squares, teams, state.rules)
        stale: list[int] = []
        for i, (entity, position, cover, _) in enumerate(living):
            j = int(nearest[i])
            enemy = living[j][0] if j >= 0 else None
            key = (enemy, position.square, living[j][1].square if j >= 0 else None)
            if self._cache.get(entity) == key:
                continue
            self._cache[entity] = key
            cover.against = enemy
            cover.blocked, cover.covered = 0, False
            if enemy is not None and state.rules.cover_enabled:
                stale.append(i)
        if not stale:
            return
        rows = np.array(stale)
        blocked = blocked_lines_many(state.terrain.walls, squares[nearest[rows]], squares[rows])
        for i, count in zip(stale, blocked.tolist()):
            cover = living[i][2]
            cover.blocked = count
            cover.covered = count >= state.rules.cover_lines_needed
