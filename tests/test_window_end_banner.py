"""The end banner names what a decided battle still takes: R rewinds, F5 plays it again, Ctrl+L
loads, Ctrl+Q quits. It said only "Ctrl+L loads the last save; close the window to quit", so a
designer who lost and had never saved read that there was nothing to do but quit."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.content.scenario import load_scenario
from game.play.app import App
from game.render.inputs import Key
from game.render.ui import BANNER_HINT, banner_hint
from tests.window_steps import drawn_texts

pytestmark = pytest.mark.usefixtures("pygame_display")

LEDGE = Path(__file__).resolve().parent.parent / "assets/scenarios/ledge.toml"


def _lost(save: Path) -> App:
    scenario = load_scenario(LEDGE)
    battle, ids = scenario.build_with_ids()
    built = len(battle.command_log)
    battle.start_combat()
    for key in ("archer", "knight", "squire"):
        battle.damage(ids[key], 1000)
    battle.tick()
    app = App(battle, frozenset({"hill"}), scenario=scenario, title=scenario.name,
              build_commands=built, computer_delay=0, save_path=save)
    app.open_window(screen=pygame.Surface((1280, 800)))
    app.refresh()
    return app


def test_the_banner_names_the_keys_a_decided_battle_takes_and_each_acts(tmp_path: Path) -> None:
    save = tmp_path / "ledge.save.json"
    app = _lost(save)
    assert app.ui.banner.startswith("Vale won"), app.ui.banner
    assert "R: rewind to a round   F5: play it again   Ctrl+Q: quit" in drawn_texts(app)  # no save to load yet
    app.handle(Key("s", ctrl=True))
    assert save.is_file(), app.ui.message
    app.refresh()
    assert BANNER_HINT in drawn_texts(app)
    assert [word.split(":")[0] for word in BANNER_HINT.split("   ")] == ["R", "F5", "Ctrl+L", "Ctrl+Q"]
    app.handle(Key("r"))
    assert app.picker.active, app.ui.message
    app.handle(Key("escape"))
    app.handle(Key("f5"))
    assert app.ui.message.startswith(f"Reloaded {LEDGE}"), app.ui.message
    assert app.winner() is None and not app.ui.banner


def test_the_hint_leaves_out_a_reload_without_a_scenario_file_and_a_load_without_a_save() -> None:
    assert banner_hint(reloads=False, saved=False) == "R: rewind to a round   Ctrl+Q: quit"
    assert banner_hint(reloads=True, saved=True) == BANNER_HINT
