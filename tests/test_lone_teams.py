"""A creature spawned with no team fights alone: no named team may share its team's name.

Its team was ``solo-`` and its id, and a team could be given that very name: ``spawn(team="solo-2")``
beside the creature with id 2 spawned with none put the two on one side (neither could harm the other,
and a battle of the two was never won), so "without a team it fights alone" was false.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from game import Battle, IllegalCommand
from game.content.scenario import ScenarioError, load_scenario_text

LEDGE = Path(__file__).resolve().parent.parent / "assets" / "scenarios" / "ledge.toml"


def test_a_team_named_as_a_lone_creatures_is_refused_before_or_after_it() -> None:
    b = Battle(seed=1, width=6, height=3)
    with pytest.raises(IllegalCommand, match=r"team of 'A': 'solo-2' is how the battle names the team of a creature "
                                             r"spawned with none"):
        b.spawn("A", 0, 0, team="solo-2", powers=["strike"])
    alone = b.spawn("Loner", 1, 0, powers=["strike"])
    with pytest.raises(IllegalCommand, match=f"'solo-{alone}'"):
        b.spawn("B", 2, 0, team=f"solo-{alone}")
    assert b.creatures() == [alone]


def test_lone_creatures_and_other_names_are_still_enemies() -> None:
    b = Battle(seed=1, width=6, height=3)
    named = b.spawn("A", 0, 0, team="solo-two", powers=["strike"])
    alone = b.spawn("Loner", 1, 0, powers=["strike"])
    other = b.spawn("Other", 2, 0)
    assert len({b.team(named), b.team(alone), b.team(other)}) == 3
    b.start_combat()
    assert [t.ally for t in b.forecast(named, "strike", target=alone).targets] == [False]


def test_a_scenario_team_so_named_is_refused_naming_the_key() -> None:
    text = LEDGE.read_text().replace("vale", "solo-7")
    with pytest.raises(ScenarioError, match=r"teams\.solo-7: expected another team name: 'solo-7' is how the battle"):
        load_scenario_text(text, "s.toml")


def test_a_name_no_lone_team_is_ever_given_is_a_team_like_any_other() -> None:
    """Only 'solo-' and an id as the battle writes it is refused: 'solo-02' or 'solo-0' names no lone team."""
    b = Battle(seed=1)
    for x, team in enumerate(("solo-02", "solo-0", "solo-x")):
        b.spawn("A", x, 1, team=team)
    assert {b.team(e) for e in b.creatures()} == {"solo-02", "solo-0", "solo-x"}
