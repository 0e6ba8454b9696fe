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
from game.render.panels import BANNER_HINT
from tests.window_steps import drawn_texts

pytestmark = pytest.mark.usefixtures("pygame_display")

LEDGE = Path(__file__).resolve().parent.parent / "assets/scenarios/ledge.toml"


def _lost() -> App:
    scenario = load_scenario(LEDGE)
    battle, ids = scenario.build_with_ids()
    built = len(battle.command_log)
    battle.start_combat()
    for key in ("archer", "knight", "squire"):
        battle.damage(ids[key], 1000)
    battle.tick()
    app = App(battle, frozenset({"hill"}), scenario=scenario, title=scenario.name,
              build_commands=built, computer_delay=0)
    app.open_window(screen=pygame.Surface((1280, 800)))
    app.refresh()
    return app


def test_the_banner_names_the_keys_a_decided_battle_takes_and_each_acts() -> None:
    app = _lost()
    assert app.ui.banner.startswith("Vale won"), app.ui.banner
    drawn = drawn_texts(app)
    assert BANNER_HINT in drawn
    assert [word.split(":")[0] for word in BANNER_HINT.split("   ")] == ["R", "F5", "Ctrl+L", "Ctrl+Q"]
    app.handle(Key("r"))
    assert app.picker.active, app.ui.message
    app.handle(Key("escape"))
    app.handle(Key("f5"))
    assert app.ui.message.startswith(f"Reloaded {LEDGE}"), app.ui.message
    assert app.winner() is None and not app.ui.banner
