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


def test_a_token_label_spelt_as_escapes_fits_its_square_and_others_are_as_they_were() -> None:
    """A wolf emoji's name gave its token the label "\\U0001f43a\\U0001f43a", drawn whole on a 56-pixel
    square that cut it at both ends ("3a\\U0001f"); "弩手" read "29\\u6"."""
    from game.render.tokens import label_image

    texts = Texts()
    white = (255, 255, 255)
    for label in ("🐺🐺", "弩手", "🐺"):
        for tile in (24, 40, 56):
            image = label_image(label, tile, white, texts)
            assert image is not None and image.get_width() <= tile - 4, (label, tile, image.get_size())
    assert label_image("\u5f29\u624b", 56, white, texts).get_size() == texts("\u5f29", "tiny", white).get_size()
    for label, tile, font in (("Ar", 56, "body"), ("WA", 36, "body"), ("Sl", 30, "small"), ("R2", 24, "small")):
        assert label_image(label, tile, white, texts) is texts(label, font, white)  # as drawn before
    assert label_image("Ar", 22, white, texts) is texts("A", "small", white)
    assert label_image("Ar", 18, white, texts) is None
