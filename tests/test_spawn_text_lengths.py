"""``Battle.spawn`` and the battle's other text arguments are held to the lengths a file's names are.

A scenario file's names are at most 80 characters (``MAX_NAME``: they are drawn in the window's
panels and written in every log line), but ``Battle.spawn`` took a name or a team of any length,
and a replay file's ``spawn`` command is played through it: a stranger's replay with a 4 MB name
was played, and its mismatch printed the megabyte name to the terminal. A damage or condition
source was unbounded alike.
"""

from __future__ import annotations

import pytest

from components.values import MAX_NAME, MAX_SOURCE
from game import Battle
from game.battle.errors import IllegalCommand


def _battle() -> tuple[Battle, int]:
    battle = Battle(seed=1, width=6, height=3)
    return battle, battle.spawn("A", 0, 0, team="x", health=10)


def test_a_name_as_long_as_a_file_may_give_is_taken() -> None:
    battle, _ = _battle()
    entity = battle.spawn("N" * MAX_NAME, 2, 0, team="t" * MAX_NAME)
    assert battle.name(entity) == "N" * MAX_NAME


def test_a_longer_name_is_refused() -> None:
    battle, _ = _battle()
    with pytest.raises(IllegalCommand, match=rf"a creature's name: expected at most {MAX_NAME} characters, "
                                            rf"got 4,000,000"):
        battle.spawn("N" * 4_000_000, 2, 0)
    assert len(battle.ids) == 1


def test_a_longer_team_is_refused() -> None:
    battle, _ = _battle()
    with pytest.raises(IllegalCommand, match=rf"team of 'N': expected at most {MAX_NAME} characters, got 81"):
        battle.spawn("N", 2, 0, team="t" * (MAX_NAME + 1))


@pytest.mark.parametrize("command", ["damage", "heal"])
def test_a_source_past_its_length_is_refused(command: str) -> None:
    battle, hero = _battle()
    getattr(battle, command)(hero, 1, source="s" * MAX_SOURCE)
    with pytest.raises(IllegalCommand, match=rf"source: expected at most {MAX_SOURCE} characters"):
        getattr(battle, command)(hero, 1, source="s" * (MAX_SOURCE + 1))
