"""Ctrl+S of a scenario whose folder and file have long names: the save's own name, made of both,
ran past the 255 bytes a file name may have (and its temporary, 35 bytes longer, sooner), so every
save failed with "File name too long", naming a path longer than the status bar."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from game.content.scenario import load_scenario
from game.play import saving
from game.play.app import App
from game.render.inputs import Key

ROOT = Path(__file__).resolve().parent.parent


def _long_copy(tmp_path: Path, folder: str, stem: str) -> Path:
    where = tmp_path / folder
    where.mkdir()
    path = where / f"{stem}.toml"
    path.write_text((ROOT / "assets/scenarios/keep.toml").read_text())
    return path


def test_a_scenario_with_long_names_saves_and_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = _long_copy(tmp_path, "campaign_" + "f" * 230, "keep_" + "s" * 230)
    scenario = load_scenario(path)
    battle, _ = scenario.build_with_ids()
    app = App(battle, frozenset(), scenario=scenario)
    assert len(os.fsencode(app.save_path.name)) <= 255 - 35  # its temporary's name fits too
    app.handle(Key("space"))
    app.handle(Key("s", ctrl=True))
    assert app.ui.message == f"Saved to {app.save_path}", app.ui.message
    assert app.save_path.is_file()
    app.handle(Key("l", ctrl=True))
    assert app.ui.message.startswith("Loaded"), app.ui.message


def test_long_names_that_differ_only_past_the_cut_keep_their_own_saves(tmp_path: Path) -> None:
    first = _long_copy(tmp_path, "campaign_" + "f" * 230 + "_one", "keep")
    second = _long_copy(tmp_path, "campaign_" + "f" * 230 + "_two", "keep")
    slots = {saving.slot_for(Path("out"), str(p)) for p in (first, second)}
    assert len(slots) == 2 and all(len(os.fsencode(s.name)) <= 255 - 35 for s in slots), slots
    short = _long_copy(tmp_path, "mine", "keep")
    assert saving.slot_for(Path("out"), str(short)) == Path("out/mine-keep.save.json")  # as it was
