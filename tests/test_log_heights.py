"""The log says where a creature enters and how high its feet are, without calling a hill "up":
a knight standing on a 20 ft hill was logged "20 ft up" (a flier's words) and one in a pit "-20 ft up"."""

from __future__ import annotations

from game import Battle
from game.battle.log import format_events


def _entered(ground: float) -> str:
    b = Battle(seed=1, width=4, height=3)
    b.set_ground(1, 1, ground)
    b.spawn("Knight", 1, 1, team="a")
    [line] = [line for line in format_events(b, b.events) if "enters" in line]
    return line


def test_a_creature_on_a_hill_enters_at_its_height_not_up() -> None:
    line = _entered(20)
    assert line.endswith("Knight (a) enters at (1, 1), at height 20 ft") and " up" not in line


def test_a_creature_in_a_pit_enters_at_a_height_below_level() -> None:
    assert _entered(-20).endswith("Knight (a) enters at (1, 1), at height -20 ft")


def test_a_creature_on_level_ground_says_no_height() -> None:
    assert _entered(0).endswith("Knight (a) enters at (1, 1)")
