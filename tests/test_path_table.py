"""A small map's table of every pair's path cost (``systems.paths.all_pairs``) answers as the search.

A map played battle after battle keeps asking whole-map searches from squares not searched before;
once it has asked enough (``PATH_TABLE_AFTER``), one table answers them all. Each of its rows must be
the search's own answer from that square, to the unit, for walkers and fliers, under both diagonal
rules, walls or none, and a new layout of walls must never read the old layout's table.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from components import Rules, Terrain
from systems.caches import PATH_TABLE_AFTER, MapCaches
from systems.paths import PATH_TABLE_SIDE, Paths, all_pairs, blocked_for, distance_map


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.integers(0, 2**32 - 1), st.sampled_from([0.0, 0.1, 0.3, 0.6]),
       st.sampled_from(["one", "alternating"]))
def test_every_row_of_the_table_is_the_search_from_that_square(width, height, seed, share, diagonal) -> None:
    """Row ``x * height + y`` is ``distance_map`` from ``(x, y)``, wall squares and cut-off ones included."""
    blocked = np.random.default_rng(seed).random((width, height)) < share
    terrain = Terrain(width, height)
    terrain.walls[:] = blocked
    terrain.touch()
    rules = Rules.from_mapping({"diagonal": diagonal})
    table = all_pairs(blocked_for(terrain, False), rules)
    assert table.dtype == np.int32 and table.shape == (width * height, width * height)
    for x, y in np.ndindex(width, height):
        searched = distance_map(terrain, rules, [(x, y)])
        assert (table[x * height + y].reshape(width, height) == searched).all(), (x, y)


@pytest.mark.parametrize("flying", [False, True])
def test_a_layout_gets_its_table_once_searched_enough_and_the_answers_stay_the_searchs(flying: bool) -> None:
    """A battle alone searches too few squares to be worth a table; past ``PATH_TABLE_AFTER`` whole-map
    searches the layout's table answers, every answer still the search's; a wall built after it is a
    new layout, searched square by square again (the old table is not read)."""
    terrain = Terrain(PATH_TABLE_SIDE, 10)
    terrain.walls[4, 1:9] = True
    terrain.walls[11, 0:6] = True
    terrain.touch()
    rules, caches = Rules.from_mapping({"diagonal": "alternating"}), MapCaches()
    paths = Paths(terrain, rules, caches)
    squares = list(np.ndindex(PATH_TABLE_SIDE, 10))
    for start in squares[:PATH_TABLE_AFTER]:
        paths.raw_distances(start, None, flying)
    assert not caches.path_tables
    for start in squares:
        found = paths.raw_distances(start, None, flying)
        assert (found == distance_map(terrain, rules, [start], None, flying)).all(), start
        assert not found.flags.writeable
    assert len(caches.path_tables) == 1
    terrain.walls[15, :] = True
    terrain.touch()
    for start in squares[:5]:
        assert (paths.raw_distances(start, None, flying) == distance_map(terrain, rules, [start], None, flying)).all()
    assert len(caches.path_tables) == 1  # (the new layout has made too few searches for one of its own)


def test_a_map_past_the_tables_side_is_always_searched() -> None:
    """A map wider than ``PATH_TABLE_SIDE`` never gets a table, however often it is searched."""
    terrain = Terrain(PATH_TABLE_SIDE + 1, 3)
    caches = MapCaches()
    paths = Paths(terrain, Rules(), caches)
    for start in np.ndindex(PATH_TABLE_SIDE + 1, 3):
        paths.raw_distances(start)
    assert not caches.path_tables and not caches.searches
