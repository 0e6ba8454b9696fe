"""The tactical player's choice of a power that lays a condition (blind, dazzle) or changes sight
(light, fog), on small fixed boards: it aims at the enemy whose blows the power actually spoils, by
the battle's forecasts, and raises a veil where it changes the odds. Fixed boards and seeds, no timing."""

from __future__ import annotations

import pytest

from game import ai
from game.battle.facade import Battle


def _uses(decision: ai.Decision) -> list[tuple[str, dict[str, object]]]:
    return [(args[1], kwargs) for name, args, kwargs in decision.commands if name == "use_power"]


def across_a_chasm(power: str, begin: bool = True) -> tuple[Battle, int, int, int]:
    """A seer cut off by a chasm (nothing to gain by walking) with a friend over it, who stands next
    to a brute whose cone of fire needs no sight, and an archer whose shots need it."""
    b = Battle(seed=3, width=14, height=7)
    for x in (5, 6, 7):
        for y in range(7):
            b.set_terrain(x, y, blocks=["movement", "pushes"])
    seer = b.spawn("seer", 3, 3, team="a", powers=[power], initiative_bonus=20, health=12)
    b.spawn("knight", 8, 3, team="a", powers=["strike"], health=14)
    brute = b.spawn("brute", 9, 3, team="b", powers=["burning-hands"], health=16)
    archer = b.spawn("archer", 9, 5, team="b", powers=["shoot"], health=10)
    b.start_combat()
    if begin:
        b.begin_round()
    return b, seer, brute, archer


@pytest.mark.parametrize("power", ["blind", "dazzle"])
def test_a_sight_stealer_aims_at_the_enemy_whose_blows_it_spoils(power: str):
    # the brute's blow is the heavier (a fixed weight per condition would pick it), but a cone of fire
    # needs no sight: the forecasts say the archer's shots are what blindness or a flash takes away
    b, seer, _, archer = across_a_chasm(power)
    decision = ai.decide(b, seer, "tactical")
    assert _uses(decision) == [(power, {"target": archer})], decision.why


def test_a_blinded_archer_threatens_no_one():
    # the battle's threat forecast knows a blinded creature cannot aim at what it cannot see
    b, seer, _, archer = across_a_chasm("blind")
    friend = next(c for c in b.creatures() if b.name(c) == "knight")
    assert any(s.enemy == archer for s in b.threat(friend).sources)
    b.add_condition(archer, "blinded")
    assert not any(s.enemy == archer for s in b.threat(friend).sources)


def test_trials_inside_a_tick_are_not_recorded_for_the_replay():
    # the trial grant is made on a snapshot during the controller's turn: only the real orders are logged
    b, _, _, _ = across_a_chasm("blind", begin=False)

    def controller(battle: Battle, actor: int) -> None:
        for name, args, kwargs in ai.decide(battle, actor, "tactical").commands:
            getattr(battle, name)(*args, **kwargs)

    b.tick(controller)
    orders = [order for name, _, kwargs in b.command_log if name == "tick" for _, issued in kwargs.get("orders", [])
              for order in issued]
    assert orders and all(name != "add_condition" for name, _, _ in orders), orders
    assert any(name == "use_power" and args[1] == "blind" for name, args, _ in orders), orders
