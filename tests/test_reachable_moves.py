"""``reachable`` marks exactly the squares a move would accept: the window highlights them and the
baseline players pick from them, so a square it marks must not be refused when moved to."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from components import Position
from game import Battle
from game.content.scenario import load_scenario
from game.sim.runner import ai_rng, battle_seed, play

ROOT = Path(__file__).resolve().parent.parent


def agrees(b: Battle, entity: int) -> None:
    """Every square but its own: marked by ``reachable`` exactly when ``forecast_move`` finds it legal."""
    mask = b.reachable(entity)
    here = b.get(entity, Position).square
    squares = [(x, y) for x in range(b.width) for y in range(b.height)]
    for square, forecast in zip(squares, b.forecast_moves_to(entity, squares, cover=False)):
        if square != here:
            assert bool(mask[square]) == forecast.legal, (square, forecast.problem)


def test_a_walk_that_would_step_off_onto_a_friend_is_not_marked() -> None:
    b = Battle(seed=1, width=5, height=1)
    b.set_ground(0, 0, 20)
    b.set_ground(1, 0, 20)
    a = b.spawn("A", 1, 0, team="blue")
    b.spawn("Ally", 2, 0, team="blue")
    b.spawn("Foe", 4, 0, team="red")
    b.start_combat()
    assert not b.reachable(a)[3, 0]
    assert "where another creature stands" in (b.forecast_move(a, (3, 0)).problem or "")


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(heights=st.lists(st.sampled_from([0, 0, 10, 20, 40]), min_size=36, max_size=36),
       spots=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=2, max_size=6, unique=True))
def test_reachable_is_what_a_move_accepts_on_uneven_ground(heights: list[int], spots: list[tuple[int, int]]) -> None:
    b = Battle(seed=3, width=6, height=6)
    for i, h in enumerate(heights):
        if h:
            b.set_ground(i % 6, i // 6, h)
    ids = [b.spawn(f"c{i}", *spot, team="ab"[i % 2]) for i, spot in enumerate(spots)]
    b.start_combat()
    for entity in ids:
        agrees(b, entity)


def test_reachable_is_what_a_move_accepts_through_a_battle_of_the_gauntlet() -> None:
    scenario = load_scenario(ROOT / "tests" / "golden" / "gauntlet.toml", trusted=True)
    for rounds in (1, 2, 3):
        battle, ids = scenario.build_with_ids(battle_seed(2024, 0), trusted=True)
        try:
            play(battle, "random", ai_rng(5), max_rounds=rounds)
            for entity in ids.values():
                if battle.is_alive(entity):
                    agrees(battle, entity)
        finally:
            battle.close()


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(heights=st.lists(st.sampled_from([0, 0, 0, 10, 20]), min_size=36, max_size=36),
       spots=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=2, max_size=4, unique=True),
       fliers=st.lists(st.booleans(), min_size=4, max_size=4), level=st.booleans())
def test_a_forecast_without_its_way_is_the_same_but_for_the_path(heights: list[int], spots: list[tuple[int, int]],
                                                                  fliers: list[bool], level: bool) -> None:
    """``forecast_moves_to(..., way=False)`` (what the planner asks) answers as the full forecast but
    for the path, which it leaves out only where the walk's end needs none (a flier; level ground)."""
    b = Battle(seed=3, width=6, height=6)
    for i, h in enumerate(heights):
        if h and not level:
            b.set_ground(i % 6, i // 6, h)
    ids = [b.spawn(f"c{i}", *spot, team="ab"[i % 2], flying=fliers[i]) for i, spot in enumerate(spots)]
    b.start_combat()
    squares = [(x, y) for x in range(6) for y in range(6)]
    for entity in ids:
        full = b.forecast_moves_to(entity, squares, cover=False)
        for whole, bare in zip(full, b.forecast_moves_to(entity, squares, cover=False, way=False)):
            assert bare._replace(path=whole.path) == whole
            assert bare.path in ((), whole.path)
            if bare.path == () and whole.legal:
                assert level or not any(heights) or fliers[ids.index(entity)]
