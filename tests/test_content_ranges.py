"""Every number a power can set has a range, checked where it is read, with the key and the range in
the message; keys that contradict each other are refused.
"""

from __future__ import annotations

from typing import Any

import pytest

from components.dice import Dice
from game.content import power_parse
from game.content.power_parse import PowerError, parse_power

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
    ({"range_ft": 30, "targets": "enemy", "attack": {"bonus": 1}, "teleport": True}, "'teleport'"),
    ({"range_ft": 30, "targets": "enemy", "attack": {"bonus": 1}, "area_effect": {"radius_ft": 10}}, "'area_effect'"),
    ({"range_ft": 30, "targets": "ally", "healing": "1d4", "light": {"radius_ft": 10}}, "'light'"),
    ({"range_ft": 30, "targets": "enemy", "area": {"shape": "burst", "radius_ft": 10}}, "'area (burst)'"),
    ({"targets": "creature", "area": {"shape": "cone", "length_ft": 15}}, "'area (cone)'"),
    ({"targets": "enemy", "area": {"shape": "burst", "radius_ft": 10}}, "'area' conflict"),
    ({"range_ft": 30, "targets": "allies", "healing": "1d4"}, "'targets' and 'area' conflict"),
    ({"targets": "self", "area": {"shape": "burst", "radius_ft": 10}}, "targets = 'self' is you alone"),
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
