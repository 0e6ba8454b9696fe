"""Boxes over the map that the play layer fills: an error to read (a hot reload that failed), a
replay's timeline and the banner of a decided battle. Drawing only: what the text says and where
the replay stands come from ``game.play``; this module decides nothing.
"""

from __future__ import annotations

from typing import Any

import pygame

from game.render import theme
from game.render.draw import Texts, panel, panel_lines, wrap
from game.render.ui import BANNER_HINT

#: The error box's colour for its first line.
ERROR_COLOUR = (255, 140, 120)
#: Height of the timeline band, above the status bar.
TIMELINE_H = 40


def draw_error(surface: pygame.Surface, map_rect: pygame.Rect, text: str, texts: Texts) -> pygame.Rect:
    """The error across the lower part of the map, every line wrapped to fit (a loader's message
    names the file, the key and what was expected: all of it is shown). Returns the box."""
    width = max(200, map_rect.width - 60)
    body = texts.fonts["small"]
    lines: list[tuple[str, theme.Colour]] = []
    for index, raw in enumerate(text.splitlines() or [""]):
        colour = ERROR_COLOUR if index == 0 else theme.TEXT
        lines += [(line, colour) for line in wrap(raw, body, width - 30)]
    lines.append(("Esc: hide this   F5 / Ctrl+R: reload again", theme.TEXT_DIM))
    rendered = [texts(line, "small", colour) for line, colour in lines[:24]]
    box = pygame.Rect(0, 0, width, sum(r.get_height() + 3 for r in rendered) + 20)
    box.midbottom = (map_rect.centerx, map_rect.bottom - 12)
    panel_lines(surface, box, rendered, (15, 10), 3)
    return box


def draw_timeline(surface: pygame.Surface, map_rect: pygame.Rect, position: Any, texts: Texts) -> pygame.Rect:
    """A replay's timeline along the bottom of the map: a bar with a tick per round, the cursor at
    the shown event, and where that is (round, turn, event n of N, playing or paused).

    ``position`` has ``event``, ``events``, ``round``, ``turn``, ``playing`` and ``round_marks``
    (the event index where each round begins), all worked out by the replay, not here. Returns the band.
    """
    state = "playing" if position.playing else "paused"
    label = (f"Round {position.round}  turn {position.turn}  event {position.event} of {position.events}  "
             f"({state})   Left/Right: event  Up/Down: turn  PageUp/PageDown: round  Space: play/pause")
    # wrapped to the map's width, the band growing upward: in a small window the line ran over the side
    # panel and off the window's edge ("Space: play/paus")
    font = texts.fonts["small"]
    lines = [line.strip() for line in wrap(label, font, map_rect.width - 24)]
    grown = font.get_linesize() * (len(lines) - 1)
    band = pygame.Rect(map_rect.x, map_rect.bottom - TIMELINE_H - grown, map_rect.width, TIMELINE_H + grown)
    pygame.draw.rect(surface, (16, 17, 22), band)
    bar = pygame.Rect(band.x + 12, band.y + 8, band.width - 24, 6)
    pygame.draw.rect(surface, (52, 58, 74), bar, border_radius=3)
    total = max(1, position.events)
    for mark in position.round_marks:
        x = bar.x + bar.width * mark // total
        pygame.draw.line(surface, theme.TEXT_DIM, (x, bar.y - 3), (x, bar.bottom + 2))
    done = pygame.Rect(bar.x, bar.y, bar.width * position.event // total, bar.height)
    pygame.draw.rect(surface, theme.ACCENT, done, border_radius=3)
    pygame.draw.circle(surface, theme.TEXT, (done.right, bar.centery), 6)
    for row, line in enumerate(lines):
        surface.blit(texts(line, "small", theme.TEXT), (bar.x, bar.bottom + 6 + font.get_linesize() * row))
    return band


def draw_banner(surface: pygame.Surface, map_rect: pygame.Rect, message: str, texts: Texts,
                hint_text: str = BANNER_HINT) -> pygame.Rect:
    """A band across the top of the map (the battle is over), kept inside the window when the map is
    narrower than the band (a small window), with what can still be done (``hint_text``); a message
    wider than the window (a team's long name) is wrapped, not cut at both ends: centred on one line,
    "The_exceedingly_long_named_company... won in round 1 - you win" lost its start and who won.
    Returns the band."""
    room = max(surface.get_width() - 40, 80)
    labels = [texts(line.strip(), "title", theme.ACCENT) for line in wrap(message, texts.fonts["title"], room)]
    hints = [texts(line.strip(), "small", theme.TEXT_DIM) for line in wrap(hint_text, texts.fonts["small"], room)]
    tall = sum(s.get_height() for s in labels)
    box = pygame.Rect(0, 0, max(s.get_width() for s in labels + hints) + 40,
                      tall + sum(s.get_height() for s in hints) + 24)
    box.midtop = (map_rect.centerx, map_rect.y + 12)
    box.clamp_ip(surface.get_rect())
    panel(surface, box)
    y = box.y + 8
    for line in labels:
        surface.blit(line, line.get_rect(midtop=(box.centerx, y)))
        y += line.get_height()
    y += 6
    for line in hints:
        surface.blit(line, line.get_rect(midtop=(box.centerx, y)))
        y += line.get_height()
    return box
