"""In a simulation the pool worker is the sandbox: a stranger's memory bomb fails its script, not the run."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from game.sim.config import SimConfig
from game.sim.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent

BOMB = 'def on_downed(ctx, event):\n    s = "x"\n    for i in range(40):\n        s = s + s\n    return len(s)\n'


@pytest.mark.slow
def test_a_memory_bomb_in_a_strangers_scenario_is_contained_by_the_worker(tmp_path: Path) -> None:
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "bomb.star").write_text(BOMB)
    text = (ROOT / "assets/scenarios/ambush.toml").read_text().replace('reactions = ["rally.star"]',
                                                                       'reactions = ["bomb.star"]')
    assert 'reactions = ["bomb.star"]' in text
    (tmp_path / "ambush.toml").write_text(text)
    shutil.copy(ROOT / "assets/scripts/rally.star", tmp_path / "scripts")
    result = simulate(SimConfig(scenario=str(tmp_path / "ambush.toml"), battles=3, seed=1, workers=2,
                                out_dir=None),
                      progress=False)
    [summary] = result.summaries()
    assert summary["battles"] == 3 and summary["failed"] == 0       # every battle finished and counted
    assert summary["script_failures"] >= 1                           # the bomb failed, cleanly, in each


# Two values that share their parts, compared: the comparison pays for its 2**40 leaves first, so the
# step budget stops it at once, the same way on every machine (it used to spin until the clock ran out).
HOG = ('def on_downed(ctx, event):\n    a = [1]\n    b = [1]\n    for i in range(40):\n'
       '        a = [a, a]\n        b = [b, b]\n    return a == b\n')


@pytest.mark.slow
def test_a_script_comparing_shared_structures_fails_by_its_budget_not_the_clock(tmp_path: Path) -> None:
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "hog.star").write_text(HOG)
    text = (ROOT / "assets/scenarios/ambush.toml").read_text().replace('reactions = ["rally.star"]',
                                                                       'reactions = ["hog.star"]')
    (tmp_path / "ambush.toml").write_text(text)
    result = simulate(SimConfig(scenario=str(tmp_path / "ambush.toml"), battles=2, seed=1, workers=2,
                                battle_seconds=2, out_dir=None), progress=False)
    [summary] = result.summaries()
    assert result.done == 2 and not result.failures  # no battle ran into the clock
    assert summary["battles"] == 2 and summary["failed"] == 0 and summary["script_failures"] >= 1


SPIN = "def spin(battle, ids, seed):\n    while True:\n        pass\n"


@pytest.mark.slow
def test_a_battle_that_spins_costs_its_battle_not_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What no count stops (here a trusted Python hook; no script spins any more) meets the battle's clock."""
    (tmp_path / "sim_spin_hook.py").write_text(SPIN)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    result = simulate(SimConfig(scenario=str(ROOT / "assets/scenarios/ambush.toml"), battles=2, seed=1, workers=2,
                                hook="sim_spin_hook:spin", battle_seconds=1, out_dir=None), progress=False)
    assert result.done == 2 and len(result.failures) == 2
    # told as the watchdog's doing, not "out of memory, over --battle-seconds, or a crash"
    assert all(f.error.startswith("stopped after --battle-seconds 1: the battle was still running")
               for f in result.failures), [f.error for f in result.failures]
