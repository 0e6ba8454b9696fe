"""Drawing primitives every layer uses: fonts and the text cache, panels, dashed lines, the shield.

Font rendering is the slowest thing a frame could do, so every string is rendered once per
(string, font, colour) and kept by the :class:`Texts` that its renderer owns.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from types import MappingProxyType

import pygame
from pygame.typing import ColorLike

from components.values import escaped, spelt
from game.render import theme

#: Font name -> (size, bold) of pygame's bundled font.
FONT_SIZES: Mapping[str, tuple[int, bool]] = MappingProxyType({
    "tiny": (14, False), "small": (17, False), "body": (20, False), "head": (26, True), "title": (34, True),
})
_TEXT_CACHE_MAX = 4000


class Font(pygame.font.Font):
    """pygame's font, measuring and drawing every string escaped (:func:`escaped`): a stranger's text
    reaches the window (a folder's name in a reload error, a creature's name), and pygame raises on a
    NUL (ValueError) or on a folder name's non-UTF-8 byte (UnicodeEncodeError), which stopped the frame.

    A character the font has no glyph for (an emoji, a CJK letter in a team's or a creature's name) is
    spelt as its escape too (``\\u5f29``, ``\\U0001f3f9``), as the simulation's plots spell it: drawn, it
    was an empty box, and two names that differ only there read alike."""

    def __init__(self, file: str | None, size: int) -> None:
        super().__init__(file, size)
        import pygame.freetype  # (its metrics say which characters the font lacks; pygame.font's do not)

        if not pygame.freetype.get_init():
            pygame.freetype.init()
        self._faces = pygame.freetype.Font(file, size)
        self._has: dict[str, bool] = {}  # each character asked about once

    def shown(self, text: str) -> str:
        """``text`` as it is drawn: escaped, and each character without a glyph spelt as its escape."""
        return spelt(escaped(text), self._drawable)

    def _drawable(self, char: str) -> bool:
        known = self._has.get(char)
        if known is None:
            known = self._has[char] = self._faces.get_metrics(char)[0] is not None
        return known

    def size(self, text: str | bytes, /) -> tuple[int, int]:
        return super().size(self.shown(text) if isinstance(text, str) else text)

    def render(self, text: str | bytes | None, antialias: bool, color: ColorLike, bgcolor: ColorLike | None = None,
               wraplength: int = 0) -> pygame.Surface:
        shown = self.shown(text) if isinstance(text, str) else text
        return super().render(shown, antialias, color, bgcolor, wraplength)


def font(size: int, bold: bool = False) -> Font:
    """pygame's bundled font: no system font lookup (slow, and differs between machines)."""
    found = Font(None, size)
    found.bold = bold
    return found


class Texts:
    """The renderer's fonts and its cache of rendered strings."""

    def __init__(self) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.fonts = {name: font(size, bold) for name, (size, bold) in FONT_SIZES.items()}
        self._cache: dict[tuple[str, str, theme.Colour], pygame.Surface] = {}

    def __call__(self, string: str, font_name: str = "body", colour: theme.Colour = theme.TEXT) -> pygame.Surface:
        """A rendered string, cached (emptied when it grows past a few thousand strings)."""
        key = (string, font_name, colour)
        surface = self._cache.get(key)
        if surface is None:
            if len(self._cache) > _TEXT_CACHE_MAX:
                self._cache.clear()
            surface = self.fonts[font_name].render(string, True, colour)
            self._cache[key] = surface
        return surface

    def clear(self) -> None:
        self._cache.clear()


def panel(surface: pygame.Surface, box: pygame.Rect) -> None:
    """A dark rounded box with a light edge: behind tooltips, the banner and the help."""
    pygame.draw.rect(surface, (20, 22, 30), box, border_radius=6)
    pygame.draw.rect(surface, theme.PANEL_EDGE, box, 1, border_radius=6)


def panel_lines(surface: pygame.Surface, box: pygame.Rect, lines: list[pygame.Surface], margin: tuple[int, int],
                gap: int) -> None:
    """A :func:`panel` with rendered lines down it, ``margin`` (x, y) inside its edge, ``gap`` apart."""
    panel(surface, box)
    y = box.y + margin[1]
    for line in lines:
        surface.blit(line, (box.x + margin[0], y))
        y += line.get_height() + gap


def dashed(surface: pygame.Surface, colour: theme.Colour, start: tuple[int, int], end: tuple[int, int],
           width: int) -> None:
    """A dashed line (10 px dashes): a line of sight, or a power's aim."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy)
    if length < 1:
        return
    steps = int(length // 10)
    for i in range(0, steps + 1, 2):
        a = i / max(steps, 1)
        b = min((i + 1) / max(steps, 1), 1)
        pygame.draw.line(surface, colour, (start[0] + dx * a, start[1] + dy * a),
                         (start[0] + dx * b, start[1] + dy * b), width)


def shield(surface: pygame.Surface, centre: tuple[int, int], size: int) -> None:
    """A small shield: the cover marker."""
    cx, cy = centre
    points = [(cx - size, cy - size), (cx + size, cy - size), (cx + size, cy), (cx, cy + size + size // 2),
              (cx - size, cy)]
    pygame.draw.polygon(surface, theme.COVER, points)
    pygame.draw.polygon(surface, (20, 40, 80), points, 2)


def clipped_middle(text: str, font_: pygame.font.Font, width: int) -> str:
    """``text`` cut to fit ``width`` pixels in its middle ("..."), keeping its start and its end: a
    creature's name, whose end tells apart the long names of one kind ("... of the Blue Order number
    12"); cut at the end, every such knight's chip in the turn strip read alike."""
    if font_.size(text)[0] <= width:
        return text

    def kept(keep: int) -> str:
        return f"{text[:keep - keep // 2].rstrip()}...{text[len(text) - keep // 2:].lstrip()}"

    keep = _most_that_fit(len(text) - 1, lambda n: font_.size(kept(n))[0] <= width)
    return "..." if keep is None else kept(keep)


def clipped(text: str, font_: pygame.font.Font, width: int) -> str:
    """``text`` cut to fit ``width`` pixels, ending in "..." where it was cut (a line that must stay
    one line: a creature's name, a power's label)."""
    if font_.size(text)[0] <= width:
        return text
    keep = _most_that_fit(len(text) - 1, lambda n: font_.size(text[:n] + "...")[0] <= width)
    return text[:keep or 0].rstrip() + "..."


def _most_that_fit(most: int, fits: Callable[[int], bool]) -> int | None:
    """The largest ``n`` in ``0..most`` for which ``fits(n)`` (text grows with ``n``), or None: a halving
    search, so a name of 80 characters escaped to 800 (or a stranger's longer text) is measured about
    ten times, not once for each character cut (cutting one at a time from a 3 MB text never ended)."""
    low, high = 0, most
    if most < 0 or not fits(0):
        return None
    while low < high:
        middle = (low + high + 1) // 2
        if fits(middle):
            low = middle
        else:
            high = middle - 1
    return low


def wrap(text: str, font_: pygame.font.Font, width: int) -> list[str]:
    """``text`` broken into lines that fit ``width`` pixels; continuation lines are indented. A word
    wider than a line by itself (a creature's name of 80 letters and no space, a long file path) is
    cut where the line ends and goes on on the next: it used to stay whole and run off the panel, the
    status bar or an error box, over whatever was drawn beside it."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line.strip() else line + word
        if font_.size(trial)[0] <= width:
            line = trial
            continue
        if line.strip():  # the word goes to the next line, indented
            lines.append(line)
            line = CONTINUED
            if font_.size(line + word)[0] <= width:
                line += word
                continue
        line = _cut_word(word, line, font_, width, lines)
    if line.strip():
        lines.append(line)
    return lines


#: How a wrapped line's continuation begins.
CONTINUED = "    "


def _cut_word(word: str, line: str, font_: pygame.font.Font, width: int, lines: list[str]) -> str:
    """``word``, too wide for a line of its own, added to ``line`` a letter at a time: each full line
    goes into ``lines`` and the next begins indented. Returns the line left open (at least one letter
    a line, so a window narrower than a letter still ends)."""
    for letter in word:
        if line.strip() and font_.size(line + letter)[0] > width:
            lines.append(line)
            line = CONTINUED
        line += letter
    return line
