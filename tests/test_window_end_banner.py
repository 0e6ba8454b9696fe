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
    assert BANNER_HINT in drawn_texts(app)  # at once, not at the next hover's refresh
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


def test_a_long_team_names_banner_is_wrapped_inside_the_window_and_names_the_team_as_written() -> None:
    """A team named at length won in a 700x560 window: its one centred line ran off both sides, the
    team's name lost its start and "you win" its end; and "NorthWatch" was written "Northwatch"."""
    from game.battle.facade import Battle
    from game.play.status import decided_line
    from game.render.draw import wrap
    from game.render.inputs import Click

    assert decided_line("NorthWatch", 3) == "NorthWatch won in round 3"
    team = "The_Exceedingly_Long_Named_Company_of_the_Northern_Realm"
    b = Battle(seed=3, width=8, height=6)
    b.spawn("Hero", 1, 1, team=team, powers=["strike"], initiative_bonus=100, health=60)
    b.spawn("Orc", 2, 1, team="red", powers=["strike"], health=1)
    app = App(b, {team}, computer_delay=0)
    window = app.open_window(screen=pygame.Surface((700, 560)))
    app.handle(Key("1"))
    app.handle(Click((2, 1)))
    assert b.winner() == team and app.ui.banner == f"{team} won in round 1 - you win"
    drawn = drawn_texts(app)
    title = window.renderer.texts.fonts["title"]
    lines = [line.strip() for line in wrap(app.ui.banner, title, 700 - 40)]
    assert len(lines) > 1 and all(line in drawn for line in lines), (lines, drawn)
    assert "".join(lines).replace(" ", "") == app.ui.banner.replace(" ", "")  # every letter, in order
