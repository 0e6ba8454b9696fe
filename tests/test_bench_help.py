"""Every benchmark answers ``--help`` with its usage instead of running (or crashing on it as a count).

The usage and refusal checks run each benchmark's ``if __name__ == "__main__"`` block in this process (runpy
with the argv ``python -m bench.X`` would get): what they check is the parsing and its message, and a fresh
interpreter for each cost over a second of start-up and imports. A real ``python -m bench.X`` process is still
started for ``--help`` and for the instruction count, so the ``-m`` wiring of a process is covered too.
"""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

from bench.__main__ import BENCHMARKS


def run_as_main(name: str, argv: list[str], monkeypatch: pytest.MonkeyPatch) -> int:
    """Run ``python -m bench.<name> *argv`` in this process and return its exit status (0 if it returned).

    The module is taken out of ``sys.modules`` for the run (restored afterwards) so runpy executes it afresh as
    ``__main__`` (also put in ``sys.modules`` for the run, as ``-m`` does) without warning that an imported copy
    exists.
    """
    module = f"bench.{name}"
    monkeypatch.setattr(sys, "argv", [module, *argv])
    monkeypatch.delitem(sys.modules, module, raising=False)
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    except SystemExit as exit_:
        return 0 if exit_.code is None else exit_.code if isinstance(exit_.code, int) else 1
    return 0


def test_make_bench_runs_every_benchmark_in_the_folder() -> None:
    """``python -m bench`` runs the listed benchmarks and fails on a missing one: the list is the folder's."""
    folder = Path(__file__).resolve().parent.parent / "bench"
    assert sorted(BENCHMARKS) == sorted(p.stem for p in folder.glob("bench_*.py"))


@pytest.mark.parametrize("name", BENCHMARKS)
def test_a_benchmark_answers_help_without_running(name: str, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code = run_as_main(name, ["--help"], monkeypatch)
    printed = capsys.readouterr()
    assert code == 0, printed.err
    assert f"usage: python -m bench.{name}" in printed.out


@pytest.mark.slow
def test_a_benchmark_answers_help_in_a_fresh_interpreter() -> None:
    """The same as above through a real ``python -m`` process: the module runs as ``__main__`` on its own."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    done = subprocess.run([sys.executable, "-m", "bench.bench_ai", "--help"], capture_output=True, text=True,
                          timeout=120, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert "usage: python -m bench.bench_ai" in done.stdout


@pytest.mark.parametrize("name", ["bench_powers", "bench_scripting", "bench_script_rounds"])
def test_a_benchmark_count_below_one_is_refused_with_its_name(name: str, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    code = run_as_main(name, ["0"], monkeypatch)
    assert code == 2
    assert "expected a whole number from 1 to 1,000,000,000, got '0'" in capsys.readouterr().err


@pytest.mark.parametrize(("args", "says"), [
    (["bench_ai", "--seeds", "-1"], "argument --seeds: expected a seed from 0 to"),
    (["bench_battles", "--battles", "1_0"], "argument --battles: expected a whole number from 1 to 1,000,000"),
    (["bench_limits", "--timeout", "nan"], "argument --timeout: expected seconds from 1 to 3600, got 'nan'"),
    (["bench_script_battles", "--repeats", "21"], "argument --repeats: expected a whole number from 1 to 20"),
    (["instructions", "--long", "1001"], "argument --long: expected a whole number from 2 to 1,000, got '1001'"),
    (["instructions", "--short", "30", "--long", "10"], "--long (10) must be more battles than --short (30)"),
])
def test_a_benchmarks_flag_is_checked_where_it_is_read(args: list[str], says: str, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Each flag is read by the project's own checks (a negative seed once reached numpy's own error)."""
    code = run_as_main(args[0], args[1:], monkeypatch)
    err = capsys.readouterr().err
    assert code == 2 and says in err, err


@pytest.mark.slow
def test_the_instruction_count_plays_the_bench_battles_it_counts() -> None:
    """``bench.instructions --battles N`` is what each callgrind run executes: it plays them, clean."""
    done = subprocess.run([sys.executable, "-m", "bench.instructions", "--battles", "1"], capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0 and done.stderr == "", done.stderr
