"""A scenario's or power file's key of a megabyte is named clipped, not echoed whole.

The loader's errors name the key (``teams.NAME``, an unknown key, a power's unknown key), and a key
is whatever the file says: a stranger's team or unknown key of a million characters came back as
an error line of a million characters, printed by ``python -m game`` and drawn over the map by F5.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from game.content.scenario import ScenarioError, load_scenario
from tests.scenario_steps import two_sided

HUGE = "k" * 1_000_000
SCENARIO = two_sided('Huge keys', top='power_files = ["p.toml"]')
POWER = """
[zap]
name = "Zap"
description = "A touch."
action = "action"
range_ft = 5
targets = "enemy"
damage = "1d4"
"""


def _refusal(tmp_path: Path, scenario: str = SCENARIO, power: str = POWER) -> str:
    (tmp_path / "s.toml").write_text(scenario)
    (tmp_path / "p.toml").write_text(power)
    with pytest.raises(ScenarioError) as caught:
        load_scenario(tmp_path / "s.toml")
    return str(caught.value)


def test_an_unknown_key_of_a_megabyte_is_clipped(tmp_path: Path) -> None:
    said = _refusal(tmp_path, f"{HUGE} = 1\n{SCENARIO}")
    assert "kkkk... (1,000,000 characters): unknown key; expected one of name" in said
    assert len(said) < 1_000


def test_a_team_named_at_a_megabyte_is_clipped(tmp_path: Path) -> None:
    said = _refusal(tmp_path, SCENARIO.replace("[teams.a]", f"[teams.{HUGE}]"))
    assert "teams.kkkk" in said and "expected at most 80 characters, got 1,000,000" in said
    assert len(said) < 1_000


def test_a_powers_unknown_key_of_a_megabyte_is_clipped(tmp_path: Path) -> None:
    said = _refusal(tmp_path, power=f"{POWER}{HUGE} = 1\n")
    assert "power [zap] has unknown key 'kkkk" in said
    assert len(said) < 1_000


def test_a_powers_unknown_area_key_of_a_megabyte_is_clipped(tmp_path: Path) -> None:
    said = _refusal(tmp_path, power=f'{POWER}area = {{ shape = "burst", radius_ft = 5, {HUGE} = 1 }}\n')
    assert "power [zap] key 'area.kkkk" in said and "expected only shape, radius_ft" in said
    assert len(said) < 1_000
