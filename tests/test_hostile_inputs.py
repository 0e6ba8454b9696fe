"""Hostile inputs kept as data: every file under tests/data/hostile/ is refused with the loader's one
error type, naming the file, the key and what was expected, never a traceback from deep inside.

Most of them crashed the loaders or the rules before numbers were range-checked where they are read
(each file's first line says how); the rest loaded silently and did nothing or the wrong thing.
A new hostile file must be listed here with the words its error must contain.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from game.content.powers import PowerError, load_power_file
from game.content.saves import SaveError, load_game
from game.content.scenario import ScenarioError, load_scenario

HOSTILE = Path(__file__).resolve().parent / "data" / "hostile"

#: file -> words its error must contain (besides the file's own path)
EXPECTED: dict[str, tuple[str, ...]] = {
    "scenarios/blank_name.toml": ("creatures[3].name", "not blank"),
    "scenarios/broken_reaction.toml": ("reactions[0]", "broken.star:1", "Parse error"),
    "scenarios/digits_5000.toml": ("line 9", "5000 digits", "at most 4300"),
    "scenarios/huge_attack_bonus.toml": ("creatures[3].attack_bonus", "-1000..1000", "401 digits"),
    "scenarios/huge_ground.toml": ("map.legend.'^'.ground", "-10000..10000 ft", "1e+308"),
    "scenarios/huge_ground_int.toml": ("map.legend.'^'.ground", "-10000..10000 ft", "401 digits"),
    "scenarios/huge_initiative.toml": ("creatures[3].initiative_bonus", "-1000..1000"),
    "scenarios/huge_light.toml": ("lights[0].radius_ft", "0..10000 ft", "1e+308"),
    "scenarios/huge_speed.toml": ("rules.speed_ft", "0..10000 ft", "31 digits"),
    "scenarios/huge_square.toml": ("rules.square_ft", "1..100 ft"),
    "scenarios/huge_z.toml": ("creatures[3].z", "-10000..10000 ft"),
    "scenarios/missing_reaction.toml": ("reactions[0]", "no_such_script.star", "No such file"),
    "scenarios/table_for_string.toml": ("creatures[3].team", "got a table"),
    "scenarios/unknown_power.toml": ("creatures[0].powers", "unknown power 'shooot'", "did you mean 'shoot'"),
    "powers/conditions_table.toml": ("[bad]", "'conditions'", "names from", "{'name': 'dazzled'}"),
    "powers/damage_huge.toml": ("[bad]", "'damage'", "-1000..1000"),
    "powers/dice_sides.toml": ("[bad]", "'damage'", "1..1000 sides"),
    "powers/digits_5000.toml": ("line 5", "5000 digits"),
    "powers/enemies_without_area.toml": ("[bad]", "'targets' and 'area' conflict", "'enemies'"),
    "powers/enemy_at_a_square.toml": ("[bad]", "'targets'", "'teleport'", "'range_ft'", "conflict", "one creature"),
    "powers/missing_script.toml": ("[bad]", "'script'", "No such file", "no_such_script.star"),
    "powers/misspelt_key.toml": ("[bad]", "'damge'", "did you mean 'damage'"),
    "powers/push_inf.toml": ("[bad]", "'push_ft'", "at most 10000", "inf"),
    "powers/radius_nan.toml": ("[bad]", "'area.radius_ft'", "at most 10000", "nan"),
    "powers/range_huge.toml": ("[bad]", "'range_ft'", "at most 10000", "401 digits"),
    "saves/command_huge_damage.json": ("commands[0]", "damage", "-1000000000..1000000000"),
    # arguments a command does not take: the file's error, not a replay that "failed" with a TypeError
    "saves/command_unknown_keyword.json": ("commands[0]", "damage cannot take the arguments",
                                           "unexpected keyword argument 'evil'"),
    "saves/command_missing_argument.json": ("commands[0]", "damage cannot take the arguments",
                                            "missing a required argument: 'amount'"),
    "saves/order_unknown_keyword.json": ("commands[1]", "orders[0][1][0]", "stand cannot take the arguments",
                                         "unexpected keyword"),
    "saves/command_huge_height.json": ("commands[0]", "set_ground", "-1000000000..1000000000", "1e+308"),
    "saves/digits_5000.json": ("line 11", "5000 digits"),
    "saves/digits_in_scenario_text.json": ("(scenario)", "line 8", "5000 digits"),
    "saves/huge_seed.json": ("seed", "0..9223372036854775807"),
    "saves/not_a_command.json": ("commands[0]", "'__init__' is not a battle command"),
    "saves/override_huge_speed.json": ("rules.speed_ft", "0..10000 ft"),
    "saves/power_override_huge_radius.json": ("power overrides", "'area.radius_ft'", "at most 10000", "1e+308"),
    "saves/power_override_table_for_string.json": ("powers.strike.conditions", "not an encoded value"),
}

_LOADERS = {"scenarios": (load_scenario, ScenarioError), "powers": (load_power_file, PowerError),
            "saves": (load_game, SaveError)}


def test_every_hostile_file_is_listed() -> None:
    found = {p.relative_to(HOSTILE).as_posix() for kind in _LOADERS for p in (HOSTILE / kind).glob("*.*")}
    assert found == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_hostile_file_is_refused_with_its_key_and_range(name: str) -> None:
    path = HOSTILE / name
    load, error = _LOADERS[name.split("/")[0]]
    with pytest.raises(error) as caught:
        load(path)
    message = str(caught.value)
    assert str(path) in message, message
    for words in EXPECTED[name]:
        assert words in message, (words, message)
    assert "Traceback" not in message and "sys.set_int_max_str_digits" not in message
