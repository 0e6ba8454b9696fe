"""In a simulation the pool worker is the sandbox: a stranger's memory bomb fails its script, not the run."""

from __future__ import annotations

import shutil
from pathlib import Path

from game.simulate import SimConfig, simulate

ROOT = Path(__file__).resolve().parent.parent

BOMB = 'def on_downed(ctx, event):\n    s = "x"\n    for i in range(40):\n        s = s + s\n    return len(s)\n'


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
