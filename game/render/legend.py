"""The map legend: what the shades of darkness, fog and the special grounds mean.

The map darkens each square by its visibility level and greys it where fog or smoke is the cause,
so a person needs the key to read "this square is Terrible" off the picture. The swatches are
drawn with the very colours and alphas ``theme`` lays over the map, on the plain ground colour,
so the key matches what the map shows.
"""

from __future__ import annotations

import pygame

from components import Visibility
from game.render import theme
from game.render.draw import Texts

#: Soft ground, dotted as the map dots it: hay, water or mud alike (the battle knows only that it is
#: soft). What it does to a fall is the help's falls line, from the battle's rules: a scenario may change it.
SOFT = "Soft ground (hay, water)"
#: The entry drawn hatched, as the map hatches pits.
PIT = "Pit (hard)"
#: The entries drawn as the map draws terrain that stops some things only.
SLIT = "Arrow slit (sight passes)"
BATTLEMENT = "Battlement (fliers pass)"
SWATCH = 12
ROW = 17




def _swatch(side: pygame.Surface, x: int, y: int, base: theme.Colour, over: tuple[theme.Colour, int] | None) -> None:
    """One square of ground with an overlay, as the map draws it, and a thin frame."""
    box = pygame.Rect(x, y, SWATCH, SWATCH)
    side.fill(base, box)
    if over is not None and over[1] > 0:
        shade = pygame.Surface(box.size, pygame.SRCALPHA)
        shade.fill((*over[0], over[1]))
        side.blit(shade, box.topleft)
    pygame.draw.rect(side, theme.PANEL_EDGE, box, 1)


def entries() -> list[tuple[str, theme.Colour, tuple[theme.Colour, int] | None]]:
    """The legend's entries: label, ground colour, overlay (colour, alpha) or None."""
    ground = theme.GROUND_HIGH
    rows: list[tuple[str, theme.Colour, tuple[theme.Colour, int] | None]] = [
        (f"{Visibility(level).word.capitalize()} light", ground, theme.DARKNESS[level]) for level in (3, 2, 1)]
    rows += [("No vision (dark)", ground, theme.DARKNESS[0]), ("Poor (fog)", ground, theme.FOG[2]),
             ("No vision (smoke)", ground, theme.FOG[0])]
    rows += [(SOFT, theme.SOFT, None), ("Wall", theme.WALL, None)]
    rows.insert(len(rows) - 1, (PIT, theme.GROUND_LOW, None))
    rows += [(SLIT, ground, None), (BATTLEMENT, ground, None)]
    return rows


def _columns(width: int, texts: Texts) -> tuple[int, int]:
    """How wide one column of the legend is, and how many fit in ``width``."""
    label_width = max(texts(label, "small", theme.TEXT_DIM).get_width() for label, _, _ in entries())
    column = SWATCH + 6 + label_width + 12
    return column, max(1, width // column)


def legend_height(width: int, texts: Texts) -> int:
    """How tall :func:`draw_legend` draws the legend within ``width`` (what it returns, less its y)."""
    return -(-len(entries()) // _columns(width, texts)[1]) * ROW + 4


def draw_legend(side: pygame.Surface, x: int, y: int, width: int, texts: Texts) -> int:
    """Draw the legend in columns from (``x``, ``y``) within ``width``; returns the y below it."""
    rows = entries()
    column, columns = _columns(width, texts)
    for index, (label, base, over) in enumerate(rows):
        cx = x + (index % columns) * column
        cy = y + (index // columns) * ROW
        _swatch(side, cx, cy + 2, base, over)
        if label == SOFT:
            for dx, dy in ((3, 3), (8, 3), (5, 8), (10, 8)):
                side.fill(theme.SOFT_DOT, (cx + dx, cy + 2 + dy, 1, 1))
        elif label == PIT:
            for off in (3, 7, 11):
                bottom, right = cy + 2 + SWATCH - 1, cx + SWATCH - 1
                pygame.draw.line(side, theme.PIT_HATCH, (cx + off, bottom), (right, cy + 2 + off))
        elif label == SLIT:
            side.fill(theme.WALL, (cx, cy + 2, 5, SWATCH))
            side.fill(theme.WALL, (cx + SWATCH - 5, cy + 2, 5, SWATCH))
        elif label == BATTLEMENT:
            for left in (cx, cx + 5, cx + 10):
                side.fill(theme.WALL, (left, cy + 6, 2, 4))
        side.blit(texts(label, "small", theme.TEXT_DIM), (cx + SWATCH + 6, cy))
    return y + legend_height(width, texts)
