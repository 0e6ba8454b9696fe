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
    assert len(heading) == 1 and font.size(heading[0])[0] <= SIDEBAR_W - 28
    # cut in the name's middle, as the chips are: cut at its end, "now: Goldsworthy_the_Exceedingly_..."
    # read alike for every such champion ("..._of_Ice", "..._of_Ice_II")
    assert heading[0].startswith("Turn order  -  now: Goldsworthy") and heading[0].endswith("_of_Ice"), heading
    chips = window.renderer.side.chips
    assert len(chips) == 2 and all(rect.right <= SIDEBAR_W - 10 for rect in chips.values()), chips
    # the log's lines and the rest of the panel's (the status bar, under the map too, is wider)
    panel = [s for s in drawn if s.strip() and s.strip() not in app.ui.message]
    assert any(s.startswith("Setup:") for s in panel)
    too_wide = [(s, font.size(s)[0]) for s in panel if font.size(s)[0] > SIDEBAR_W - 20]
    assert not too_wide


def test_long_numbered_names_on_both_sides_keep_tokens_a_team_can_tell_apart() -> None:
    """Eighteen knights "Sir Bartholomew ... number N", one of each number on either side: each number's
    two labels clashed, and the initials that replaced them were "SB" for every knight on the map."""
    from game.render.feed import token_labels

    names = {e: f"Sir Bartholomew the Long-Named Knight of the {side} Order number {n}"
             for e, (side, n) in enumerate((side, n) for n in (0, 3, 6) for side in ("Blue", "Red"))}
    labels = token_labels(names)
    assert [labels[e] for e in sorted(labels)] == ["S0", "S0", "S3", "S3", "S6", "S6"], labels
    assert token_labels({1: "West archer", 2: "East archer"}) == {1: "WA", 2: "EA"}  # initials that tell apart


def test_long_names_alike_but_for_their_ends_read_apart_in_the_turn_strip() -> None:
    """Knights named alike but for their number: every chip of the strip, cut at its end, read "Sir
    Bartholomew the Unreasonably Long-Named Knig..."."""
    b = Battle(seed=1, width=16, height=12)
    knight = "Sir Bartholomew the Unreasonably Long-Named Knight of the {} Order number {}"
    hero = b.spawn(knight.format("Blue", 12), 2, 2, team="blue", initiative_bonus=100, powers=["strike"])
    b.spawn(knight.format("Blue", 15), 2, 4, team="blue", powers=["strike"])
    b.spawn(knight.format("Red", 12), 8, 2, team="red", powers=["strike"])
    b.start_combat()
    app = App(b, {"blue"}, computer_delay=0)
    window = app.open_window(screen=pygame.Surface((1280, 800)))
    assert b.current_actor == hero and app.ui.selected == hero
    drawn = drawn_texts(app)
    font = window.renderer.texts.fonts["small"]
    cut = {s for s in drawn if "..." in s}
    chips = {s for s in cut if s.startswith(("> Sir", "next: Sir", "Sir"))}
    assert any(s.startswith("> ") and s.endswith("Blue Order number 12") for s in chips), chips
    assert any(s.startswith("next: ") and s.endswith("Red Order number 12") for s in chips), chips
    assert any(s.endswith("Blue Order number 15") for s in chips), chips
    rects = window.renderer.side.chips
    assert len(rects) == 3 and all(rect.right <= SIDEBAR_W - 10 for rect in rects.values()), rects
    assert all(font.size(s)[0] <= SIDEBAR_W - 20 for s in chips)


def test_the_selected_creatures_long_name_keeps_its_end_in_the_side_panel() -> None:
    """The side panel's block for the selected creature cut its name at the end, "Sir Bartholomew ... of
    the Bl...", so that the knights numbered 12 and 15, told apart by their chips, read alike there."""
    b = Battle(seed=1, width=16, height=12)
    knight = "Sir Bartholomew the Unreasonably Long-Named Knight of the Blue Order number {}"
    first = b.spawn(knight.format(12), 2, 2, team="blue", initiative_bonus=100, powers=["strike"])
    second = b.spawn(knight.format(15), 2, 4, team="blue", powers=["strike"])
    b.spawn("Orc", 8, 2, team="red", powers=["strike"])
    b.start_combat()
    app = App(b, {"blue"}, computer_delay=0)
    for size in ((1280, 800), (680, 540)):
        window = app.open_window(screen=pygame.Surface(size))
        font = window.renderer.texts.fonts["body"]
        for entity, number in ((first, 12), (second, 15)):
            app.select(entity)
            drawn = drawn_texts(app)
            heads = sorted({s for s in drawn if s.endswith("(blue, you)")})
            assert len(heads) == 1 and f"number {number}  (blue, you)" in heads[0], heads
            assert heads[0].startswith("Sir Bartholomew") and "..." in heads[0]
            assert font.size(heads[0])[0] <= SIDEBAR_W - 50
