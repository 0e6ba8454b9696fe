"""A scenario that could not be a fair battle is refused when it loads, naming the file, the key and
what was expected: a negative seed (Python seeds from its absolute value, so -7 would replay 7), no
creatures, or creatures on one team only (every battle of it would end undecided)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.content.scenario import ScenarioError, load_scenario, load_scenario_text

ROOT = Path(__file__).resolve().parent.parent
LEDGE_PATH = ROOT / "assets" / "scenarios" / "ledge.toml"
LEDGE = LEDGE_PATH.read_text(encoding="utf-8")


def _seeded(seed: int) -> str:
    head, sep, rest = LEDGE.partition("\nseed = ")
    assert sep, "ledge.toml has a seed line"
    return f"{head}{sep}{seed}\n{rest.split(chr(10), 1)[1]}"


@pytest.mark.parametrize(("seed", "shown"), [(-1, r"-1$"), (-7, r"-7$"),
                                            (-2**63, r"a whole number of about \d+ digits")])
def test_a_negative_seed_is_refused_naming_the_file_the_key_and_the_range(seed: int, shown: str) -> None:
    with pytest.raises(ScenarioError, match=r"s\.toml: seed: expected a whole number in 0\.\.9223372036854775807, "
                                            rf"got {shown}"):
        load_scenario_text(_seeded(seed), "s.toml")


def test_a_negative_seed_override_is_refused_as_the_file_would_be() -> None:
    scenario = load_scenario(LEDGE_PATH)
    with pytest.raises(ScenarioError, match=r"ledge\.toml \(with overrides seed=-3\): seed: expected a whole number "
                                            r"in 0\.\.9223372036854775807, got -3$"):
        scenario.with_overrides({"seed": -3})


@pytest.mark.parametrize(("value", "spelt"), [
    (True, "true"), ("x", "x"), ([1, 2], "[1, 2]"), (10**100, "a whole number of about 101 digits")])
def test_an_override_is_named_as_it_was_typed(value: object, spelt: str) -> None:
    """The error names the overrides in --set's (TOML's) spelling: ``true``, as typed, not Python's ``True``."""
    with pytest.raises(ScenarioError, match=rf"ledge\.toml \(with overrides rules\.cover_bonus={re.escape(spelt)}"):
        load_scenario(LEDGE_PATH).with_overrides({"rules.cover_bonus": value})


@pytest.mark.parametrize("seed", [0, 7, 2**63 - 1])
def test_seeds_from_zero_to_the_largest_flag_seed_load(seed: int) -> None:
    assert load_scenario_text(_seeded(seed), "s.toml").seed == seed


@pytest.mark.parametrize("seed", [-1, -7, 2**63, 1.5, True])
def test_a_battle_refuses_a_seed_no_flag_or_scenario_could_give(seed: object) -> None:
    from game import Battle
    from game.battle.errors import IllegalCommand

    with pytest.raises(IllegalCommand, match=r"seed(: expected| must be) a whole number( in 0\.\.\d+)?"):
        Battle(seed=seed)  # type: ignore[arg-type]


def _one_sided() -> str:
    """ledge.toml with its vale creatures moved to the hill's team: every creature on one side."""
    return LEDGE.replace('team = "vale"', 'team = "hill"')


def _no_creatures() -> str:
    return LEDGE.split("[[creatures]]", 1)[0]


def test_a_scenario_with_no_creatures_is_refused_naming_the_file() -> None:
    with pytest.raises(ScenarioError, match=r"^empty\.toml: creatures: no creatures; expected creatures on at least "
                                            r"two teams, or no side can win \(teams: 'hill', 'vale'\)$"):
        load_scenario_text(_no_creatures(), "empty.toml")


def test_a_scenario_with_creatures_on_one_team_is_refused_naming_the_team() -> None:
    with pytest.raises(ScenarioError, match=r"^one\.toml: creatures: every creature is on team 'hill'; expected "
                                            r"creatures on at least two teams"):
        load_scenario_text(_one_sided(), "one.toml")


def test_an_override_that_leaves_one_side_is_refused_as_the_file_would_be() -> None:
    scenario = load_scenario(LEDGE_PATH)
    vale = [spec.key for spec in scenario.creatures if spec.team == "vale"]
    with pytest.raises(ScenarioError, match=r"with overrides .*creatures: every creature is on team 'hill'"):
        scenario.with_overrides({f"creatures.{key}.team": "hill" for key in vale})


def test_play_and_simulate_refuse_a_one_sided_scenario_before_any_battle(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from game.play.cli import main

    path = tmp_path / "one.toml"
    path.write_text(_one_sided(), encoding="utf-8")
    for argv in (["play", str(path), "--headless", "--out", str(tmp_path / "play")],
                 ["simulate", str(path), "--battles", "2", "--no-progress", "--out", str(tmp_path / "sim")]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert "one.toml" in err and "every creature is on team 'hill'" in err, err
        assert not (tmp_path / argv[-1]).exists()


def test_a_one_sided_battle_can_still_be_built_through_the_battle_itself() -> None:
    from game import Battle

    with Battle(seed=1, width=8, height=8) as battle:  # a test or a tool may want one on purpose
        battle.spawn("Lone", 1, 1, team="hill")
        battle.start_combat()
        battle.tick()
        assert battle.turn_order()


def test_a_creature_below_its_squares_ground_is_refused_naming_the_ground() -> None:
    """The battle would raise it to the ground without a word: a file that says z = 0 on a 30 ft
    ledge meant something else (a square below, or no z)."""
    scenario = load_scenario(LEDGE_PATH)
    with pytest.raises(ScenarioError, match=r"creatures\.knight\.z: expected the ground of \(5, 3\) \(30 ft\) or "
                                            r"above \(leave z out to stand on it\), got 0"):
        scenario.with_overrides({"creatures.knight.z": 0})
    assert scenario.with_overrides({"creatures.knight.z": 40}).creature("knight").z == 40


@pytest.mark.parametrize(("written", "said"), [("10001", "got 10001$"), ("1e9", r"got 1000000000\.0$"),
                                               ('"far"', r"got a string \('far'\)$")])
def test_a_number_out_of_range_is_shown_by_its_value_and_a_wrong_kind_is_named(written: str, said: str) -> None:
    """'got a whole number (10001)' read as a complaint about the type, when only the size was wrong."""
    ambush = (ROOT / "assets" / "scenarios" / "ambush.toml").read_text(encoding="utf-8")
    assert "radius_ft = 15" in ambush
    with pytest.raises(ScenarioError, match=rf"a\.toml: lights\[0\]\.radius_ft: expected a number in 0\.\.10000 ft, "
                                            rf"{said}"):
        load_scenario_text(ambush.replace("radius_ft = 15", f"radius_ft = {written}", 1), "a.toml")


def test_a_creature_key_longer_than_a_power_id_is_refused_naming_the_key() -> None:
    """A key is a name for overrides and the default name on the map: a stranger's key of 3,000,000
    characters loaded, and headless play then never drew its first picture (the window cut the name to
    its chip one character at a time). Keys are 1 to 64 characters, as power ids are."""
    first = re.search(r'^key = "([^"]+)"', LEDGE, re.MULTILINE)
    assert first, "ledge.toml names its creatures by key"
    for length, refused in ((64, False), (65, True), (3_000_000, True)):
        text = LEDGE.replace(f'key = "{first.group(1)}"', f'key = "{"k" * length}"', 1)
        if refused:
            with pytest.raises(ScenarioError, match=r"s\.toml: creatures\[0\]\.key: expected a key of 1 to 64 "
                                                    r"letters, digits, '_' and '-', got a string"):
                load_scenario_text(text, "s.toml")
        else:
            assert load_scenario_text(text, "s.toml").creatures[0].key == "k" * 64
