"""``python -m game replay FILE`` reads the file once: the window steps the battle it checked.

It read the file twice, once to check it and once to step it in a window, so a file replaced
between the two (another run writing its replays there, say) was checked as one battle and shown as
another, under the first one's "all matched".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from game.content import saves
from game.content.scenario import load_scenario
from game.play import cli, demo
from game.play.replay_window import ReplayApp

ROOT = Path(__file__).resolve().parent.parent


def _replay(path: Path, seed: int) -> Path:
    """A replay of the ledge's first round on ``seed``."""
    scenario = load_scenario(ROOT / "assets/scenarios/ledge.toml")
    battle, _ = scenario.build_with_ids(seed=seed)
    build = len(battle.command_log)
    battle.start_combat()
    battle.tick()
    saves.write_replay(path, scenario, battle, build)
    battle.close()
    return path


def test_the_window_steps_the_file_that_was_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = _replay(tmp_path / "a.replay.json", seed=1)
    other = _replay(tmp_path / "b.replay.json", seed=2).read_bytes()
    reads: list[Path] = []
    real = saves.read_document

    def read_then_replace(target: Path, kinds: Any) -> Any:
        reads.append(target)
        found = real(target, kinds)
        path.write_bytes(other)  # the file changes once it has been read
        return found

    shown: list[int] = []
    monkeypatch.setattr(saves, "read_document", read_then_replace)
    monkeypatch.setattr(demo, "has_display", lambda: True)
    monkeypatch.setattr(ReplayApp, "run", lambda app: shown.append(app.timeline.seed) or app.timeline.close())
    assert cli.main(["replay", str(path)]) == 0
    assert "all matched" in capsys.readouterr().out
    assert len(reads) == 1 and shown == [1]  # the seed-1 battle it checked, not the seed-2 file now there
