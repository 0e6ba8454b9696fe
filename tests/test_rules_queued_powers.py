"""Orders queued after a blink or a flight are checked from where, and as what, those leave the user.

Each order is checked when it is given against where the creature's queued orders will leave it,
and again when it resolves. A blink puts the user on its point and a flight makes it fly, so a move
or a blow queued after one is checked from the point, or as a flight: in the window (orders resolve
at once) that was always so; queued through the API, a script or a computer player, a move after a
blink was measured from the square the blink leaves ("40 ft away") and refused.
"""

from __future__ import annotations

import pytest

from components import Position
from components.events import CommandRefused, Fell, Moved, PowerUsed, Teleported
from game import Battle, IllegalCommand


def blinker(foe_x: int = 10) -> tuple[Battle, int, int]:
    """A mage with Blink (30 ft) at (1, 2) on its turn, a foe at (``foe_x``, 2)."""
    b = Battle(seed=2, width=12, height=5)
    me = b.spawn("Mage", 1, 2, team="blue", powers=["blink", "strike", "fly"], initiative_bonus=50)
    foe = b.spawn("Foe", foe_x, 2, team="red", powers=["strike"])
    b.start_combat()
    b.begin_round()
    assert b.current_actor == me
    return b, me, foe


def test_a_move_after_a_queued_blink_is_measured_from_the_blinks_point() -> None:
    b, me, foe = blinker()
    b.use_power(me, "blink", point=(7, 2))
    forecast = b.forecast_move(me, (9, 2))
    assert forecast.legal and forecast.cost_ft == 10 and forecast.path == ((7, 2), (8, 2), (9, 2))
    assert b.queued_stop(me, [(9, 2)]) == ((9, 2), None)
    b.move(me, 9, 2)  # 40 ft from where it stands now, 10 ft from the point
    b.use_power(me, "strike", target=foe)  # beside the foe once both resolve
    seen = len(b.events)
    b.end_turn()
    after = b.events[seen:]
    [teleported] = [e for e in after if isinstance(e, Teleported)]
    [moved] = [e for e in after if isinstance(e, Moved)]
    assert (teleported.to_square, moved.from_square, moved.to_square, moved.cost_ft) == ((7, 2), (7, 2), (9, 2), 10)
    assert [e.power for e in after if isinstance(e, PowerUsed)] == ["blink", "strike"]


def test_a_blow_after_a_queued_blink_is_in_reach_from_the_point() -> None:
    b, me, foe = blinker(foe_x=8)
    assert not b.forecast(me, "strike", target=foe).legal  # 35 ft away
    b.use_power(me, "blink", point=(7, 2))
    assert b.forecast(me, "strike", target=foe).legal
    b.use_power(me, "strike", target=foe)
    seen = len(b.events)
    b.end_turn()
    assert [e.power for e in b.events[seen:] if isinstance(e, PowerUsed)] == ["blink", "strike"]


def test_a_move_after_a_queued_flight_is_a_flight_over_a_pit() -> None:
    """A 30 ft pit across the map between the mage and the foe: walking, the move stops in it."""
    b, me, _ = blinker()
    for y in range(5):
        b.set_ground(4, y, -30)
    assert b.forecast_move(me, (6, 2)).fall is not None
    b.use_power(me, "fly")
    forecast = b.forecast_move(me, (6, 2))
    assert forecast.legal and forecast.stops_at == (6, 2) and forecast.fall is None
    b.move(me, 6, 2)
    seen = len(b.events)
    b.end_turn()
    after = b.events[seen:]
    [moved] = [e for e in after if isinstance(e, Moved)]
    assert moved.to_square == (6, 2)
    assert not [e for e in after if isinstance(e, Fell)]


def test_a_move_blocked_to_walkers_is_legal_after_a_queued_flight() -> None:
    """A battlement stops walkers, not fliers: after a queued flight the move over one is legal."""
    b, me, _ = blinker()
    b.set_terrain(2, 2, blocks=["movement", "pushes"])
    b.set_terrain(2, 1, blocks=["movement", "pushes"])
    b.set_terrain(2, 3, blocks=["movement", "pushes"])
    b.set_terrain(2, 0, blocks=["movement", "pushes"])
    b.set_terrain(2, 4, blocks=["movement", "pushes"])
    assert not b.forecast_move(me, (3, 2)).legal  # a wall of battlements across the map
    b.use_power(me, "fly")
    assert b.forecast_move(me, (3, 2)).legal
    b.move(me, 3, 2)
    b.end_turn()
    assert b.square_of(me) == (3, 2)


def test_orders_given_after_a_blink_refused_when_it_resolves_are_refused_too() -> None:
    """A faster ally ends on the blink's point first: the blink is refused, and the step queued after
    it (checked from the point: dry) is refused with it, not walked from the mage's own square into
    the 30 ft trench between."""
    b = Battle(seed=2, width=12, height=5)
    mage = b.spawn("Mage", 1, 2, team="blue", powers=["blink", "strike"])
    runner = b.spawn("Runner", 7, 2, team="blue", initiative_bonus=50)
    b.spawn("Foe", 11, 4, team="red", initiative_bonus=-50)
    for y in range(5):
        for x in (3, 4):
            b.set_ground(x, y, -30)
    b.start_combat()
    b.move(runner, 5, 2)  # the runner acts first and ends on the blink's point
    b.use_power(mage, "blink", point=(5, 2))
    assert b.forecast_move(mage, (6, 2)).fall is None
    b.move(mage, 6, 2)
    seen = len(b.events)
    b.tick()
    refused = [(e.command, e.reason) for e in b.events[seen:] if isinstance(e, CommandRefused) and e.entity == mage]
    assert refused == [("use blink", "point (5, 2) is taken"),
                       ("move to (6, 2)", "it was given after Blink, which was refused")]
    assert b.square_of(mage) == (1, 2) and "prone" not in b.conditions(mage)


def test_a_blow_given_after_a_flight_and_a_move_is_checked_at_the_height_they_leave_it() -> None:
    """Flying, the mage keeps its height over the 20 ft pillar it crosses: beside the foe it is still
    20 ft up, out of Strike's 5 ft. The blow is refused when given, as the turn would refuse it."""
    b, me, foe = blinker(foe_x=5)
    b.set_ground(2, 2, 20)
    b.use_power(me, "fly")
    b.move(me, 2, 2)
    b.move(me, 4, 2)
    assert not b.forecast(me, "strike", target=foe).legal
    with pytest.raises(IllegalCommand, match=r"20.62 ft away and Strike reaches 5 ft"):
        b.use_power(me, "strike", target=foe)


def test_a_flight_given_by_its_conditions_or_an_area_counts_for_the_moves_after_it() -> None:
    """Not only a plain flight on itself: a power granting the flying condition, an area flight that
    takes in its user, and a blink that also grants flight all make the next move a flight."""
    from game.content.power_parse import parse_power
    from game.content.powers import default_powers

    extra = {
        "levitate": {"targets": "self", "conditions": ["flying"]},
        "mass-fly": {"targets": "allies", "flight": True, "area": {"shape": "burst", "radius_ft": 10}},
        "soar": {"targets": "self", "teleport": True, "flight": True, "range_ft": 30},
    }
    powers = dict(default_powers())
    for power_id, table in extra.items():
        powers[power_id] = parse_power(power_id, {"name": power_id, "description": "x.", "action": "bonus",
                                                  "duration": 1, **table}, "test")
    for power_id in extra:
        b = Battle(seed=2, width=12, height=5, powers=powers)
        me = b.spawn("Mage", 1, 2, team="blue", powers=[power_id], initiative_bonus=50)
        b.spawn("Foe", 10, 2, team="red")
        for y in range(5):
            b.set_ground(3, y, -30)  # a trench across the map
        b.start_combat()
        b.begin_round()
        b.use_power(me, power_id, **({"point": (2, 2)} if power_id == "soar" else {}))
        forecast = b.forecast_move(me, (5, 2))
        assert forecast.stops_at == (5, 2) and forecast.fall is None, power_id
        b.move(me, 5, 2)
        seen = len(b.events)
        b.end_turn()
        assert not [e for e in b.events[seen:] if isinstance(e, (Fell, CommandRefused))], power_id
        assert b.square_of(me) == (5, 2)


@pytest.mark.parametrize("first", ["move", "blink"])
def test_a_shove_after_a_queued_move_or_blink_lands_where_its_forecast_says(first: str) -> None:
    # the knight leaves the pit's square first, then shoves the goblin across it: the square it left
    # is no obstacle, and the goblin goes over the edge (the forecast counted the knight still there)
    b = Battle(seed=4, width=10, height=3)
    b.set_ground(7, 1, -20)
    knight = b.spawn("Knight", 7, 1, z=-20, team="a", powers=["shove", "blink"], initiative_bonus=50,
                     attack_bonus=100)
    goblin = b.spawn("Goblin", 5, 1, team="b", health=30)
    b.start_combat()
    assert b.begin_round() == knight
    if first == "move":
        b.move(knight, 4, 1)
    else:
        b.use_power(knight, "blink", point=(4, 1))
    [odds] = b.forecast(knight, "shove", target=goblin).targets
    assert odds.pushed_to == (7, 1) and odds.fall is not None and odds.fall.distance_ft == 20
    b.use_power(knight, "shove", target=goblin)
    b.end_turn()
    assert b.get(goblin, Position).square == (7, 1) and b.get(goblin, Position).z == -20
