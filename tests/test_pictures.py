"""Screenshots are written whole or not at all, and a failure says which file: pygame's own save to a
path reports nothing when the disk is full, so a run would end "written" with empty pictures."""

from __future__ import annotations

import errno
from pathlib import Path

import pygame
import pytest

from game.content import atomic
from game.play import cli
from game.render.png import save_png

ROOT = Path(__file__).resolve().parents[1]


def _disk_full(fd: int) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_picture_is_a_png_of_the_surface(tmp_path: Path) -> None:
    surface = pygame.Surface((6, 4))
    surface.fill((200, 30, 10))
    save_png(surface, tmp_path / "shot.png")
    loaded = pygame.image.load(tmp_path / "shot.png")
    assert loaded.get_size() == (6, 4) and loaded.get_at((5, 3))[:3] == (200, 30, 10)


def test_a_full_disk_leaves_the_old_picture_and_no_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "shot.png"
    save_png(pygame.Surface((3, 3)), path)
    before = path.read_bytes()
    monkeypatch.setattr(atomic.os, "fsync", _disk_full)
    with pytest.raises(OSError, match="No space left"):
        save_png(pygame.Surface((8, 8)), path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shot.png"]


PLAY = ["play", str(ROOT / "assets/scenarios/ledge.toml"), "--headless"]


@pytest.mark.parametrize("command, old", [([*PLAY, "--rounds", "1"], "turn-001.png"),
                                          (["demo", "--headless", "--rounds", "1"], "round-01.png")])
def test_a_headless_run_that_cannot_write_its_pictures_says_so_and_keeps_the_last_runs(
        command: list[str], old: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / old).write_bytes(b"last run's picture")
    monkeypatch.setattr(atomic.os, "fsync", _disk_full)
    code = cli.main([*command, "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2
    assert f"cannot write {tmp_path}" in err and ".png: No space left on device" in err, err
    assert "Traceback" not in err and not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob(".*.tmp"))
    assert (tmp_path / old).read_bytes() == b"last run's picture"


@pytest.mark.slow
def test_a_shorter_run_clears_the_pictures_of_a_longer_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([*PLAY, "--rounds", "3", "--out", str(tmp_path), "--seed", "4"]) == 0
    longer = {p.name for p in tmp_path.glob("turn-*.png")}
    assert cli.main([*PLAY, "--rounds", "1", "--out", str(tmp_path), "--seed", "4"]) == 0
    shorter = {p.name for p in tmp_path.glob("turn-*.png")}
    capsys.readouterr()
    assert shorter < longer and "turn-000.png" in shorter
