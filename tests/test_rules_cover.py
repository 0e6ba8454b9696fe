"""Cover: +5 Defense against an attacker when >= 3 of the 4 lines from the centre of its square to the
corners of the defender's square pass through a solid square; grazing does not block; own squares
never block; the rules table can turn cover off or change the numbers; flat-footed is -2 Defense.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from components import Cover, Terrain
from components.terrain import Blocks
from game import Battle
from systems.caches import MapCaches
from systems.cover import cover_count, cover_counts, cover_lookup, has_cover
from systems.cover_lines import TABLE_SIDE, blocked_among, blocked_lines, cover_table, few_solids, solids_for

# ---------------------------------------------------------------- an exact oracle, independent of numpy

def _crosses(p: tuple[Fraction, Fraction], q: tuple[int, int], square: tuple[int, int]) -> bool:
    """Whether segment p->q passes through the open interior of the unit square (exact arithmetic)."""
    lo, hi = Fraction(0), Fraction(1)
    for a, b, low in ((p[0], q[0], square[0]), (p[1], q[1], square[1])):
        d = b - a
        if d == 0:
            if not low < a < low + 1:
                return False
            continue
        t1, t2 = (low - a) / d, (low + 1 - a) / d
        lo, hi = max(lo, min(t1, t2)), min(hi, max(t1, t2))
    return hi > lo


def oracle_blocked(walls: set[tuple[int, int]], attacker: tuple[int, int], defender: tuple[int, int]) -> int:
    p = (Fraction(2 * attacker[0] + 1, 2), Fraction(2 * attacker[1] + 1, 2))
    bx, by = defender
    solid = [w for w in walls if w not in (attacker, defender)]
    return sum(any(_crosses(p, c, w) for w in solid) for c in ((bx, by), (bx + 1, by), (bx, by + 1), (bx + 1, by + 1)))


def _walls(b: Battle, squares) -> None:
    for x, y in squares:
        b.add_wall(x, y)


# ---------------------------------------------------------------- through the Battle


def test_no_walls_no_cover(battle):
    a = battle.spawn("archer", 0, 0)
    d = battle.spawn("target", 5, 3, defense=12)
    assert battle.defense_against(d, a) == 12
    assert not battle.has_cover(d, a)


def test_a_wall_between_gives_plus_5(battle):
    a = battle.spawn("archer", 0, 5)
    d = battle.spawn("target", 4, 5, defense=12)
    battle.add_wall(2, 5)
    assert oracle_blocked({(2, 5)}, (0, 5), (4, 5)) == 4
    assert battle.defense_against(d, a) == 17


def test_three_of_four_lines_blocked_is_cover(battle):
    """Attacker (0,0), defender (2,4), wall (1,3): exactly three corner lines pass through the wall."""
    a = battle.spawn("archer", 0, 0)
    d = battle.spawn("target", 2, 4, defense=10)
    battle.add_wall(1, 3)
    assert oracle_blocked({(1, 3)}, (0, 0), (2, 4)) == 3
    assert blocked_lines(battle.terrain.walls, (0, 0), (2, 4)) == 3
    assert battle.defense_against(d, a) == 15


def test_two_of_four_lines_blocked_is_not_cover(battle):
    """Attacker (0,0), defender (3,1), wall (2,1): two lines blocked."""
    a = battle.spawn("archer", 0, 0)
    d = battle.spawn("target", 3, 1, defense=10)
    battle.add_wall(2, 1)
    assert oracle_blocked({(2, 1)}, (0, 0), (3, 1)) == 2
    assert battle.defense_against(d, a) == 10


def test_cover_only_against_the_blocked_attacker(battle):
    d = battle.spawn("target", 2, 4, defense=10)
    blocked = battle.spawn("blocked archer", 0, 0)
    clear = battle.spawn("clear archer", 4, 4)
    battle.add_wall(1, 3)
    assert battle.defense_against(d, blocked) == 15
    assert battle.defense_against(d, clear) == 10
    assert battle.has_cover(d, blocked) and not battle.has_cover(d, clear)


def test_cover_is_not_symmetric_by_default(battle):
    """The lines go from the attacker's centre to the defender's corners, so the roles matter."""
    a = battle.spawn("a", 0, 0)
    d = battle.spawn("d", 2, 4)
    battle.add_wall(1, 3)
    assert oracle_blocked({(1, 3)}, (2, 4), (0, 0)) == blocked_lines(battle.terrain.walls, (2, 4), (0, 0))
    expected = 15 if oracle_blocked({(1, 3)}, (2, 4), (0, 0)) >= 3 else 10
    assert battle.defense_against(a, d) == expected


def test_grazing_a_corner_does_not_block(battle):
    """Attacker (0,0), defender (2,1), wall (1,1): two lines cross the wall, a third only touches its corner
    (2,1). Counting the graze would make it three lines, and cover."""
    a = battle.spawn("archer", 0, 0)
    d = battle.spawn("target", 2, 1, defense=10)
    battle.add_wall(1, 1)
    assert oracle_blocked({(1, 1)}, (0, 0), (2, 1)) == 2
    assert battle.defense_against(d, a) == 10


def test_grazing_both_sides_of_a_gap_does_not_block(battle):
    """Walls above and below a straight shot: the corner lines only touch their corners."""
    a = battle.spawn("archer", 0, 1)
    d = battle.spawn("target", 2, 1, defense=10)
    _walls(battle, [(1, 0), (1, 2)])
    assert blocked_lines(battle.terrain.walls, (0, 1), (2, 1)) == 0
    assert battle.defense_against(d, a) == 10


def test_own_squares_never_block():
    walls = np.zeros((8, 8), dtype=bool)
    walls[0, 0] = walls[3, 3] = True  # the attacker's and the defender's own squares
    assert blocked_lines(walls, (0, 0), (3, 3)) == 0
    walls[1, 1] = True
    assert blocked_lines(walls, (0, 0), (3, 3)) == oracle_blocked({(1, 1)}, (0, 0), (3, 3)) == 4


def test_cover_can_be_turned_off():
    b = Battle(seed=1, width=16, height=16, rules={"cover_enabled": False})
    a = b.spawn("archer", 0, 5)
    d = b.spawn("target", 4, 5, defense=12)
    b.add_wall(2, 5)
    assert b.defense_against(d, a) == 12
    assert not b.has_cover(d, a)
    b.tick()
    assert b.get(d, Cover).covered is False
    b.close()


def test_the_rules_table_sets_the_cover_bonus():
    b = Battle(seed=1, width=16, height=16, rules={"cover_bonus": 3})
    a = b.spawn("archer", 0, 5)
    d = b.spawn("target", 4, 5, defense=12)
    b.add_wall(2, 5)
    assert b.defense_against(d, a) == 15
    b.close()


def test_flat_footed_is_minus_2_defense(battle):
    a = battle.spawn("a", 0, 0)
    d = battle.spawn("d", 3, 3, defense=12)
    battle.add_condition(d, "flat-footed")
    assert battle.defense_against(d, a) == 10


def test_the_rules_table_sets_the_flat_footed_penalty():
    b = Battle(seed=1, width=16, height=16, rules={"flat_footed_penalty": 4})
    a = b.spawn("a", 0, 0)
    d = b.spawn("d", 3, 3, defense=12)
    b.add_condition(d, "blinded")  # no vision -> flat-footed
    assert b.defense_against(d, a) == 8
    b.close()


def test_cover_and_flat_footed_combine(battle):
    a = battle.spawn("archer", 0, 5)
    d = battle.spawn("target", 4, 5, defense=12)
    battle.add_wall(2, 5)
    battle.add_condition(d, "flat-footed")
    assert battle.defense_against(d, a) == 12 + 5 - 2


def test_the_cover_component_tracks_the_nearest_enemy(battle):
    a = battle.spawn("archer", 0, 5, team="red")
    d = battle.spawn("target", 4, 5, team="blue")
    battle.add_wall(2, 5)
    cover = battle.get(d, Cover)
    assert (cover.against, cover.blocked, cover.covered) == (a, 4, True)


def test_walls_added_later_give_cover_at_once(battle):
    a = battle.spawn("archer", 0, 5)
    d = battle.spawn("target", 4, 5, defense=10)
    assert battle.defense_against(d, a) == 10
    battle.add_wall(2, 5)
    assert battle.defense_against(d, a) == 15
    battle.remove_wall(2, 5)
    assert battle.defense_against(d, a) == 10


# ---------------------------------------------------------------- the grid algorithm against the oracle


@settings(max_examples=80, deadline=None)
@given(
    attacker=st.tuples(st.integers(0, 6), st.integers(0, 6)),
    defender=st.tuples(st.integers(0, 6), st.integers(0, 6)),
    walls=st.sets(st.tuples(st.integers(0, 6), st.integers(0, 6)), max_size=10),
)
def test_blocked_lines_match_the_exact_oracle(attacker, defender, walls):
    if attacker == defender:
        return
    grid = np.zeros((7, 7), dtype=bool)
    for w in walls:
        grid[w] = True
    assert blocked_lines(grid, attacker, defender) == oracle_blocked(walls, attacker, defender)


def test_every_single_wall_near_the_origin_matches_the_oracle():
    """Exhaustive over one wall and a defender in a 6x6 corner: the cases that graze are all here."""
    for defender in itertools.product(range(6), repeat=2):
        if defender == (0, 0):
            continue
        for wall in itertools.product(range(6), repeat=2):
            grid = np.zeros((6, 6), dtype=bool)
            grid[wall] = True
            assert blocked_lines(grid, (0, 0), defender) == oracle_blocked({wall}, (0, 0), defender), (defender, wall)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(
    attacker=st.tuples(st.integers(0, 11), st.integers(0, 11)),
    walls=st.sets(st.tuples(st.integers(0, 11), st.integers(0, 11)), max_size=30),
)
def test_a_pair_clipped_alone_in_whole_numbers_counts_as_the_floats_do(attacker, walls):
    """``blocked_among`` (a pair alone, in whole numbers, on a map of few solid squares) counts every
    pair as ``blocked_lines``' float clipping and the exact oracle do, grazes included."""
    terrain = Terrain(12, 12)
    for w in walls:
        terrain.walls[w] = True
    terrain.touch()
    few = few_solids(terrain)
    assert few is not None
    for defender in itertools.product(range(12), repeat=2):
        if defender != attacker:
            counted = blocked_among(few, attacker, defender)
            assert counted == blocked_lines(terrain.walls, attacker, defender)
            assert counted == oracle_blocked(walls, attacker, defender)


@settings(max_examples=25, deadline=None)
@given(
    width=st.integers(1, 14),
    height=st.integers(1, 14),
    walls=st.sets(st.tuples(st.integers(0, 13), st.integers(0, 13)), max_size=64),
)
def test_a_small_maps_whole_table_of_cover_counts_is_each_pairs_own(width, height, walls):
    """``cover_table`` (every pair of a small map of few solid squares at once, by bit masks) holds for
    every pair, attackers and defenders on solid squares and on the edges included, the count
    ``blocked_among`` gives the pair alone; and a map past ``TABLE_SIDE`` gets none."""
    terrain = Terrain(width, height)
    for w in walls:
        if w[0] < width and w[1] < height:
            terrain.walls[w] = True
    terrain.touch()
    few = few_solids(terrain)
    assert few is not None
    table = cover_table(few, (width, height))
    assert table is not None
    squares = list(itertools.product(range(width), range(height)))
    assert [table[a][b][c][d] for (a, b), (c, d) in itertools.product(squares, repeat=2)] == \
        [blocked_among(few, attacker, defender) for attacker, defender in itertools.product(squares, repeat=2)]
    assert cover_table(few, (TABLE_SIDE + 1, height)) is None


def test_the_largest_table_counts_as_pairs_alone_do():
    """At ``TABLE_SIDE`` a side with 64 solid squares (the most ``few_solids`` keeps, and the widest lines
    the table's small integers hold), the rows of the corners' attackers and of a spread of others."""
    rng = np.random.default_rng(7)
    side = TABLE_SIDE
    terrain = Terrain(side, side)
    cells = rng.choice(side * side, size=64, replace=False)
    terrain.walls[cells // side, cells % side] = True
    terrain.touch()
    few = few_solids(terrain)
    assert few is not None and len(few[0]) == 64
    table = cover_table(few, (side, side))
    assert table is not None
    squares = list(itertools.product(range(side), range(side)))
    attackers = [(0, 0), (0, side - 1), (side - 1, 0), (side - 1, side - 1)]
    attackers += [squares[i] for i in rng.choice(len(squares), size=16, replace=False)]
    for ax, ay in attackers:
        alone = [[blocked_among(few, (ax, ay), (x, y)) for y in range(side)] for x in range(side)]
        assert [list(column) for column in table[ax][ay]] == alone


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(
    attacker=st.tuples(st.integers(0, 19), st.integers(0, 19)),
    walls=st.sets(st.tuples(st.integers(0, 19), st.integers(0, 19)), max_size=40),
    slits=st.sets(st.tuples(st.integers(0, 19), st.integers(0, 19)), max_size=6),
)
def test_a_learnt_row_of_cover_answers_is_what_each_pair_alone_gets(attacker, walls, slits):
    """An attacker's whole row is learnt at its first question: every count in it (and the batch
    form's) must be the one the pair gets alone, arrow slits beside the attacker included."""
    terrain = Terrain(20, 20)
    for w in walls - {attacker}:
        terrain.walls[w] = True
    for s in slits - walls - {attacker}:
        terrain.blockers[s] = np.uint8(Blocks.COVER)
    terrain.touch()
    squares = [(x, y) for x in range(20) for y in range(20)]
    caches = MapCaches()
    one_by_one = [blocked_lines(solids_for(terrain, attacker), attacker, d) for d in squares]
    assert [cover_count(caches, terrain, attacker, d) for d in squares] == one_by_one
    batch = cover_counts(MapCaches(), terrain, np.array([attacker] * len(squares)), np.array(squares))
    assert batch.tolist() == one_by_one


@settings(max_examples=30, deadline=None)
@given(
    walls=st.sets(st.tuples(st.integers(0, 9), st.integers(0, 9)), max_size=20),
    slits=st.sets(st.tuples(st.integers(0, 9), st.integers(0, 9)), max_size=4),
    pairs=st.lists(st.tuples(st.tuples(st.integers(0, 9), st.integers(0, 9)),
                             st.tuples(st.integers(0, 9), st.integers(0, 9))), max_size=60),
    enabled=st.booleans(),
    needed=st.integers(1, 4),
)
def test_cover_asked_in_a_batch_is_each_pairs_own(walls, slits, pairs, enabled, needed):
    """``cover_lookup`` (a planner's batch: the rules and the layout's answers
    read once) answer each pair as ``has_cover`` does: own squares, arrow slits beside the attacker,
    cover switched off, and a store of answers so small that it begins afresh in mid-batch."""
    b = Battle(width=10, height=10, rules={"cover_enabled": enabled, "cover_lines_needed": needed},
               caches=MapCaches(pairs_per_layout=25))
    for w in walls:
        b.terrain.walls[w] = True
    for s in slits - walls:
        b.terrain.blockers[s] = np.uint8(Blocks.COVER)
    b.terrain.touch()
    attackers, defenders = [a for a, _ in pairs], [d for _, d in pairs]
    alone = [has_cover(b.state, a, d) for a, d in pairs]
    b.state.caches.clear()
    covered = cover_lookup(b.state)  # (the threats' and the planner's test: the answers read once, pair after pair)
    assert [covered(a, d) for a, d in pairs] == alone
    assert [covered(a, d) for a, d in pairs] == alone  # and once the answers are known
    again = cover_lookup(b.state)  # a lookup made afresh over the answers a first one filed
    assert [again(a, d) for a, d in zip(attackers, defenders)] == alone


def test_an_arrow_slits_cover_is_named_as_cover_not_a_wall():
    """Cover from terrain that is no wall (a see-through slit next to the target) is said as cover,
    in the forecast's reason and in the combat log: nothing there is a wall."""
    from game.battle.log import format_events

    with Battle(seed=3, width=10, height=6) as b:
        archer = b.spawn("Archer", 1, 2, team="a", attack_bonus=40, powers=["shoot"])
        orc = b.spawn("Orc", 6, 2, team="b", health=50, defense=12)
        b.set_terrain(5, 2, blocks=["movement"], cover=True)
        assert not b.terrain.walls.any()
        [odds] = b.forecast(archer, "shoot", target=orc).targets
        [why] = [m.reason for m in odds.attack.defense.modifiers if m.name == "cover"]
        assert why.startswith("cover hides 4 of 4 corner lines") and "wall" not in why
        b.use_power(archer, "shoot", target=orc)
        b.tick()
        [line] = [s for s in format_events(b, b.events) if " attacks " in s]
        assert "(in cover: +5)" in line and "wall" not in line


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(
    pairs=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(0, 6), st.integers(0, 6)),
                   min_size=1, max_size=12),
    walls=st.sets(st.tuples(st.integers(0, 6), st.integers(0, 6)), max_size=10),
    needed=st.integers(1, 4),
)
def test_cover_for_arrays_of_pairs_is_each_pairs_own(pairs, walls, needed):
    """``has_cover_arrays`` (a whole map's pass) answers each pair as ``has_cover`` does, its own
    square included (never cover), whatever the lines the rules need."""
    from systems.cover import has_cover_arrays

    with Battle(seed=1, width=7, height=7, rules={"cover_lines_needed": needed}) as b:
        for w in sorted(walls):
            b.add_wall(*w)
        attackers = np.array([p[:2] for p in pairs], dtype=np.int64)
        defenders = np.array([p[2:] for p in pairs], dtype=np.int64)
        got = has_cover_arrays(b.state, attackers, defenders).tolist()
        assert got == [has_cover(b.state, (a, c), (d, e)) for a, c, d, e in pairs]
