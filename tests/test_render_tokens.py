"""A token's two letters stay readable at every size: in a small window (700x560, tiles of 28 pixels)
the health number was written over them ("10" over "Ar", "20" over "Br"); where both do not fit, the
health bar alone shows the health."""

from __future__ import annotations

import pygame
import pytest

from game.render.draw import Texts
from game.render.tokens import draw_token

pytestmark = pytest.mark.usefixtures("pygame_display")


def _label_box(tile: int, label: str, texts: Texts) -> pygame.Rect:
    """Where a token of ``tile`` pixels writes its label (the disc's centre, as ``draw_token`` sets it)."""
    rendered = texts(label, "small" if tile < 36 else "body")
    return rendered.get_rect(center=(tile // 2, tile // 2 + max(1, tile // 16)))


@pytest.mark.parametrize("tile", [24, 28, 32, 36, 40, 44, 48, 56, 64])
def test_the_health_number_never_covers_the_tokens_label(tile: int) -> None:
    texts = Texts()
    one = draw_token(tile, (50, 90, 200), "WA", (10, 10), (0, 5), frozenset(), texts)
    other = draw_token(tile, (50, 90, 200), "WA", (99, 99), (0, 5), frozenset(), texts)  # the same bar, full
    box = _label_box(tile, "WA", texts).clip(one.get_rect())
    differ = [(x, y) for x in range(box.left, box.right) for y in range(box.top, box.bottom)
              if one.get_at((x, y)) != other.get_at((x, y))]
    assert not differ, differ[:5]


def test_a_big_token_still_shows_its_health_as_a_number() -> None:
    texts = Texts()
    one = draw_token(56, (50, 90, 200), "WA", (10, 10), (0, 5), frozenset(), texts)
    other = draw_token(56, (50, 90, 200), "WA", (99, 99), (0, 5), frozenset(), texts)
    assert pygame.image.tobytes(one, "RGBA") != pygame.image.tobytes(other, "RGBA")
