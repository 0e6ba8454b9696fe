"""A token's condition badges stay on its square and off its label: laid out at a third of the square
each, a third badge ran off the bottom of a 56-pixel square, and in a small window (or on a big map,
squares under 50 pixels) the first two were drawn over the letters that tell the creatures apart: the
keep's flat-footed Sergeant read as a badge, not "S"."""

from __future__ import annotations

import pygame
import pytest

from game.render.draw import Texts
from game.render.tokens import draw_token, label_image

pytestmark = pytest.mark.usefixtures("pygame_display")

WHITE = (255, 255, 255)
BLUE = (48, 96, 208)
#: Conditions whose only mark is a badge (no prone stroke, no dimmed disc).
BADGED = ("dazzled", "flat-footed", "slowed")


def _changed(bare: pygame.Surface, badged: pygame.Surface) -> list[tuple[int, int]]:
    """The pixels the badges changed."""
    tile = bare.get_width()
    return [(x, y) for y in range(tile) for x in range(tile) if bare.get_at((x, y)) != badged.get_at((x, y))]


@pytest.mark.parametrize("tile", [20, 22, 24, 30, 40, 48, 56, 64])
@pytest.mark.parametrize("count", [1, 2, 3])
def test_badges_leave_the_label_and_the_fatigue_pips_as_they_were(tile: int, count: int) -> None:
    texts = Texts()
    conditions = frozenset(BADGED[:count])
    bare = draw_token(tile, BLUE, "Sq", (12, 12), (0, 5), frozenset(), texts)
    badged = draw_token(tile, BLUE, "Sq", (12, 12), (0, 5), conditions, texts)
    label = label_image("Sq", tile, WHITE, texts)
    assert label is not None
    written = label.get_rect(center=(tile // 2, tile // 2 + max(1, tile // 16)))
    pip = max(2, tile // 16)
    changed = _changed(bare, badged)
    assert changed, "no badge drawn"
    over_label = [p for p in changed if written.collidepoint(p)]
    assert not over_label, f"a badge drawn over the label {written} at {over_label[:3]}"
    below = [p for p in changed if p[1] >= tile - 2 * pip - 2]
    assert not below, f"a badge runs into the fatigue pips or off the square at {below[:3]}"


def test_each_of_three_badges_is_drawn_whole_on_a_56_pixel_square() -> None:
    """Three badges each keep their whole ring: the third ran off the bottom, its lower edge cut."""
    from game.render import theme

    texts = Texts()
    token = draw_token(56, BLUE, "Sq", (12, 12), (0, 5), frozenset(BADGED), texts)
    for condition in BADGED:
        colour = theme.badge(condition)[1]
        rows = [y for y in range(56) for x in range(56) if token.get_at((x, y))[:3] == colour]
        assert rows, f"no {condition} badge"
        assert max(rows) < 56 - 2, f"the {condition} badge reaches the square's bottom edge"


@pytest.mark.parametrize("tile", [24, 25, 26, 27])
@pytest.mark.parametrize("label", ["R12", "Mm"])
def test_beside_a_label_as_wide_as_the_square_a_badge_is_a_stripe_off_the_label(tile: int, label: str) -> None:
    """A numbered creature's "R12" (or "Mm") fills a 25-pixel square but for a pixel: the badge, kept
    3 pixels wide, was drawn over the label's last letter; it is a stripe of its colour beside it."""
    from game.render import theme

    texts = Texts()
    bare = draw_token(tile, BLUE, label, (12, 12), (0, 5), frozenset(), texts)
    badged = draw_token(tile, BLUE, label, (12, 12), (0, 5), frozenset({"dazzled"}), texts)
    image = label_image(label, tile, WHITE, texts)
    assert image is not None
    written = image.get_rect(center=(tile // 2, tile // 2 + max(1, tile // 16)))
    changed = _changed(bare, badged)
    assert not [p for p in changed if written.collidepoint(p)], f"a badge drawn over the label {written}"
    assert any(badged.get_at(p)[:3] == theme.badge("dazzled")[1] for p in changed), "no badge drawn"
