"""Ctrl+C in ``play --headless`` leaves ``--out`` as this run's so far: its turn pictures and its log
with a last line saying so. It left the new run's first turns beside an older run's later turns,
``final.png`` and ``combat-log.txt``, a folder that disagreed with itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from game.play import cli, headless
from game.play.flow import TurnFlow

ROOT = Path(__file__).resolve().parent.parent


def test_an_interrupted_headless_play_leaves_only_its_own_outputs(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    for old in [*(f"turn-{i:03d}.png" for i in range(30)), "final.png", "combat-log.txt"]:
        (tmp_path / old).write_text("an older run's")
    real_step, steps = TurnFlow.step, []

    def step_then_ctrl_c(self: TurnFlow, *args: Any) -> bool:
        steps.append(1)
        if len(steps) > 6:
            raise KeyboardInterrupt
        return real_step(self, *args)

    monkeypatch.setattr(TurnFlow, "step", step_then_ctrl_c)
    with pytest.raises(KeyboardInterrupt, match=rf"interrupted in round \d: {tmp_path}/ holds this run's "
                                                rf"combat-log.txt to there and \d screenshots, and no older run's"):
        headless.play(ROOT / "assets/scenarios/ledge.toml", tmp_path, rounds=5)
    pictures = sorted(p.name for p in tmp_path.glob("*.png"))
    assert pictures and "final.png" not in pictures
    assert all((tmp_path / name).read_bytes() != b"an older run's" for name in pictures)
    log = (tmp_path / "combat-log.txt").read_text(encoding="utf-8")
    assert "an older run's" not in log and log.rstrip().splitlines()[-1].startswith("Interrupted in round ")


def test_an_interrupted_headless_demo_leaves_only_its_own_outputs(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from game.play import demo

    for old in [*(f"round-{i:02d}.png" for i in range(12)), "demo-end.png", "combat-log.txt"]:
        (tmp_path / old).write_text("an older run's")
    real_round, rounds = demo.play_round, []

    def round_then_ctrl_c(*args: Any) -> Any:
        rounds.append(1)
        if len(rounds) > 2:
            raise KeyboardInterrupt
        return real_round(*args)

    monkeypatch.setattr(demo, "play_round", round_then_ctrl_c)
    with pytest.raises(KeyboardInterrupt, match=f"interrupted in round 2: {tmp_path}/ holds this run's combat-log.txt "
                                                f"to there and 3 screenshots, and no older run's"):
        demo.run_headless(tmp_path, max_rounds=6)
    pictures = sorted(p.name for p in tmp_path.glob("*.png"))
    assert pictures == ["round-00.png", "round-01.png", "round-02.png"]
    assert all((tmp_path / name).read_bytes() != b"an older run's" for name in pictures)
    log = (tmp_path / "combat-log.txt").read_text(encoding="utf-8")
    assert log.rstrip().splitlines()[-1] == "Interrupted in round 2"


def test_the_command_says_what_an_interrupted_run_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """It said "play: interrupted" alone, and left the reader to guess what --out then held."""
    def ctrl_c(self: TurnFlow, *args: Any) -> bool:
        raise KeyboardInterrupt

    monkeypatch.setattr(TurnFlow, "step", ctrl_c)
    assert cli.main(["play", str(ROOT / "assets/scenarios/ledge.toml"), "--headless", "--out", str(tmp_path)]) == 130
    assert capsys.readouterr().err.strip() == (f"play: interrupted in round 0: {tmp_path}/ holds this run's "
                                               f"combat-log.txt to there and 1 screenshot, and no older run's")
