"""What a team sees, all at once (``systems.sight_field`` behind ``Battle.visible_squares``): the same
answer, square for square, as the rules' "you can see" asked one square at a time, on boards with
walls, darkness and long asymmetric lines; and fast enough that the window's fog can ask it on a
big map after every move (no timing asserted: the big map is only checked square for square)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from components import Visibility
from components.terrain import Blocks
from game import Battle
from systems.caches import SIGHT_TABLE_AFTER, MapCaches
from systems.sight_field import SIGHT_TABLE_SIDE, seen_mask, sight_table
from systems.visibility import seen_from, sees

V = Visibility
LEVELS = [int(v) for v in Visibility]


@st.composite
def boards(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, int, tuple[int, int]]:
    width, height = draw(st.integers(1, 24)), draw(st.integers(1, 24))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    walls = rng.random((width, height)) < draw(st.sampled_from([0.0, 0.1, 0.3, 0.6]))
    dark_share = draw(st.sampled_from([0.0, 0.05, 0.3]))
    levels = np.where(rng.random((width, height)) < dark_share, int(V.NO_VISION),
                      rng.choice(LEVELS[1:], size=(width, height))).astype(np.int8)
    here = (draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1)))
    return walls, levels, draw(st.sampled_from(LEVELS)), here


@settings(max_examples=150, deadline=None)
@given(boards())
def test_every_square_is_seen_exactly_as_the_rules_see_it_one_by_one(board) -> None:
    walls, levels, viewer_level, here = board
    mask = seen_mask(walls, levels, viewer_level, here)
    want = np.array([[sees(walls, levels, viewer_level, here, (x, y)) for y in range(walls.shape[1])]
                     for x in range(walls.shape[0])], dtype=bool).reshape(walls.shape)
    np.testing.assert_array_equal(mask, want)


def test_squares_already_seen_stay_seen_and_the_rest_are_added() -> None:
    walls = np.zeros((9, 5), dtype=bool)
    walls[4, :] = True  # a wall across the board: each side sees only its own half and the wall
    levels = np.full((9, 5), int(V.NORMAL), dtype=np.int8)
    left = seen_mask(walls, levels, int(V.NORMAL), (0, 2))
    assert left[:5].all() and not left[5:].any()
    both = seen_mask(walls, levels, int(V.NORMAL), (8, 2), already=left)
    assert both.all()
    assert not left[5:].any()  # the mask given in is not written


def test_no_vision_of_its_own_or_a_dark_square_underfoot_sees_nothing() -> None:
    walls = np.zeros((6, 6), dtype=bool)
    levels = np.full((6, 6), int(V.NORMAL), dtype=np.int8)
    assert not seen_mask(walls, levels, int(V.NO_VISION), (2, 2)).any()
    levels[2, 2] = V.NO_VISION
    assert not seen_mask(walls, levels, int(V.NORMAL), (2, 2)).any()


@pytest.mark.slow
def test_a_team_on_a_big_map_sees_what_each_creature_sees_square_by_square() -> None:
    """The window asks this after every move; a 96x96 map with walls, a dark area and a blinded
    scout: the team's mask is the union of ``can_see`` over its living creatures, square by square."""
    b = Battle(seed=5, width=96, height=96)
    rng = np.random.default_rng(11)
    for x, y in zip(rng.integers(0, 96, 600).tolist(), rng.integers(0, 96, 600).tolist(), strict=True):
        if (x, y) not in {(5, 5), (90, 40), (40, 90)}:
            b.add_wall(x, y)
    b.add_area(60, 60, 15, "no vision")
    a = b.spawn("Scout", 5, 5, team="blue")
    c = b.spawn("Lookout", 90, 40, team="blue")
    blind = b.spawn("Blind", 40, 90, team="blue")
    b.spawn("Foe", 50, 50, team="red")
    b.add_condition(blind, "blinded")
    mask = b.visible_squares("blue")
    assert mask.shape == (96, 96) and mask.any() and not mask.all()
    for x in range(96):
        for y in range(96):
            assert mask[x, y] == (b.can_see(a, (x, y)) or b.can_see(c, (x, y)) or b.can_see(blind, (x, y))), (x, y)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.integers(0, 2**32 - 1), st.sampled_from([0.0, 0.1, 0.3, 0.6]))
def test_a_small_maps_sight_table_is_the_rules_sight_pair_by_pair(width, height, seed, share) -> None:
    """The whole table a small map without darkness gets (``sight_table``) answers every pair as
    ``sees`` does, walking the same kept lines."""
    walls = np.random.default_rng(seed).random((width, height)) < share
    levels = np.full((width, height), int(V.NORMAL), dtype=np.int8)
    caches = MapCaches()
    table = sight_table(walls, caches.line_steps)
    assert table is not None
    for a in np.ndindex(width, height):
        for b in np.ndindex(width, height):
            assert table[a[0]][a[1]][b[0]][b[1]] == sees(walls, levels, int(V.NORMAL), a, b), (a, b)
    assert sight_table(np.zeros((SIGHT_TABLE_SIDE + 1, 4), dtype=bool), caches.line_steps) is None


def test_a_layout_gets_its_table_once_it_has_answered_enough_pairs_and_sight_stays_the_rules() -> None:
    """A battle alone asks too few pairs to be worth a table; once the layout's answers pass
    ``SIGHT_TABLE_AFTER``, the next grid without darkness reads the table, and every answer is still
    the rules' (a grid with darkness never reads it)."""
    caches = MapCaches()
    b = Battle(seed=3, width=12, height=12, caches=caches)
    for x, y in ((4, 4), (4, 5), (5, 8), (9, 2), (7, 7)):
        b.add_wall(x, y)
    viewer = b.spawn("viewer", 0, 0, team="a")
    state, squares = b.state, list(np.ndindex(12, 12))
    assert b.can_see(viewer, (3, 3)) and state.sight is not None and state.sight[2] is None
    for here in squares:  # every pair one by one: past SIGHT_TABLE_AFTER
        seen_from(state, int(V.NORMAL), here, squares)
    assert len(caches.sight[(state.terrain.layout_key(), None)]) >= SIGHT_TABLE_AFTER and not caches.sight_tables
    walls = state.terrain.blocking(Blocks.SIGHT)
    for added, tabled in ((lambda: b.add_light(6, 6, 10, V.NORMAL), True),  # a new grid, no darkness
                          (lambda: b.add_area(6, 6, 5, V.NO_VISION), False)):  # darkness: not the walls' alone
        added()
        b.can_see(viewer, (3, 3))  # (a question of sight: the new grid's answers are looked up)
        assert state.sight is not None and state.levels is not None
        assert (state.sight[2] is not None) == tabled
        for here in squares:
            want = [sees(walls, state.levels, int(V.NORMAL), here, there) for there in squares]
            assert seen_from(state, int(V.NORMAL), here, squares) == want, here


def test_a_wall_built_or_razed_after_the_table_is_made_is_seen_at_once() -> None:
    """The table belongs to one layout of walls: a wall built afterwards is a new layout, answered
    pair by pair (the old table is not read), and razing it brings the first layout's table back; every
    answer stays the rules' own."""
    caches = MapCaches()
    b = Battle(seed=3, width=12, height=12, caches=caches)
    viewer = b.spawn("viewer", 0, 0, team="a")
    state, squares = b.state, list(np.ndindex(12, 12))
    b.can_see(viewer, (3, 3))
    for here in squares:
        seen_from(state, int(V.NORMAL), here, squares)
    b.add_light(6, 6, 10, V.NORMAL)  # a new grid: the table is made now
    b.can_see(viewer, (3, 3))
    assert state.sight is not None and state.sight[2] is not None
    assert b.can_see(viewer, (11, 0))
    for change, tabled in ((lambda: b.add_wall(6, 0), False), (lambda: b.remove_wall(6, 0), True)):
        change()
        b.can_see(viewer, (3, 3))
        assert state.sight is not None and state.levels is not None and (state.sight[2] is not None) == tabled
        assert b.can_see(viewer, (11, 0)) == tabled  # the wall on the row hides the far end while it stands
        walls = state.terrain.blocking(Blocks.SIGHT)
        for here in squares:
            want = [sees(walls, state.levels, int(V.NORMAL), here, there) for there in squares]
            assert seen_from(state, int(V.NORMAL), here, squares) == want, here
