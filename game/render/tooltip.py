"""The hover tooltip: from the selected creature to the one under the mouse, what the rules say.

Line of sight, cover, roll mode and Defense are the battle's own answers (``can_see``,
``has_cover``, ``roll_mode``, ``defense_against``); this module draws them beside the square.
"""

from __future__ import annotations

from typing import Any

import pygame

from components import Position
from game.render import theme
from game.render.draw import Texts, dashed, panel, shield, wrap
from game.render.viewport import Viewport

Line = tuple[str, theme.Colour]


def draw_hover(surface: pygame.Surface, view: Viewport, battle: Any, selected: int, hover: tuple[int, int],
               squares: dict[tuple[int, int], int], text: Texts) -> None:
    """Line of sight, cover and roll mode from the selected creature to the hovered one (with a power
    chosen, whether it reaches is the forecast's to say, in its own panel)."""
    rect = view.square_rect(*hover)
    target = squares.get(hover)
    if target is None or target == selected or not battle.is_alive(selected):
        pygame.draw.rect(surface, theme.TEXT, rect, 1)
        return
    origin = battle.get(selected, Position).square
    sees = battle.can_see(selected, target)
    colour = theme.LOS_CLEAR if sees else theme.LOS_BLOCKED
    dashed(surface, colour, view.square_centre(*origin), rect.center, 3)
    pygame.draw.rect(surface, colour, rect, 2)
    if battle.team(target) != battle.team(selected):
        lines = _enemy_lines(surface, view, battle, selected, target, hover, sees)
    else:
        lines = [("in sight" if sees else "no line of sight", colour), ("ally", theme.TEXT_DIM)]
    box_beside(surface, view, rect, line_surfaces(lines, text, view))


def _enemy_lines(surface: pygame.Surface, view: Viewport, battle: Any, selected: int, target: int,
                 hover: tuple[int, int], sees: bool) -> list[Line]:
    """Sight, cover (and its shield on the square), roll mode, Defense and light against an enemy."""
    rect = view.square_rect(*hover)
    colour = theme.LOS_CLEAR if sees else theme.LOS_BLOCKED
    cover = battle.has_cover(target, selected)
    mode = battle.roll_mode(selected, "attack", target=target)
    defense = battle.defense_against(target, selected)
    if cover:
        shield(surface, (rect.right - view.tile // 5, rect.top + view.tile // 5), max(7, view.tile // 4))
    lines: list[Line] = [("in sight" if sees else "NO LINE OF SIGHT", colour),
                         (f"cover +{battle.rules.cover_bonus}" if cover else "no cover",
                          theme.COVER if cover else theme.TEXT_DIM)]
    if sees:
        lines.append((f"attack: {mode}", theme.LOS_BLOCKED if mode != "normal" else theme.TEXT))
    else:
        lines.append(("cannot be targeted (not seen)", theme.LOS_BLOCKED))
    lines.append((f"Defense {defense}", theme.TEXT))
    light = light_word(battle, hover)
    if light:
        lines.append((f"light there: {light}", theme.TEXT_DIM))
    return lines


def line_surfaces(lines: list[Line], text: Texts, view: Viewport) -> list[pygame.Surface]:
    """The box's lines drawn, each wrapped to the map viewport's width: in a small window a long
    line ("cannot move there: ... 90 ft away ...") was wider than the map and lost both its ends."""
    room = max(view.map_rect.w - 24, 80)
    return [text(part, "small", colour) for line, colour in lines for part in wrap(line, text.fonts["small"], room)]


def box_beside(surface: pygame.Surface, view: Viewport, rect: pygame.Rect,
               surfaces: list[pygame.Surface], avoid: tuple[pygame.Rect, ...] = ()) -> pygame.Rect:
    """The tooltip's lines in a panel right of the square (left of it at the map's right edge); a box
    too wide for either side goes under the square (over it at the map's bottom), never on it: kept
    inside the map by sliding, it used to hide the very square it speaks of. ``avoid``: what else the
    box should leave in view (a move's path and the square it stops on), where a side clear of it
    exists. Returns the box."""
    box = box_rect(view.map_rect, rect, max(s.get_width() for s in surfaces) + 12,
                   sum(s.get_height() for s in surfaces) + 8, avoid)
    panel(surface, box)
    y = box.y + 4
    for s in surfaces:
        surface.blit(s, (box.x + 6, y))
        y += s.get_height()
    return box


def box_rect(area: pygame.Rect, rect: pygame.Rect, width: int, height: int,
             avoid: tuple[pygame.Rect, ...] = ()) -> pygame.Rect:
    """Where a box of ``width`` x ``height`` about the square ``rect`` goes inside ``area`` (see
    :func:`box_beside`): the first of right of it, left of it, under it and over it that stays
    inside ``area`` and covers neither the square nor anything in ``avoid``; with none, right of
    it, else left, else under or over it, never on the square. A move's box set left of the
    hovered square at the map's right edge lay over the square its walk stops on (where it steps off
    a ledge and falls) and the end of its path."""
    if avoid:
        x_mid, y_under, y_over = rect.centerx - width // 2, rect.bottom + 6, rect.top - 6 - height
        for side in (pygame.Rect(rect.right + 6, rect.top, width, height),  # (slid up or down only: beside it)
                     pygame.Rect(rect.left - 6 - width, rect.top, width, height),
                     pygame.Rect(x_mid, y_under, width, height),  # (slid sideways only: under or over it)
                     pygame.Rect(x_mid, y_over, width, height)):
            along = pygame.Rect(side.x, area.y, width, area.h) if side.y == rect.top else \
                pygame.Rect(area.x, side.y, area.w, height)
            side.clamp_ip(along)
            if area.contains(side) and not side.colliderect(rect) and side.collidelist(list(avoid)) < 0:
                return side
    box = pygame.Rect(rect.right + 6, rect.top, width, height)
    if box.right > area.right:
        box.right = rect.left - 6
    if box.left < area.left:
        box.left = rect.centerx - width // 2
        box.top = rect.bottom + 6 if rect.bottom + 6 + height <= area.bottom else rect.top - 6 - height
    box.clamp_ip(area)
    return box


def light_word(battle: Any, square: tuple[int, int]) -> str:
    """The light on a square in words when it is less than normal ("terrible"), else ""."""
    try:
        level = battle.visibility_at(*square)
    except (AttributeError, KeyError, ValueError):
        return ""
    if int(level) >= 3:
        return ""
    return str(getattr(level, "name", level)).lower().replace("_", " ")
