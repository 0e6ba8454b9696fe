"""Cover: whether solid objects hide a defender from an attacker, on the grid.

The rules' "3/4 of your body blocked" becomes: of the four lines from the centre of the attacker's
square to the corners of the defender's square, enough pass through the inside of a solid square
(a wall, or terrain flagged ``COVER``, such as an arrow slit or a battlement). The two creatures'
own squares never block, and grazing an edge or a corner does not count.

See-through cover is asymmetric: an archer standing right behind an arrow slit leans to the
opening, so the slit next to the *attacker* does not count, while the same slit next to the
*defender* does. The archer shoots out at exposed raiders; raiders at an angle find it mostly
hidden. Cover and sight are worked out on the grid's plane: heights do not change them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import repeat

import esper
import numpy as np

from components import Conditions, Cover, Creature, Position, Rules, Terrain
from components.terrain import Blocks
from systems.caches import MapCaches
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


_WINDOWS = (4, 8, 16, 32)  # pairs are batched by the size of their bounding box


def _offsets(window: int) -> np.ndarray:
    return np.stack(np.meshgrid(np.arange(window), np.arange(window), indexing="ij"), -1).reshape(-1, 2)


_OFFSETS = {w: _offsets(w) for w in _WINDOWS}


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
    defender's square). One piece of arithmetic (:func:`_crossings`) for the batch and the row, so a
    pair gets the same count whichever way it is asked."""
    total = np.zeros(len(solid), dtype=np.int64)
    for ox, oy in _CORNERS:
        total += np.any(solid & _crossings(sx, sy, px, py, bx, by, ox, oy), axis=1)
    return total


_CORNERS = ((0, 0), (1, 0), (0, 1), (1, 1))  # a defender's corners, from its square's own corner
_CORNER_X, _CORNER_Y = (np.array([[c[i]] for c in _CORNERS]) for i in (0, 1))  # the same, as (4, 1) columns


def _crossings(sx: np.ndarray, sy: np.ndarray, px: np.ndarray | float, py: np.ndarray | float, bx: np.ndarray,
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


def _row(solid: np.ndarray, attacker: tuple[int, int]) -> tuple[list[int], list[int], list[int]] | None:
    """``blocked_lines`` from ``attacker`` to every square within ``_ROW_SPAN`` of it, at once.

    An attacker asked about once is asked about again from other squares (a planner weighs several
    squares against each enemy, turn after turn), so its whole row is clipped in one pass against
    the solid squares of its window (few on a real map) instead of one numpy pass per pair. The
    arithmetic is :func:`_batch`'s (:func:`_crossings`), so every count is the one a pair alone gets.
    None when the window holds too many solid squares to be worth it.
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
    # open map), each by :func:`_crossings`' arithmetic, as a pair alone is (the four corners at once, a row each)
    pair, wall = np.nonzero(inside)
    if len(pair):
        sx, sy = wx[wall].astype(np.float64), wy[wall].astype(np.float64)
        crossed = _crossings(sx, sy, ax + 0.5, ay + 0.5, bx[pair, 0], by[pair, 0], _CORNER_X, _CORNER_Y)
        lines = np.zeros((len(_CORNERS), len(bx)), dtype=bool)
        corner, hit = np.nonzero(crossed)
        lines[corner, pair[hit]] = True
        counts = lines.sum(axis=0)
    return bx.ravel().tolist(), by.ravel().tolist(), counts.tolist()


def _learn_row(answers: dict[tuple[int, int, int, int], int], solid: np.ndarray, attacker: tuple[int, int]) -> None:
    """Keep ``attacker``'s whole row (see :func:`_row`) among ``answers``, if it is worth clipping."""
    row = _row(solid, attacker)
    if row is not None:
        ax, ay = attacker
        answers.update(zip(zip(repeat(ax), repeat(ay), row[0], row[1]), row[2]))


def _leans(terrain: Terrain, attacker: tuple[int, int]) -> bool:
    return terrain.has_blockers() and solids_for(terrain, attacker) is not terrain.blocking(Blocks.COVER)


def cover_count(caches: MapCaches, terrain: Terrain, attacker: tuple[int, int], defender: tuple[int, int]) -> int:
    """``blocked_lines`` on this map, remembered (in ``caches``) while the walls stay as they are.

    The same pairs are asked about over and over (every attack, every forecast, every battle of a
    simulation on one map), so answers are kept per layout of walls, whichever battle asks.
    """
    answers = caches.cover_answers(terrain.layout_key())
    key = (attacker[0], attacker[1], defender[0], defender[1])
    found = answers.get(key)
    if found is None:
        solid = solids_for(terrain, attacker)
        _learn_row(answers, solid, attacker)
        found = answers.get(key)
        if found is None:  # too far, or too many solid squares around it for a row
            found = answers[key] = blocked_lines(solid, attacker, defender)
    return found


def cover_counts(caches: MapCaches, terrain: Terrain, attackers: np.ndarray, defenders: np.ndarray) -> np.ndarray:
    """``blocked_lines_many`` on this map, asking numpy only about the pairs not known yet."""
    answers = caches.cover_answers(terrain.layout_key())
    keys: list[tuple[int, int, int, int]] = [(a, b, c, d) for a, b, c, d in np.hstack([attackers, defenders]).tolist()]
    counts = np.array([answers.get(k, -1) for k in keys], dtype=np.int64)
    missing = np.flatnonzero(counts < 0)
    if len(missing) and terrain.has_blockers():
        leans = {a: _leans(terrain, a) for a in {keys[i][:2] for i in missing.tolist()}}  # once per attacker
        leaning = [i for i in missing.tolist() if leans[keys[i][:2]]]
        for i in leaning:
            counts[i] = cover_count(caches, terrain, keys[i][:2], keys[i][2:])
        missing = np.flatnonzero(counts < 0)
    if len(missing):  # learn each attacker's row, then clip only what no row covers
        solid = terrain.blocking(Blocks.COVER)
        for attacker in {keys[i][:2] for i in missing.tolist()}:
            _learn_row(answers, solid, attacker)
        for i in missing.tolist():
            counts[i] = answers.get(keys[i], -1)
        missing = np.flatnonzero(counts < 0)
    if len(missing):
        fresh = blocked_lines_many(terrain.blocking(Blocks.COVER), attackers[missing], defenders[missing])
        counts[missing] = fresh
        for i, value in zip(missing.tolist(), fresh.tolist()):
            answers[keys[i]] = value
    return counts


def has_cover(state: BattleState, attacker: tuple[int, int], defender: tuple[int, int]) -> bool:
    """Whether a defender on ``defender`` has cover from an attacker on ``attacker`` (never when the
    GM switched cover off)."""
    rules = state.rules
    if not rules.cover_enabled or attacker == defender:
        return False
    return cover_count(state.caches, state.terrain, attacker, defender) >= rules.cover_lines_needed


def has_cover_many(state: BattleState, attackers: Sequence[tuple[int, int]], defenders: Sequence[tuple[int, int]]
                   ) -> list[bool]:
    """:func:`has_cover` for each pair ``(attackers[i], defenders[i])``, the rules and the layout's
    known answers read once for all of them: a planner asks a few dozen pairs a turn (the cover a
    square would give from each of the nearest enemies, the shots open from it), each answer a
    lookup, and the calls around each lookup cost more than the lookup. A pair not known yet is
    worked out by :func:`cover_count` itself, as :func:`has_cover` would."""
    rules = state.rules
    if not rules.cover_enabled:
        return [False] * len(attackers)
    caches, terrain, needed = state.caches, state.terrain, rules.cover_lines_needed
    answers = caches.cover_answers(terrain.layout_key())
    found = []
    for attacker, defender in zip(attackers, defenders):
        if attacker == defender:
            found.append(False)
            continue
        count = answers.get((attacker[0], attacker[1], defender[0], defender[1]))
        if count is None:
            count = cover_count(caches, terrain, attacker, defender)
            answers = caches.cover_answers(terrain.layout_key())  # (the store may have begun afresh)
        found.append(count >= needed)
    return found


def nearest_enemies(squares: np.ndarray, teams: np.ndarray, rules: Rules, only: int | None = None) -> np.ndarray:
    """Index of each creature's nearest enemy (another team), or -1; ties go to the lower index.

    With ``only``, just that creature's (one index, as a 0-d array): the same answer for one row.

    Computed team by team against everyone else in small integers, so two teams of 500 cost two
    500x500 passes rather than one 1000x1000 pass of 64-bit values.

    Args:
        squares: ``(n, 2)`` int array of (x, y).
        teams: ``(n,)`` array of team ids (ints).
    """
    n = len(squares)
    best = np.full(n, -1, dtype=np.int64)
    coords = squares.astype(np.int16)
    if only is not None:
        theirs = np.flatnonzero(teams != teams[only])
        if not len(theirs):
            return np.array(-1)
        ax = np.abs(coords[theirs, 0] - coords[only, 0])
        ay = np.abs(coords[theirs, 1] - coords[only, 1])
        dist = np.maximum(ax, ay) if rules.diagonal == "one" else np.maximum(ax, ay) + np.minimum(ax, ay) // 2
        return np.array(theirs[np.argmin(dist)])
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
    """Finds a living creature's nearest enemy and whether it has cover from it, when asked.

    Nobody reads the ``Cover`` component during a turn (attacks ask ``has_cover`` for the pair that
    matters), so it is worked out only in the REFRESH phase, for a query: for one creature when the
    query names it (``actor``), for everyone otherwise. Nearest enemies are recomputed when anyone
    moved; the corner lines only for the pairs whose squares or walls changed.
    """

    PHASES = frozenset({Phase.REFRESH})  # the only phases it runs in

    def __init__(self, state: BattleState) -> None:
        self.state = state

    def process(self, phase: Phase, actor: int | None = None) -> None:
        if phase is not Phase.REFRESH:
            return
        state = self.state
        seen = (state.positions_version, state.terrain.version)
        if seen == state.cover_seen:
            return
        if state.terrain.version != state.cover_seen[1]:
            state.cover_keys.clear()
            state.cover_seen = (-1, state.terrain.version)  # every key made before is gone
        living = [(e, p, c, cr) for e, (p, c, cr, _) in esper.get_components(Position, Cover, Creature, Conditions)
                  if "dead" not in _.active]
        if not living:
            state.cover_seen = seen
            return
        team_ids: dict[str, int] = {}
        squares = np.array([(p.x, p.y) for _, p, _, _ in living], dtype=np.int64)
        teams = np.array([team_ids.setdefault(cr.team, len(team_ids)) for _, _, _, cr in living])
        if actor is None:
            state.cover_seen = seen
            rows: Iterable[int] = range(len(living))
            nearest = nearest_enemies(squares, teams, state.rules)
        else:
            mine = [i for i, row in enumerate(living) if row[0] == actor]
            nearest = np.full(len(living), -1, dtype=np.int64)
            if mine:
                nearest[mine[0]] = nearest_enemies(squares, teams, state.rules, mine[0])
            rows = mine
        self._update(living, squares, nearest, rows)

    def _update(self, living: list[tuple[int, Position, Cover, Creature]], squares: np.ndarray,
                nearest: np.ndarray, rows: Iterable[int]) -> None:
        """Set the ``Cover`` of the creatures at ``rows`` of ``living`` whose pair changed."""
        state = self.state
        stale: list[int] = []
        for i in rows:
            entity, position, cover, _ = living[i]
            j = int(nearest[i])
            enemy = living[j][0] if j >= 0 else None
            key = (enemy, position.square, living[j][1].square if j >= 0 else None)
            if state.cover_keys.get(entity) == key:
                continue
            state.cover_keys[entity] = key
            cover.against = enemy
            cover.blocked, cover.covered = 0, False
            if enemy is not None and state.rules.cover_enabled:
                stale.append(i)
        if not stale:
            return
        picked = np.array(stale)
        blocked = cover_counts(state.caches, state.terrain, squares[nearest[picked]], squares[picked])
        for i, count in zip(stale, blocked.tolist()):
            cover = living[i][2]
            cover.blocked = count
            cover.covered = count >= state.rules.cover_lines_needed
