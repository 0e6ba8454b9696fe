"""``play`` and ``demo`` in a window say which flags of a headless run they cannot follow.

``--rounds`` bounds a headless run and ``--out`` is where it writes; a window plays until it is
closed and writes neither, and ``play F --rounds 3`` in one played on past round 3 without a word.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from game.play import cli, demo
from game.play.app import App

LEDGE = str(Path(__file__).resolve().parent.parent / "assets" / "scenarios" / "ledge.toml")


@pytest.fixture
def window(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A display, and windows that open and close at once; the commands that opened one."""
    opened: list[str] = []
    monkeypatch.setattr(demo, "has_display", lambda: True)
    monkeypatch.setattr(App, "run", lambda self, *a, **k: opened.append("play"))
    monkeypatch.setattr(demo, "run_window", lambda **kwargs: opened.append("demo"))
    return opened


@pytest.mark.parametrize("command", [["play", LEDGE], ["demo"]])
def test_rounds_and_out_given_to_a_window_are_warned_about_once(
        command: list[str], window: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([*command, "--rounds", "3", "--out", str(tmp_path / "shots")]) == 0
    said = capsys.readouterr().err
    assert window == [command[0]]
    assert said.count(f"{command[0]}: warning: --rounds 3 is ignored: a window plays until you close it") == 1
    assert said.count(f"{command[0]}: warning: --out {tmp_path / 'shots'} is ignored: a window writes no") == 1


@pytest.mark.parametrize("command", [["play", LEDGE], ["demo"]])
def test_a_window_given_neither_says_nothing_of_them(command: list[str], window: list[str],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([*command, "--seed", "4"]) == 0
    assert window == [command[0]] and "warning" not in capsys.readouterr().err


def test_a_headless_run_follows_them_without_a_warning(window: Any, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", LEDGE, "--headless", "--rounds", "1", "--out", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert "warning" not in captured.err and "after 1 round" in captured.err
    assert (tmp_path / "combat-log.txt").is_file() and window == []


@pytest.mark.parametrize("command", [["play", LEDGE], ["demo"]])
def test_an_out_a_window_ignores_does_not_refuse_it(command: list[str], window: list[str], tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """``demo --out FILE`` in a window was refused ("expected a directory, but it is an existing file") for a
    flag it then said it ignored; ``play`` opened its window."""
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    assert cli.main([*command, "--out", str(tmp_path / "a-file")]) == 0
    assert window == [command[0]] and "is ignored: a window writes no" in capsys.readouterr().err
