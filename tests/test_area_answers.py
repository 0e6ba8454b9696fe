"""The squares of an area are kept with the map's caches: a kept answer is the one worked out afresh.

A planner asks about the same burst from every square it weighs, so ``systems.areas.area_squares``
keeps its answers per layout of walls. These tests hold a battle that shares its caches with many
questions before it against a battle with caches of its own, and see a wall change the answer.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from components.events import SaveRolled
from game import Battle
from game.content.powers import default_powers
from systems.caches import MapCaches

squares = st.tuples(st.integers(0, 11), st.integers(0, 9))
AREAS = ["fireball", "burning-hands", "lightning"]


def battle(walls: list[tuple[int, int]], caches: MapCaches, user: tuple[int, int]) -> tuple[Battle, int]:
    b = Battle(seed=1, width=12, height=10, caches=caches, powers=default_powers())
    for wall in walls:
        if wall != user:
            b.add_wall(*wall)
    me = b.spawn("Mage", *user, team="a", powers=AREAS)
    return b, me


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(walls=st.lists(squares, max_size=12), user=squares, aims=st.lists(squares, min_size=1, max_size=6),
       power=st.sampled_from(AREAS))
def test_a_kept_area_is_the_area_worked_out_afresh(walls, user, aims, power):
    shared = MapCaches()
    kept, me = battle(walls, shared, user)
    for point in aims:  # fill the shared caches first, from other squares too
        kept.squares_in_area(power, me, point)
    for point in aims:
        fresh, mine = battle(walls, MapCaches(), user)
        assert kept.squares_in_area(power, me, point) == fresh.squares_in_area(power, mine, point)
        fresh.close()
    kept.close()


def test_a_wall_put_up_mid_battle_changes_the_kept_area():
    b, me = battle([], MapCaches(), (2, 5))
    open_field = b.squares_in_area("fireball", me, (7, 5))
    assert (8, 5) in open_field and (9, 5) in open_field
    b.add_wall(8, 5)  # between the centre and (9, 5): it blocks the wall's square and shadows the one behind
    walled = b.squares_in_area("fireball", me, (7, 5))
    assert (8, 5) not in walled and (9, 5) not in walled
    assert set(walled) < set(open_field)


def test_the_area_after_a_queued_move_starts_where_the_move_ends() -> None:
    # squares_in_area used to spread a cone from where the mage stood before its queued move, where
    # forecast and the use itself start it from the move's end: it drew Near (3, 2) inside and Far (8, 2)
    # outside, and the use then burnt Far alone.
    b = Battle(seed=1, width=14, height=5, powers=default_powers())
    mage = b.spawn("Mage", 1, 2, team="a", powers=AREAS, health=30)
    b.spawn("Near", 3, 2, team="b", health=30)
    far = b.spawn("Far", 8, 2, team="b", health=30)
    b.start_combat()
    b.move(mage, 5, 2)
    squares = set(b.squares_in_area("burning-hands", mage, direction="e"))
    assert (8, 2) in squares and (3, 2) not in squares
    assert [t.target for t in b.forecast(mage, "burning-hands", direction="e").targets] == [far]
    b.use_power(mage, "burning-hands", direction="e")
    b.tick()
    assert [e.entity for e in b.events if isinstance(e, SaveRolled)] == [far]
