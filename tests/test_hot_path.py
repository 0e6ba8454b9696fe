"""The shortcuts of the hot path give exactly the answers of the long way round.

A one-square move is priced without a search (``Paths.step_cost``); a use found legal is not
checked again at resolution unless the battle changed since (``check_stamp``).
"""

from __future__ import annotations

import random

import pytest
import tcod.path

from components import Rules, Terrain
from components.events import AttackRolled, CommandRefused
from game import Battle
from systems.caches import MapCaches
from systems.paths import UNREACHABLE, Paths, distance_map, edge_weights


def _search_cost(paths: Paths, start: tuple[int, int], goal: tuple[int, int], limit_ft: float | None) -> int | None:
    """What the search answers (the distance map), bypassing the shortcut."""
    if paths.terrain.walls[goal]:
        return None
    dist = paths.raw_distances(start, limit_ft)
    if dist[goal] == UNREACHABLE:
        return None
    return int(dist[goal]) // edge_weights(paths.rules)[2] * paths.rules.square_ft


@pytest.mark.parametrize("diagonal", ["one", "alternating"])
def test_one_square_moves_cost_what_the_search_finds(diagonal: str) -> None:
    rng = random.Random(diagonal)
    terrain = Terrain(14, 14)
    for _ in range(50):
        terrain.walls[rng.randrange(14), rng.randrange(14)] = True
    terrain.touch()
    paths = Paths(terrain, Rules.from_mapping({"diagonal": diagonal}), MapCaches())
    checked = 0
    for x in range(14):
        for y in range(14):
            for goal in [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                         if 0 <= x + dx < 14 and 0 <= y + dy < 14]:
                for limit in (None, 5, 30):
                    assert paths.cost((x, y), goal, limit) == _search_cost(paths, (x, y), goal, limit)
                    found = paths.find((x, y), goal, limit)
                    if found is not None:
                        climbed = tcod.path.hillclimb2d(paths.raw_distances((x, y), limit), goal, True, True)[::-1]
                        assert found[0] == [(int(a), int(b)) for a, b in climbed]
                    checked += 1
    assert checked > 3000


@pytest.mark.parametrize("diagonal", ["one", "alternating"])
def test_a_small_maps_whole_search_answers_as_the_limits_window(diagonal: str) -> None:
    """On a small map a question with a limit is answered from the whole map's search where that is
    exact (``costs_up_to``, and a cost or a way within the limit): the squares within the limit, every
    cost and every way are what the search in the limit's own window finds."""
    rng = random.Random(diagonal + " whole")
    terrain = Terrain(14, 14)
    for _ in range(45):
        terrain.walls[rng.randrange(14), rng.randrange(14)] = True
    terrain.touch()
    paths = Paths(terrain, Rules.from_mapping({"diagonal": diagonal}), MapCaches())
    divisor, checked = edge_weights(paths.rules)[2], 0
    for start in [(rng.randrange(14), rng.randrange(14)) for _ in range(12)]:
        for limit in (5, 15, 30, 45):
            window = paths.raw_distances(start, limit)
            within = (window != UNREACHABLE) & (window // divisor * paths.rules.square_ft <= limit)
            assert ((paths.costs_up_to(start, limit) <= limit) == within).all()
            for goal in [(x, y) for x in range(14) for y in range(14)]:
                assert paths.cost(start, goal, limit) == _search_cost(paths, start, goal, limit)
                found = paths.find(start, goal, limit)
                if found is not None and max(abs(goal[0] - start[0]), abs(goal[1] - start[1])) > 1:
                    climbed = tcod.path.hillclimb2d(paths.raw_distances(start, limit), goal, True, True)[::-1]
                    assert found[0] == [(int(a), int(b)) for a, b in climbed]
                    checked += 1
    assert checked > 500


@pytest.mark.parametrize("diagonal", ["one", "alternating"])
@pytest.mark.parametrize("flying", [False, True])
def test_searches_through_a_kept_graph_find_what_a_fresh_search_finds(flying: bool, diagonal: str) -> None:
    """A window's search graph is built once and kept: every start that shares it (near an edge,
    clipped windows coincide), every limit, and the walls' next layout still get a fresh search's
    answer."""
    rng = random.Random(flying)
    terrain = Terrain(12, 12)
    for _ in range(30):
        terrain.walls[rng.randrange(12), rng.randrange(12)] = True
    terrain.touch()
    rules, caches = Rules.from_mapping({"diagonal": diagonal}), MapCaches()
    for layout in range(2):
        for x in range(12):
            for y in range(12):
                for limit in (None, 10, 25):
                    reach = None if limit is None else int(limit // rules.square_ft) + 1
                    window = None if reach is None else (max(0, x - reach), max(0, y - reach),
                                                         min(12, x + reach + 1), min(12, y + reach + 1))
                    kept = distance_map(terrain, rules, [(x, y)], window, flying, caches)
                    assert (kept == distance_map(terrain, rules, [(x, y)], window, flying)).all()
        assert layout or 0 < len(caches.graphs) < 12 * 12 * 3  # the clipped windows were shared
        terrain.walls[5, :] = layout == 0  # a wall across the map, then gone again
        terrain.touch()


def _turn_of(b: Battle, creature: int) -> None:
    """Begin rounds and end turns until it is ``creature``'s turn."""
    actor = b.begin_round() if b.current_actor is None else b.current_actor
    while actor != creature:
        actor = b.end_turn() if actor is not None else b.begin_round()


def _moved_then_shot(b: Battle) -> tuple[int, int]:
    """An archer whose turn it is moves two squares, then shoots at a target: both orders queued."""
    u = b.spawn("archer", 2, 5, team="a")
    t = b.spawn("target", 9, 5, team="b", health=50)
    b.start_combat()
    _turn_of(b, u)
    b.move(u, 4, 5)
    b.use_power(u, "shoot", target=t)
    return u, t


def test_a_use_checked_in_its_own_turn_resolves_unchecked_when_nothing_changed() -> None:
    with Battle(seed=3) as b:
        u = b.spawn("archer", 2, 5, team="a")
        t = b.spawn("target", 7, 5, team="b", health=50)
        b.start_combat()
        _turn_of(b, u)
        b.use_power(u, "shoot", target=t)
        b.end_turn()
        assert [e.target for e in b.events if isinstance(e, AttackRolled)] == [t]


def test_a_wall_raised_in_the_users_own_turn_refuses_the_use_when_it_resolves() -> None:
    with Battle(seed=3) as b:
        u = b.spawn("archer", 2, 5, team="a")
        t = b.spawn("target", 7, 5, team="b", health=50)
        b.start_combat()
        _turn_of(b, u)
        b.use_power(u, "shoot", target=t)
        for y in range(16):
            b.add_wall(4, y)
        b.end_turn()
        refused = [e for e in b.events if isinstance(e, CommandRefused) and e.entity == u]
        assert refused and "cannot see" in refused[0].reason
        assert not [e for e in b.events if isinstance(e, AttackRolled)]


def _counting(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[int]:
    """Count the calls of ``module.name`` (a check the resolution may skip)."""
    calls: list[int] = []
    original = getattr(module, name)

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_a_move_then_a_use_resolve_unchecked_when_the_move_went_where_the_use_was_checked_from(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import systems.actions
    import systems.powers

    with Battle(seed=3) as b:
        u, t = _moved_then_shot(b)
        moves = _counting(monkeypatch, systems.actions, "move_problem")
        uses = _counting(monkeypatch, systems.powers, "use_problem")
        b.end_turn()
        assert (moves, uses) == ([], [])
        assert b.square_of(u) == (4, 5)
        assert [e.target for e in b.events if isinstance(e, AttackRolled)] == [t]


def test_a_move_and_a_use_are_checked_again_when_the_battle_changed_after_they_were_issued(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import systems.actions
    import systems.powers

    with Battle(seed=3) as b:
        u, t = _moved_then_shot(b)
        for y in range(16):
            b.add_wall(6, y)
        moves = _counting(monkeypatch, systems.actions, "move_problem")
        uses = _counting(monkeypatch, systems.powers, "use_problem")
        b.end_turn()
        assert (len(moves), len(uses)) == (1, 1)
        refused = [e for e in b.events if isinstance(e, CommandRefused) and e.entity == u]
        assert refused and "cannot see" in refused[0].reason


def test_a_second_move_is_checked_again_when_it_resolves(monkeypatch: pytest.MonkeyPatch) -> None:
    import systems.actions

    with Battle(seed=3) as b:
        u = b.spawn("walker", 2, 5, team="a")
        b.spawn("other", 9, 9, team="b")
        b.start_combat()
        _turn_of(b, u)
        b.move(u, 3, 5)
        b.move(u, 4, 5)
        moves = _counting(monkeypatch, systems.actions, "move_problem")
        b.end_turn()
        assert len(moves) == 1 and b.square_of(u) == (4, 5)


def test_level_ground_is_the_one_height_of_the_map_and_follows_its_changes() -> None:
    terrain = Terrain(6, 5)
    assert terrain.level_ground() == 0.0 and terrain.ground_at((2, 3)) == 0.0
    terrain.ground[:] = 10.0
    terrain.touch()
    assert terrain.level_ground() == 10.0 and terrain.ground_at((5, 4)) == 10.0
    terrain.ground[1, 1] = 12.5
    terrain.touch()
    assert terrain.level_ground() is None
    assert terrain.ground_at((1, 1)) == 12.5 and terrain.ground_at((0, 0)) == 10.0
    terrain.ground[:] = 0.0
    terrain.ground[3, 3] = -0.0  # equal to 0.0, but not the same height to write in a log
    terrain.touch()
    assert terrain.level_ground() is None
    assert str(terrain.ground_at((3, 3))) == "-0.0" and str(terrain.ground_at((0, 0))) == "0.0"
