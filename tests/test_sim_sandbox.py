"""In a simulation the pool worker is the sandbox: a stranger's memory bomb fails its script, not the run."""

from __future__ import annotations

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


# Two values that share their parts, compared: 2**40 comparisons inside one builtin, which no step
# count sees (a string scanned in a loop no longer spins: the counted budget stops it).
HOG = ('def on_downed(ctx, event):\n    a = [1]\n    b = [1]\n    for i in range(40):\n'
       '        a = [a, a]\n        b = [b, b]\n    return a == b\n')


@pytest.mark.slow
def test_a_script_that_spins_inside_a_builtin_costs_its_battle_not_the_run(tmp_path: Path) -> None:
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "hog.star").write_text(HOG)
    text = (ROOT / "assets/scenarios/ambush.toml").read_text().replace('reactions = ["rally.star"]',
                                                                       'reactions = ["hog.star"]')
    (tmp_path / "ambush.toml").write_text(text)
    result = simulate(SimConfig(scenario=str(tmp_path / "ambush.toml"), battles=2, seed=1, workers=2,
                                battle_seconds=2, out_dir=None), progress=False)
    assert result.done == 2 and len(result.failures) == 2
    # told as the watchdog's doing, not "out of memory, over --battle-seconds, or a crash"
    assert all(f.error.startswith("stopped after --battle-seconds 2: the battle was still running")
               for f in result.failures), [f.error for f in result.failures]
