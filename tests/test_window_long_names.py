"""Text that cannot be wrapped at a space stays inside what it is drawn in. A creature's name may be
80 characters with no space (the scenario allows it): its turn-order chip and the strip's "now: ..."
heading ran off the side panel, and its log lines and the status bar's line ran past their edges
(over the animation speed), since ``wrap`` never cut a word; a long file path in a reload's error
box did the same."""

from __future__ import annotations

import pygame
import pytest

from game.battle.facade import Battle
from game.play.app import App
from game.render.draw import wrap
from game.render.panels import SIDEBAR_W
from tests.window_steps import drawn_texts

pytestmark = pytest.mark.usefixtures("pygame_display")

LONG = "Goldsworthy_the_Exceedingly_Long_Named_Champion_of_the_Northern_Realm_of_Ice"


def test_a_word_wider_than_the_line_is_cut_to_it() -> None:
    font = pygame.font.Font(None, 16)
    text = f"Reload failed: /home/designer/{LONG}/{LONG}.toml: 2 problems"
    lines = wrap(text, font, 200)
    assert all(font.size(line)[0] <= 200 for line in lines), [font.size(line)[0] for line in lines]
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")  # every letter kept, in order
    assert lines[0] == "Reload failed:" and all(line.startswith("    ") for line in lines[1:])
    assert wrap("Round 1: Orc moves", font, 500) == ["Round 1: Orc moves"]  # what fits is as it was


def test_long_names_stay_inside_the_side_panel() -> None:
    b = Battle(seed=1, width=16, height=12)
    hero = b.spawn(LONG, 2, 2, team="blue", initiative_bonus=100, powers=["strike"])
    b.spawn(LONG + "_II", 8, 2, team="red", powers=["strike"])
    b.start_combat()
    app = App(b, {"blue"}, computer_delay=0)
    window = app.open_window(screen=pygame.Surface((680, 540)))
    assert b.current_actor == hero
    drawn = drawn_texts(app)
    font = window.renderer.texts.fonts["small"]
    heading = [s for s in drawn if s.startswith("Turn order")]
    assert len(heading) == 1 and heading[0].endswith("...") and font.size(heading[0])[0] <= SIDEBAR_W - 28
    chips = window.renderer.side.chips
    assert len(chips) == 2 and all(rect.right <= SIDEBAR_W - 10 for rect in chips.values()), chips
    # the log's lines and the rest of the panel's (the status bar, under the map too, is wider)
    panel = [s for s in drawn if s.strip() and s.strip() not in app.ui.message]
    assert any(s.startswith("Setup:") for s in panel)
    too_wide = [(s, font.size(s)[0]) for s in panel if font.size(s)[0] > SIDEBAR_W - 20]
    assert not too_wide
