"""Orders queued after a blink or a flight are checked from where, and as what, those leave the user.

Each order is checked when it is given against where the creature's queued orders will leave it,
and again when it resolves. A blink puts the user on its point and a flight makes it fly, so a move
or a blow queued after one is checked from the point, or as a flight: in the window (orders resolve
at once) that was always so; queued through the API, a script or a computer player, a move after a
blink was measured from the square the blink leaves ("40 ft away") and refused.
"""

from __future__ import annotations

from components.events import Fell, Moved, PowerUsed, Teleported
from game import Battle


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
