"""Pool workers are recycled by replacing the whole pool between chunks (no max_tasks_per_child,
which deadlocks on CPython 3.11: gh-115634), and a run that recycles often still finishes every battle."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from game.sim.config import SimConfig
from game.sim.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent
KEEP = str(ROOT / "assets/scenarios/keep.toml")

HOOK = '''
import os

def record_pid(battle, ids, seed):
    with open(os.environ["SIM_TEST_PID_FILE"], "a") as handle:
        handle.write(f"{os.getpid()}\\n")
'''


@pytest.mark.slow
def test_a_run_that_recycles_every_two_chunks_finishes_every_battle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   warm_pool: Any) -> None:
    (tmp_path / "sim_pid_hook.py").write_text(HOOK, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    pids = tmp_path / "pids.txt"
    monkeypatch.setenv("SIM_TEST_PID_FILE", str(pids))
    config = SimConfig(scenario=KEEP, battles=12, seed=7, workers=1, chunk_size=2, recycle=4, max_rounds=4,
                       hook="sim_pid_hook:record_pid", out_dir=None)
    result = simulate(config, progress=False)
    assert result.done == 12 and result.failed == 0 and not result.interrupted
    seen = pids.read_text().split()
    assert len(seen) == 12
    assert len(set(seen)) == 3          # 4 battles per worker, then a fresh pool: three workers in turn
    # the same run never recycled: conftest's warm worker (a pool it is handed is never recycled)
    again = simulate(SimConfig(scenario=KEEP, battles=12, seed=7, workers=1, chunk_size=2, recycle=0, max_rounds=4,
                               out_dir=None), progress=False, executor=warm_pool)
    assert again.table() == result.table()   # recycling changes no digit


@pytest.mark.slow
def test_recycling_counts_battles_not_the_shrinking_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """64 battles on 2 workers, recycled every 16 battles a worker: two pools of two workers, each
    pool given 32 battles, though the chunks shrink from 4 battles to 1 towards the end."""
    (tmp_path / "sim_pid_hook.py").write_text(HOOK, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    pids = tmp_path / "pids.txt"
    monkeypatch.setenv("SIM_TEST_PID_FILE", str(pids))
    config = SimConfig(scenario=KEEP, battles=64, seed=7, workers=2, recycle=16, max_rounds=1,
                       hook="sim_pid_hook:record_pid", out_dir=None)
    result = simulate(config, progress=False)
    assert result.done == 64 and result.failed == 0
    seen = pids.read_text().split()
    assert len(seen) == 64
    # Two pools of two workers, one after the other: the first pool's workers are gone before the
    # second's start, and no third pool is made for the last, smallest chunks. Four processes in all,
    # or three when a busy machine let one worker of a pool play all its battles.
    first_gone = max(i for i, pid in enumerate(seen) if pid == seen[0])
    assert first_gone < seen.index(seen[-1]), seen
    assert len(set(seen)) in (3, 4), seen
    # and each pool played about half (34 and 30 here: a pool is replaced at the first chunk past its
    # 32), not the first pool nearly all, as counting one a chunk would have it
    assert not set(seen[:30]) & set(seen[-16:]), seen
