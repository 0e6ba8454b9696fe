"""A battle whose ``--hook`` changed it after the build still writes its replay, and the replay matches.

The runner counted the hook's commands in the scenario's build (``build_commands`` was taken after the
hook ran), so every replay of such a battle, ``--only-seed`` or a failed battle's, was refused when
written: "build_commands is 41 but scenario ... builds with 38 commands". The hook's commands are the
battle's own and replay from the file like any other.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from game.content.saves import play_replay
from game.sim.runner import run_battle

HOOK = '''
def reshape(battle, ids, seed):
    battle.set_ground(5, 5, 10)
    battle.add_light(3, 3, 15)
    battle.add_condition(ids[sorted(ids)[0]], "dazzled")
'''


def test_a_hooked_battle_writes_a_replay_that_matches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "replay_reshape_hook.py").write_text(HOOK, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    row = run_battle("assets/scenarios/demo.toml", (), 123, max_rounds=3, hook="replay_reshape_hook:reshape",
                     replay_dir=str(tmp_path / "replays"), always_replay=True)
    assert row["error"] == "" and row["replay"] == str(tmp_path / "replays" / "seed-123.json"), row["replay"]
    battle, matched, difference = play_replay(row["replay"])
    try:
        assert matched, difference
        assert any(name == "add_light" for name, _, _ in battle.command_log)  # the hook's commands replayed
    finally:
        battle.close()
