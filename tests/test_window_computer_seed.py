"""A window built with no computer seed draws the computer's turns from the battle's own seed, as the
command line and a loaded save do: it drew from 0, so the same battle played other computer turns in
a test's ``App(battle)`` than after a Ctrl+L of its own save (under ``--policy random``, another battle)."""

from __future__ import annotations

from game import Battle
from game.play.app import App
from game.render.inputs import Key


def _computer_turns(seed: int | None) -> list[object]:
    """The events of two rounds the computer plays alone under the random policy."""
    battle = Battle(seed=987654321, width=12, height=8)
    for i in range(3):
        battle.spawn(f"Blue{i}", 1, 1 + 2 * i, team="blue", powers=["strike", "shoot"])
        battle.spawn(f"Red{i}", 10, 1 + 2 * i, team="red", powers=["strike", "shoot"])
    app = App(battle, frozenset(), policy="random", computer_delay=0, max_rounds=2,
              **({} if seed is None else {"seed": seed}))
    for _ in range(4):
        app.handle(Key("return"))
    events = list(battle.events)
    battle.close()
    return events


def test_no_seed_is_the_battles_own_seed() -> None:
    assert _computer_turns(None) == _computer_turns(987654321)
    assert _computer_turns(None) != _computer_turns(0)  # (the seed does matter here: the check can fail)
