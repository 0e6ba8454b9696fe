"""``Battle.outcomes_many``: the planner's numbers are the full forecast's, to the last bit.

The computer player weighs ``outcomes_many`` (no roll explanations, no area squares); the window shows
``forecast_many``. Over random boards (walls, fog, ledges, fatigue, blindness, surprise) and every kind of
power (attacks, saves for half, areas, pushes off ledges, heals, conditions, scripts), each number of the
one must equal the other's.
"""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import Battle, IllegalCommand

POWERS = ["strike", "shoot", "shove", "fireball", "burning-hands", "lightning", "heal", "dazzle", "blind",
          "chain-lightning", "vampiric-touch"]
squares = st.tuples(st.integers(0, 9), st.integers(0, 7))


def board(walls: list[tuple[int, int]], fog: tuple[int, int] | None, ledge: tuple[int, int] | None,
          spots: list[tuple[int, int]], tired: int, blind: bool, surprised: bool) -> tuple[Battle, list[int]]:
    b = Battle(seed=4, width=10, height=8)
    taken = set(spots)
    for wall in walls:
        if wall not in taken:
            b.add_wall(*wall)
    if ledge is not None and ledge not in taken:
        b.set_ground(*ledge, 30)
    if fog is not None:
        b.add_area(*fog, 10, "terrible")
    ids = [b.spawn(f"c{i}", *spot, team="ab"[i % 2], powers=POWERS, fatigue=tired if i == 1 else 0,
                   prepared=not (surprised and i == 2)) for i, spot in enumerate(spots)]
    b.start_combat()
    if blind:
        b.add_condition(ids[1], "blinded")
    return b, ids


def numbers(forecast: object) -> tuple[object, ...]:
    """A full forecast reduced to what an outcome holds."""
    targets = tuple((t.target, t.ally, t.affected, None if t.damage is None else t.damage.mean,
                     None if t.healing is None else t.healing.mean, None if t.fall is None else t.fall.damage.mean,
                     t.conditions, t.downs, t.kills) for t in forecast.targets)  # type: ignore[attr-defined]
    return forecast.power, forecast.legal, forecast.scripted, targets  # type: ignore[attr-defined]


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walls=st.lists(squares, max_size=8), fog=st.none() | squares, ledge=st.none() | squares,
       spots=st.lists(squares, min_size=2, max_size=4, unique=True), tired=st.sampled_from([0, 4]),
       blind=st.booleans(), surprised=st.booleans(), origin=squares)
def test_outcomes_are_the_forecasts_numbers(walls, fog, ledge, spots, tired, blind, surprised, origin):
    b, ids = board(walls, fog, ledge, spots, tired, blind, surprised)
    if b.terrain.walls[origin]:
        return
    points = sorted({b.square_of(e) for e in ids} | {origin, (min(origin[0] + 1, 9), origin[1])})
    uses = [(p, {"target": t}) for p in POWERS for t in ids] + \
        [(p, {"point": pt}) for p in ("fireball", "burning-hands", "lightning") for pt in points] + \
        [("burning-hands", {"direction": "e"}), ("lightning", {"direction": (0, 1)})]
    for user in ids:
        full = b.forecast_many(user, origin, uses)
        lean = b.outcomes_many(user, origin, uses)
        assert [numbers(f) for f in full] == [(o.power, o.legal, o.scripted, tuple(o.targets)) for o in lean]


def test_outcomes_refuse_what_forecasts_refuse() -> None:
    b, ids = board([], None, None, [(1, 1), (5, 5)], 0, False, False)
    with pytest.raises(IllegalCommand, match="an aim takes target, point and direction"):
        b.outcomes_many(ids[0], (1, 1), [("strike", {"aim": ids[1]})])
    with pytest.raises(IllegalCommand, match=r"from_square \(40, 1\) is off the 10x8 grid"):
        b.outcomes_many(ids[0], (40, 1), [("strike", {"target": ids[1]})])
    with pytest.raises(IllegalCommand, match="unknown power 'no-such-power'"):
        b.outcomes_many(ids[0], (1, 1), [("no-such-power", {"target": ids[1]})])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walls=st.lists(squares, max_size=8), fog=st.none() | squares, ledge=st.none() | squares,
       spots=st.lists(squares, min_size=2, max_size=4, unique=True), tired=st.sampled_from([0, 4]),
       blind=st.booleans(), origins=st.lists(squares, min_size=2, max_size=5, unique=True))
def test_outcomes_asked_from_square_after_square_are_each_squares_own(walls, fog, ledge, spots, tired, blind,
                                                                        origins):
    """A planner asks the same uses from several squares in one turn, and the battle keeps a target's
    numbers between them (by the chances they land with): each square's answer must still be its own."""
    b, ids = board(walls, fog, ledge, spots, tired, blind, False)
    uses = [(p, {"target": t}) for p in POWERS for t in ids]
    for user in ids:
        for origin in origins:
            if b.terrain.walls[origin]:
                continue
            lean = b.outcomes_many(user, origin, uses)
            assert [numbers(f) for f in b.forecast_many(user, origin, uses)] == \
                [(o.power, o.legal, o.scripted, o.targets) for o in lean], (user, origin)


def test_outcomes_asked_again_after_the_target_is_hurt_are_the_new_odds() -> None:
    b = Battle(seed=4, width=10, height=8)
    archer = b.spawn("archer", 1, 1, team="a", powers=["strike", "shoot"])
    target = b.spawn("target", 2, 2, team="b", powers=["strike"], health=10)
    b.start_combat()
    uses = [("strike", {"target": target}), ("shoot", {"target": target})]
    before = b.outcomes_many(archer, (1, 1), uses)
    b.damage(target, 7)  # queued: it lands when orders resolve
    b.begin_round()
    b.resolve_orders()
    after = b.outcomes_many(archer, (1, 1), uses)
    assert [numbers(f) for f in b.forecast_many(archer, (1, 1), uses)] == \
        [(o.power, o.legal, o.scripted, o.targets) for o in after]
    assert after[0].targets[0].downs > before[0].targets[0].downs


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walls=st.lists(squares, max_size=8), fog=st.none() | squares, ledge=st.none() | squares,
       spots=st.lists(squares, min_size=2, max_size=4, unique=True), tired=st.sampled_from([0, 4]),
       blind=st.booleans(), surprised=st.booleans(), origins=st.lists(squares, min_size=1, max_size=4),
       queued=st.booleans())
def test_outcomes_each_are_outcomes_many_square_by_square(walls, fog, ledge, spots, tired, blind, surprised,
                                                           origins, queued):
    """``outcomes_each`` reads the user's side once for all its squares (queued orders, its powers' aim-free
    problems, its side of the rolls): each square's answers must still be ``outcomes_many``'s from it."""
    b, ids = board(walls, fog, ledge, spots, tired, blind, surprised)
    origins = [o for o in origins if not b.terrain.walls[o]]
    if queued:
        with contextlib.suppress(IllegalCommand):  # its action spent: every use that needs one is refused
            b.use_power(ids[0], "heal", target=ids[0])
    points = sorted({b.square_of(e) for e in ids})
    uses = [(p, {"target": t}) for p in POWERS for t in ids] + [("fireball", {"point": pt}) for pt in points]
    for user in ids:
        each = b.outcomes_each(user, [(origin, uses) for origin in origins])
        assert each == [b.outcomes_many(user, origin, uses) for origin in origins], user


def test_outcomes_each_refuses_what_outcomes_many_refuses() -> None:
    b, ids = board([], None, None, [(1, 1), (5, 5)], 0, False, False)
    assert b.outcomes_each(ids[0], []) == []
    with pytest.raises(IllegalCommand, match=r"outcomes_each: asks must be a list of \(from_square, uses\) pairs"):
        b.outcomes_each(ids[0], 3)
    with pytest.raises(IllegalCommand, match=r"outcomes_each: each ask must be a pair \(from_square, uses\)"):
        b.outcomes_each(ids[0], [((1, 1),)])
    with pytest.raises(IllegalCommand, match=r"from_square \(40, 1\) is off the 10x8 grid"):
        b.outcomes_each(ids[0], [((1, 1), []), ((40, 1), [("strike", {"target": ids[1]})])])
    with pytest.raises(IllegalCommand, match="outcomes_each: an aim takes target, point and direction"):
        b.outcomes_each(ids[0], [((1, 1), [("strike", {"aim": ids[1]})])])
    with pytest.raises(IllegalCommand, match="unknown power 'no-such-power'"):
        b.outcomes_each(ids[0], [((1, 1), [("no-such-power", {"target": ids[1]})])])
