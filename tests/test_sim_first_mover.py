"""The first-mover column counts the side whose creature acted first: an unconscious creature atop the
initiative order takes no turn, and its side was named first all the same."""

from __future__ import annotations

import random

from game import Battle
from game.sim.runner import play


def test_the_first_mover_is_the_first_creature_able_to_act() -> None:
    with Battle(seed=1, width=10, height=4) as battle:
        battle.spawn("Sleeper", 1, 1, team="blue", fatigue=5, initiative_bonus=100, powers=["strike"])
        battle.spawn("Blue", 1, 2, team="blue", powers=["strike"], health=30)
        battle.spawn("Red", 5, 1, team="red", powers=["strike"], initiative_bonus=50, health=5)
        *_, first = play(battle, "tactical", random.Random(1), 20)
        assert battle.turn_order()[0] == 1 and "unconscious" in battle.conditions(1)
        assert first == "red"
