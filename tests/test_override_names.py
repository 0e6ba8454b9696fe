"""An override's error names the creature as the override does (``creatures.orc.health``), not by
its place in the file (``creatures[1].health``), which the person who swept it never wrote."""

from __future__ import annotations

import pytest

from game.content.scenario import ScenarioError, load_scenario_text
from tests.save_steps import SMALL


@pytest.mark.parametrize(("key", "value", "said"), [
    ("creatures.foe.health", 0, r"creatures\.foe\.health: expected a whole number above 0"),
    ("creatures.foe.x", 99, r"creatures\.foe x, y: square \(99, \d+\) is off the"),
    ("creatures.foe.fatigue", 9, r"creatures\.foe\.fatigue: expected 0\.\.5 \(the fatigue track\)"),
    ("creatures.foe.powers", ["nope"], r"creatures\.foe\.powers: unknown power 'nope'"),
])
def test_an_override_error_names_the_creature_by_its_key(key: str, value: object, said: str) -> None:
    scenario = load_scenario_text(SMALL, "small.toml")
    with pytest.raises(ScenarioError, match=rf"small\.toml \(with overrides {key}=.*\): {said}") as caught:
        scenario.with_overrides({key: value})
    assert "creatures[" not in str(caught.value)


def test_the_file_itself_still_names_the_creature_by_its_place() -> None:
    with pytest.raises(ScenarioError, match=r"small\.toml: creatures\[\d\]\.health: expected a whole number"):
        load_scenario_text(SMALL.replace("health = 9", "health = 0"), "small.toml")
