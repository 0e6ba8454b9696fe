"""The Renderer: one battle drawn into a surface, layer by layer; no input handling here.

Frames must be cheap (a 64x64 map with 200 creatures well inside 8 ms), so everything that changes
rarely is drawn once and cached by the layer that owns it: the terrain with its light and darkness
(``terrain.TerrainLayer``, rebuilt only when the map's version or level grid changes), every token
look (``tokens.Tokens``), overlay masks (``overlays.Overlays``), the side panel
(``panels.SidePanel``) and every string (``draw.Texts``). A frame is then a handful of blits.

Layers, bottom to top: terrain, the fog of war, reach or power range and area, fall
marks, tokens (those the person's team sees) and where hidden enemies were last seen, the selection
ring, the hover box (a power's forecast, a move's path, or sight and cover), the banner; then the
side panel with its turn strip, the buttons, the status bar and the help.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pygame

from components import Position
from game.render import theme
from game.render.draw import Texts
from game.render.feed import EventFeed
from game.render.floaters import Floaters, draw_speed, speed_label
from game.render.fogview import draw_fog, draw_ghosts, visible_looks
from game.render.hints import draw_move_preview, draw_power_forecast
from game.render.notice import draw_banner, draw_error, draw_timeline
from game.render.overlays import Overlays, draw_fall_marks
from game.render.panels import (
    BUTTONS_H,
    SIDEBAR_W,
    STATUS_H,
    SidePanel,
    button_rects,
    draw_buttons,
    draw_help,
    draw_status,
)
from game.render.terrain import TerrainLayer
from game.render.tokens import Tokens
from game.render.tooltip import draw_hover
from game.render.ui import BANNER_HINT, UiState, shown_powers
from game.render.viewport import Viewport

__all__ = ["MIN_SIZE", "SIDEBAR_W", "STATUS_H", "Renderer", "UiState", "map_rect_for"]

#: The smallest window the frame is laid out for: the side panel and a map viewport of two dozen
#: squares at the smallest tile, with the status bar and the buttons under them, and the help whole.
MIN_SIZE = (SIDEBAR_W + 320, 540)


def map_rect_for(size: tuple[int, int]) -> pygame.Rect:
    """Where the map viewport goes in a frame of ``size``: left of the side panel, above the status bar."""
    return pygame.Rect(0, 0, max(size[0] - SIDEBAR_W, 1), max(size[1] - STATUS_H, 1))


class Renderer:
    """Draws one battle into a surface of a fixed size: map viewport on the left, panels on the right.

    It reads the battle (queries and its event record) and never changes it.

    Args:
        battle: the battle to show.
        size: the whole surface size in pixels.
        tile: pixels per square; by default the largest that fits the map (within 12..56), and a
            bigger map scrolls.
        team_colours: team -> RGB; teams not named get a colour from ``theme.TEAM_COLOURS``.
    """

    def __init__(self, battle: Any, size: tuple[int, int] = (1280, 800), tile: int | None = None,
                 team_colours: dict[str, theme.Colour] | None = None) -> None:
        self.size = size
        self.map_rect = map_rect_for(size)
        self.team_colours: dict[str, theme.Colour] = dict(team_colours or {})
        self.texts = Texts()
        self.fonts = self.texts.fonts
        self._fixed_tile = tile
        #: a scenario's entity -> power ids (what the side panel lists and keys 1-9 choose)
        self.powers: Mapping[int, tuple[str, ...]] | None = None
        #: the log the frame shows: its sight team's (``feed_of``)
        self.feed = EventFeed()
        self._feeds: dict[str | None, EventFeed] = {}
        self._gm_log: EventFeed | None = None  # (``log_lines``': asked of a renderer, not drawn)
        self.status_bar = pygame.Rect(0, 0, 0, 0)  # as last drawn: a long message grows it over the map
        self.error_box = pygame.Rect(0, 0, 0, 0)  # a failed reload's error over the map, as last drawn
        self.set_battle(battle)

    # ------------------------------------------------------------------ setup and geometry

    def set_battle(self, battle: Any) -> None:
        """Show another battle (after a load): every cache belongs to the old one."""
        self.battle = battle
        self.view = Viewport(self.map_rect, (battle.width, battle.height), self._fixed_tile)
        self.texts.clear()
        self.forget()
        for team in sorted({battle.team(e) for e in battle.creatures()}):
            self.colour_of(team)

    def forget(self) -> None:
        """Drop what was drawn from the battle (after an undo the battle is back where it was, and the
        caches' keys, its counters, may come round again for a different board); the view stays, and
        so does the log of the events the battle still holds (the feed keeps what was told then)."""
        self.terrain = TerrainLayer()
        self.tokens = Tokens(self.colour_of, self.texts)
        self.overlays = Overlays()
        self.side = SidePanel(self.texts, self.colour_of)
        self.floaters = Floaters(self.texts)

    def resize(self, size: tuple[int, int]) -> None:
        """Lay the frame out for a window of a new size (the person dragged its edge, or the window
        manager maximised it): the map viewport takes what the side panel leaves, the square at its
        centre stays there, and what was drawn for the old tile size is drawn again. A size smaller
        than :data:`MIN_SIZE` is laid out as that (the window clips what does not fit), so the map
        viewport never has a negative width."""
        size = (max(size[0], MIN_SIZE[0]), max(size[1], MIN_SIZE[1]))
        if size == self.size:
            return
        centre = self.view.square_at(self.map_rect.center)
        self.size = size
        self.map_rect = map_rect_for(size)
        self.view = Viewport(self.map_rect, (self.battle.width, self.battle.height), self._fixed_tile)
        if centre is not None:
            self.view.centre_on(*centre)
        self.forget()

    @property
    def tile(self) -> int:
        return self.view.tile

    @property
    def camera(self) -> list[int]:
        return self.view.camera

    @property
    def world_size(self) -> tuple[int, int]:
        return self.view.world_size

    @property
    def log_scroll_max(self) -> int | None:
        """How far the combat log can scroll back, once known (the side panel finds out as it draws)."""
        return self.side.log_scroll_max

    def pan(self, dx: int, dy: int) -> None:
        """Scroll the map by pixels."""
        self.view.pan(dx, dy)

    def centre_on(self, x: int, y: int) -> None:
        self.view.centre_on(x, y)

    def button_at(self, pos: tuple[int, int], names: tuple[str, ...]) -> str | None:
        """The button under a screen position, of those shown (``names``), or None (a long message
        grows the status bar over the map alone, never over the buttons)."""
        if self.status_bar.collidepoint(pos):
            return None
        for name, rect in button_rects(self.size, names).items():
            if rect.collidepoint(pos):
                return name
        return None

    def power_at(self, pos: tuple[int, int]) -> int | None:
        """The 1-based index of the selected creature's power row under a screen position (the side
        panel lists them all; keys reach the first nine), or None."""
        return None if self.status_bar.collidepoint(pos) else self.side.power_at(pos)

    def square_at(self, pos: tuple[int, int]) -> tuple[int, int] | None:
        """The square under a screen position, or None outside the map or under the status bar or a
        failed reload's error box: a click on either went to a square hidden under it (and moved the
        creature whose turn it was there while its person read the error)."""
        if self.status_bar.collidepoint(pos) or self.error_box.collidepoint(pos):
            return None
        return self.view.square_at(pos)

    def square_rect(self, x: int, y: int) -> pygame.Rect:
        """Screen rectangle of a square (it may lie outside the viewport)."""
        return self.view.square_rect(x, y)

    def square_centre(self, x: int, y: int) -> tuple[int, int]:
        return self.view.square_centre(x, y)

    def powers_for(self, entity: int) -> list[str]:
        """The powers shown for a creature (see ``ui.shown_powers``)."""
        return shown_powers(self.battle, entity, self.powers)

    def colour_of(self, team: str) -> theme.Colour:
        """A team's colour, handing out the next palette colour to a team seen for the first time."""
        if team not in self.team_colours:
            self.team_colours[team] = theme.unused_colours(self.team_colours.values())[0]
        return self.team_colours[team]

    def text(self, string: str, font: str = "body", colour: theme.Colour = theme.TEXT) -> pygame.Surface:
        """A rendered string, cached."""
        return self.texts(string, font, colour)

    def feed_of(self, team: str | None) -> EventFeed:
        """The log of the team whose sight the frame shows (None: no fog of war): each team has its
        own, read with its own sight, and only while it is seated. A hot seat's one log held each line
        as the team seated when it was read saw it, so the next team read where the other team's
        creatures had stood and what they did out of its sight ("Sergeant (keep) enters at (7, 7)"
        under a "?" in the raiders' turn strip). A team's log reads what happened since it last looked,
        the other seat's turns among it, as one batch of turns (``game.render.sight``)."""
        feed = self._feeds.get(team)
        if feed is None:  # (the first team seated takes the log already begun)
            feed = self._feeds[team] = self.feed if not self._feeds else EventFeed()
        return feed

    @property
    def log_lines(self) -> list[str]:
        """The readable combat log so far as the GM reads it (every line: the log panel shows a team's
        own under fog of war), from a reading of its own: read through the seated team's log, with no
        sight, it filed what that team did not see in its log ("Hero is slowed" in red's seat)."""
        if self._gm_log is None:
            self._gm_log = EventFeed()
        self._gm_log.update(self.battle)
        return list(self._gm_log.lines)

    # ------------------------------------------------------------------ the frame

    def draw(self, surface: pygame.Surface, ui: UiState | None = None) -> None:
        """Draw a whole frame into ``surface``.

        Args:
            surface: the window or an off-screen surface of ``self.size``.
            ui: selection, chosen power, hover and messages (None: a plain view); every animation (a
                walk, a floating number, a token's drop after a fall) is ``ui.motion``, the frame of
                ``game.play.motion``'s own clock.
        """
        ui = ui or UiState()
        b = self.battle
        # the team's log, whatever the GM view shows
        self.feed = self.feed_of(ui.sight_team)
        self.feed.update(b, ui.team_hidden, ui.notes, ui.unseen_sources, ui.team_visible, ui.sight_team)
        self._clear(surface)
        clip = surface.get_clip()
        surface.set_clip(self.map_rect)
        selected = ui.selected if ui.selected is not None and ui.selected in b.creatures() else None
        self._draw_map(surface, ui, selected)
        surface.set_clip(clip)
        below = BUTTONS_H if ui.buttons else 0
        side = pygame.Rect(self.map_rect.right, 0, SIDEBAR_W, self.size[1] - STATUS_H - below)
        self.side.draw(surface, side, b, self.feed, ui, selected, self.powers)
        draw_buttons(surface, self.size, ui, self.texts)
        reserve = speed_label(ui.motion, self.texts).get_width() + 30 if ui.motion is not None else 0
        self.status_bar = draw_status(surface, self.size, ui.message, self.texts, reserve)
        if ui.banner:  # over the map, and over the panel where a small window's map is narrower than it
            draw_banner(surface, self.map_rect, ui.banner, self.texts, ui.banner_hint or BANNER_HINT)
        if ui.timeline is not None:
            draw_timeline(surface, self.map_rect, ui.timeline, self.texts)
        self.error_box = pygame.Rect(0, 0, 0, 0)
        if ui.error:
            self.error_box = draw_error(surface, self.map_rect, ui.error, self.texts)
        if ui.motion is not None:
            draw_speed(surface, self.size, ui.motion, self.texts, STATUS_H)
        if ui.show_help:
            draw_help(surface, self.size, self.map_rect.center, self.texts, ui.save_path or "out/save.json", b.rules)

    def _clear(self, surface: pygame.Surface) -> None:
        """The background where no layer paints: the map viewport around the world. The terrain, the
        side panel, the buttons and the status bar are opaque and cover the rest (filling under them
        too cost a tenth of a frame)."""
        m, view = self.map_rect, self.view
        world = pygame.Rect(m.x - view.camera[0], m.y - view.camera[1], *view.world_size).clip(m)
        if not world.w or not world.h:
            surface.fill(theme.BACKGROUND, m)
            return
        for strip in ((m.x, m.y, m.w, world.y - m.y), (m.x, world.bottom, m.w, m.bottom - world.bottom),
                      (m.x, world.y, world.x - m.x, world.h), (world.right, world.y, m.right - world.right, world.h)):
            if strip[2] > 0 and strip[3] > 0:
                surface.fill(theme.BACKGROUND, strip)

    def _draw_map(self, surface: pygame.Surface, ui: UiState, selected: int | None) -> None:
        """Everything inside the map viewport, bottom layer first."""
        b, view = self.battle, self.view
        view.blit_world(surface, self.terrain.surface(b, view.tile, self.texts))
        known = None
        if ui.visible is not None and ui.unseen_sources:
            drawn_from = TerrainLayer.key(b, view.tile, ui.unseen_sources)
            known = drawn_from, self.terrain.surface(b, view.tile, self.texts, ui.unseen_sources)
        draw_fog(surface, view, self.overlays, ui, known)
        if selected is not None and ui.power is None and b.is_alive(selected):
            self.overlays.draw_reach(surface, view, b, selected, ui.hidden)
        covered = None  # how many squares the power's area is drawn on (its hover box gives that number)
        if selected is not None and ui.power is not None:
            covered = self.overlays.draw_power(surface, view, b, selected, ui.power, ui.hover)
        looks = visible_looks(self.tokens.looks(b, self.feed), ui)
        draw_fall_marks(surface, view, {e: f for e, f in self.feed.falls.items() if ui.shows(e)}, b.round,
                        self.texts)
        motion = ui.motion
        squares = self.tokens.draw(surface, view, looks, self.feed, selected,
                                   motion.positions if motion is not None else None,
                                   motion.drops if motion is not None else None)
        squares = {square: e for square, e in squares.items() if ui.shows(e)}  # (not one walking out of sight)
        draw_ghosts(surface, view, ui, lambda e: self.colour_of(b.team(e)), self.texts)
        if selected is not None:
            pos = b.get(selected, Position)
            pygame.draw.circle(surface, theme.SELECTED, view.square_centre(pos.x, pos.y), view.tile // 2, 3)
        if ui.forecast is not None:
            draw_power_forecast(surface, view, b, ui, lambda e: self.feed.name(b, e), self.texts, covered)
        elif ui.move_preview is not None:
            mover = b.get(selected, Position).square if selected is not None else None
            draw_move_preview(surface, view, ui, self.texts, mover)
        elif selected is not None and ui.hover is not None:
            draw_hover(surface, view, b, selected, ui.hover, squares, self.texts)
        elif ui.hover is not None:
            pygame.draw.rect(surface, theme.TEXT, view.square_rect(*ui.hover), 1)
        if motion is not None and motion.marks:
            self.floaters.draw(surface, view, motion)
