"""What the computer player asks about a map again and again, answered once per layout of walls.

Cover between two squares, path distances from a square and the squares an area power covers
depend only on the walls (and the rules' diagonal and square size), sight on the walls and the
visibility levels, not on the battle. A simulation plays thousands of battles on one map and every creature's turn
asks the same questions, so the answers are kept per wall layout and shared by every battle in the
process. They are the rules' own answers (``systems`` functions, the facade's area squares), or,
for cover, a reformulation that counts exactly the same lines through walls (see
:meth:`MapAnswers.cover_grid`; the baseline's rough cover leaves out cover terrain that is no wall).

Nothing here decides anything: ``game.ai`` does. Every cache is bounded, and none holds a battle.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import Any

import numpy as np

from components import Rules, Terrain
from systems.cover_lines import blocked_lines, blocked_lines_many, crossings
from systems.paths import distance_map
from systems.visibility import sees

#: Lattice points x walls above which a whole cover grid costs more than the pairs asked about.
_LATTICE_BUDGET = 300_000

#: Entries each per-layout table may hold before it starts again (a 64x64 map has 4096 squares).
_TABLE_SIZE = 8192

#: Bytes of arrays (cover grids, path fields) each per-layout table may hold: 16x16 maps keep every
#: square's answer, a 64x64 map a few hundred, so memory stays flat whatever the map.
_TABLE_BYTES = 2 << 20

#: Wall layouts kept (a simulation uses one; a test suite builds hundreds of small maps).
_LAYOUTS_KEPT = 8


class MapAnswers:
    """Answers for one layout of walls; read-only arrays, shared by every battle on that layout."""

    __slots__ = ("walls", "_cover", "_lines", "_fields", "_areas", "_lattice", "_arrays_kept")

    def __init__(self, walls: np.ndarray) -> None:
        self.walls = walls.copy()
        self.walls.flags.writeable = False
        self._cover: dict[tuple[int, int], np.ndarray] = {}
        self._lines: dict[bytes, SightTable] = {}
        self._fields: dict[tuple[tuple[int, int], str], np.ndarray] = {}
        self._areas: dict[Hashable, frozenset[tuple[int, int]] | None] = {}
        w, h = self.walls.shape
        self._lattice = (w + 1) * (h + 1) * int(self.walls.sum()) <= _LATTICE_BUDGET
        self._arrays_kept = max(16, min(_TABLE_SIZE, _TABLE_BYTES // (4 * w * h)))  # int32 fields

    # ------------------------------------------------------------------ cover

    def cover_grid(self, attacker: tuple[int, int]) -> np.ndarray | None:
        """Blocked corner lines (0-4) from ``attacker`` to every open square, or None on a big busy map.

        ``systems.cover_lines.blocked_lines`` clips the four lines from the attacker's centre to the
        defender's corners against the walls in their bounding box, skipping both creatures' own
        squares. A line to a corner is the same line whichever square the corner belongs to, and
        walls outside the bounding box can only graze it (a crossing of zero length), so one pass
        over the map's lattice points gives every open defender square's count at once: four
        lookups and a sum, where the pairwise rule costs tens of numpy calls per pair. A wall
        square as defender would differ (its own wall is skipped there), so :meth:`blocked` asks
        the rule itself for those.
        """
        grid = self._cover.get(attacker)
        if grid is None:
            if not self._lattice:
                return None
            if len(self._cover) >= 4 * self._arrays_kept:  # int8 grids: four per int32 field
                self._cover.clear()
            grid = self._cover[attacker] = _cover_grid(self.walls, attacker)
        return grid

    def blocked(self, attacker: tuple[int, int], defenders: np.ndarray) -> np.ndarray:
        """Blocked corner lines from ``attacker`` to each of ``defenders`` (``(n, 2)``), as the rules count them."""
        defenders = np.asarray(defenders, dtype=np.int64).reshape(-1, 2)
        grid = self.cover_grid(attacker)
        if grid is None:
            attackers = np.repeat(np.array([attacker], dtype=np.int64), len(defenders), axis=0)
            return blocked_lines_many(self.walls, attackers, defenders)
        counts = grid[defenders[:, 0], defenders[:, 1]].astype(np.int64)
        for i in np.flatnonzero(self.walls[defenders[:, 0], defenders[:, 1]]):
            counts[i] = blocked_lines(self.walls, attacker, (int(defenders[i, 0]), int(defenders[i, 1])))
        return counts

    def blocked_flat(self, attacker: tuple[int, int], defenders: np.ndarray) -> np.ndarray:
        """:meth:`blocked` for defender squares given as flat ``[x, y]`` indices (``np.flatnonzero``)."""
        grid = self.cover_grid(attacker)
        if grid is None or self.walls.ravel()[defenders].any():
            return self.blocked(attacker, np.stack(np.divmod(defenders, self.walls.shape[1]), axis=1))
        return grid.ravel()[defenders]

    def has_cover(self, rules: Rules, attacker: tuple[int, int], defender: tuple[int, int]) -> bool:
        """Whether walls alone hide ``defender`` from ``attacker`` (the baseline's rough cover: no
        arrow slit or battlement counts), from the cached grid when there is one."""
        if not rules.cover_enabled or attacker == defender:
            return False
        grid = self.cover_grid(attacker)
        if grid is None or self.walls[defender]:
            count = blocked_lines(self.walls, attacker, defender)
        else:
            count = int(grid[defender])
        return count >= rules.cover_lines_needed

    # ------------------------------------------------------------------ sight, paths, areas

    def sight(self, levels: np.ndarray) -> SightTable:
        """Answers of the rules' sight test on this layout under one grid of visibility levels.

        Sight depends on the walls and, along the line, on the levels (a map's lights and areas),
        so the answers are kept per levels grid: every battle of a simulation lights its map alike.
        """
        key = levels.tobytes()
        found = self._lines.get(key)
        if found is None:
            if len(self._lines) >= 8:
                self._lines.clear()
            found = self._lines[key] = SightTable(self.walls, levels)
        return found

    def field(self, terrain: Terrain, rules: Rules, root: tuple[int, int]) -> np.ndarray:
        """Path cost from ``root`` to every square (``systems.paths.distance_map``), read-only."""
        key = (root, rules.diagonal)
        found = self._fields.get(key)
        if found is None:
            if len(self._fields) >= self._arrays_kept:
                self._fields.clear()
            found = distance_map(terrain, rules, [root])
            found.flags.writeable = False
            self._fields[key] = found
        return found

    def nearest_field(self, terrain: Terrain, rules: Rules, roots: Iterable[tuple[int, int]]) -> np.ndarray:
        """Path cost to the nearest of ``roots``: ``distance_map`` with several roots gives the same
        integers (a many-rooted search is the minimum of the one-rooted ones), but each one-rooted
        field is cached, so a turn costs an elementwise minimum rather than a search."""
        fields = [self.field(terrain, rules, root) for root in roots]
        if len(fields) == 1:
            return fields[0]
        return np.minimum.reduce(fields)

    def area(self, key: Hashable, compute: Callable[[], frozenset[tuple[int, int]] | None]
             ) -> frozenset[tuple[int, int]] | None:
        """The squares an area covers, by a key that names everything they depend on but the walls."""
        try:
            found = self._areas[key]
        except KeyError:
            if len(self._areas) >= _TABLE_SIZE:
                self._areas.clear()
            found = self._areas[key] = compute()
        except TypeError:  # an unhashable area object from a young powers API: just compute
            return compute()
        return found


#: The rules' "you can see" from any square (the battle's own function: darkness on the line blocks it).
_SEES: Callable[[np.ndarray, np.ndarray, int, tuple[int, int], tuple[int, int]], bool] = sees


class SightTable:
    """Whether a viewer on one square sees another, for one layout of walls and one levels grid."""

    __slots__ = ("walls", "levels", "_answers")

    def __init__(self, walls: np.ndarray, levels: np.ndarray) -> None:
        self.walls = walls
        self.levels = levels.copy()
        self._answers: dict[tuple[tuple[int, int], tuple[int, int], int], bool] = {}

    def sees(self, viewer_level: int, here: tuple[int, int], square: tuple[int, int]) -> bool:
        """The rules' sight test for a viewer with ``viewer_level`` vision standing on ``here``."""
        key = (here, square, viewer_level)
        found = self._answers.get(key)
        if found is None:
            if len(self._answers) >= _TABLE_SIZE:
                self._answers.clear()
            found = self._answers[key] = bool(_SEES(self.walls, self.levels, viewer_level, here, square))
        return found


def _cover_grid(walls: np.ndarray, attacker: tuple[int, int]) -> np.ndarray:
    """Corner lines blocked from ``attacker``'s centre to each square's four corners, ``[x, y]`` int8.

    The rule's own crossing test (``systems.cover_lines.crossings``, its graze threshold too), asked
    at once for every lattice point of the map against every wall but the attacker's own square.
    """
    w, h = walls.shape
    ax, ay = attacker
    xs, ys = np.nonzero(walls)
    keep = ~((xs == ax) & (ys == ay))
    sx, sy = xs[keep].astype(np.float64), ys[keep].astype(np.float64)
    if not len(sx):
        return np.zeros((w, h), dtype=np.int8)
    corner_x = np.arange(w + 1, dtype=np.float64)[:, None, None]   # (w+1, 1, 1): a lattice point's x
    corner_y = np.arange(h + 1, dtype=np.float64)[None, :, None]   # (1, h+1, 1); the walls run along axis 2
    crossed = crossings(sx, sy, ax + 0.5, ay + 0.5, corner_x, corner_y, 0, 0)
    lines = np.any(crossed, axis=2).astype(np.int8)                 # (w+1, h+1): line to that corner
    grid = lines[:-1, :-1] + lines[1:, :-1] + lines[:-1, 1:] + lines[1:, 1:]
    grid.flags.writeable = False
    return grid


Layout = tuple[tuple[int, ...], bytes]

class LayoutAnswers:
    """The :class:`MapAnswers` of the last few wall layouts seen, most recent last (an owner's, not
    the module's: see :class:`game.ai.info.BaselineCaches`)."""

    def __init__(self, kept: int = _LAYOUTS_KEPT) -> None:
        self.kept = kept
        self.layouts: OrderedDict[Layout, MapAnswers] = OrderedDict()

    def answers_for(self, terrain: Terrain) -> MapAnswers:
        """The shared answers for ``terrain``'s current walls."""
        layout = terrain.layout_key()
        found = self.layouts.get(layout)
        if found is None:
            found = self.layouts[layout] = MapAnswers(terrain.walls)
            if len(self.layouts) > self.kept:
                self.layouts.popitem(last=False)
        elif next(reversed(self.layouts)) is not layout:
            self.layouts.move_to_end(layout)
        return found


def area_key(area: Any, ranged: bool, origin: tuple[int, int], point: tuple[int, int] | None,
             rules: Rules) -> tuple[Any, ...]:
    """What the squares of an area depend on besides the walls (``Battle.squares_in_area``)."""
    return (area, ranged, origin, point, rules.diagonal, rules.square_ft)
