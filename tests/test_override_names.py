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


KEEP = "assets/scenarios/keep.toml"


@pytest.mark.parametrize("index", ["00", "01", "\uff10", "\u00b2", "0 "])
def test_a_light_is_named_by_one_spelling_of_its_index(index: str) -> None:
    # lights.00 and lights.0 swept together made a grid of variants whose labels disagreed about one
    # light; '²' counts as a digit but is no number (a bare "invalid literal for int()")
    from game.content.scenario import load_scenario
    scenario = load_scenario(KEEP)
    with pytest.raises(ScenarioError, match=rf"override 'areas\.{index}\.radius_ft': no areas entry "
                                            rf"'{index}'; expected an index written 0\.\.\d+ \(there are \d+\)"):
        scenario.with_overrides({f"areas.{index}.radius_ft": 5})
    assert scenario.with_overrides({"areas.0.radius_ft": 5}).areas[0].radius_ft == 5


def test_an_index_of_thousands_of_digits_is_told_as_any_other() -> None:
    """Past 4,300 digits int() refuses to read a number: the error was Python's, naming no key."""
    from game.content.scenario import load_scenario
    with pytest.raises(ScenarioError, match=r"override 'areas\.1111[^']*'\.\.\. \(5,016 characters\): no areas entry "
                                            r"'1111[^;]*; expected an index"):
        load_scenario(KEEP).with_overrides({f"areas.{'1' * 5000}.radius_ft": 5})
