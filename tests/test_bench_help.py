"""Every benchmark answers ``--help`` with its usage instead of running (or crashing on it as a count)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.__main__ import BENCHMARKS


def test_make_bench_runs_every_benchmark_in_the_folder() -> None:
    """``python -m bench`` runs the listed benchmarks and fails on a missing one: the list is the folder's."""
    folder = Path(__file__).resolve().parent.parent / "bench"
    assert sorted(BENCHMARKS) == sorted(p.stem for p in folder.glob("bench_*.py"))


@pytest.mark.parametrize("name", BENCHMARKS)
def test_a_benchmark_answers_help_without_running(name: str) -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    done = subprocess.run([sys.executable, "-m", f"bench.{name}", "--help"], capture_output=True, text=True,
                          timeout=120, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert f"usage: python -m bench.{name}" in done.stdout


@pytest.mark.parametrize("name", ["bench_powers", "bench_scripting", "bench_script_rounds"])
def test_a_benchmark_count_below_one_is_refused_with_its_name(name: str) -> None:
    done = subprocess.run([sys.executable, "-m", f"bench.{name}", "0"], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 2
    assert "expected a whole number from 1 to 1,000,000,000, got '0'" in done.stderr


@pytest.mark.parametrize(("args", "says"), [
    (["bench_ai", "--seeds", "-1"], "argument --seeds: expected a seed from 0 to"),
    (["bench_battles", "--battles", "1_0"], "argument --battles: expected a whole number from 1 to 1,000,000"),
    (["bench_limits", "--timeout", "nan"], "argument --timeout: expected seconds from 1 to 3600, got 'nan'"),
    (["bench_script_battles", "--repeats", "21"], "argument --repeats: expected a whole number from 1 to 20"),
    (["instructions", "--long", "1001"], "argument --long: expected a whole number from 2 to 1,000, got '1001'"),
    (["instructions", "--short", "30", "--long", "10"], "--long (10) must be more battles than --short (30)"),
])
def test_a_benchmarks_flag_is_checked_where_it_is_read(args: list[str], says: str) -> None:
    """Each flag is read by the project's own checks (a negative seed once reached numpy's own error)."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    done = subprocess.run([sys.executable, "-m", f"bench.{args[0]}", *args[1:]], capture_output=True, text=True,
                          timeout=120, env=env, check=False)
    assert done.returncode == 2 and says in done.stderr, done.stderr


def test_the_instruction_count_plays_the_bench_battles_it_counts() -> None:
    """``bench.instructions --battles N`` is what each callgrind run executes: it plays them, clean."""
    done = subprocess.run([sys.executable, "-m", "bench.instructions", "--battles", "1"], capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0 and done.stderr == "", done.stderr
