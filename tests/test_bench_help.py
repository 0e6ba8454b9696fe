"""Every benchmark answers ``--help`` with its usage instead of running (or crashing on it as a count)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bench.__main__ import BENCHMARKS


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
