"""A flag (or a scenario path) of a hundred thousand characters is named clipped in its refusal, not
echoed whole: ``--set``, ``--hook``, ``--scheduler``, ``--out``, ``--battle-seconds``, a command that
does not exist and a path the system calls too long each printed every character back, and
``Scenario.with_overrides`` (what ``--set`` and a save's overrides go through) named a key of a
megabyte twice over."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from game.content.scenario import ScenarioError, load_scenario
from game.play import cli
from game.sim.cli import parse_set
from game.sim.flags import FlagError, check_out_dir, check_scheduler, seconds
from game.sim.runner import load_hook

ROOT = Path(__file__).resolve().parent.parent
LEDGE = str(ROOT / "assets/scenarios/ledge.toml")
LONG = "k" * 100_000


@pytest.mark.parametrize("argv", [
    ["simulate", LEDGE, "--set", f"{LONG}=1,2"],                 # an unknown key, checked against the scenario
    ["simulate", LEDGE, "--set", f"creatures.ogre.{LONG}=1"],    # an unknown field, named with a "did you mean"
    ["simulate", LEDGE, "--set", LONG],                          # no "="
    ["simulate", LEDGE, "--hook", LONG],
    ["simulate", LEDGE, "--hook", f"{LONG}:f"],                  # the import's own error names the module too
    ["simulate", LEDGE, "--engine", "dask", "--scheduler", LONG],
    ["simulate", LEDGE, "--out", LEDGE + "/" * 100_000],         # under a file
    ["simulate", LEDGE, "--battle-seconds", LONG],
    [LONG],                                                      # argparse's own "invalid choice"
    ["play", f"{LONG}.toml", "--headless"],                      # "File name too long", from the system
], ids=["set-key", "set-field", "set-shape", "hook", "hook-module", "scheduler", "out", "seconds", "command",
        "scenario-path"])
def test_a_long_flag_is_clipped_in_its_refusal(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == 2
    said = capsys.readouterr().err
    assert "characters)" in said and len(said) < 1_000, said[:300]


def test_an_override_key_of_a_megabyte_is_clipped() -> None:
    scenario = load_scenario(LEDGE)
    key = "creatures.ogre." + "h" * 1_000_000
    with pytest.raises(ScenarioError, match=r"override 'creatures\.ogre\.hhh+'\.\.\. \(1,000,015 characters\): "
                                            r"unknown creature field 'hhh+'\.\.\.") as caught:
        scenario.with_overrides({key: 1})
    assert len(str(caught.value)) < 1_000


def test_a_hook_of_a_megabyte_is_clipped() -> None:
    said = r"--hook 'kkk+'\.\.\. \(1,000,002 characters\): cannot import module"
    with pytest.raises(ValueError, match=said) as caught:
        load_hook("k" * 1_000_000 + ":f")
    assert len(str(caught.value)) < 1_000


@pytest.mark.parametrize("check", [
    lambda: parse_set(LONG),
    lambda: check_out_dir("--out", LEDGE + "/" * 100_000),
    lambda: check_scheduler(LONG),
    lambda: seconds(1, 10)(LONG),
], ids=["set", "out", "scheduler", "seconds"])
def test_a_flags_own_check_clips_what_it_quotes(check) -> None:
    """Each check clips the value it quotes, not only the command line's ``one_line`` around it:
    a program that asks these checks itself gets a line, not a megabyte (the cases above pass
    through ``one_line``, which would clip them even if the checks did not)."""
    with pytest.raises((FlagError, argparse.ArgumentTypeError), match=r"'[^']{80}'\.\.\. \(10\d,\d{3} characters\)") \
            as caught:
        check()
    assert len(str(caught.value)) < 1_000
