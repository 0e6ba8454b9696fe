"""Drawing a battle: the grid, what can be seen, the creatures, the panels; no input handling here.

Frames must be cheap (a 64x64 map with 200 creatures well inside 8 ms), so everything that changes
rarely is drawn once and cached: the terrain with its visibility overlay is one surface rebuilt only
when ``battle.terrain.version`` (or the level grid) changes, every token look is rendered once per
(team, health, fatigue, conditions), and text is rendered once per string. A frame is then a
handful of blits.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pygame

from components import Fatigue, Health, Position
from game.battle.log import display_names, format_events
from game.render import theme

SIDEBAR_W = 360
STATUS_H = 26
MIN_TILE, MAX_TILE = 12, 56


@dataclass
class UiState:
    """What the player is doing, which the renderer shows (the window owns and changes it)."""

    selected: int | None = None
    power: str | None = None
    hover: tuple[int, int] | None = None
    planned: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    #: powers the player queued this round: entity -> [(power id, target square or None)]
    planned_powers: dict[int, list[tuple[str, tuple[int, int] | None]]] = field(default_factory=dict)
    message: str = ""
    #: lines of the combat log scrolled back from the newest (0: the newest lines show)
    log_scroll: int = 0
    #: shown across the map when set (the battle is over)
    banner: str = ""
    show_help: bool = False
    human_teams: frozenset[str] = frozenset()
    title: str = ""


def _font(size: int, bold: bool = False) -> pygame.font.Font:
    """pygame's bundled font: no system font lookup (slow, and differs between machines)."""
    font = pygame.font.Font(None, size)
    font.bold = bold
    return font


class Renderer:
    """Draws one battle into a surface of a fixed size: map viewport on the left, panels on the right.

    Args:
        battle: the battle to show.
        size: the whole surface size in pixels.
        tile: pixels per square; by default the largest that fits the map (within 12..56), and a
            bigger map scrolls.
        team_colours: team -> RGB; teams not named get a colour from ``theme.TEAM_COLOURS``.
    """

    def __init__(self, battle: Any, size: tuple[int, int] = (1280, 800), tile: int | None = None,
                 team_colours: dict[str, theme.Colour] | None = None) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.size = size
        self.map_rect = pygame.Rect(0, 0, size[0] - SIDEBAR_W, size[1] - STATUS_H)
        self.team_colours: dict[str, theme.Colour] = dict(team_colours or {})
        self.fonts = {
            "tiny": _font(14), "small": _font(17), "body": _font(20), "head": _font(26, bold=True),
            "title": _font(34, bold=True),
        }
        self._fixed_tile = tile
        self.log_scroll_max: int | None = None  # how far the log can scroll back, once known
        self.powers: dict[int, tuple[str, ...]] | None = None  # a scenario's entity -> power ids
        self.camera = [0, 0]
        self.set_battle(battle)

    # ------------------------------------------------------------------ setup and geometry

    def set_battle(self, battle: Any) -> None:
        """Show another battle (after a load): every cache belongs to the old one."""
        self.battle = battle
        w, h = battle.width, battle.height
        fit = min(self.map_rect.w // w, self.map_rect.h // h)
        self.tile = int(self._fixed_tile or max(MIN_TILE, min(MAX_TILE, fit)))
        self.world_size = (w * self.tile, h * self.tile)
        self.camera = [0, 0]
        self.clamp_camera()
        self._terrain_key: tuple[Any, ...] | None = None
        self._world: pygame.Surface | None = None
        self._tokens: dict[tuple[Any, ...], pygame.Surface] = {}
        self._text: dict[tuple[str, str, theme.Colour], pygame.Surface] = {}
        self._mask_cache: dict[str, tuple[Any, pygame.Surface]] = {}
        self._reach_key: tuple[Any, ...] | None = None
        self._reach: np.ndarray | None = None
        self._events_seen = 0
        self._log_lines: list[str] = []
        self._names: dict[int, str] = {}
        self._labels: dict[int, str] = {}
        self._falls: dict[int, tuple[tuple[int, int], float, int, float]] = {}  # e -> (square, ft, round, t0)
        self._log_panel: tuple[Any, pygame.Surface] | None = None
        self._side_key: tuple[Any, ...] | None = None
        self._side: pygame.Surface | None = None
        self._creatures_key: tuple[int, ...] | None = None
        self._creatures_cache: list[tuple[int, Position, Health, Fatigue, frozenset[str], str, str]] = []
        for team in sorted({battle.team(e) for e in battle.creatures()}):
            self.colour_of(team)

    def powers_for(self, entity: int) -> list[str]:
        """The powers shown (and bound to keys 1-9) for a creature: the scenario's list when given."""
        b = self.battle
        if not hasattr(b, "powers_of"):
            return []
        own = b.powers_of(entity)
        if self.powers is not None and entity in self.powers:
            own = [p for p in own if p in self.powers[entity]] or list(self.powers[entity])
        return own

    def colour_of(self, team: str) -> theme.Colour:
        """A team's colour, handing out the next palette colour to a team seen for the first time."""
        if team not in self.team_colours:
            used = set(self.team_colours.values())
            free = [c for c in theme.TEAM_COLOURS if c not in used] or list(theme.TEAM_COLOURS)
            self.team_colours[team] = free[0]
        return self.team_colours[team]

    def clamp_camera(self) -> None:
        """Keep the view on the map; a map smaller than the viewport is centred."""
        for axis, (world, view) in enumerate(zip(self.world_size, self.map_rect.size)):
            if world <= view:
                self.camera[axis] = -(view - world) // 2
            else:
                self.camera[axis] = max(0, min(self.camera[axis], world - view))

    def pan(self, dx: int, dy: int) -> None:
        self.camera[0] += dx
        self.camera[1] += dy
        self.clamp_camera()

    def square_at(self, pos: tuple[int, int]) -> tuple[int, int] | None:
        """The square under a screen position, or None outside the map."""
        if not self.map_rect.collidepoint(pos):
            return None
        wx, wy = pos[0] - self.map_rect.x + self.camera[0], pos[1] - self.map_rect.y + self.camera[1]
        x, y = wx // self.tile, wy // self.tile
        if 0 <= wx and 0 <= wy and x < self.battle.width and y < self.battle.height:
            return int(x), int(y)
        return None

    def square_rect(self, x: int, y: int) -> pygame.Rect:
        """Screen rectangle of a square (it may lie outside the viewport)."""
        return pygame.Rect(self.map_rect.x + x * self.tile - self.camera[0],
                           self.map_rect.y + y * self.tile - self.camera[1], self.tile, self.tile)

    def square_centre(self, x: int, y: int) -> tuple[int, int]:
        return self.square_rect(x, y).center

    def centre_on(self, x: int, y: int) -> None:
        self.camera = [x * self.tile + self.tile // 2 - self.map_rect.w // 2,
                       y * self.tile + self.tile // 2 - self.map_rect.h // 2]
        self.clamp_camera()

    # ------------------------------------------------------------------ text

    def text(self, string: str, font: str = "body", colour: theme.Colour = theme.TEXT) -> pygame.Surface:
        """A rendered string, cached: font rendering is the slowest thing a frame could do."""
        key = (string, font, colour)
        surface = self._text.get(key)
        if surface is None:
            if len(self._text) > 4000:
                self._text.clear()
            surface = self.fonts[font].render(string, True, colour)
            self._text[key] = surface
        return surface

    # ------------------------------------------------------------------ static layer

    def _terrain_surface(self) -> pygame.Surface:
        """The map with walls, soft squares, heights, darkness, lights and fog, cached by map version."""
        b = self.battle
        levels = b.state.levels
        key = (b.terrain.version, id(levels), self.tile)
        if self._world is not None and key == self._terrain_key:
            return self._world
        self._terrain_key = key
        self._world = build_terrain(b, self.tile, self.text)
        return self._world

    # ------------------------------------------------------------------ events (log, falls)

    def _update_events(self) -> None:
        """Take in new events: log lines, and falls to animate and mark."""
        events = self.battle.state.events
        if len(events) < self._events_seen:
            self._events_seen = 0
            self._log_lines = []
        new = events[self._events_seen:]
        if not new:
            return
        if any(type(event).__name__ == "Spawned" for event in new):
            self._names = display_names(events)
            self._labels = token_labels(self._names)
        for event in new:
            kind = type(event).__name__
            if kind == "Landed":
                square = self.battle.get(event.entity, Position).square
                self._falls[event.entity] = (square, float(event.distance_ft), event.round, time.monotonic())
        self._events_seen = len(events)
        self._log_lines.extend(format_events(self.battle, new, self._names))
        if len(self._log_lines) > 2000:
            self._log_lines = self._log_lines[-1000:]

    @property
    def log_lines(self) -> list[str]:
        """The readable combat log so far (what the log panel shows)."""
        self._update_events()
        return list(self._log_lines)

    # ------------------------------------------------------------------ overlays

    def reach_mask(self, entity: int) -> np.ndarray:
        """Where the selected creature can move, cached until anything in the battle changes."""
        b = self.battle
        key = (entity, b.state.positions_version, b.terrain.version, len(b.state.events), len(b.command_log))
        if key != self._reach_key or self._reach is None:
            self._reach_key = key
            try:
                self._reach = b.reachable(entity)
            except (KeyError, ValueError):
                self._reach = np.zeros((b.width, b.height), dtype=bool)
        return self._reach

    def _mask_surface(self, name: str, mask: np.ndarray, colour: theme.Colour, alpha: int,
                      key: Any) -> pygame.Surface:
        """A boolean ``[x, y]`` mask as a translucent world-sized layer, cached under ``key``."""
        cached = self._mask_cache.get(name)
        if cached is not None and cached[0] == key:
            return cached[1]
        small = pygame.Surface(mask.shape, pygame.SRCALPHA)
        small.fill((*colour, 0))
        pygame.surfarray.pixels_alpha(small)[:] = np.where(mask, alpha, 0).astype(np.uint8)
        big = pygame.transform.scale(small, self.world_size)
        edge = _mask_edges(mask, self.tile, colour)
        if edge is not None:
            big.blit(edge, (0, 0))
        self._mask_cache[name] = (key, big)
        return big

    def _blit_world(self, target: pygame.Surface, layer: pygame.Surface) -> None:
        """Blit the visible part of a world-sized layer into the map viewport."""
        area = pygame.Rect(max(self.camera[0], 0), max(self.camera[1], 0), self.map_rect.w, self.map_rect.h)
        dest = (self.map_rect.x + max(-self.camera[0], 0), self.map_rect.y + max(-self.camera[1], 0))
        target.blit(layer, dest, area)

    # ------------------------------------------------------------------ tokens

    def token(self, team: str, label: str, health: tuple[int, int], fatigue: tuple[int, int],
              conditions: frozenset[str]) -> pygame.Surface:
        """One creature's token (disc, its label, health bar, fatigue pips, badges), cached by its look."""
        key = (team, label, health, fatigue, conditions)
        surface = self._tokens.get(key)
        if surface is None:
            if len(self._tokens) > 5000:
                self._tokens.clear()
            surface = draw_token(self.tile, self.colour_of(team), label, health, fatigue, conditions, self)
            self._tokens[key] = surface
        return surface

    def _creatures(self) -> list[tuple[int, Position, Health, Fatigue, frozenset[str], str, str]]:
        """Every creature's look, read through the facade only when the battle changed.

        Health, fatigue, conditions and squares change only through commands and ticks, and every
        such change is an event or moves ``positions_version``: that pair is the cache key.
        """
        b = self.battle
        key = (len(b.state.events), b.state.positions_version, len(b.command_log), b.round)
        if key == self._creatures_key:
            return self._creatures_cache
        found = []
        for e in b.creatures():
            conditions = frozenset(b.conditions(e))
            found.append((e, b.get(e, Position), b.get(e, Health), b.get(e, Fatigue), conditions,
                          b.team(e), self._names.get(e) or b.name(e)))
        # the dead below the living, so a corpse never hides who stands on it
        found.sort(key=lambda c: "dead" not in c[4])
        self._creatures_key, self._creatures_cache = key, found
        return found

    # ------------------------------------------------------------------ the frame

    def draw(self, surface: pygame.Surface, ui: UiState | None = None, now: float | None = None) -> None:
        """Draw a whole frame into ``surface``.

        Args:
            surface: the window or an off-screen surface of ``self.size``.
            ui: selection, chosen power, hover and messages (None: a plain view).
            now: the clock for animations (``time.monotonic()`` by default; tests pass a fixed one).
        """
        ui = ui or UiState()
        now = time.monotonic() if now is None else now
        b = self.battle
        self._update_events()
        surface.fill(theme.BACKGROUND)
        clip = surface.get_clip()
        surface.set_clip(self.map_rect)
        self._blit_world(surface, self._terrain_surface())
        selected = ui.selected if ui.selected is not None and ui.selected in b.creatures() else None
        if selected is not None and ui.power is None and b.is_alive(selected):
            mask = self.reach_mask(selected)
            self._blit_world(surface, self._mask_surface("reach", mask, theme.REACH, theme.REACH_ALPHA,
                                                         self._reach_key))
        if selected is not None and ui.power is not None:
            self._draw_power(surface, selected, ui.power, ui.hover, self.planned_square(selected, ui))
        self._draw_plans(surface, ui)
        creatures = self._creatures()
        self._draw_fall_marks(surface)
        squares: dict[tuple[int, int], int] = {}
        blits = []
        half = self.tile // 2
        view = self.map_rect.inflate(self.tile * 2, self.tile * 2)
        for e, pos, health, fatigue, conditions, team, name in creatures:
            rect = self.square_rect(pos.x, pos.y)
            if not view.colliderect(rect):
                continue
            if "dead" not in conditions:
                squares[pos.square] = e
            token = self.token(team, self._labels.get(e) or token_label(name), (health.current, health.maximum),
                               (fatigue.level, fatigue.maximum), conditions)
            dy = self._fall_offset(e, now)
            if dy:
                shadow_w = max(4, int(self.tile * (0.4 + 0.5 * (1 - min(dy / (self.tile * 4), 1)))))
                shadow = pygame.Rect(0, 0, shadow_w, max(3, shadow_w // 3))
                shadow.center = (rect.centerx, rect.bottom - self.tile // 6)
                pygame.draw.ellipse(surface, (0, 0, 0), shadow)
            blits.append((token, (rect.x, rect.y - dy)))
            if e == selected:
                pygame.draw.circle(surface, theme.SELECTED, (rect.centerx, rect.centery - dy), half - 1, 2)
        surface.fblits(blits)
        if selected is not None:
            pos = b.get(selected, Position)
            pygame.draw.circle(surface, theme.SELECTED, self.square_centre(pos.x, pos.y), self.tile // 2, 3)
        if selected is not None and ui.hover is not None:
            self._draw_hover(surface, selected, ui.hover, squares, ui)
        elif ui.hover is not None:
            pygame.draw.rect(surface, theme.TEXT, self.square_rect(*ui.hover), 1)
        if ui.banner:
            self._draw_banner(surface, ui.banner)
        surface.set_clip(clip)
        self._draw_sidebar(surface, ui, selected)
        self._draw_status(surface, ui)
        if ui.show_help:
            self._draw_help(surface)

    # ------------------------------------------------------------------ frame parts

    def _fall_offset(self, entity: int, now: float) -> int:
        """Pixels above its square a falling token is drawn: a short drop animation after a landing."""
        fall = self._falls.get(entity)
        if fall is None:
            return 0
        _, feet, _, t0 = fall
        duration = 0.35 + min(feet, 100) / 200
        progress = (now - t0) / duration
        if progress >= 1 or progress < 0:
            return 0
        height = min(feet / self.battle.rules.square_ft, 6) * self.tile * 0.6
        return int(height * (1 - progress * progress))

    def _draw_fall_marks(self, surface: pygame.Surface) -> None:
        """A "fell N ft" marker on each square where a creature landed this round."""
        for _entity, (square, feet, round_, _) in self._falls.items():
            if round_ < self.battle.round:
                continue
            rect = self.square_rect(*square)
            pygame.draw.rect(surface, theme.FALL, rect, 2, border_radius=3)
            label = self.text(f"fell {feet:g} ft", "tiny", theme.FALL)
            back = pygame.Rect(0, 0, label.get_width() + 6, label.get_height() + 2)
            back.midbottom = (rect.centerx, rect.top - 1)
            pygame.draw.rect(surface, (10, 20, 30), back, border_radius=3)
            surface.blit(label, (back.x + 3, back.y + 1))
            tip = (rect.right - 5, rect.top + 4)
            pygame.draw.line(surface, theme.FALL, tip, (tip[0], tip[1] + self.tile // 3), 2)
            pygame.draw.polygon(surface, theme.FALL, [(tip[0] - 4, tip[1] + self.tile // 3 - 4),
                                                       (tip[0] + 4, tip[1] + self.tile // 3 - 4),
                                                       (tip[0], tip[1] + self.tile // 3 + 2)])

    def planned_square(self, entity: int, ui: UiState) -> tuple[int, int]:
        """Where a creature will stand when its queued moves are done (where its powers reach from)."""
        goals = ui.planned.get(entity)
        return goals[-1] if goals else self.battle.get(entity, Position).square

    def _draw_banner(self, surface: pygame.Surface, text: str) -> None:
        """A band across the top of the map (the battle is over)."""
        label = self.text(text, "title", theme.ACCENT)
        hint = self.text("Ctrl+L loads the last save; close the window to quit", "small", theme.TEXT_DIM)
        box = pygame.Rect(0, 0, max(label.get_width(), hint.get_width()) + 40, label.get_height() + hint.get_height()
                          + 24)
        box.midtop = (self.map_rect.centerx, self.map_rect.y + 12)
        _panel(surface, box)
        surface.blit(label, label.get_rect(midtop=(box.centerx, box.y + 8)))
        surface.blit(hint, hint.get_rect(midtop=(box.centerx, box.y + 14 + label.get_height())))

    def _draw_plans(self, surface: pygame.Surface, ui: UiState) -> None:
        """Arrows for moves and marks for powers the player queued this round (they resolve when the
        turn ends, in turn order)."""
        b = self.battle
        creatures = set(b.creatures())
        for entity, goals in ui.planned.items():
            if entity not in creatures or not goals:
                continue
            start = self.square_centre(*b.get(entity, Position).square)
            for goal in goals:
                end = self.square_centre(*goal)
                pygame.draw.line(surface, theme.SELECTED, start, end, 2)
                pygame.draw.circle(surface, theme.SELECTED, end, max(3, self.tile // 6), 2)
                start = end
        for entity, uses in ui.planned_powers.items():
            if entity not in creatures:
                continue
            start = self.square_centre(*self.planned_square(entity, ui))
            for index, (power_id, square) in enumerate(uses):
                try:
                    name = b.power(power_id).name
                except (KeyError, ValueError):
                    name = power_id
                if square is not None:
                    rect = self.square_rect(*square)
                    _dashed(surface, theme.ACCENT, start, rect.center, 2)
                    pygame.draw.rect(surface, theme.ACCENT, rect.inflate(-4, -4), 2, border_radius=4)
                    anchor = (rect.centerx, rect.bottom + 1 + index * 16)
                else:
                    anchor = (start[0], start[1] + self.tile // 2 + 1 + index * 16)
                label = self.text(name, "tiny", theme.ACCENT)
                back = pygame.Rect(0, 0, label.get_width() + 6, label.get_height() + 2)
                back.midtop = anchor
                pygame.draw.rect(surface, (30, 26, 10), back, border_radius=3)
                surface.blit(label, (back.x + 3, back.y + 1))

    def _draw_power(self, surface: pygame.Surface, user: int, power_id: str, hover: tuple[int, int] | None,
                    square: tuple[int, int] | None = None) -> None:
        """The chosen power's range around the user (where its queued moves take it) and its area
        under the mouse."""
        b = self.battle
        try:
            power = b.power(power_id)
        except (KeyError, ValueError):
            return
        square = square or b.get(user, Position).square
        rules = b.rules
        range_ft = power.range_ft if power.range_ft is not None else (
            getattr(power.area, "length_ft", 0) or (0 if power.area is not None else rules.square_ft))
        from systems.geometry import within_radius
        key = (user, power_id, square, b.terrain.version)
        mask = within_radius((b.width, b.height), square, range_ft, rules) & ~b.terrain.walls
        self._blit_world(surface, self._mask_surface("range", mask, theme.RANGE, theme.RANGE_ALPHA, key))
        point = hover
        if power.area is not None and (point is not None or power.range_ft is None):
            try:
                covered = b.squares_in_area(power_id, user, point)
            except (KeyError, ValueError):
                covered = []
            overlay = pygame.Surface((self.tile, self.tile), pygame.SRCALPHA)
            overlay.fill((*theme.AREA, theme.AREA_ALPHA))
            surface.fblits([(overlay, self.square_rect(x, y)) for x, y in covered])
            for x, y in covered:
                pygame.draw.rect(surface, theme.AREA, self.square_rect(x, y), 1)

    def _draw_hover(self, surface: pygame.Surface, selected: int, hover: tuple[int, int],
                    squares: dict[tuple[int, int], int], ui: UiState | None = None) -> None:
        """Line of sight, cover and roll mode from the selected creature to the hovered one, and with
        a power chosen, whether the target is in its reach."""
        b = self.battle
        rect = self.square_rect(*hover)
        target = squares.get(hover)
        if target is None or target == selected or not b.is_alive(selected):
            pygame.draw.rect(surface, theme.TEXT, rect, 1)
            return
        origin = b.get(selected, Position).square
        sees = b.can_see(selected, target) if hasattr(b, "can_see") else True
        colour = theme.LOS_CLEAR if sees else theme.LOS_BLOCKED
        start, end = self.square_centre(*origin), rect.center
        _dashed(surface, colour, start, end, 3)
        pygame.draw.rect(surface, colour, rect, 2)
        lines = []
        if b.team(target) != b.team(selected):
            cover = b.has_cover(target, selected)
            mode = b.roll_mode(selected, "attack", target=target)
            defense = b.defense_against(target, selected)
            if cover:
                _shield(surface, (rect.right - self.tile // 5, rect.top + self.tile // 5), max(7, self.tile // 4))
            lines = [("in sight" if sees else "NO LINE OF SIGHT", colour),
                     (f"cover +{b.rules.cover_bonus}" if cover else "no cover",
                      theme.COVER if cover else theme.TEXT_DIM)]
            if sees:
                lines.append((f"attack: {mode}", theme.LOS_BLOCKED if mode != "normal" else theme.TEXT))
            else:
                lines.append(("cannot be targeted (not seen)", theme.LOS_BLOCKED))
            lines.append((f"Defense {defense}", theme.TEXT))
            light = self._light_word(hover)
            if light:
                lines.append((f"light there: {light}", theme.TEXT_DIM))
        else:
            lines = [("in sight" if sees else "no line of sight", colour), ("ally", theme.TEXT_DIM)]
        if ui is not None and ui.power is not None:
            lines.append(self._reach_line(selected, ui, hover))
        surfaces = [self.text(t, "small", c) for t, c in lines]
        width = max(s.get_width() for s in surfaces) + 12
        height = sum(s.get_height() for s in surfaces) + 8
        box = pygame.Rect(rect.right + 6, rect.top, width, height)
        if box.right > self.map_rect.right:
            box.right = rect.left - 6
        box.clamp_ip(self.map_rect)
        _panel(surface, box)
        y = box.y + 4
        for s in surfaces:
            surface.blit(s, (box.x + 6, y))
            y += s.get_height()

    def _light_word(self, square: tuple[int, int]) -> str:
        """The light on a square in words when it is less than normal ("terrible"), else ""."""
        try:
            level = self.battle.visibility_at(*square)
        except (AttributeError, KeyError, ValueError):
            return ""
        if int(level) >= 3:
            return ""
        return str(getattr(level, "name", level)).lower().replace("_", " ")

    def _reach_line(self, user: int, ui: UiState, square: tuple[int, int]) -> tuple[str, theme.Colour]:
        """How far the hovered square is from where the user will stand, against the power's reach."""
        from systems.geometry import distance_ft

        b = self.battle
        assert ui.power is not None
        try:
            power = b.power(ui.power)
        except (KeyError, ValueError):
            return (ui.power, theme.TEXT_DIM)
        reach = power.range_ft if power.range_ft is not None else float(b.rules.square_ft)
        gap = distance_ft(self.planned_square(user, ui), square, b.rules)
        if gap > reach:
            return (f"OUT OF REACH: {gap} ft, {power.name} {reach:g} ft", theme.LOS_BLOCKED)
        return (f"{gap} ft away ({power.name} {reach:g} ft)", theme.TEXT)

    def _draw_sidebar(self, surface: pygame.Surface, ui: UiState, selected: int | None) -> None:
        b = self.battle
        x0 = self.map_rect.right
        side = pygame.Rect(x0, 0, SIDEBAR_W, self.size[1] - STATUS_H)
        key = (b.round, len(b.state.events), len(b.command_log), selected, ui.power, ui.title,
               tuple(sorted(ui.human_teams)), side.size, ui.log_scroll)
        if key != self._side_key or self._side is None:
            self._side_key = key
            self._side = self._render_sidebar(side.size, ui, selected)
        surface.blit(self._side, side.topleft)

    def _render_sidebar(self, size: tuple[int, int], ui: UiState, selected: int | None) -> pygame.Surface:
        """The right-hand panel: round, turn order, the selected creature and the combat log."""
        b = self.battle
        panel = pygame.Surface(size)
        panel.fill(theme.PANEL)
        pygame.draw.line(panel, theme.PANEL_EDGE, (0, 0), (0, size[1]), 2)
        y = 10
        title = ui.title or "Battle"
        round_text = self.text(f"Round {b.round}", "head")
        room = size[0] - round_text.get_width() - 14 - 14 - 12
        font = self.fonts["head"]
        if font.size(title)[0] > room:  # a long scenario name must not run into the round number
            while title and font.size(title + "...")[0] > room:
                title = title[:-1]
            title = title.rstrip() + "..."
        panel.blit(self.text(title, "head", theme.ACCENT), (14, y))
        panel.blit(round_text, (size[0] - round_text.get_width() - 14, y))
        y += 34
        panel.blit(self.text("Turn order", "small", theme.TEXT_DIM), (14, y))
        y += 18
        order = b.turn_order()
        x = 14
        for e in order:
            alive = b.is_alive(e)
            conditions = b.conditions(e)
            colour = self.colour_of(b.team(e))
            name = self._names.get(e) or b.name(e)
            label = self.text(name, "small", theme.TEXT if alive and not conditions & {"downed", "unconscious"}
                              else theme.TEXT_DIM)
            w = label.get_width() + 22
            if x + w > size[0] - 10:
                x, y = 14, y + 20
            chip = pygame.Rect(x, y, w, 18)
            pygame.draw.rect(panel, (44, 48, 60) if e != selected else (80, 76, 40), chip, border_radius=9)
            pygame.draw.circle(panel, colour if alive else (80, 80, 80), (x + 9, y + 9), 6)
            panel.blit(label, (x + 18, y + 2))
            if not alive:
                pygame.draw.line(panel, theme.HEALTH_LOW, (x + 18, y + 9), (x + w - 4, y + 9), 2)
            x += w + 4
        y += 28
        if selected is not None:
            y = self._render_selected(panel, y, selected, ui)
        pygame.draw.line(panel, theme.PANEL_EDGE, (10, y), (size[0] - 10, y), 1)
        y += 6
        heading = "Combat log" + (f"  (back {ui.log_scroll} lines: wheel down for newest)"
                                  if ui.log_scroll else "  (wheel here to scroll)")
        panel.blit(self.text(heading, "small", theme.TEXT_DIM), (14, y))
        y += 18
        self._render_log(panel, pygame.Rect(10, y, size[0] - 20, size[1] - y - 8), ui.log_scroll)
        return panel

    def _render_selected(self, panel: pygame.Surface, y: int, entity: int, ui: UiState) -> int:
        b = self.battle
        name = self._names.get(entity) or b.name(entity)
        team = b.team(entity)
        health, fatigue, pos = b.get(entity, Health), b.get(entity, Fatigue), b.get(entity, Position)
        pygame.draw.circle(panel, self.colour_of(team), (22, y + 10), 8)
        control = "you" if team in ui.human_teams else "computer"
        panel.blit(self.text(f"{name}  ({team}, {control})", "body"), (36, y + 2))
        y += 24
        info = f"Health {health.current}/{health.maximum}   Fatigue {fatigue.level}/{fatigue.maximum}   " \
               f"at ({pos.x}, {pos.y}) {pos.z:g} ft"
        panel.blit(self.text(info, "small", theme.TEXT_DIM), (14, y))
        y += 18
        conditions = sorted(b.conditions(entity))
        if conditions:
            panel.blit(self.text("Conditions: " + ", ".join(conditions), "small", theme.ACCENT), (14, y))
            y += 18
        powers = self.powers_for(entity)
        for index, power_id in enumerate(powers[:9], start=1):
            try:
                power = b.power(power_id)
                rng = f"{power.range_ft:g} ft" if power.range_ft is not None else "self/reach"
                label = f"{index}  {power.name}  ({rng})"
            except (KeyError, ValueError):
                label = f"{index}  {power_id}"
            colour = theme.ACCENT if power_id == ui.power else theme.TEXT
            panel.blit(self.text(label, "small", colour), (22, y))
            y += 17
        return y + 6

    def _render_log(self, panel: pygame.Surface, box: pygame.Rect, scroll: int = 0) -> None:
        """The newest log lines that fit (or ``scroll`` wrapped lines further back), wrapped to the
        panel, newest at the bottom."""
        font = self.fonts["small"]
        rows: list[tuple[str, theme.Colour]] = []
        fit = box.h // 17 if box.h > 0 else 0
        self.log_scroll_max = None
        for line in reversed(self._log_lines):
            wrapped = _wrap(line, font, box.w)
            colour = _log_colour(line)
            rows[:0] = [(w, colour) for w in wrapped]
            if len(rows) > fit + scroll:
                break
        else:  # the whole log is in rows: the window knows how far back it can scroll
            self.log_scroll_max = max(0, len(rows) - fit)
        end = max(len(rows) - scroll, min(fit, len(rows)))
        rows = rows[max(0, end - fit):end] if fit else []
        y = box.y
        for text, colour in rows:
            panel.blit(self.text(text, "small", colour), (box.x, y))
            y += 17

    def _draw_status(self, surface: pygame.Surface, ui: UiState) -> None:
        bar = pygame.Rect(0, self.size[1] - STATUS_H, self.size[0], STATUS_H)
        pygame.draw.rect(surface, (16, 17, 22), bar)
        text = ui.message or "Click: select / move / target   1-9: power   Space: end turn   Esc: cancel   " \
                             "Ctrl+S/L: save/load   ?: help"
        surface.blit(self.text(text, "small", theme.TEXT if ui.message else theme.TEXT_DIM), (10, bar.y + 6))

    def _draw_help(self, surface: pygame.Surface) -> None:
        lines = [
            ("Controls", "head"),
            ("Left click a creature: select it (yours can be given orders)", "body"),
            ("Left click a highlighted square: move there (resolves at end of turn)", "body"),
            ("1-9: choose a power; click a creature or square to use it", "body"),
            ("Hover an enemy: line of sight, cover and your roll mode", "body"),
            ("Space: end the turn (the computer acts, then the round is played)", "body"),
            ("Esc: cancel power / selection     Tab: next of your creatures", "body"),
            ("Mouse wheel / arrows / right-drag: scroll the map (wheel over the log: scroll the log)", "body"),
            ("Blue: where the selected creature can move   Yellow: the power's reach   Red: its area", "body"),
            ("Numbers on squares: ground height in ft (stepping down is a fall: 1d6 per full 10 ft)", "body"),
            ("Yellow dashes and boxes: powers you queued; yellow lines: queued moves", "body"),
            ("Ctrl+S: save to out/save.json     Ctrl+L: load it", "body"),
            ("Badges: P prone  S surprised  F flat-footed  D downed  U unconscious", "body"),
            ("Sl slowed  Dz dazzled  B blinded  Fl flying  H hidden  R restrained", "body"),
            ("Pips under a token: fatigue (5 = unconscious)", "body"),
            ("?: close this help", "body"),
        ]
        surfaces = [self.text(t, f, theme.ACCENT if f == "head" else theme.TEXT) for t, f in lines]
        w = max(s.get_width() for s in surfaces) + 40
        h = sum(s.get_height() + 6 for s in surfaces) + 30
        box = pygame.Rect(0, 0, w, h)
        box.center = self.map_rect.center
        shade = pygame.Surface(self.size, pygame.SRCALPHA)
        shade.fill((0, 0, 0, 140))
        surface.blit(shade, (0, 0))
        _panel(surface, box)
        y = box.y + 15
        for s in surfaces:
            surface.blit(s, (box.x + 20, y))
            y += s.get_height() + 6


# ---------------------------------------------------------------------- drawing helpers


def _panel(surface: pygame.Surface, box: pygame.Rect) -> None:
    pygame.draw.rect(surface, (20, 22, 30), box, border_radius=6)
    pygame.draw.rect(surface, theme.PANEL_EDGE, box, 1, border_radius=6)


def _dashed(surface: pygame.Surface, colour: theme.Colour, start: tuple[int, int], end: tuple[int, int],
            width: int) -> None:
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


def _shield(surface: pygame.Surface, centre: tuple[int, int], size: int) -> None:
    """A small shield: the cover marker."""
    cx, cy = centre
    points = [(cx - size, cy - size), (cx + size, cy - size), (cx + size, cy), (cx, cy + size + size // 2),
              (cx - size, cy)]
    pygame.draw.polygon(surface, theme.COVER, points)
    pygame.draw.polygon(surface, (20, 40, 80), points, 2)


def _wrap(text: str, font: pygame.font.Font, width: int) -> list[str]:
    words = text.split(" ")
    lines, line = [], ""
    for word in words:
        trial = f"{line} {word}" if line else word
        if font.size(trial)[0] <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = "    " + word
    if line:
        lines.append(line)
    return lines


def _log_colour(line: str) -> theme.Colour:
    if "DIES" in line or "DOWNED" in line:
        return (255, 110, 100)
    if " falls " in line and "ft" in line:
        return theme.FALL
    if "damage" in line or "HIT" in line:
        return (255, 190, 140)
    if "is surprised" in line or "is flat-footed" in line or "is prone" in line:
        return theme.ACCENT
    if "Combat starts" in line or "initiative" in line:
        return theme.TEXT_DIM
    return theme.TEXT


def _mask_edges(mask: np.ndarray, tile: int, colour: theme.Colour) -> pygame.Surface | None:
    """Outline of a mask's region (lines where a square in it meets one outside), for crisp overlays."""
    w, h = mask.shape
    if not mask.any():
        return None
    surface = pygame.Surface((w * tile, h * tile), pygame.SRCALPHA)
    edge = (*colour, 200)
    right = mask[:-1, :] != mask[1:, :]
    down = mask[:, :-1] != mask[:, 1:]
    for x, y in zip(*np.nonzero(right)):
        px = (x + 1) * tile
        pygame.draw.line(surface, edge, (px, y * tile), (px, (y + 1) * tile), 2)
    for x, y in zip(*np.nonzero(down)):
        py = (y + 1) * tile
        pygame.draw.line(surface, edge, (x * tile, py), ((x + 1) * tile, py), 2)
    return surface


def token_label(name: str) -> str:
    """Two letters for a token: the last word tells creatures of one team apart ("Red sentry" /
    "Red slinger": Se / Sl); a numbered name keeps its number ("Raider 2": R2)."""
    words = name.split() or ["?"]
    if len(words) > 1 and words[-1].isdigit():
        return words[0][:1].upper() + words[-1][:2]
    return words[-1][:2].capitalize()


def token_labels(names: dict[int, str]) -> dict[int, str]:
    """Entity -> token label, different for every creature where the names allow: creatures whose
    last words clash ("West archer", "East archer") get the initials of their words (WA, EA)."""
    labels = {e: token_label(name) for e, name in names.items()}
    clashes: dict[str, int] = {}
    for label in labels.values():
        clashes[label] = clashes.get(label, 0) + 1
    for e, label in labels.items():
        words = names[e].split()
        if clashes[label] > 1 and len(words) > 1:
            labels[e] = "".join(w[:1].upper() for w in words[:2])
    return labels


def draw_token(tile: int, colour: theme.Colour, label: str, health: tuple[int, int], fatigue: tuple[int, int],
               conditions: frozenset[str], renderer: Renderer) -> pygame.Surface:
    """A token for one square: team disc with its label (see ``token_label``), health bar on top,
    fatigue pips, badges."""
    surface = pygame.Surface((tile, tile), pygame.SRCALPHA)
    dead = "dead" in conditions
    down = bool(conditions & {"downed", "unconscious"})
    centre = (tile // 2, tile // 2 + max(1, tile // 16))
    radius = max(4, int(tile * 0.36))
    fill = tuple(int(c * (0.35 if dead else 0.6 if down else 1)) for c in colour)
    pygame.draw.circle(surface, (0, 0, 0, 110), (centre[0] + 2, centre[1] + 2), radius)
    pygame.draw.circle(surface, fill, centre, radius)
    pygame.draw.circle(surface, tuple(min(255, c + 70) for c in fill), centre, radius, max(1, tile // 20))
    # a thin dark rim: a token stays readable on ground of its own colour (yellow team on lit sand)
    pygame.draw.circle(surface, (10, 10, 14), centre, radius + 1, 1)
    if "prone" in conditions and not dead:
        pygame.draw.line(surface, (20, 20, 20), (centre[0] - radius + 3, centre[1] + radius // 2),
                         (centre[0] + radius - 3, centre[1] + radius // 2), 2)
    initials = label if tile >= 24 else label[:1]
    font = "small" if tile < 36 else "body"
    if tile >= 20:
        text = renderer.text(initials, font, (255, 255, 255) if not dead else (160, 160, 160))
        surface.blit(text, text.get_rect(center=centre))
    if dead:
        r = radius - 2
        pygame.draw.line(surface, (200, 60, 50), (centre[0] - r, centre[1] - r), (centre[0] + r, centre[1] + r), 3)
        pygame.draw.line(surface, (200, 60, 50), (centre[0] - r, centre[1] + r), (centre[0] + r, centre[1] - r), 3)
        return surface
    # health bar along the top of the square
    bar = pygame.Rect(3, 1, tile - 6, max(3, tile // 10))
    pygame.draw.rect(surface, theme.HEALTH_BACK, bar)
    current, maximum = health
    share = current / maximum if maximum else 0
    colour_bar = theme.HEALTH_GOOD if share > 0.6 else theme.HEALTH_HURT if share > 0.3 else theme.HEALTH_LOW
    if current > 0:
        pygame.draw.rect(surface, colour_bar, (bar.x, bar.y, max(1, int(bar.w * share)), bar.h))
    # fatigue pips along the bottom
    level, most = fatigue
    pip = max(2, tile // 16)
    if level > 0 or tile >= 24:
        step = pip * 2 + 1
        x0 = tile // 2 - (most * step) // 2 + pip
        for i in range(most):
            pygame.draw.circle(surface, theme.FATIGUE_ON if i < level else theme.FATIGUE_OFF,
                               (x0 + i * step, tile - pip - 1), pip)
    # condition badges down the right edge
    badges = [c for c in sorted(conditions) if c not in theme.BADGE_SKIP]
    size = max(8, tile // 3)
    for index, condition in enumerate(badges[:3]):
        letters, badge_colour = theme.badge(condition)
        box = pygame.Rect(tile - size, bar.bottom + 1 + index * (size + 1), size, size)
        pygame.draw.rect(surface, badge_colour, box, border_radius=3)
        if tile >= 20:
            text = renderer.text(letters, "tiny", (0, 0, 0) if sum(badge_colour) > 360 else (255, 255, 255))
            surface.blit(text, text.get_rect(center=box.center))
    return surface


def build_terrain(battle: Any, tile: int, text: Any) -> pygame.Surface:
    """The static map layer: elevation-shaded ground, cliffs, hay and water, walls, heights, then
    darkness per visibility level, fog and smoke areas, and the warm glow of lights.
    """
    terrain = battle.terrain
    w, h = terrain.width, terrain.height
    ground, walls, soft = terrain.ground, terrain.walls, terrain.soft
    world = pygame.Surface((w * tile, h * tile))
    # ground: colour by height, interpolated between the lowest and highest ground of the map
    lo, hi = float(ground.min()), float(ground.max())
    t = (ground - lo) / (hi - lo) if hi > lo else np.zeros_like(ground)
    low, high = np.array(theme.GROUND_LOW, float), np.array(theme.GROUND_HIGH, float)
    colours = (low[None, None, :] * (1 - t[..., None]) + high[None, None, :] * t[..., None])
    # a slight checker so that squares read as squares even without grid lines
    checker = ((np.add.outer(np.arange(w), np.arange(h)) % 2) * 6)[..., None]
    colours = np.clip(colours + checker, 0, 255).astype(np.uint8)
    water = soft & (ground < 0)
    hay = soft & ~water
    colours[hay] = theme.HAY
    colours[water] = theme.WATER
    colours[walls] = theme.WALL
    small = pygame.surfarray.make_surface(colours)
    pygame.transform.scale(small, world.get_size(), world)
    grid = pygame.Surface(world.get_size(), pygame.SRCALPHA)
    for x in range(w + 1):
        pygame.draw.line(grid, (*theme.GRID_LINE, theme.GRID_ALPHA), (x * tile, 0), (x * tile, h * tile))
    for y in range(h + 1):
        pygame.draw.line(grid, (*theme.GRID_LINE, theme.GRID_ALPHA), (0, y * tile), (w * tile, y * tile))
    world.blit(grid, (0, 0))
    # hay straw and water waves
    for x, y in zip(*np.nonzero(hay)):
        r = pygame.Rect(x * tile, y * tile, tile, tile)
        for i in range(1, 4):
            off = i * tile // 4
            pygame.draw.line(world, theme.HAY_STRAW, (r.x + off - tile // 8, r.y + 3), (r.x + off + tile // 8,
                                                                                       r.bottom - 3), 1)
    for x, y in zip(*np.nonzero(water)):
        r = pygame.Rect(x * tile, y * tile, tile, tile)
        for i in (1, 3):
            yy = r.y + i * tile // 4
            pygame.draw.arc(world, theme.WATER_WAVE, (r.x + 3, yy - 3, tile // 2 - 3, 6), 0, math.pi, 1)
            pygame.draw.arc(world, theme.WATER_WAVE, (r.centerx, yy - 3, tile // 2 - 3, 6), math.pi, 2 * math.pi, 1)
    # cliffs: a dark edge where neighbouring ground differs by 10 ft or more, shadow on the low side
    step = 10
    for axis in (0, 1):
        a = ground[:-1, :] if axis == 0 else ground[:, :-1]
        b = ground[1:, :] if axis == 0 else ground[:, 1:]
        for x, y in zip(*np.nonzero(np.abs(a - b) >= step)):
            high_first = a[x, y] > b[x, y]
            if axis == 0:
                px = (x + 1) * tile
                pygame.draw.line(world, theme.CLIFF, (px, y * tile), (px, (y + 1) * tile), max(2, tile // 12))
                shade = pygame.Rect(px if high_first else px - tile // 4, y * tile, tile // 4, tile)
            else:
                py = (y + 1) * tile
                pygame.draw.line(world, theme.CLIFF, (x * tile, py), ((x + 1) * tile, py), max(2, tile // 12))
                shade = pygame.Rect(x * tile, py if high_first else py - tile // 4, tile, tile // 4)
            overlay = pygame.Surface(shade.size, pygame.SRCALPHA)
            overlay.fill((0, 0, 0, 60))
            world.blit(overlay, shade)
    # walls: a raised block, the centre left plain so it reads as the wall colour
    for x, y in zip(*np.nonzero(walls)):
        r = pygame.Rect(x * tile, y * tile, tile, tile)
        pygame.draw.line(world, theme.WALL_TOP, r.topleft, (r.right - 1, r.top), 2)
        pygame.draw.line(world, theme.WALL_TOP, r.topleft, (r.left, r.bottom - 1), 2)
        pygame.draw.line(world, theme.WALL_SHADOW, (r.left, r.bottom - 1), (r.right - 1, r.bottom - 1), 2)
        pygame.draw.line(world, theme.WALL_SHADOW, (r.right - 1, r.top), (r.right - 1, r.bottom - 1), 2)
        if tile >= 20:
            q = tile // 4
            pygame.draw.line(world, theme.WALL_SHADOW, (r.x + 3, r.y + q), (r.right - 4, r.y + q), 1)
            pygame.draw.line(world, theme.WALL_SHADOW, (r.x + 3, r.bottom - q), (r.right - 4, r.bottom - q), 1)
    # height numbers
    if tile >= 20:
        for x, y in zip(*np.nonzero((ground != 0) & ~walls)):
            label = text(f"{ground[x, y]:g}", "tiny", (250, 250, 240))
            shadow = text(f"{ground[x, y]:g}", "tiny", (0, 0, 0))
            pos = (x * tile + tile - label.get_width() - 2, y * tile + tile - label.get_height())
            world.blit(shadow, (pos[0] + 1, pos[1] + 1))
            world.blit(label, pos)
    _darkness(world, battle, tile)
    return world


def _darkness(world: pygame.Surface, battle: Any, tile: int) -> None:
    """Darken each square by its visibility level (fog and smoke grey, night blue-black), then let
    lights glow warm where they reach, walls casting their shadows."""
    from systems.geometry import within_radius
    terrain, rules = battle.terrain, battle.rules
    levels = battle.state.levels
    if levels is None:
        return
    w, h = terrain.width, terrain.height
    fogged = np.zeros((w, h), dtype=bool)
    for area in terrain.areas.values():
        mask = within_radius((w, h), (area.x, area.y), area.radius_ft, rules)
        fogged |= mask & (levels <= int(area.level))
    rgba = np.zeros((w, h, 4), dtype=np.uint8)
    for level in range(4):
        for table, where in ((theme.DARKNESS, (levels == level) & ~fogged), (theme.FOG, (levels == level) & fogged)):
            colour, alpha = table[level]
            rgba[where, :3] = colour
            rgba[where, 3] = alpha
    small = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.surfarray.pixels3d(small)[:] = rgba[..., :3]
    pygame.surfarray.pixels_alpha(small)[:] = rgba[..., 3]
    del rgba
    # scaled crisp, then a soft copy on top: squares keep their level but edges fade
    big = pygame.transform.scale(small, world.get_size())
    world.blit(big, (0, 0))
    glow_lights(world, battle, tile)


def glow_lights(world: pygame.Surface, battle: Any, tile: int) -> None:
    """Additive warm glow around each light, only on squares it actually lights, and a torch icon."""
    from systems.visibility import lit_mask
    terrain, rules = battle.terrain, battle.rules
    for light in terrain.lights.values():
        mask = lit_mask(terrain, light.x, light.y, light.radius_ft, rules)
        radius_px = (light.radius_ft / rules.square_ft + 0.5) * tile
        xs = (np.arange(terrain.width * tile) + 0.5 - (light.x + 0.5) * tile)[:, None]
        ys = (np.arange(terrain.height * tile) + 0.5 - (light.y + 0.5) * tile)[None, :]
        x0, x1 = max(0, int((light.x + 0.5) * tile - radius_px)), min(terrain.width * tile,
                                                                      int((light.x + 0.5) * tile + radius_px) + 1)
        y0, y1 = max(0, int((light.y + 0.5) * tile - radius_px)), min(terrain.height * tile,
                                                                      int((light.y + 0.5) * tile + radius_px) + 1)
        if x1 <= x0 or y1 <= y0:
            continue
        dist = np.hypot(xs[x0:x1], ys[:, y0:y1])
        strength = np.clip(1 - dist / max(radius_px, 1), 0, 1) ** 1.4 * (0.55 if int(light.level) >= 3 else 0.3)
        lit = np.repeat(np.repeat(mask, tile, axis=0), tile, axis=1)[x0:x1, y0:y1] & \
            ~np.repeat(np.repeat(terrain.walls, tile, axis=0), tile, axis=1)[x0:x1, y0:y1]
        strength = strength * lit
        glow = np.zeros((x1 - x0, y1 - y0, 3), dtype=np.uint8)
        for channel, value in enumerate(theme.LIGHT_GLOW):
            glow[..., channel] = (strength * value).astype(np.uint8)
        world.blit(pygame.surfarray.make_surface(glow), (x0, y0), special_flags=pygame.BLEND_ADD)
        _torch(world, ((light.x + 0.5) * tile, (light.y + 0.5) * tile), tile)


def _torch(world: pygame.Surface, centre: tuple[float, float], tile: int) -> None:
    cx, cy = int(centre[0]), int(centre[1])
    s = max(3, tile // 6)
    pygame.draw.line(world, (110, 70, 30), (cx, cy + s), (cx, cy + 3 * s), max(2, s // 2))
    pygame.draw.polygon(world, (255, 140, 30), [(cx - s, cy + s), (cx + s, cy + s), (cx, cy - 2 * s)])
    pygame.draw.polygon(world, (255, 230, 120), [(cx - s // 2, cy + s), (cx + s // 2, cy + s), (cx, cy - s // 2)])


def visible_creatures(battle: Any) -> Iterable[int]:
    """Living creatures (for callers that want to iterate tokens without the dead)."""
    return [e for e in battle.creatures() if battle.is_alive(e)]
