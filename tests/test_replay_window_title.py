"""``python -m game replay FILE`` in a window names the file in its caption as its lines name it: a
byte of the name that is not UTF-8, a control character, a bidi override spelt as an escape."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from game.content.saves import write_replay
from game.play import cli, demo, replay_window
from game.render.window import caption
from game.sim.runner import ai_rng, play
from tests.save_steps import small_scenario


class _Opened:
    def __init__(self) -> None:
        self.titles: list[str] = []

    def __call__(self, path: str, title: str, found: Any = None) -> Any:
        self.titles.append(title)
        return self

    def run(self) -> None:
        """(no window: the title is what the test reads)"""


def _replay_of_one_round(path: str) -> str:
    """``path``, a replay of the small scenario's first round on seed 3 written there."""
    scenario = small_scenario()
    battle = scenario.build(seed=3)
    try:
        play(battle, "tactical", ai_rng(3), 1)
        write_replay(path, scenario, battle)
    finally:
        battle.close()
    return path


def test_the_window_title_of_a_replay_named_with_odd_bytes_is_escaped(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Its '\\udcff' stopped the window at its first frame: the title's font raised
    "UnicodeEncodeError: 'utf-8' codec can't encode character '\\udcff'"."""
    path = _replay_of_one_round(os.fsdecode(bytes(tmp_path) + b"/seed\xff\x1b[2J\xe2\x80\xae.json"))
    opened = _Opened()
    monkeypatch.setattr(demo, "has_display", lambda: True)
    monkeypatch.setattr(replay_window, "open_replay", opened)
    assert cli.main(["replay", path]) == 0
    title = caption(opened.titles[0])
    assert title == "Grid battle - Replay of seed\\udcff\\x1b[2J\\u202e.json"
    title.encode("utf-8")  # what SDL's caption takes


def test_a_replay_asked_for_in_a_window_with_no_display_says_it_only_checked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """simulate prints "python -m game replay FILE" for each replay it writes; with no display that
    printed the check's line and ended, saying nothing of the window a user asked for."""
    path = _replay_of_one_round(str(tmp_path / "seed-3.json"))
    monkeypatch.setattr(demo, "has_display", lambda: False)
    assert cli.main(["replay", path]) == 0
    said = capsys.readouterr()
    assert "all matched" in said.out
    assert "replay: no display to step it in a window" in said.err and "checked only" in said.err
    assert cli.main(["replay", path, "--headless"]) == 0
    assert capsys.readouterr().err == ""  # asked for no window: nothing to say
