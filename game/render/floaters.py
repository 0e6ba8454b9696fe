"""Floating numbers and marks over the map ("-7", "miss", "+4", "fall -3"), and the speed setting.

A mark rises about a square over its life and fades in its second half. What a mark says, where it
stands and how far through its life it is come from a :class:`game.render.frames.MotionFrame`; this
module only draws. Each (text, kind) is rendered once with a dark outline, and each of a few fade
steps of it once, so thirty marks cost thirty blits a frame.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import pygame

from game.render import theme
from game.render.draw import Texts
from game.render.frames import MotionFrame
from game.render.viewport import Viewport

#: kind -> the colour of its mark
COLOURS: Mapping[str, theme.Colour] = MappingProxyType({
    "hit": (255, 96, 80), "fall": (255, 170, 60), "heal": (110, 230, 120), "miss": (210, 210, 220),
    "down": (255, 60, 60)})
#: How many fade steps a mark's alpha is drawn in (each one rendered once).
FADE_STEPS = 8
_CACHE_MAX = 2000


class Floaters:
    """A renderer's floating marks: their rendered images, by text, kind and fade step."""

    def __init__(self, texts: Texts) -> None:
        self.texts = texts
        self._images: dict[tuple[str, str, int], pygame.Surface] = {}

    def image(self, text: str, kind: str, step: int) -> pygame.Surface:
        """A mark's image at a fade step (``FADE_STEPS``: opaque, 0: gone), cached."""
        key = (text, kind, step)
        found = self._images.get(key)
        if found is not None:
            return found
        if len(self._images) > _CACHE_MAX:
            self._images.clear()
        if step == FADE_STEPS:
            found = _outlined(self.texts, text, COLOURS.get(kind, theme.TEXT))
        else:
            found = self.image(text, kind, FADE_STEPS).copy()
            found.set_alpha(255 * step // FADE_STEPS)
        self._images[key] = found
        return found

    def draw(self, surface: pygame.Surface, view: Viewport, frame: MotionFrame) -> None:
        """Every mark of the frame in view: over its square, risen and faded by its progress."""
        tile = view.tile
        blits = []
        for mark in frame.marks:
            progress = min(max(mark.progress, 0.0), 1.0)
            step = FADE_STEPS if progress < 0.5 else int(FADE_STEPS * (1 - progress) * 2 + 0.999)
            if step <= 0:
                continue
            image = self.image(mark.text, mark.kind, step)
            rect = view.square_rect(mark.at[0], mark.at[1])  # type: ignore[arg-type]  # fractions: pygame rounds
            rise = int(tile * 0.9 * progress) + mark.lane * (image.get_height() - 2)
            blits.append((image, (rect.centerx - image.get_width() // 2, rect.y - image.get_height() // 2 - rise)))
        if blits:
            surface.fblits(blits)


def _outlined(texts: Texts, text: str, colour: theme.Colour) -> pygame.Surface:
    """``text`` in ``colour`` with a one-pixel dark outline: readable on any ground and token."""
    front = texts(text, "head", colour)
    back = texts(text, "head", (12, 12, 16))
    image = pygame.Surface((front.get_width() + 2, front.get_height() + 2), pygame.SRCALPHA)
    for dx, dy in ((0, 1), (2, 1), (1, 0), (1, 2)):
        image.blit(back, (dx, dy))
    image.blit(front, (1, 1))
    return image


def speed_label(frame: MotionFrame, texts: Texts) -> pygame.Surface:
    """The animation speed's words, as the status bar shows them at its right end."""
    return texts(f"speed: {frame.speed}  ([ ]; Backspace skips)", "small", theme.TEXT_DIM)


def draw_speed(surface: pygame.Surface, size: tuple[int, int], frame: MotionFrame, texts: Texts,
               bottom_h: int) -> None:
    """The speed setting at the right end of the status bar (``bottom_h``: the bar's height)."""
    label = speed_label(frame, texts)
    box = pygame.Rect(size[0] - label.get_width() - 20, size[1] - bottom_h, label.get_width() + 20, bottom_h)
    pygame.draw.rect(surface, (16, 17, 22), box)  # over the end of a long message
    surface.blit(label, (box.x + 10, box.y + (bottom_h - label.get_height()) // 2))
