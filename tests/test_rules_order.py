"""Rules that contradict each other are refused where they are read: a scenario's [rules], an
override, ``Battle(rules=...)`` and ``Rules(...)`` itself, naming both keys and the order expected."""

from __future__ import annotations

from pathlib import Path

import pytest

from components.rules import Rules
from game import Battle
from game.content.scenario import ScenarioError, load_scenario, load_scenario_text

ROOT = Path(__file__).resolve().parent.parent
LEDGE = (ROOT / "assets" / "scenarios" / "ledge.toml").read_text(encoding="utf-8")


def _with_rules(rules: str) -> str:
    return LEDGE.replace('ambient = "normal"\n', f'ambient = "normal"\n[rules]\n{rules}\n')


def test_unconscious_at_zero_fatigue_is_refused_naming_the_file_and_key() -> None:
    with pytest.raises(ScenarioError,
                       match=r"r\.toml: rules\.unconscious_at_fatigue: expected a whole number in 1\.\.100"):
        load_scenario_text(_with_rules("unconscious_at_fatigue = 0"), "r.toml")


@pytest.mark.parametrize(("rules", "low"), [
    ("slowed_at_fatigue = 6", "slowed_at_fatigue"),
    ("disadvantage_at_fatigue = 9", "disadvantage_at_fatigue"),
    ("unconscious_at_fatigue = 6", "unconscious_at_fatigue"),
    ("fatigue_per_hit_at_zero = 7", "fatigue_per_hit_at_zero"),
])
def test_a_threshold_past_the_end_of_the_track_is_refused_naming_both_keys(rules: str, low: str) -> None:
    with pytest.raises(ScenarioError, match=rf"r\.toml: rules\.{low} = \d+ is above rules\.max_fatigue = 5 "
                                            rf"\(the default\); expected {low} <= max_fatigue"):
        load_scenario_text(_with_rules(rules), "r.toml")


def test_thresholds_may_come_in_any_order_among_themselves() -> None:
    """Disadvantage before slowed, or slowed from the start, are variants a designer may sweep."""
    scenario = load_scenario_text(_with_rules("slowed_at_fatigue = 4\ndisadvantage_at_fatigue = 2"), "r.toml")
    assert (scenario.rules.slowed_at_fatigue, scenario.rules.disadvantage_at_fatigue) == (4, 2)
    assert load_scenario_text(_with_rules("slowed_at_fatigue = 0"), "r.toml").rules.slowed_at_fatigue == 0


def test_a_key_left_at_its_default_is_marked_as_the_default() -> None:
    with pytest.raises(ScenarioError, match=r"rules\.unconscious_at_fatigue = 5 \(the default\) is above "
                                            r"rules\.max_fatigue = 3;"):
        load_scenario_text(_with_rules("max_fatigue = 3"), "r.toml")


def test_every_pair_out_of_order_is_listed() -> None:
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(_with_rules("slowed_at_fatigue = 9\ndisadvantage_at_fatigue = 8\n"
                                       "unconscious_at_fatigue = 7\nmax_fatigue = 6\nfatigue_per_hit_at_zero = 10"),
                           "r.toml")
    assert len(caught.value.problems) == 4  # slowed, disadvantage, unconscious, a hit: each past the track


def test_a_shorter_track_in_order_loads_and_plays_by_it() -> None:
    scenario = load_scenario_text(_with_rules("max_fatigue = 3\nslowed_at_fatigue = 1\n"
                                              "disadvantage_at_fatigue = 2\nunconscious_at_fatigue = 3"), "r.toml")
    assert (scenario.rules.max_fatigue, scenario.rules.unconscious_at_fatigue) == (3, 3)


def test_an_override_that_breaks_the_order_is_refused_naming_the_file() -> None:
    scenario = load_scenario(ROOT / "assets" / "scenarios" / "ledge.toml")
    with pytest.raises(ScenarioError, match=r"(?s)ledge\.toml \(with overrides rules\.max_fatigue=2\): 3 problems.*"
                                            r"rules\.unconscious_at_fatigue = 5 \(the default\)"):
        scenario.with_overrides({"rules.max_fatigue": 2})
    assert scenario.with_overrides({"rules.max_fatigue": 2, "rules.unconscious_at_fatigue": 2,
                                    "rules.disadvantage_at_fatigue": 2, "rules.slowed_at_fatigue": 2}
                                   ).rules.max_fatigue == 2


def test_the_battle_and_the_table_refuse_contradictory_rules_too() -> None:
    with pytest.raises(ValueError, match=r"rules\.unconscious_at_fatigue = 5 \(the default\) is above "
                                         r"rules\.max_fatigue = 4"):
        Battle(rules={"max_fatigue": 4})
    with pytest.raises(ValueError, match=r"rules\.slowed_at_fatigue = 6 is above rules\.max_fatigue = 5"):
        Rules(slowed_at_fatigue=6)


def test_a_walk_shorter_than_a_square_is_refused_in_the_rules_and_on_a_creature() -> None:
    with pytest.raises(ScenarioError, match=r"rules\.speed_ft = 3 is below rules\.square_ft = 5 \(the default\); "
                                            r"expected speed_ft = 0 or at least square_ft"):
        load_scenario_text(_with_rules("speed_ft = 3"), "r.toml")
    creature = LEDGE.replace("speed = 40\n", "speed = 4\n", 1)
    assert creature != LEDGE, "ledge.toml's ogre has a speed"
    with pytest.raises(ScenarioError, match=r"r\.toml: creatures\[\d\]\.speed: expected 0 \(it never moves\) or at "
                                            r"least 5 ft \(one square, rules\.square_ft\), got 4"):
        load_scenario_text(creature, "r.toml")
    still = load_scenario_text(LEDGE.replace("speed = 40\n", "speed = 0\n", 1), "r.toml")
    assert [c.speed for c in still.creatures if c.key == "ogre"] == [0]
    assert load_scenario_text(_with_rules("speed_ft = 0"), "r.toml").rules.speed_ft == 0
