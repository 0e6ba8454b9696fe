"""``simulate``'s flags default to what ``SimConfig`` says, and its help says the same numbers: a
default changed in one place changes the command line, the Python API and the help together."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from game.sim.cli import build_parser, ignored, main, with_defaults
from game.sim.config import SimConfig

KEEP = str(Path(__file__).resolve().parent.parent / "assets" / "scenarios" / "keep.toml")
#: flag dest -> SimConfig field, where the names differ
RENAMED = {"out": "out_dir", "chunk": "chunk_size"}


def test_every_flag_left_out_is_the_configs_default() -> None:
    parsed = build_parser().parse_args(["s.toml"])
    given = with_defaults(parsed)  # --battles, --seed and --recycle are None when left out (see cli.ignored)
    args = {**vars(parsed), "battles": given.battles, "seed": given.seed, "recycle": given.recycle}
    defaults = {f.name: f.default for f in dataclasses.fields(SimConfig) if f.default is not dataclasses.MISSING}
    shared = {dest: value for dest, value in args.items() if RENAMED.get(dest, dest) in defaults}
    assert len(shared) >= 10
    for dest, value in shared.items():
        assert value == defaults[RENAMED.get(dest, dest)], dest


def test_the_help_says_the_configs_numbers() -> None:
    given = SimConfig(scenario="")
    text = " ".join(build_parser().format_help().split())
    assert f"(default {given.battles})" in text and f"(default {given.max_rounds})" in text
    assert f"(default {given.recycle};" in text and f"(default {given.battle_seconds:g})" in text


@pytest.mark.parametrize(("argv", "warning"), [
    (["--only-seed", "5", "--battles", "40"], "--battles 40 is ignored: --only-seed runs just the seeds it names "
                                             "(1 battle a variant)"),
    (["--engine", "dask", "--recycle", "100"], "--recycle 100 is ignored: --engine dask does not replace its workers"),
    (["--engine", "dask", "--recycle", "0"], "--recycle 0 is ignored"),
    (["--only-seed", "5", "--seed", "9"], "--seed 9 is ignored: --only-seed gives each battle its seed itself"),
    (["--only-seed", "5", "--seed", "0"], "--seed 0 is ignored"),
    (["--engine", "dask", "--scheduler", "tcp://h:8786", "--workers", "8"],
     "--workers 8 does not size the cluster at --scheduler"),
])
def test_a_flag_the_run_cannot_follow_is_warned_about(argv: list[str], warning: str) -> None:
    """--only-seed dropped --battles and --seed, and --engine dask dropped --recycle, without a word."""
    [said] = ignored(build_parser().parse_args(["s.toml", *argv]))
    assert said.startswith(warning)


@pytest.mark.parametrize("argv", [[], ["--only-seed", "5"], ["--battles", "40"], ["--engine", "dask"],
                                  ["--recycle", "100"], ["--battles", "40", "--recycle", "7"], ["--seed", "9"],
                                  ["--engine", "dask", "--workers", "3"], ["--engine", "dask", "--scheduler", "h:1"]])
def test_a_flag_the_run_follows_is_not_warned_about(argv: list[str]) -> None:
    assert ignored(build_parser().parse_args(["s.toml", *argv])) == []
    given = with_defaults(build_parser().parse_args(["s.toml", *argv]))
    assert given.seed == (9 if "9" in argv else SimConfig(scenario="").seed)
    assert (given.battles, given.recycle) == (40 if "40" in argv else 1000, 7 if "7" in argv else
                                              100 if "100" in argv else 500)


@pytest.mark.slow
def test_the_command_prints_the_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str], warm_pool: Any) -> None:
    assert main([KEEP, "--only-seed", "5", "--battles", "40", "--seed", "9", "--max-rounds", "2", "--out",
                 str(tmp_path), "--no-progress"]) == 0
    captured = capsys.readouterr()
    assert "simulate: warning: --battles 40 is ignored: --only-seed runs just the seeds it names" in captured.err
    assert captured.err.count("simulate: warning: --seed 9 is ignored") == 1
    assert "1/1 battles, --only-seed 5," in captured.out and "master seed" not in captured.out
