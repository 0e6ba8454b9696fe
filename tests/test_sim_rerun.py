"""What a run prints and records can be run again: values in the CLI's own (TOML) spelling, and
every flag that changes a battle, in the failure's re-run line, the table's header and summary.json.

The re-run line used to print Python's spelling (``--set rules.cover_enabled=False``, which ``--set``
reads as the string "False" and the scenario refuses) and to drop ``--strict-scripts``,
``--battle-seconds`` and ``--hook``; labels read ``=True`` and ``['strike']``; summary.json did not
say which ``--max-rounds``, ``--hook``, ``--strict-scripts`` or ``--battle-seconds`` made its table.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
from pathlib import Path
from typing import Any

import pytest

from game.content.toml_values import parse_value, toml_value
from game.sim.cli import build_parser, main, parse_set, rerun
from game.sim.command import rerun_line, run_line
from game.sim.config import SimConfig
from game.sim.report import Failure, VariantStats
from game.sim.simulate import SimResult
from game.sim.worker import Chunk, death_reason

ROOT = Path(__file__).resolve().parent.parent
KEEP = str(ROOT / "assets" / "scenarios" / "keep.toml")
HOOK = '''
def no_cover(battle, ids, seed):
    if not battle.rules.cover_enabled:
        raise RuntimeError("cover off")
'''


@pytest.mark.parametrize("value", [True, False, 0, -7, 2.5, 1e-3, math.inf, "4d6", "1d8+1", "true", "3", "a b",
                                   "", "a,b", "O'Brien", 'say "hi"', ["strike"], ["strike", "shoot"], {"bonus": 2}])
def test_a_value_is_spelt_as_set_reads_it_back(value: Any) -> None:
    spelt = toml_value(value)
    assert parse_value(spelt) == value and type(parse_value(spelt)) is type(value), spelt
    if value != "":  # --set refuses an empty value
        assert parse_set(f"k={spelt},{toml_value(7)}") == ("k", [value, 7])


def test_plain_values_still_split_at_every_comma() -> None:
    assert parse_set("powers.shoot.damage=1d6, 2d6,3d6") == ("powers.shoot.damage", ["1d6", "2d6", "3d6"])
    assert parse_set("powers.shoot.script=O'Brien.star,Smith.star") == ("powers.shoot.script",
                                                                        ["O'Brien.star", "Smith.star"])


def test_booleans_and_lists_are_spelt_the_toml_way() -> None:
    assert (toml_value(False), toml_value(True), toml_value(["strike"])) == ("false", "true", '["strike"]')
    assert VariantStats(1, (("rules.cover_enabled", False), ("creatures.a.powers", ["strike"])),
                        ("keep", "raiders")).label == 'rules.cover_enabled=false creatures.a.powers=["strike"]'


def _config_of(line: str) -> SimConfig:
    """The settings the words of a printed command parse to (as run_cli builds them)."""
    words = shlex.split(line)
    assert words[:4] == ["python", "-m", "game", "simulate"]
    args = build_parser().parse_args(words[4:])
    return SimConfig(scenario=args.scenario, battles=args.battles, seed=args.seed, sets=list(args.sets),
                     policy=args.policy, max_rounds=args.max_rounds, hook=args.hook, only_seeds=args.only_seeds,
                     strict_scripts=args.strict_scripts, battle_seconds=args.battle_seconds)


FLAGS = dict(policy="keep=greedy,raiders=tactical", max_rounds=7, hook="os:getcwd", strict_scripts=True,
             battle_seconds=2.5)


def test_the_rerun_line_parses_to_the_same_battle() -> None:
    config = SimConfig(KEEP, battles=40, seed=9, sets=[("rules.cover_enabled", [True, False]),
                                                       ("powers.shoot.damage", ["1d6", "2d6"])], **FLAGS)
    again = _config_of(rerun_line(config, 1234, (("rules.cover_enabled", False), ("powers.shoot.damage", "2d6"))))
    assert again.only_seeds == [1234] and again.scenario == KEEP
    assert again.sets == [("rules.cover_enabled", [False]), ("powers.shoot.damage", ["2d6"])]
    for flag, value in FLAGS.items():
        assert getattr(again, flag) == value, flag


def test_the_summary_command_parses_to_the_same_run() -> None:
    config = SimConfig(KEEP, battles=40, seed=9, sets=[("rules.cover_enabled", [True, False])], **FLAGS)
    again = _config_of(run_line(config))
    assert (again.battles, again.seed, again.sets) == (40, 9, [("rules.cover_enabled", [True, False])])
    assert all(getattr(again, flag) == value for flag, value in FLAGS.items())


@pytest.mark.slow
def test_a_failed_battle_can_be_run_again_from_its_printed_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "rerun_hook.py").write_text(HOOK, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    out = tmp_path / "out"
    status = main([KEEP, "--battles", "2", "--workers", "1", "--out", str(out), "--no-progress",
                   "--set", "rules.cover_enabled=true,false", "--hook", "rerun_hook:no_cover", "--strict-scripts",
                   "--battle-seconds", "30", "--max-rounds", "6"])
    printed = capsys.readouterr().out
    assert status == 1
    assert "rules.cover_enabled=false" in printed and "=False" not in printed
    assert "battles played with: --policy tactical --max-rounds 6 --battle-seconds 30.0 --strict-scripts " \
           "--hook rerun_hook:no_cover" in printed
    line = next(row for row in printed.splitlines() if "re-run the first alone:" in row).split(": ", 1)[1]
    again = _config_of(line)
    assert again.sets == [("rules.cover_enabled", [False])] and len(again.only_seeds or ()) == 1
    assert (again.hook, again.strict_scripts, again.battle_seconds, again.max_rounds) == \
        ("rerun_hook:no_cover", True, 30.0, 6)
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert {k: summary[k] for k in ("max_rounds", "hook", "strict_scripts", "battle_seconds", "policy")} == \
        {"max_rounds": 6, "hook": "rerun_hook:no_cover", "strict_scripts": True, "battle_seconds": 30.0,
         "policy": "tactical"}
    assert _config_of(summary["command"]).sets == [("rules.cover_enabled", [True, False])]
    assert summary["variants"][1]["variant"] == "rules.cover_enabled=false"


@pytest.mark.parametrize("char", ["=", ".", "~", ","])
def test_a_legend_character_that_is_an_equals_sign_can_be_swept(char: str) -> None:
    # the shipped ambush draws its road with '=': the key is map.legend.=.ground, not map.legend.
    assert parse_set(f"map.legend.{char}.ground=0,1") == (f"map.legend.{char}.ground", [0, 1])


def test_the_rerun_line_of_a_sweep_of_the_legend_character_equals_parses_back() -> None:
    ambush = "assets/scenarios/ambush.toml"
    config = SimConfig(ambush, battles=4, seed=9, sets=[("map.legend.=.ground", [0, 2])])
    again = _config_of(rerun_line(config, 77, (("map.legend.=.ground", 2),)))
    assert again.sets == [("map.legend.=.ground", [2])]
    assert _config_of(run_line(config)).sets == [("map.legend.=.ground", [0, 2])]


def test_a_sweep_of_the_name_of_the_legend_character_dot_is_inert() -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=r"map\.legend\.\.\.name changes nothing.*a square's name"):
        parse_set("map.legend...name=a,b")


def _failed_for_time(battle_seconds: float, started: Path) -> str:
    """The re-run line printed for a battle ``--battle-seconds`` stopped (the pool watchdog's own words,
    from a ``started`` file that says the battle began long ago, watched)."""
    started.write_text("-1e9 1", encoding="ascii")
    config = SimConfig(KEEP, battles=4, seed=9, sets=[("rules.cover_enabled", [True, False])],
                       battle_seconds=battle_seconds)
    variants = [VariantStats(i, overrides, ("keep", "raiders")) for i, overrides in enumerate(config.variants())]
    error = death_reason(Chunk(1, KEEP, (), (), battle_seconds=battle_seconds, started_file=str(started)), OSError())
    result = SimResult(config, variants, ("keep", "raiders"), [Failure(1, 2, 4321, error)], 1, 8, 8, 1.0, False)
    return rerun(result, result.failures[0])


def test_a_battle_stopped_for_time_is_rerun_with_a_larger_bound(tmp_path: Path) -> None:
    """The re-run line kept the --battle-seconds that stopped the battle: run as printed, it failed again."""
    line = _failed_for_time(0.5, tmp_path / "started")
    assert "with --battle-seconds 5 in place of the 0.5 it ran past" in line
    again = _config_of(line.split(": ", 1)[1])
    assert (again.only_seeds, again.sets, again.battle_seconds) == ([4321], [("rules.cover_enabled", [False])], 5.0)
    at_most = _failed_for_time(3600.0, tmp_path / "started")
    assert "it ran past --battle-seconds 3600, the most the flag allows; a lower --max-rounds" in at_most
    assert _config_of(at_most.split(": ", 1)[1]).battle_seconds == 3600.0
