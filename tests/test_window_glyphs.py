"""A character the window's font has no glyph for (an emoji, a CJK letter in a team's or a creature's
name) is spelt as its escape, as the simulation's plots spell it: drawn, it was an empty box, and two
creatures whose names differ only there had the same chip, panel line and log line."""

from __future__ import annotations

import pygame
import pytest

from game.render.draw import Texts

pytestmark = pytest.mark.usefixtures("pygame_display")


def _pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGBA")


def test_names_that_differ_only_in_letters_the_font_lacks_are_drawn_apart() -> None:
    font = Texts().fonts["small"]
    white = (255, 255, 255)
    crossbow, bow = font.render("弩手 Crossbow", True, white), font.render("弓手 Crossbow", True, white)
    assert crossbow.get_size() != bow.get_size() or _pixels(crossbow) != _pixels(bow)
    assert font.shown("弩手 🏹 Crossbow") == "\\u5f29\\u624b \\U0001f3f9 Crossbow"
    assert font.size("弩") == font.size("\\u5f29")  # measured as drawn, so a cut fits what is drawn
    assert font.shown("Éowyn, Señor, €5") == "Éowyn, Señor, €5"  # letters the font has are drawn as they are
