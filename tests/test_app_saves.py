"""Ctrl+S / Ctrl+L in the window: one save per scenario, and a save of another scenario is refused."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame

from game.content.scenario import load_scenario
from game.render import App

ROOT = Path(__file__).resolve().parent.parent


def _app(name: str, save: Path | None = None) -> App:
    scenario = load_scenario(ROOT / f"assets/scenarios/{name}.toml")
    battle, _ = scenario.build_with_ids()
    extra = {"save_path": save} if save is not None else {}
    return App(battle, frozenset(), scenario=scenario, screen=pygame.Surface((800, 600)), **extra)


def test_each_scenario_saves_to_its_own_file() -> None:
    assert _app("keep").save_path.name == "keep.save.json"
    assert _app("ledge").save_path.name == "ledge.save.json"


def test_saving_and_loading_round_trips_and_another_scenarios_save_is_refused(tmp_path: Path) -> None:
    save = tmp_path / "shared.json"
    keep = _app("keep", save)
    keep.end_turn()
    keep.save()
    assert "Saved" in keep.ui.message
    keep.end_turn()
    keep.load()
    assert "Loaded" in keep.ui.message and keep.battle.round == 1
    ledge = _app("ledge", save)
    before = ledge.battle
    ledge.load()
    assert "refused" in ledge.ui.message and ledge.battle is before
