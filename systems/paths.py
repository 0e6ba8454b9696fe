"""Paths around walls: the cost of the cheapest way from a square to every other, in feet.

tcod's ``Pathfinder`` over a ``SimpleGraph`` does the search (its ``dijkstra2d`` leaks about 4 KiB
of C memory a call in tcod 21, which a long simulation cannot afford). The same question is asked
when a move is issued, when it resolves, by the forecasts and by every battle of a simulation on
one map, so the answers are kept in the battle's :class:`~systems.caches.MapCaches`. A small map
searched from square after square (a simulation) gets one table of every pair's cost instead
(:func:`all_pairs`), from which each whole-map search is read.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import tcod.path

from components import Rules, Terrain
from components.terrain import Blocks
from systems.caches import MapCaches
from systems.drops import fall_dice, fall_dice_many

UNREACHABLE = int(np.iinfo(np.int32).max)
#: up to this many squares, :meth:`Paths.costs_up_to` searches the whole map
SMALL_MAP = 32 * 32
#: a map of at most this many squares a side gets a table of every pair's path cost, once it has been
#: searched often enough (see :func:`all_pairs`, ``MapCaches.path_table``)
PATH_TABLE_SIDE = 20


def edge_weights(rules: Rules) -> tuple[int, int, int]:
    """Edge costs (cardinal, diagonal) and the divisor that turns a path cost into squares.

    With alternating diagonals, 2 for a straight step and 3 for a diagonal, halved and rounded
    down, gives exactly 5-10-5: d diagonals and s straights cost s + d + d // 2 squares.
    """
    return (1, 1, 1) if rules.diagonal == "one" else (2, 3, 2)


def blocked_for(terrain: Terrain, flying: bool) -> np.ndarray:
    """The squares a mover cannot enter: what stops fliers for a flier, what stops walkers else."""
    return terrain.blocking(Blocks.FLIERS if flying else Blocks.MOVEMENT)


def distance_map(terrain: Terrain, rules: Rules, roots: list[tuple[int, int]],
                 window: tuple[int, int, int, int] | None = None, flying: bool = False,
                 caches: MapCaches | None = None) -> np.ndarray:
    """Path cost from the nearest of ``roots`` to every square, around what blocks the mover, in
    edge-cost units.

    ``window`` is ``(x0, y0, x1, y1)``: only that part of the map is searched. Squares not reached
    are ``UNREACHABLE``. With ``caches``, the window's graph is built once for its layout (building
    it costs more than the search; many starts near an edge share one clipped window).
    """
    x0, y0, x1, y1 = window or (0, 0, terrain.width, terrain.height)
    if caches is None:
        graph = _graph(terrain, rules, (x0, y0, x1, y1), flying)
    else:
        key = (terrain.layout_key(), rules.diagonal, (x0, y0, x1, y1), flying)
        graph = caches.graph(key, lambda: _graph(terrain, rules, (x0, y0, x1, y1), flying))
    finder = tcod.path.Pathfinder(graph)
    for x, y in roots:
        finder.add_root((x - x0, y - y0))
    finder.resolve()
    full: np.ndarray = tcod.path.maxarray((terrain.width, terrain.height), dtype=np.int32)
    full[x0:x1, y0:y1] = finder.distance
    return full


def all_pairs(blocked: np.ndarray, rules: Rules) -> np.ndarray:
    """:func:`distance_map` from every square of the map at once, in edge-cost units: row ``x * height + y``
    is the map from ``(x, y)`` flattened (``UNREACHABLE`` where no way goes), an ``int32`` array.

    The search's own graph, as a matrix: a step to any of the eight neighbours that is not
    ``blocked`` costs the rules' cardinal or diagonal edge (from a blocked square too, as the search
    steps off its root), and the cheapest ways are found by Floyd and Warshall's relaxation, one
    numpy pass through each square. The costs are whole numbers, so every way's cost is the one the
    search finds, to the unit.

    Why: a map played battle after battle keeps asking searches from squares not searched before
    (each a Pathfinder's set-up and run), where one table of a small map answers them all."""
    width, height = blocked.shape
    count = width * height
    far = 1 << 29  # (no sum of two overflows an int32, and no way on a map this small costs as much)
    costs = np.full((count, count), far, dtype=np.int32)
    xs, ys = np.divmod(np.arange(count), height)
    into = ~blocked.ravel()
    cardinal, diagonal, _ = edge_weights(rules)
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            if dx or dy:
                tx, ty = xs + dx, ys + dy
                inside = (tx >= 0) & (tx < width) & (ty >= 0) & (ty < height)
                source, target = np.nonzero(inside)[0], tx[inside] * height + ty[inside]
                open_ = into[target]
                costs[source[open_], target[open_]] = diagonal if dx and dy else cardinal
    np.fill_diagonal(costs, 0)
    through = np.empty_like(costs)
    for k in np.nonzero(into)[0].tolist():  # (no way passes through a blocked square: nothing steps into it)
        np.add(costs[:, k, None], costs[None, k, :], out=through)
        np.minimum(costs, through, out=costs)
    costs[costs >= far] = UNREACHABLE
    return costs


def _graph(terrain: Terrain, rules: Rules, window: tuple[int, int, int, int], flying: bool) -> tcod.path.SimpleGraph:
    """The search graph of one window of the map: its open squares, with the rules' edge costs."""
    cardinal, diagonal, _ = edge_weights(rules)
    x0, y0, x1, y1 = window
    cost = np.where(blocked_for(terrain, flying)[x0:x1, y0:y1], 0, 1).astype(np.int32)
    cost.flags.writeable = False  # the graph reads it on every search it serves
    return tcod.path.SimpleGraph(cost=cost, cardinal=cardinal, diagonal=diagonal)


class Paths:
    """The paths of one battle's map, answered from (and into) its caches."""

    def __init__(self, terrain: Terrain, rules: Rules, caches: MapCaches) -> None:
        self.terrain = terrain
        self.rules = rules
        self.caches = caches

    def raw_distances(self, start: tuple[int, int], limit_ft: float | None = None, flying: bool = False
                      ) -> np.ndarray:
        """Path costs from ``start`` in edge-cost units (see :func:`edge_weights`).

        With ``limit_ft``, only the window a creature could reach is searched (every step costs at
        least one square), which makes a 30 ft move on a 64x64 map many times cheaper.
        """
        terrain, rules = self.terrain, self.rules
        window = self._window(start, limit_ft)
        key = (terrain.layout_key(), rules.diagonal, rules.square_ft, start, window, flying)
        found = self.caches.distance_map(key)
        if found is not None:
            return found
        table = None
        if window is None and terrain.width <= PATH_TABLE_SIDE and terrain.height <= PATH_TABLE_SIDE:
            table = self.caches.path_table((key[0], rules.diagonal, flying),
                                           lambda: all_pairs(blocked_for(terrain, flying), rules))
        if table is None:
            distances = distance_map(terrain, rules, [start], window, flying, self.caches)
        else:  # (a copy of its row: kept read-only, as a search's answer is)
            distances = table[start[0] * terrain.height + start[1]].reshape(terrain.width, terrain.height).copy()
        self.caches.keep_distance_map(key, distances)
        return distances

    def _window(self, start: tuple[int, int], limit_ft: float | None) -> tuple[int, int, int, int] | None:
        """The part of the map a search from ``start`` of at most ``limit_ft`` covers (every step costs at
        least one square), None for the whole map. The search's answer depends on the window, not the
        limit, so maps are kept by window: on a small map most limits span all of it, and one search
        serves them all."""
        if limit_ft is None:
            return None
        terrain = self.terrain
        # (max and min written as comparisons, each picking as they pick: CPython 3.11's builtins cost about
        # a thousand instructions a call, and every path question a planner asks comes through here)
        reach = int((0 if 0 > limit_ft else limit_ft) // self.rules.square_ft) + 1
        x0, y0, x1, y1 = start[0] - reach, start[1] - reach, start[0] + reach + 1, start[1] + reach + 1
        window = (x0 if x0 > 0 else 0, y0 if y0 > 0 else 0,
                  x1 if x1 < terrain.width else terrain.width, y1 if y1 < terrain.height else terrain.height)
        return None if window == (0, 0, terrain.width, terrain.height) else window

    def costs_from(self, start: tuple[int, int], limit_ft: float | None = None, flying: bool = False) -> np.ndarray:
        """Cost in feet of the cheapest path from ``start`` to every square (within ``limit_ft`` if
        given); unreachable squares are ``UNREACHABLE``. Read-only: it is kept and shared."""
        terrain, rules = self.terrain, self.rules
        # (kept by its limit, as asked: the search behind it is kept by its window, see ``raw_distances``)
        key = ("feet", terrain.layout_key(), rules.diagonal, rules.square_ft, start, limit_ft, flying)
        found = self.caches.distance_map(key)  # a big map's conversion costs more than its windowed search
        if found is not None:
            return found
        dist = self.raw_distances(start, limit_ft, flying)
        feet = (dist // edge_weights(rules)[2]).astype(np.int64) * rules.square_ft
        feet[dist == UNREACHABLE] = UNREACHABLE
        self.caches.keep_distance_map(key, feet)
        return feet

    def costs_up_to(self, start: tuple[int, int], limit_ft: float, flying: bool = False) -> np.ndarray:
        """:meth:`costs_from`, exact wherever the cost is at most ``limit_ft`` (elsewhere more than it): for
        a question that only compares costs with ``limit_ft`` or less (where can it walk, what can it
        reach). On a map of up to ``SMALL_MAP`` squares the whole map is searched, so that one search
        from a square serves every limit (and every window its neighbours' limits span): there a
        search costs its setting up, not its squares. The answers agree: a way of at most
        ``limit_ft`` never leaves the window a limit spans, so searched in it or in the whole map it
        costs the same, and a dearer one costs more than ``limit_ft`` either way."""
        terrain = self.terrain
        small = terrain.width * terrain.height <= SMALL_MAP
        return self.costs_from(start, None if small else limit_ft, flying)

    def step_cost(self, start: tuple[int, int], goal: tuple[int, int]) -> int | None:
        """Feet of a move of at most one square (the goal open), with no search; None for a longer one.

        One step is never beaten by a detour: every edge costs at least a straight step, and a
        diagonal step (which the search also takes past corners) costs less than two straight ones.
        So this is exactly what the search would answer, for any window of at least one square.
        """
        dx, dy = abs(goal[0] - start[0]), abs(goal[1] - start[1])
        if dx > 1 or dy > 1:
            return None
        if not dx and not dy:
            return 0
        cardinal, diagonal, divisor = edge_weights(self.rules)
        return (diagonal if dx and dy else cardinal) // divisor * self.rules.square_ft

    def cost(self, start: tuple[int, int], goal: tuple[int, int], limit_ft: float | None = None,
             flying: bool = False) -> int | None:
        """Feet of the cheapest path from ``start`` to ``goal`` around what blocks the mover, or None
        if there is none (or, with ``limit_ft``, none that short).

        A fact of the layout and the rules, asked when a move is issued, when the next order is
        checked after it, and when it resolves: kept in the caches, shared by the map's battles.
        """
        key = self._answer_key(start, goal, limit_ft, flying)
        found = self.caches.costs.get(key, -1)
        if found == -1:  # (no cost is negative)
            found = self._cost(start, goal, limit_ft, flying)
            self.caches.keep_cost(key, found)
        return found

    def _answer_key(self, start: tuple[int, int], goal: tuple[int, int], limit_ft: float | None, flying: bool
                    ) -> tuple[Any, ...]:
        """What a cost or a route depends on: the layout, the rules' distances and the question."""
        return (self.terrain.layout_key(), self.rules.diagonal, self.rules.square_ft, start, goal, limit_ft, flying)

    def _cost(self, start: tuple[int, int], goal: tuple[int, int], limit_ft: float | None, flying: bool) -> int | None:
        """:meth:`cost`, worked out."""
        if blocked_for(self.terrain, flying)[goal]:
            return None
        step = self.step_cost(start, goal)
        if step is not None:
            return step
        dist = self._distances_to(start, goal, limit_ft, flying)
        if dist[goal] == UNREACHABLE:
            return None
        return int(dist[goal]) // edge_weights(self.rules)[2] * self.rules.square_ft

    def _distances_to(self, start: tuple[int, int], goal: tuple[int, int], limit_ft: float | None, flying: bool
                      ) -> np.ndarray:
        """:meth:`raw_distances` in the window ``limit_ft`` spans, as far as ``goal`` is concerned: on a small
        map the whole map's search (see :meth:`costs_up_to`) when it finds ``goal`` within the limit. Then
        the two agree on every square as cheap as ``goal``, so on its cost and on the climb back from it."""
        terrain = self.terrain
        if limit_ft is not None and terrain.width * terrain.height <= SMALL_MAP:
            whole = self.raw_distances(start, None, flying)
            cost = int(whole[goal])
            if cost != UNREACHABLE and cost // edge_weights(self.rules)[2] * self.rules.square_ft <= limit_ft:
                return whole
        return self.raw_distances(start, limit_ft, flying)

    def find(self, start: tuple[int, int], goal: tuple[int, int], limit_ft: float | None = None,
             flying: bool = False) -> tuple[list[tuple[int, int]], int] | None:
        """The cheapest path from ``start`` to ``goal`` (every square, both ends included) and its cost.

        A walker's way on uneven ground steps down no drop that would hurt when a way as cheap does
        not (see :meth:`_dry_way`), so it is kept by the heights and the falling rules too.
        """
        key = self._answer_key(start, goal, limit_ft, flying)
        uneven_walk = not flying and self.terrain.level_ground() is None
        if uneven_walk:
            key = (*key, *self._drops_key())
        known = self.caches.routes.get(key)  # the climb down a distance map: a fact of the layout too
        if known is not None:
            return list(known[0]), known[1]
        cost = self.cost(start, goal, limit_ft, flying)
        if cost is None:
            return None
        if self.step_cost(start, goal) is not None:  # one step: the path is its two ends
            route: tuple[tuple[int, int], ...] = (start,) if start == goal else (start, goal)
        else:
            distances = self._distances_to(start, goal, limit_ft, flying)
            steps = tcod.path.hillclimb2d(distances, goal, True, True)[::-1]
            route = tuple((x, y) for x, y in steps.tolist())
            if uneven_walk and hurtful_steps(self.terrain, route, self.rules):
                route = self._dry_way(start, goal, limit_ft, int(distances[goal])) or route
        self.caches.keep_route(key, (route, cost))
        return list(route), cost

    def _drops_key(self) -> tuple[Any, ...]:
        """What a walk's drops depend on besides the layout: the heights, soft ground and the rules
        that say which drop hurts."""
        rules = self.rules
        return self.terrain.heights_key(), rules.fall_ft_per_die, rules.fall_max_dice, rules.soft_landing_divisor

    def _dry_way(self, start: tuple[int, int], goal: tuple[int, int], limit_ft: float | None, cheapest: int
                 ) -> tuple[tuple[int, int], ...] | None:
        """A walker's way from ``start`` to ``goal`` as cheap in feet as ``cheapest`` (the search's
        least, in edge-cost units) that steps down no drop that would hurt, or None.

        Why: a walk steps off the first ledge on its way that hurts, so the cheapest way the climb
        happened to find over a pit's edge, where one as cheap goes round it, threw the walker in by
        accident. Only asked when the climb's way has such a drop; the search is the one in the
        window the move's limit spans, over a graph without those steps (kept like the others).
        """
        terrain, rules = self.terrain, self.rules
        window = self._window(start, limit_ft) or (0, 0, terrain.width, terrain.height)
        key = ("dry", terrain.layout_key(), *self._drops_key(), rules.diagonal, window)
        graph = self.caches.graph(key, lambda: dry_graph(terrain, rules, window))
        finder = tcod.path.Pathfinder(graph)
        x0, y0 = window[0], window[1]
        finder.add_root((start[0] - x0, start[1] - y0))
        there = (goal[0] - x0, goal[1] - y0)
        finder.resolve(there)
        found = int(finder.distance[there])
        divisor = edge_weights(rules)[2]
        if found == UNREACHABLE or found // divisor != cheapest // divisor:
            return None
        return tuple((x + x0, y + y0) for x, y in finder.path_to(there).tolist())


#: The eight steps a walker may take, as (dx, dy).
_STEPS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def hurtful_steps(terrain: Terrain, route: tuple[tuple[int, int], ...] | list[tuple[int, int]], rules: Rules) -> int:
    """How many steps of ``route`` go down a drop whose fall would hurt (a die or more, soft ground
    counted): where a walk along it would step off and fall (see ``systems.actions.walk``)."""
    ground, soft = terrain.ground, terrain.soft
    return sum(1 for here, there in zip(route, route[1:])
               if fall_dice(float(ground[here] - ground[there]), bool(soft[there]), rules) > 0)


def dry_graph(terrain: Terrain, rules: Rules, window: tuple[int, int, int, int]) -> tcod.path.CustomGraph:
    """The search graph of a walker's steps within ``window`` that go down no drop that would hurt:
    a step's edge is there only when its square is open to walkers and the drop onto it from the
    square it comes from deals no dice (a rise, level ground, a short drop or a soft one)."""
    x0, y0, x1, y1 = window
    cardinal, diagonal, _ = edge_weights(rules)
    ground, soft = terrain.ground[x0:x1, y0:y1], terrain.soft[x0:x1, y0:y1]
    open_squares = ~blocked_for(terrain, False)[x0:x1, y0:y1]
    width, height = ground.shape
    graph = tcod.path.CustomGraph((width, height))
    for dx, dy in _STEPS:
        to_x, to_y = slice(max(dx, 0), width + min(dx, 0)), slice(max(dy, 0), height + min(dy, 0))
        from_x, from_y = slice(max(-dx, 0), width + min(-dx, 0)), slice(max(-dy, 0), height + min(-dy, 0))
        drop = np.zeros_like(ground)
        drop[to_x, to_y] = ground[from_x, from_y] - ground[to_x, to_y]
        cost = (open_squares & (fall_dice_many(drop, soft, rules) <= 0)).astype(np.int8)
        graph.add_edge((dx, dy), diagonal if dx and dy else cardinal, cost=cost)
    return graph
