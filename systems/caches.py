"""Answers worked out from the layout of walls (and the lights on it), kept by an owner that battles share.

Paths and cover lines depend on the walls and nothing else, and a simulation plays thousands of
battles on one map: whoever builds those battles (a loaded scenario, a simulation worker) holds one
``MapCaches`` and hands it to each, so what one battle worked out serves the next. A battle built
alone gets its own. Nothing here is module state: two owners never see each other's answers, and
``clear()`` forgets everything (a test, a benchmark's cold run).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
import tcod.los

from systems.lighting import LevelCache

Layout = tuple[tuple[int, int], bytes]
#: sight lines kept are those under this many squares a side (see ``MapCaches.line_steps``)
LINE_KEPT = 32
#: sight pairs of a layout answered one by one before its whole table is made (see ``MapCaches.sight_table``):
#: one battle asks two or three hundred, and the table costs about what some 1,500 cost
SIGHT_TABLE_AFTER = 500
#: whole-map path searches of a layout made one by one before its table of every pair is made (see
#: ``MapCaches.path_table``): one battle makes twenty or thirty, and the table costs about what some 150 cost
PATH_TABLE_AFTER = 64
T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")


class MapCaches:
    """Path distance maps and search graphs, path costs and routes, cover-line counts, sight lines and
    answers (a small layout's whole sight table too), area squares and light masks, keyed by the
    layout of walls.

    ``levels`` keeps each light's mask and the counts behind the last level grid (see
    :mod:`systems.lighting`).

    Args:
        paths_kept: how many distance maps to keep (least recently used go first); a quarter as
            many search graphs (each holds its window's costs; the oldest go first).
        layouts_kept: how many wall layouts' cover answers to keep.
        pairs_per_layout: cover answers kept per layout before they are forgotten and relearnt.
    """

    def __init__(self, paths_kept: int = 1024, layouts_kept: int = 16, pairs_per_layout: int = 200_000) -> None:
        self.paths_kept = paths_kept
        self.layouts_kept = layouts_kept
        self.pairs_per_layout = pairs_per_layout
        self.distances: OrderedDict[tuple[Any, ...], np.ndarray] = OrderedDict()
        #: path costs and found paths (squares, cost), by (layout, diagonal rule, square size, start,
        #: goal, limit, flying): asked when a move is issued, checked after and resolved (each up
        #: to ``paths_kept`` * 32, the oldest first out)
        self.costs: dict[tuple[Any, ...], int | None] = {}
        self.routes: dict[tuple[Any, ...], tuple[tuple[tuple[int, int], ...], int]] = {}
        #: the squares an area covers, by (layout, rules, shape, centre, facing): see systems.areas
        self.areas: dict[tuple[Any, ...], tuple[tuple[int, int], ...]] = {}
        #: the path searches' graphs, by (layout, diagonal rule, window, flying): see systems.paths
        self.graphs: dict[tuple[Any, ...], Any] = {}
        self.cover: dict[Layout, dict[tuple[int, int, int, int], int]] = {}
        #: attackers' rows of cover counts by layout (see ``systems.cover_lines.row_of``; None: not worth one)
        self.cover_rows: dict[Layout, dict[tuple[int, int], Any]] = {}
        #: each layout's squares that block cover lines, when few (see ``systems.cover_lines.few_solids``)
        self.solids: dict[Layout, Any] = {}
        #: each small layout's whole table of cover counts (see ``systems.cover_lines.cover_table``; None: none)
        self.cover_tables: dict[Layout, Any] = {}
        self.sight: dict[tuple[Layout, bytes | None], dict[tuple[tuple[int, int], tuple[int, int]], bool]] = {}
        #: each small layout's whole table of sight without darkness (see ``systems.sight_field.sight_table``)
        self.sight_tables: dict[Layout, Any] = {}
        #: whole-map path searches made one by one, and each small layout's table of every pair's path
        #: cost, by (layout, diagonal rule, flying): see ``path_table``
        self.searches: dict[tuple[Any, ...], int] = {}
        self.path_tables: dict[tuple[Any, ...], Any] = {}
        #: tcod's Bresenham line from (0, 0) by its step (dx, dy): see ``line_steps``
        self.lines: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
        self.shared: dict[str, Any] = {}  # what the layers above keep with the map (in-process script hosts)
        self.levels = LevelCache()
        # the last layout asked about and its answers: a battle asks about one layout thousands of
        # times in a row, and its key (a tuple of bytes) is the same object while the walls stand
        self._last_cover: tuple[Layout, dict[tuple[int, int, int, int], int]] | None = None
        self._last_table: tuple[Layout, Any] | None = None  # (the same, for the cover table)

    def distance_map(self, key: tuple[Any, ...]) -> np.ndarray | None:
        """A kept distance map (read-only), or None."""
        found = self.distances.get(key)
        if found is not None:
            self.distances.move_to_end(key)
        return found

    def keep_distance_map(self, key: tuple[Any, ...], distances: np.ndarray) -> None:
        distances.flags.writeable = False
        self.distances[key] = distances
        if len(self.distances) > self.paths_kept:
            self.distances.popitem(last=False)

    def keep_cost(self, key: tuple[Any, ...], cost: int | None) -> None:
        _keep(self.costs, key, cost, self.paths_kept * 32)

    def graph(self, key: tuple[Any, ...], make: Callable[[], T]) -> T:
        """The search graph of one window of a layout (by layout, diagonal rule, window, flying),
        made by ``make`` the first time: a graph costs more to build than a search over it."""
        found = self.graphs.get(key)
        if found is None:
            found = make()
            _keep(self.graphs, key, found, max(self.paths_kept // 4, 1))
        return found

    def keep_area(self, key: tuple[Any, ...], squares: tuple[tuple[int, int], ...]) -> None:
        _keep(self.areas, key, squares, self.paths_kept * 8)

    def keep_route(self, key: tuple[Any, ...], route: tuple[tuple[tuple[int, int], ...], int]) -> None:
        _keep(self.routes, key, route, self.paths_kept * 32)

    def line_steps(self, dx: int, dy: int) -> tuple[tuple[int, int], ...]:
        """The squares of tcod's Bresenham line from (0, 0) to (``dx``, ``dy``), both ends included.

        Why kept: the walk depends on the step alone (a line from ``a`` is ``a`` plus these), so a
        map's lines are a few thousand steps, each asked of tcod once. The sight answers are kept by
        pair of squares, and new pairs keep coming for hundreds of battles on one map, each tcod call
        with its array costing several times the check of the walls along it. Facts of geometry:
        forgotten only by ``clear``. Only lines under ``LINE_KEPT`` squares a side are kept (at most
        ~4,000 steps, a few MB): a longer one is asked of tcod each time, so a huge map holds no more.
        """
        found = self.lines.get((dx, dy))
        if found is None:
            found = tuple((x, y) for x, y in tcod.los.bresenham((0, 0), (dx, dy)).tolist())
            if abs(dx) < LINE_KEPT and abs(dy) < LINE_KEPT:
                self.lines[dx, dy] = found
        return found

    def cover_answers(self, layout: Layout) -> dict[tuple[int, int, int, int], int]:
        """The known corner-line counts of one layout of walls, (ax, ay, dx, dy) -> lines blocked."""
        last = self._last_cover
        if last is not None and last[0] is layout and len(last[1]) <= self.pairs_per_layout:
            return last[1]  # (answers are facts about the layout: still true if the store has let them go)
        answers = self._answers(self.cover, layout)
        self._last_cover = (layout, answers)
        return answers

    def rows_of_cover(self, layout: Layout) -> dict[tuple[int, int], Any]:
        """The attackers' rows of cover counts kept for one layout of walls (begun afresh past as many rows
        as hold ``pairs_per_layout`` counts of a 16-square window)."""
        rows = self._answers(self.cover_rows, layout)
        if len(rows) > self.pairs_per_layout // 256:
            rows.clear()
        return rows

    def cover_solids(self, layout: Layout, make: Callable[[], T]) -> T:
        """The squares that block cover lines on one layout, made by ``make`` the first time (None: too many)."""
        if layout in self.solids:
            found: T = self.solids[layout]
            return found
        found = make()
        _keep(self.solids, layout, found, self.layouts_kept)
        return found

    def cover_table(self, layout: Layout, make: Callable[[], T]) -> T:
        """The whole table of cover counts of one layout, made by ``make`` the first time (None: none for
        it). A quarter as many layouts' tables are kept as their answers: a 32x32 map's is a few MB."""
        last = self._last_table
        if last is not None and last[0] is layout:
            known: T = last[1]
            return known
        if layout in self.cover_tables:
            found: T = self.cover_tables[layout]
        else:
            found = make()
            _keep(self.cover_tables, layout, found, max(self.layouts_kept // 4, 1))
        self._last_table = (layout, found)
        return found

    def sight_answers(self, layout: Layout, levels: np.ndarray | None
                      ) -> dict[tuple[tuple[int, int], tuple[int, int]], bool]:
        """The known answers of "can a viewer with some vision on this square see that one" for one
        layout of walls and one level grid, ``(square, square) -> bool``, the lesser square first
        (sight is the same both ways).

        ``levels`` None stands for every grid with no square at no vision: on those, sight is the
        walls' alone, so a light lit or put out (a new grid) finds the answers of the last one.
        """
        return self._answers(self.sight, (layout, None if levels is None else levels.tobytes()))

    def sight_table(self, layout: Layout, make: Callable[[], T]) -> T | None:
        """The whole table of sight without darkness of one layout (see
        ``systems.sight_field.sight_table``), made by ``make`` once ``SIGHT_TABLE_AFTER`` of its pairs
        have been answered one by one (None before, or when ``make`` gives none): a map played battle
        after battle gets one, a battle alone never pays for it. As many are kept as cover tables."""
        if layout in self.sight_tables:
            found: T = self.sight_tables[layout]
            return found
        answers = self.sight.get((layout, None))
        if answers is None or len(answers) < SIGHT_TABLE_AFTER:
            return None
        found = make()
        _keep(self.sight_tables, layout, found, max(self.layouts_kept // 4, 1))
        return found

    def path_table(self, key: tuple[Any, ...], make: Callable[[], T]) -> T | None:
        """The table of every pair's path cost of one small layout (by layout, diagonal rule and
        flying; see ``systems.paths.all_pairs``), made by ``make`` once ``PATH_TABLE_AFTER`` of its
        whole-map searches have been made one by one (each ask that finds no table counts as one):
        a map played battle after battle gets one, a battle alone never pays for it. None before.
        As many are kept as sight tables, and counts for as many layouts as cover answers."""
        if key in self.path_tables:
            found: T = self.path_tables[key]
            return found
        made = self.searches.pop(key, 0) + 1
        if made <= PATH_TABLE_AFTER:
            if len(self.searches) >= self.layouts_kept:  # (a map whose walls keep changing: the oldest count goes)
                del self.searches[next(iter(self.searches))]
            self.searches[key] = made
            return None
        found = make()
        _keep(self.path_tables, key, found, max(self.layouts_kept // 4, 1))
        return found

    def _answers(self, store: dict[K, dict[Any, V]], key: K) -> dict[Any, V]:
        """``store``'s answers for ``key``, begun afresh when there are none or more than
        ``pairs_per_layout``; the least recently asked key goes when ``layouts_kept`` are kept (the
        sight answers every grid without darkness shares are asked for again and again)."""
        answers = store.pop(key, None)
        if answers is not None:
            store[key] = answers  # asked again: last in line to go
        if answers is None or len(answers) > self.pairs_per_layout:
            if len(store) >= self.layouts_kept:
                del store[next(iter(store))]
            answers = store[key] = {}
        return answers

    def owned(self, name: str, make: Callable[[], T]) -> T:
        """Something the battles on this map share that ``systems`` knows nothing of, made once.

        The battle layer keeps its in-process script hosts here, so a script is parsed once for
        every battle built with these caches, not once per battle; the baseline computer players
        keep their map answers here. It must need no closing.
        """
        found = self.shared.get(name)
        if found is None:
            found = self.shared[name] = make()
        return found

    def clear(self, owned: bool = False) -> None:
        """Forget every answer; with ``owned``, what other layers keep here too (by default that
        stays: script hosts are not answers)."""
        self.distances.clear()
        self.costs.clear()
        self.routes.clear()
        self.areas.clear()
        self.graphs.clear()
        self.cover.clear()
        self.cover_rows.clear()
        self.solids.clear()
        self.cover_tables.clear()
        self._last_cover = None
        self._last_table = None
        self.sight.clear()
        self.sight_tables.clear()
        self.searches.clear()
        self.path_tables.clear()
        self.lines.clear()
        if owned:
            self.shared.clear()
        self.levels.clear()


def _keep(store: dict[K, V], key: K, value: V, most: int) -> None:
    """Keep an answer, the oldest going first past ``most``."""
    if len(store) >= most:
        del store[next(iter(store))]
    store[key] = value
