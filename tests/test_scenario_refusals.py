"""A scenario that could not be a fair battle is refused when it loads, naming the file, the key and
what was expected: a negative seed (Python seeds from its absolute value, so -7 would replay 7)."""

from __future__ import annotations

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


@pytest.mark.parametrize(("seed", "shown"), [(-1, r"\(-1\)"), (-7, r"\(-7\)"), (-2**63, r"of about \d+ digits")])
def test_a_negative_seed_is_refused_naming_the_file_the_key_and_the_range(seed: int, shown: str) -> None:
    with pytest.raises(ScenarioError, match=r"s\.toml: seed: expected a whole number in 0\.\.9223372036854775807, "
                                            rf"got a whole number {shown}"):
        load_scenario_text(_seeded(seed), "s.toml")


def test_a_negative_seed_override_is_refused_as_the_file_would_be() -> None:
    scenario = load_scenario(LEDGE_PATH)
    with pytest.raises(ScenarioError, match=r"ledge\.toml \(with overrides seed=-3\): seed: expected a whole number "
                                            r"in 0\.\.9223372036854775807, got a whole number \(-3\)"):
        scenario.with_overrides({"seed": -3})


@pytest.mark.parametrize("seed", [0, 7, 2**63 - 1])
def test_seeds_from_zero_to_the_largest_flag_seed_load(seed: int) -> None:
    assert load_scenario_text(_seeded(seed), "s.toml").seed == seed
