"""One run at a time in an ``--out`` folder, for ``play --headless`` and ``demo`` as for ``simulate``:
two runs side by side into one folder left one run's combat log beside the other's pictures."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from game.play import cli, demo, headless

ROOT = Path(__file__).resolve().parent.parent
LEDGE = str(ROOT / "assets" / "scenarios" / "ledge.toml")


@contextmanager
def held(folder: Path) -> Iterator[None]:
    """``folder`` locked as a running play, demo or simulate holds it."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield
    finally:
        os.close(fd)


def test_a_headless_play_into_a_held_folder_is_refused_and_touches_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "combat-log.txt").write_text("the other run's log\n", encoding="utf-8")
    with held(tmp_path):
        code = cli.main(["play", LEDGE, "--headless", "--rounds", "1", "--out", str(tmp_path)])
    assert code == 2
    assert f"--out '{tmp_path}' is in use by another run (simulate, play or demo)" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["combat-log.txt"]
    assert (tmp_path / "combat-log.txt").read_text(encoding="utf-8") == "the other run's log\n"
    played = headless.play(Path(LEDGE), tmp_path, rounds=1, seed=5)  # free again: it plays
    assert (tmp_path / "combat-log.txt").read_text(encoding="utf-8") == "\n".join(played.lines) + "\n"


def test_the_headless_demo_into_a_held_folder_is_refused(tmp_path: Path) -> None:
    with held(tmp_path), pytest.raises(headless.PlayError, match="is in use by another run .*choose another --out"):
        demo.run_headless(tmp_path, max_rounds=1)
    assert list(tmp_path.iterdir()) == []
