"""One answer to "is the battle decided?", the battle's own (``Battle.winner``), read by the window and
by ``simulate`` alike.

A battle whose creatures were all on one team was won at once by ``simulate`` (at round 0, before any
turn) while the window called it undecided and played on.
"""

from __future__ import annotations

import random

from game import Battle
from game.sim.runner import play


def _battle(teams: list[str]) -> Battle:
    battle = Battle(seed=1, width=10, height=4)
    for x, team in enumerate(teams):
        battle.spawn(f"C{x}", 2 * x, 1, team=team, powers=["strike"], health=5)
    return battle


def test_a_one_team_battle_is_undecided_in_the_window_and_a_draw_in_simulate_after_its_rounds() -> None:
    with _battle(["blue", "blue"]) as battle:
        assert battle.winner() is None
        winner, rounds, *_ = play(battle, "tactical", random.Random(1), 3)
        assert (winner, rounds) == ("draw", 3)  # it said "blue" won, at round 0


def test_the_window_and_simulate_read_the_same_answer_as_a_battle_goes() -> None:
    with _battle(["blue", "red", "red"]) as battle:
        assert battle.winner() is None
        battle.damage(2, 5)
        battle.damage(3, 5)
        battle.tick()  # both red creatures downed: blue is the team left standing
        assert battle.winner() == "blue"
        assert play(battle, "tactical", random.Random(1), 3)[:2] == ("blue", 1)
    with _battle(["blue", "red"]) as battle:
        battle.damage(1, 5)
        battle.damage(2, 5)
        battle.tick()
        assert battle.winner() == ""  # nobody is left standing
        assert play(battle, "tactical", random.Random(1), 3)[:2] == ("draw", 1)
