"""A Power built by hand in Python is checked field by field when the battle is handed it, as a power
file's loader checks its keys: a wrong field is refused naming the power, the field and what it must
be, and the battle keeps its old table (it used to be taken, and the first forecast failed deep
inside with an AttributeError that named neither)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from components import Visibility
from components.dice import Dice
from components.powers import AreaShape, Made, Power
from game import Battle, IllegalCommand
from game.content.powers import default_powers
from game.content.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
NOVA = Power("nova", "Nova", "A burst of flame around you.", area=AreaShape("burst", radius_ft=10),
             damage=Dice.parse("2d6"))


@pytest.mark.parametrize(("change", "match"), [
    ({"damage": "2d6"}, r"'nova': damage: expected None or dice, a components\.dice\.Dice such as Dice\.parse"),
    ({"healing": Dice(3, 0)}, r"'nova': healing: expected at most 1000 dice of 1\.\.1000 sides"),
    ({"range_ft": "60"}, r"'nova': range_ft: expected None or a number above 0, at most \d+ ft, got '60'"),
    ({"range_ft": 0}, r"'nova': range_ft: expected None or a number above 0"),
    ({"area": AreaShape("ring", radius_ft=10)}, r"'nova': area: expected an area shape of burst, cone, line"),
    ({"area": AreaShape("burst")}, r"'nova': area: radius_ft expected a number above 0"),
    ({"conditions": ["prone"]}, r"'nova': conditions: expected a tuple of blinded, .*got \['prone'\]"),
    ({"conditions": ("sleepy",)}, r"'nova': conditions: expected a tuple of .*got \('sleepy',\)"),
    ({"conditions": ("blinded", "blinded")}, r"'nova': conditions: expected a tuple of .*each once"),
    ({"description": "a\x00b"}, r"'nova': description: expected printable text, got the control character"),
    ({"script": "../x.star"}, r"'nova': script: expected None or a script's plain file name .*: a path"),
    ({"targets": "foes"}, r"'nova': targets: expected None or one of all, allies, ally, creature, enemies, enemy"),
    ({"damage": Dice(1, 4, -9)}, r"'nova': damage: expected dice that can roll more than 0"),
    ({"action": "reaction"}, r"'nova': action: expected one of action, bonus, free, got 'reaction'"),
    ({"push_ft": -5}, r"'nova': push_ft: expected a number in 0\.\.\d+ ft, got -5"),
    ({"save_half": "yes"}, r"'nova': save_half: expected True or False, got 'yes'"),
    ({"attack_bonus": True}, r"'nova': attack_bonus: expected None or a whole number in -1000\.\.1000, got True"),
    ({"duration": 0}, r"'nova': duration: expected None or a whole number in 1\.\.1000 rounds, got 0"),
    ({"creates_light": Made(10, 2)}, r"'nova': creates_light: level: expected a components\.Visibility, got 2"),
])
def test_a_wrong_field_is_refused_naming_the_power_and_the_field_and_the_table_stays(change, match):
    b = Battle(seed=1, width=6, height=6)
    before = b.powers
    bad = dataclasses.replace(NOVA, **change)
    with pytest.raises(IllegalCommand, match=match):
        b.powers = {**before, "nova": bad}
    assert b.powers == before and "nova" not in b.powers
    with pytest.raises(IllegalCommand, match=match):
        Battle(seed=1, width=6, height=6, powers={"nova": bad})


@pytest.mark.parametrize(("power_id", "name", "match"), [
    ("", "Nova", r"the power table's '': id: expected 1 to 64 letters, digits, '_' or '-', got ''"),
    ("n" * 500, "Nova", r"the power table's 'n+.*: id: expected 1 to 64 letters, digits, '_' or '-', got 'n+"),
    ("fire ball, big", "Nova", r"the power table's 'fire ball, big': id: expected 1 to 64 letters"),
    ("nova\n", "Nova", r"the power table's 'nova\\n': id: expected 1 to 64 letters"),
    ("nova", "   ", r"the power table's 'nova': name: expected a name \(a string that is not blank\)"),
    ("nova", "N" * 81, r"the power table's 'nova': name: expected at most 80 characters, got 81"),
    ("nova", "No\x07va", r"the power table's 'nova': name: expected printable text, got the control character"),
])
def test_an_id_or_name_no_power_file_could_give_is_refused_and_the_table_stays(power_id, name, match):
    """A power file's id is 1 to 64 letters, digits, '_' or '-' and its name a name; a table handed to
    the battle took an empty id, one of 500 characters or one with spaces and commas, and a blank name."""
    b = Battle(seed=1, width=6, height=6)
    before = b.powers
    bad = dataclasses.replace(NOVA, id=power_id, name=name)
    with pytest.raises(IllegalCommand, match=match):
        b.powers = {**before, power_id: bad}
    assert b.powers == before and power_id not in b.powers
    with pytest.raises(IllegalCommand, match=match):
        Battle(seed=1, width=6, height=6, powers={power_id: bad})


def test_a_right_power_made_by_hand_is_taken_and_forecast():
    """The same power with dice, not their notation, is taken, and its forecast reaches the enemy."""
    b = Battle(seed=1, width=6, height=6)
    b.powers = {**b.powers, "nova": NOVA,
                "glow": dataclasses.replace(NOVA, id="glow", area=None, damage=None,
                                            creates_light=Made(10, Visibility.NORMAL), duration=2)}
    mage = b.spawn("Mage", 2, 2, team="a", powers=["nova"])
    imp = b.spawn("Imp", 3, 2, team="b")
    b.start_combat()
    assert imp in [t.target for t in b.forecast(mage, "nova").targets]


def test_every_power_a_file_loads_passes_the_same_check():
    """The check asks no more than a power file's loader does: the shipped powers and the gauntlet's
    (every shipped power, and its own) all build battles."""
    Battle(seed=1, width=4, height=4, powers=default_powers())
    battle, _ = load_scenario(ROOT / "tests" / "golden" / "gauntlet.toml").build_with_ids()
    assert battle.powers


def test_a_power_files_id_with_a_trailing_line_break_is_refused_too():
    """The loader's pattern (now ``components.powers.ID_PATTERN``, read whole) let ``"nova\\n"`` through:
    ``$`` matches before a last line break, so a quoted TOML key "nova\\n" named a power no one could type."""
    from game.content.power_parse import PowerError, parse_power

    table = {"name": "Nova", "description": "A burst of flame."}
    assert parse_power("nova", table, "test.toml").id == "nova"
    with pytest.raises(PowerError, match=r"power id 'nova\\n' must be 1 to 64 letters"):
        parse_power("nova\n", table, "test.toml")


def test_the_battles_of_one_scenario_do_not_each_check_its_powers_again(monkeypatch):
    """Every battle built from a scenario (``simulate`` builds thousands) checked every power field by
    field, though the loader had read each already: the scenario's library is a CheckedPowers, checked
    when it was made, and a battle handed it only copies it."""
    from game.battle import validate_whole
    from game.battle.validate_whole import CheckedPowers

    scenario = load_scenario(ROOT / "tests" / "golden" / "gauntlet.toml")
    assert isinstance(scenario.powers, CheckedPowers)
    checked: list[str] = []
    monkeypatch.setattr(validate_whole, "field_problem", lambda power: checked.append(power.id))
    battles = [scenario.build_with_ids()[0] for _ in range(3)]
    assert checked == [] and all(dict(b.powers) == dict(scenario.powers) for b in battles)


def test_a_checked_table_is_checked_when_it_is_made():
    with pytest.raises(IllegalCommand, match=r"the power table's 'nova': damage: expected None or dice"):
        from game.battle.validate_whole import CheckedPowers
        CheckedPowers({"nova": dataclasses.replace(NOVA, damage="2d6")})
    table = CheckedPowers({"nova": NOVA})
    assert dict(table) == {"nova": NOVA} and Battle(seed=1, width=6, height=6, powers=table).powers["nova"] is NOVA


@pytest.mark.slow
def test_the_copies_of_a_simulation_template_do_not_check_its_powers_again(monkeypatch):
    """``simulate`` builds a scenario's battle once (a template) and copies it for every battle; each
    copy checked every power again, name and description character by character (about 3 M
    instructions of a 66 M bench battle), though the template's table had been checked when built."""
    from game.battle import validate_whole
    from game.sim.template import ScenarioTemplate

    template = ScenarioTemplate(load_scenario(ROOT / "tests" / "golden" / "gauntlet.toml"))
    assert template.refusal == ""
    checked: list[str] = []
    monkeypatch.setattr(validate_whole, "field_problem", lambda power: checked.append(power.id))
    battles = [template.battle(seed)[0] for seed in range(3)]
    assert checked == [] and all(dict(b.powers) == dict(template.scenario.powers) for b in battles)
