"""Every number a scenario, a power, an override or a save can set has a range, checked where it is
read, with the key and the range in the message; keys that contradict each other are refused.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from components.dice import Dice
from components.rules import RULE_BOUNDS, RULE_NONE_OR_AT_LEAST, RULE_ORDER, Rules, short_of
from game import IllegalCommand
from game.content import power_parse
from game.content.power_parse import PowerError, parse_power
from game.content.saves import load_game, save_game
from game.content.scenario import ScenarioError, load_scenario, load_scenario_text

ROOT = Path(__file__).resolve().parent.parent
LEDGE = (ROOT / "assets" / "scenarios" / "ledge.toml").read_text(encoding="utf-8")


def _edges(lo: float, hi: float, whole: bool) -> tuple[list[Any], list[Any]]:
    """(allowed, refused) values at the edges of a range."""
    step = 1 if whole else 0.5
    return [lo, hi], [lo - step, hi + step, 10**30]


# ---------------------------------------------------------------------------------------------- rules


def test_every_number_of_the_rules_has_a_range() -> None:
    numbers = {f.name for f in dataclasses.fields(Rules) if f.type in ("int", "float")}
    assert numbers == set(RULE_BOUNDS)


def _in_order_around(name: str, value: Any) -> dict[str, Any]:
    """The defaults with ``name`` set to ``value`` and the rules it must stay in order with
    (``RULE_ORDER``, ``RULE_NONE_OR_AT_LEAST``) moved to meet it, so that one rule's edge is tried on
    its own."""
    values = {**Rules().as_dict(), name: value}
    moved = True
    while moved:
        moved = False
        for low, high, _ in RULE_ORDER:
            if values[low] > values[high]:
                values[low] = values[high] = value  # each move meets the value tried, so it ends
                moved = True
    for rule, measure, _ in RULE_NONE_OR_AT_LEAST:  # a rule tried below its measure brings the measure down
        if short_of(values[rule], values[measure]):
            values[measure if name == rule else rule] = values[rule if name == rule else measure]
    return values


@pytest.mark.parametrize("name", sorted(RULE_BOUNDS))
def test_each_rule_is_refused_outside_its_range_with_the_range_named(name: str) -> None:
    bound = RULE_BOUNDS[name]
    allowed, refused = _edges(bound.lo, bound.hi, bound.whole)
    if bound.above:
        allowed = [bound.hi]
    for value in allowed:
        assert getattr(Rules(**_in_order_around(name, value)), name) == value
    for value in refused:
        with pytest.raises(ValueError, match=rf"rules\.{name}: expected .*{bound.hi:g}"):
            Rules(**{name: value})
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(LEDGE.replace('ambient = "normal"\n', f'ambient = "normal"\n[rules]\n{name} = {10**30}\n'),
                           "r.toml")
    assert f"rules.{name}" in str(caught.value) and "r.toml" in str(caught.value)


def test_rules_refuse_a_float_where_a_whole_number_is_meant_and_nan_anywhere() -> None:
    with pytest.raises(ValueError, match="whole number"):
        Rules(square_ft=5.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="slowed_speed_factor"):
        Rules(slowed_speed_factor=float("nan"))


# ---------------------------------------------------------------------------------------------- scenarios


@pytest.mark.parametrize(("field", "lo", "hi", "whole"), [
    ("health", 1, 100_000, True), ("defense", -1000, 1000, True), ("attack_bonus", -1000, 1000, True),
    ("initiative_bonus", -1000, 1000, True), ("speed", 0, 10_000, True),
    ("z", 0, 10_000, False),  # (z: from the ground of the ogre's square, which is 0)
    ("fatigue", 0, 5, True),
])
def test_creature_numbers_are_range_checked(field: str, lo: float, hi: float, whole: bool) -> None:
    scenario = load_scenario(ROOT / "assets" / "scenarios" / "ledge.toml")
    allowed, refused = _edges(lo, hi, whole)
    for value in allowed:
        changed = scenario.with_overrides({f"creatures.ogre.{field}": value, "creatures.ogre.flying": True})
        assert getattr(changed.creature("ogre"), field) == value
    for value in refused:
        with pytest.raises(ScenarioError) as caught:
            scenario.with_overrides({f"creatures.ogre.{field}": value})
        message = str(caught.value)
        assert f"creatures.ogre.{field}" in message and "ledge.toml" in message and "expected" in message
        if value == hi + (1 if whole else 0.5):
            assert f"{hi:g}" in message, message


@pytest.mark.parametrize(("key", "words"), [
    ("map.legend.^.ground", "-10000..10000 ft"),
    ("seed", "0..9223372036854775807"),
    ("creatures.ogre.x", "0..1023"),
])
def test_map_and_top_numbers_are_range_checked(key: str, words: str) -> None:
    scenario = load_scenario(ROOT / "assets" / "scenarios" / "ledge.toml")
    for value in (10**30, 10**5000, float("inf"), "30"):
        with pytest.raises(ScenarioError) as caught:
            scenario.with_overrides({key: value})
        assert words in str(caught.value) or "expected" in str(caught.value)


def test_a_light_radius_is_range_checked() -> None:
    with pytest.raises(ScenarioError, match=r"lights\[0\]\.radius_ft: expected a number in 0\.\.10000 ft, got"):
        load_scenario_text(LEDGE.replace('ambient = "normal"\n',
                                         'ambient = "normal"\n[[lights]]\nx = 1\ny = 1\nradius_ft = 1e308\n'), "l")


def test_a_map_too_big_is_refused_before_it_is_read_square_by_square() -> None:
    rows = ", ".join(['"' + "." * 2000 + '"'] * 3)
    text = LEDGE.split("[map]")[0] + f"[map]\nrows = [{rows}]\n[map.legend]\n'.' = {{}}\n"
    with pytest.raises(ScenarioError, match="the map width is 2000 squares; at most 1024"):
        load_scenario_text(text, "big.toml")


# ---------------------------------------------------------------------------------------------- powers


def _power(**table: Any) -> Any:
    return parse_power("p", {"name": "P", "description": "d", **table}, "p.toml")


@pytest.mark.parametrize(("table", "key", "words"), [
    ({"range_ft": 10_001}, "'range_ft'", "at most 10000"),
    ({"range_ft": float("nan")}, "'range_ft'", "above 0"),
    ({"area": {"shape": "burst", "radius_ft": 1e308}}, "'area.radius_ft'", "at most 10000"),
    ({"area": {"shape": "line", "length_ft": 30, "width_ft": float("inf")}}, "'area.width_ft'", "at most 10000"),
    ({"range_ft": 5, "attack": {"bonus": 1001}}, "'attack.bonus'", "-1000..1000"),
    ({"range_ft": 5, "save": {"dc": 0}}, "'save.dc'", "1..1000"),
    ({"range_ft": 5, "push_ft": 1e308}, "'push_ft'", "at most 10000"),
    ({"range_ft": 5, "pull_ft": -1}, "'pull_ft'", "above 0"),
    ({"range_ft": 5, "conditions": ["dazzled"], "duration": 1001}, "'duration'", "at most 1000"),
    ({"range_ft": 5, "damage": "1001d6"}, "'damage'", "at most 1000 dice"),
    ({"range_ft": 5, "damage": "1d1001"}, "'damage'", "1..1000 sides"),
    ({"range_ft": 5, "healing": "1d6+1001"}, "'healing'", "-1000..1000"),
    ({"range_ft": 5, "light": {"radius_ft": 10_001}}, "'light.radius_ft'", "at most 10000"),
    ({"range_ft": 5, "conditions": [{"name": "dazzled"}]}, "'conditions'", "names from"),
    ({"range_ft": 5, "targets": "enemys"}, "'targets'", "did you mean 'enemy'"),
])
def test_power_numbers_and_names_are_checked(table: dict[str, Any], key: str, words: str) -> None:
    with pytest.raises(PowerError) as caught:
        _power(**table)
    message = str(caught.value)
    assert message.startswith("p.toml: power [p]") and key in message and words in message, message


@pytest.mark.parametrize(("table", "words"), [
    ({"range_ft": 30, "targets": "enemy", "attack": {"bonus": 1}, "teleport": True},
     "'teleport', 'range_ft' conflict: targets = 'enemy' is one creature, but those keys make the power reach a "
     "square; use targets = 'self' for a teleport"),
    ({"range_ft": 30, "targets": "enemy", "attack": {"bonus": 1}, "area_effect": {"radius_ft": 10}}, "'area_effect'"),
    ({"range_ft": 30, "targets": "ally", "healing": "1d4", "light": {"radius_ft": 10}}, "'light'"),
    ({"range_ft": 30, "targets": "enemy", "area": {"shape": "burst", "radius_ft": 10}}, "'area (burst)'"),
    ({"targets": "creature", "area": {"shape": "cone", "length_ft": 15}}, "'area (cone)'"),
    ({"targets": "enemy", "area": {"shape": "burst", "radius_ft": 10}}, "'area (burst)'"),
    ({"range_ft": 30, "targets": "allies", "healing": "1d4"}, "'targets' and 'area' conflict"),
    ({"range_ft": 30, "targets": "self", "area": {"shape": "burst", "radius_ft": 10}}, "'range_ft' conflict"),
    ({"range_ft": 30, "targets": "self", "healing": "1d4"}, "'targets' and 'range_ft' conflict"),
    ({"range_ft": 5, "push_ft": 10, "pull_ft": 10}, "'push_ft' and 'pull_ft' conflict"),
    ({"area": {"shape": "burst", "radius_ft": 10, "length_ft": 5}}, "'area.length_ft' conflict"),
])
def test_keys_that_contradict_each_other_are_refused_naming_them(table: dict[str, Any], words: str) -> None:
    with pytest.raises(PowerError) as caught:
        _power(**table)
    assert "conflict" in str(caught.value) and words in str(caught.value), str(caught.value)


@pytest.mark.parametrize("table", [
    {"range_ft": 30, "targets": "enemy", "attack": {"bonus": 1}, "damage": "1d6"},
    {"targets": "self", "flight": True, "duration": 1},
    {"range_ft": 30, "targets": "self", "teleport": True},
    {"range_ft": 60, "area_effect": {"radius_ft": 10}, "duration": 2},
    {"range_ft": 60, "targets": "enemies", "area": {"shape": "burst", "radius_ft": 10}, "damage": "1d6"},
    {"targets": "allies", "area": {"shape": "burst", "radius_ft": 10}, "healing": "1d4"},
    {"targets": "all", "area": {"shape": "cone", "length_ft": 15}, "damage": "1d6"},
    {"range_ft": 5, "targets": "creature", "push_ft": 10},
])
def test_combinations_that_mean_something_load(table: dict[str, Any]) -> None:
    assert _power(**table).id == "p"


def test_the_table_of_meanings_is_written_down_once() -> None:
    doc = power_parse.__doc__ or ""
    assert doc.count("*refused*") >= 4 and "aims at" in doc and "reaches" in doc


def test_dice_are_bounded() -> None:
    assert Dice.parse("1000d1000+1000") == Dice(1000, 1000, 1000)
    for text in ("1001d6", "1d1001", "1d6+1001", 1001, -1001, "9" * 5000):
        with pytest.raises(ValueError, match="dice|flat|1000"):
            Dice.parse(text)


# ---------------------------------------------------------------------------------------------- saves


def test_a_number_no_save_could_keep_is_refused_by_the_command(tmp_path: Path) -> None:
    """A damage of two billion is refused when it is given (the loader keeps numbers within a
    billion), not at the save after it has played: the battle stays one its save can keep."""
    scenario = load_scenario(ROOT / "assets" / "scenarios" / "ledge.toml")
    path = tmp_path / "slot.json"
    with scenario.build() as battle:
        with pytest.raises(IllegalCommand, match=r"damage: expected a whole number in 0\.\.1000000, got 2000000000"):
            battle.damage(1, 2 * 10**9)
        battle.damage(1, 10**6)
        battle.tick()
        save_game(path, scenario, battle)
        assert load_game(path).events == battle.events


# ------------------------------------------------------------------------------------- names and text


@pytest.mark.parametrize(("change", "key", "says"), [
    (('name = "Hill archer"', 'name = "Hill\\u0000archer"'), "name", "control character"),
    (('name = "Hill archer"', 'name = "' + "x" * 81 + '"'), "name", "at most 80 characters"),
    (('name = "The ledge"', 'name = "' + "x" * 2_000_000 + '"'), "name", "at most 80 characters"),
    (('name = "The ledge"', 'name = "Led\\u001bge"'), "name", "control character"),
    (('name = "Hill archer"', 'name = "Hill\\u202earcher"'), "name", "control character"),
    (('team = "hill"', 'team = "hi=ll"'), "team", "without '='"),
    (("[teams.hill]", '[teams."hill,vale"]'), "teams.hill,vale", "without '='"),
    (('powers = ["shoot"]', 'powers = ["shoot", "shoot"]'), "powers", "each power once"),
])
def test_names_are_short_printable_and_spellable_by_policy(change: tuple[str, str], key: str, says: str) -> None:
    """A name is drawn in the window and written in every log line: a NUL stopped the font with a
    traceback, and a megabyte name stalled the window's title for minutes. A team's name must be one
    ``--policy TEAM=POLICY`` can write."""
    text = LEDGE.replace(*change, 1)
    assert text != LEDGE
    with pytest.raises(ScenarioError, match=says) as caught:
        load_scenario_text(text, "n.toml")
    assert "n.toml" in str(caught.value) and key in str(caught.value)


def test_a_description_may_run_to_paragraphs_but_holds_no_control_characters() -> None:
    long = LEDGE.replace('description = """', 'description = """' + "A paragraph.\n\t" * 200, 1)
    assert load_scenario_text(long, "d.toml").description.startswith("A paragraph.\n\t")
    with pytest.raises(ScenarioError, match="description.*control character"):
        load_scenario_text(LEDGE.replace('description = """', 'description = """\\u0000', 1), "d.toml")
    with pytest.raises(ScenarioError, match="description.*at most 4,000"):
        load_scenario_text(LEDGE.replace('description = """', 'description = """' + "y" * 4_001, 1), "d.toml")


def test_a_power_name_is_a_short_printable_name() -> None:
    table = {"name": "Zap\u0000", "description": "A zap.", "range_ft": 5, "damage": "1d4"}
    with pytest.raises(PowerError, match="'name'.*control character"):
        parse_power("zap", table, "p.toml")
    with pytest.raises(PowerError, match="'name'.*at most 80"):
        parse_power("zap", {**table, "name": "z" * 81}, "p.toml")
