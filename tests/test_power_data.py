"""Powers as data: ``assets/powers/*.toml`` validated on load, with errors that say where and what.

Every loader error must name the file, the power, the key and what was expected; a file with an error
adds no power at all; ids are unique across files. The shipped set must cover the powers the issue
lists, and each shipped power must be usable through ``Battle`` (its script file exists and loads).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from components.dice import Dice
from game import Battle
from game.content.powers import (
    POWERS_DIR,
    SCRIPTS_DIR,
    PowerError,
    default_powers,
    load_power_file,
    load_powers,
    parse_power,
)

GOOD = '''
[bolt]
name = "Bolt"
description = "A bolt."
range_ft = 60
attack = { bonus = 1 }
damage = "2d6"
'''


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.write_text(text, encoding="utf-8")
    return path


def error_of(tmp_path: Path, body: str, power_id: str = "oops") -> str:
    """The PowerError message of a one-power file ``bad.toml`` holding ``[power_id]`` + ``body``."""
    path = write(tmp_path, "bad.toml", f'[{power_id}]\n{body}\n')
    with pytest.raises(PowerError) as info:
        load_power_file(path)
    message = str(info.value)
    assert str(path) in message, message       # the file
    return message


BASE = 'name = "Oops"\ndescription = "d"\n'


# ---------------------------------------------------------------- a good file


def test_good_file_loads_into_checked_powers(tmp_path):
    powers = load_power_file(write(tmp_path, "good.toml", GOOD))
    bolt = powers["bolt"]
    assert (bolt.name, bolt.range_ft, bolt.attack_bonus, bolt.damage) == ("Bolt", 60.0, 1, Dice(2, 6, 0))
    assert bolt.source == str(tmp_path / "good.toml")
    assert bolt.single_target and not bolt.lasting


def test_load_powers_reads_every_toml_of_a_directory(tmp_path):
    write(tmp_path, "a.toml", GOOD)
    write(tmp_path, "b.toml", '[mend]\nname = "Mend"\ndescription = "d"\nrange_ft = 5\nhealing = "1d4"\n')
    write(tmp_path, "notes.txt", "[ignored]\n")
    assert set(load_powers(tmp_path)) == {"bolt", "mend"}


def test_parse_power_builds_one_power_from_a_table():
    power = parse_power("zap", {"name": "Zap", "description": "d", "range_ft": 30, "damage": 3}, "test")
    assert power.damage == Dice(0, 0, 3) and power.source == "test"


# ---------------------------------------------------------------- errors: file, power, key, expectation


def test_unknown_key(tmp_path):
    message = error_of(tmp_path, BASE + 'rnage_ft = 30')
    assert "[oops]" in message and "'rnage_ft'" in message
    assert "known keys" in message and "range_ft" in message


@pytest.mark.parametrize("dice", ['"2x6"', '"d"', '"2d0"', '"1001d6"', '"two dice"'])
def test_bad_dice(tmp_path, dice):
    message = error_of(tmp_path, BASE + f"damage = {dice}")
    assert "[oops]" in message and "'damage'" in message
    assert "2d6+3" in message or "1000 dice" in message, message


def test_bad_dice_in_healing(tmp_path):
    message = error_of(tmp_path, BASE + 'healing = "lots"')
    assert "[oops]" in message and "'healing'" in message and "like" in message


@pytest.mark.parametrize(("body", "key", "expected"), [
    ('range_ft = "far"', "'range_ft'", "a number of feet"),
    ("range_ft = -5", "'range_ft'", "a number of feet above 0"),
    ("range_ft = true", "'range_ft'", "a number of feet"),
    ("flight = 1", "'flight'", "true or false"),
    ('conditions = "dazzled"', "'conditions'", "a list of condition names"),
    ('conditions = ["godmode"]', "'conditions'", "names from"),
    ('conditions = ["prone", "blinded", "prone"]', "'conditions'", "expected each condition once, got 'prone'"),
    ('action = "reaction"', "'action'", "one of action, bonus, free"),
    ('targets = "everyone"', "'targets'", "one of self"),
    ("attack = 3", "'attack'", "a table like"),
    ('attack = { bonus = "high" }', "'attack.bonus'", "an integer"),
    ('save = { dc = 13, half = "yes" }', "'save.half'", "true or false"),
    ('script = "../../etc/passwd.star"', "'script'", "a plain file name"),
    ('script = "chain.py"', "'script'", "ending in .star"),
    ('light = { radius_ft = 10, level = "blinding" }', "'light.level'", "unknown visibility level"),
    ('area_effect = { radius_ft = 0 }', "'area_effect.radius_ft'", "above 0"),
])
def test_wrong_type_or_value(tmp_path, body, key, expected):
    message = error_of(tmp_path, BASE + body)
    assert "[oops]" in message and key in message and expected in message, message


@pytest.mark.parametrize(("area", "key", "expected"), [
    ('{ shape = "circle", radius_ft = 10 }', "'area.shape'", "one of burst, cone, line"),
    ('{ radius_ft = 10 }', "'area.shape'", "one of burst, cone, line"),
    ('{ shape = "burst" }', "'area.radius_ft'", "above 0 for a burst"),
    ('{ shape = "cone", radius_ft = 15 }', "'area.length_ft'", "above 0 for a cone"),
    ('{ shape = "line", length_ft = -30 }', "'area.length_ft'", "above 0 for a line"),
    ('{ shape = "line", length_ft = 30, width_ft = 0 }', "'area.width_ft'", "above 0"),
    ('{ shape = "burst", radius_ft = 10, height_ft = 5 }', "'area.height_ft'", "only shape"),
    ('"burst"', "'area'", "a table like"),
])
def test_bad_area_shape(tmp_path, area, key, expected):
    message = error_of(tmp_path, BASE + f"area = {area}")
    assert "[oops]" in message and key in message and expected in message, message


def test_attack_and_save_together(tmp_path):
    message = error_of(tmp_path, BASE + "attack = { bonus = 1 }\nsave = { dc = 12 }")
    assert "[oops]" in message and "'attack'" in message and "'save'" in message and "choose one" in message


@pytest.mark.parametrize("missing", ["name", "description"])
def test_missing_name_or_description(tmp_path, missing):
    keys = {"name": '"Oops"', "description": '"d"', "range_ft": "5"}
    del keys[missing]
    message = error_of(tmp_path, "\n".join(f"{k} = {v}" for k, v in keys.items()))
    assert "[oops]" in message and f"missing '{missing}'" in message


@pytest.mark.parametrize("duration", ["0", "-1", "1.5", '"2 rounds"', "true"])
def test_bad_duration(tmp_path, duration):
    message = error_of(tmp_path, BASE + 'conditions = ["dazzled"]\n' + f"duration = {duration}")
    assert "[oops]" in message and "'duration'" in message and "a whole number of rounds above 0" in message


def test_end_early_needs_a_duration(tmp_path):
    message = error_of(tmp_path, BASE + "end_early = true")
    assert "[oops]" in message and "'end_early'" in message and "a duration" in message


def test_teleport_needs_a_range(tmp_path):
    message = error_of(tmp_path, BASE + 'targets = "self"\nteleport = true')
    assert "[oops]" in message and "'range_ft'" in message and "teleport" in message


def test_a_power_that_is_not_a_table(tmp_path):
    path = write(tmp_path, "flat.toml", 'oops = "a string"\n')
    with pytest.raises(PowerError, match=r"flat\.toml: \[oops\] must be a table"):
        load_power_file(path)


def test_duplicate_id_across_files_names_both_files(tmp_path):
    first = write(tmp_path, "a.toml", GOOD)
    second = write(tmp_path, "b.toml", GOOD.replace("Bolt", "Other bolt"))
    with pytest.raises(PowerError) as info:
        load_powers(tmp_path)
    message = str(info.value)
    assert str(second) in message and "[bolt]" in message
    assert str(first) in message and "already defined" in message


def test_toml_syntax_error_names_the_file_and_line(tmp_path):
    path = write(tmp_path, "broken.toml", '[bolt]\nname = "Bolt\ndescription = "d"\n')
    with pytest.raises(PowerError) as info:
        load_power_file(path)
    message = str(info.value)
    assert str(path) in message and "not valid TOML" in message and "line 2" in message


def test_a_file_with_one_bad_power_adds_nothing(tmp_path):
    write(tmp_path, "a.toml", GOOD + "\n[bad]\n" + BASE + 'damage = "x"\n')
    with pytest.raises(PowerError, match=r"\[bad\]"):
        load_powers(tmp_path)


def test_power_error_is_a_value_error():
    assert issubclass(PowerError, ValueError)


def test_missing_file_is_a_located_error(tmp_path):
    with pytest.raises(PowerError, match="cannot read"):
        load_power_file(tmp_path / "nowhere.toml")


def test_a_battle_can_be_given_its_own_powers(tmp_path):
    powers = load_power_file(write(tmp_path, "good.toml", GOOD))
    with Battle(seed=1, powers=powers) as b:
        assert b.powers_of(b.spawn("a", 0, 0)) == ["bolt"]
        with pytest.raises(ValueError, match="unknown power 'strike'"):
            b.power("strike")


# ---------------------------------------------------------------- the shipped powers


SHIPPED = default_powers()


def test_shipped_powers_load_cleanly_and_there_are_at_least_12():
    assert load_powers(POWERS_DIR) == SHIPPED
    assert len(SHIPPED) >= 12


def _covering(predicate) -> list[str]:
    return sorted(pid for pid, p in SHIPPED.items() if predicate(p))


@pytest.mark.parametrize(("what", "predicate"), [
    ("melee strike", lambda p: p.attack_bonus is not None and p.range_ft == 5 and p.damage is not None),
    ("ranged shot", lambda p: p.attack_bonus is not None and (p.range_ft or 0) >= 30 and p.damage is not None
     and p.area is None),
    ("burst", lambda p: p.area is not None and p.area.shape == "burst" and p.damage is not None),
    ("cone", lambda p: p.area is not None and p.area.shape == "cone"),
    ("line", lambda p: p.area is not None and p.area.shape == "line"),
    ("heal", lambda p: p.healing is not None and p.area is None),
    ("light with a duration", lambda p: p.creates_light is not None and p.duration is not None),
    ("darkness/fog cloud", lambda p: p.creates_area is not None and p.duration is not None),
    ("dazzle", lambda p: "dazzled" in p.conditions and p.duration is not None),
    ("blind", lambda p: "blinded" in p.conditions and p.duration is not None),
    ("shove", lambda p: p.push_ft > 0),
    ("flight", lambda p: p.flight and p.duration is not None),
    ("save for half", lambda p: p.save_dc is not None and p.save_half),
])
def test_shipped_powers_cover(what, predicate):
    assert _covering(predicate), f"no shipped power is a {what}"


def test_two_shipped_powers_use_a_script_and_the_scripts_exist_and_load():
    scripted = _covering(lambda p: p.script is not None)
    assert len(scripted) >= 2
    with Battle(seed=1) as b:
        for power_id in scripted:
            script = SHIPPED[power_id].script
            assert (SCRIPTS_DIR / script).is_file()
            functions = b.scripts.load(script)
            assert functions & {"on_use", "on_hit", "on_end"}, f"{script} defines no power hook"


def test_light_may_end_early_and_darkness_may_not():
    assert SHIPPED["light"].end_early and SHIPPED["light"].duration
    assert not SHIPPED["darkness"].end_early and SHIPPED["darkness"].duration


def test_every_shipped_power_has_a_name_and_a_description_and_a_legal_shape():
    for power in SHIPPED.values():
        assert power.name and power.description
        assert not (power.attack_bonus is not None and power.save_dc is not None)
        assert power.lasting <= (power.duration is not None), f"{power.id} grants but never takes back"
