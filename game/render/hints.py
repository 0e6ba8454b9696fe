"""What the forecasts look like on the map: the chosen power's odds at the hovered target or point,
and a move's real path with its cost and any fall, each in a box beside the square.

The forecasts are the battle's (the application asks ``battle.forecast`` and ``forecast_move`` and
keeps the answers in the :class:`game.render.ui.UiState`); :mod:`game.render.odds` puts them in
words and this module draws them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

import pygame

from components import Position
from game.render import odds, theme
from game.render.draw import Texts, dashed
from game.render.tooltip import box_beside, line_surfaces
from game.render.ui import UiState
from game.render.viewport import Viewport

TONES: Mapping[str, theme.Colour] = MappingProxyType({
    "text": theme.TEXT, "good": theme.LOS_CLEAR, "bad": theme.LOS_BLOCKED, "dim": theme.TEXT_DIM, "ally": theme.COVER})


def _surfaces(lines: list[odds.Line], text: Texts, view: Viewport) -> list[pygame.Surface]:
    """The odds' lines in their tones, wrapped to the map's width (``tooltip.line_surfaces``)."""
    return line_surfaces([(line, TONES.get(tone, theme.TEXT)) for line, tone in lines], text, view)


def draw_power_forecast(surface: pygame.Surface, view: Viewport, battle: Any, ui: UiState,
                        name: Callable[[int], str], text: Texts, covered: int | None = None) -> None:
    """A dashed aim from the user to the hovered target or point, a ring on each creature the use
    reaches (allies blue) and the odds in a box by the square it is aimed at: by the user, for a
    power on the user or centred on it, which the mouse does not aim (an aim drawn to the mouse
    said it would land there). The area itself is the power overlay's (``covered``: how many squares
    it drew, the count the box gives)."""
    forecast, hover = ui.forecast, ui.hover
    if forecast is None or hover is None:
        return
    colour = theme.LOS_CLEAR if forecast.legal else theme.LOS_BLOCKED
    anchor = aimed_at(forecast, hover)
    rect = view.square_rect(*anchor)
    if anchor != forecast.from_square:
        dashed(surface, colour, view.square_centre(*forecast.from_square), rect.center, 3)
    pygame.draw.rect(surface, colour, rect, 2)
    for t in forecast.targets:
        if ui.shows(t.target):
            pos = battle.get(t.target, Position)
            ring = theme.COVER if t.ally else theme.AREA
            pygame.draw.circle(surface, ring, view.square_centre(pos.x, pos.y), view.tile // 2, 3)
    try:
        power = battle.power(forecast.power)
    except (KeyError, ValueError):
        power = None
    power_name = forecast.power if power is None else power.name
    lines = odds.forecast_lines(forecast, power_name, name, ui.shows, ui.foresight, power, covered)
    box_beside(surface, view, rect, _surfaces(lines, text, view))


def aimed_at(forecast: Any, hover: tuple[int, int]) -> tuple[int, int]:
    """The square a forecast's use is aimed at: the hovered one for a use aimed at a creature or a
    point, else where the user would use it from (the mouse does not aim a power on the user)."""
    return hover if forecast.target is not None or forecast.point is not None else forecast.from_square


def draw_move_preview(surface: pygame.Surface, view: Viewport, ui: UiState, text: Texts,
                      mover: tuple[int, int] | None = None) -> None:
    """The path the creature would really walk (the battle's), where it stops, and the box, set where
    it covers neither, nor the creature itself (``mover``: its square), when the map has such a side:
    a refusal's long line ("cannot move there: ... 50 ft away ...") lay over the creature asked to move."""
    forecast, hover = ui.move_preview, ui.hover
    if forecast is None or hover is None:
        return
    rect = view.square_rect(*hover)
    if forecast.legal and len(forecast.path) > 1:
        points = [view.square_centre(*square) for square in forecast.path]
        colour = theme.LOS_BLOCKED if forecast.fall is not None else theme.REACH
        pygame.draw.lines(surface, colour, False, points, 3)
        for point in points[1:]:
            pygame.draw.circle(surface, colour, point, max(2, view.tile // 10))
        if forecast.stops_at is not None:
            pygame.draw.rect(surface, colour, view.square_rect(*forecast.stops_at), 2)
    else:
        pygame.draw.rect(surface, theme.LOS_BLOCKED, rect, 2)
    shown: tuple[pygame.Rect, ...] = () if mover is None else (view.square_rect(*mover),)
    if forecast.legal:
        shown += tuple(view.square_rect(*square) for square in forecast.path[1:])
    if forecast.legal and forecast.stops_at is not None:
        shown += (view.square_rect(*forecast.stops_at),)
    box_beside(surface, view, rect, _surfaces(odds.move_lines(forecast, ui.shows), text, view), shown)
