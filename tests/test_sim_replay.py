"""A battle of a power sweep replays from its file: the power overrides travel with it."""

from __future__ import annotations

from pathlib import Path

from game.content.saves import play_replay
from game.sim.runner import battle_seed, run_battle

ROOT = Path(__file__).resolve().parent.parent


def test_a_power_sweep_battle_replays_from_its_file(tmp_path: Path) -> None:
    overrides = (("powers.shoot.damage", "3d6"),)
    row = run_battle(str(ROOT / "assets/scenarios/ledge.toml"), overrides, battle_seed(5, 0),
                     replay_dir=str(tmp_path), always_replay=True)
    assert not row["error"] and row["replay"]
    battle, matched, mismatch = play_replay(row["replay"])
    assert matched, mismatch
    assert battle.power_overrides == overrides
    assert str(battle.power("shoot").damage) == "3d6"
