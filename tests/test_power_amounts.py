"""Damage and healing that could never roll above 0 are refused where they are read, in a power file
and in a sweep's ``--set`` alike: a roll counts at least 0, so they would silently do nothing. A plain
0 is the one way to say "none" (a sweep's way to switch damage off)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from game.content.power_parse import PowerError, parse_power
from game.content.powers import apply_power_overrides
from game.play.cli import main

ROOT = Path(__file__).resolve().parent.parent
ZAP = {"name": "Zap", "description": "A spark.", "range_ft": 30}


@pytest.mark.parametrize("key", ["damage", "healing"])
@pytest.mark.parametrize("value", [-3, "-1", "1d4-5", "2d6-13", "1d4-4", "0d6", "0d6+0", "2d6-12"])
def test_amounts_that_never_roll_above_zero_are_refused_naming_the_file_power_and_key(key: str, value: Any) -> None:
    with pytest.raises(PowerError, match=rf"zap\.toml: power \[zap\] key '{key}': expected dice like \"2d6\+3\" that "
                                         rf"can roll more than 0 .*write 0 for none.*, got {re.escape(repr(value))}"):
        parse_power("zap", {**ZAP, key: value}, "zap.toml")


@pytest.mark.parametrize("value", [0, "0", "1d4-3", "1d4-1", "2d6+3", 7])
def test_a_plain_zero_and_amounts_that_can_roll_above_zero_load(value: Any) -> None:
    assert parse_power("zap", {**ZAP, "damage": value}, "zap.toml").damage is not None


def test_a_negative_flat_damage_override_is_refused_naming_the_power_file_and_the_override() -> None:
    with pytest.raises(PowerError, match=r"martial\.toml \(overridden by powers\.strike\.damage\): power \[strike\] "
                                         r"key 'damage': expected .* can roll more than 0.*, got -3"):
        apply_power_overrides([("powers.strike.damage", -3)])
    with pytest.raises(PowerError, match=r"key 'healing'"):
        apply_power_overrides([("powers.heal.healing", "1d4-9")])


def test_simulate_refuses_a_negative_damage_set_before_any_battle(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    status = main(["simulate", str(ROOT / "assets/scenarios/ledge.toml"), "--battles", "2", "--no-progress",
                   "--out", str(out), "--set", "powers.strike.damage=1d6,-3"])
    err = capsys.readouterr().err
    assert status == 2 and "powers.strike.damage" in err and "can roll more than 0" in err and "got -3" in err, err
    assert not out.exists()
