"""The creatures on the map: one token per creature, with its health, fatigue and condition badges.

A token's look is rendered once per (team, label, health, fatigue, conditions) and blitted after
that, and the creatures' looks are read through the facade only when the battle changed, so 200
tokens cost a couple of hundred blits a frame.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import pygame

from components import Fatigue, Health, Position
from game.render import theme
from game.render.feed import EventFeed, token_label
from game.render.frames import Point
from game.render.viewport import Viewport

TextFn = Callable[[str, str, theme.Colour], pygame.Surface]
_TOKEN_CACHE_MAX = 5000


class Look(NamedTuple):
    """What a creature's token shows, read from the battle once per change."""

    entity: int
    position: Position
    health: Health
    fatigue: Fatigue
    conditions: frozenset[str]
    team: str
    name: str


#: what a frame needs of a creature's token: its image, its square's corner in world pixels, its
#: square, whether it lives
Entry = tuple[pygame.Surface, int, int, tuple[int, int], bool]


class Tokens:
    """A renderer's token surfaces and its snapshot of the creatures' looks."""

    def __init__(self, colour_of: Callable[[str], theme.Colour], text: TextFn) -> None:
        self.colour_of = colour_of
        self.text = text
        self._cache: dict[tuple[Any, ...], pygame.Surface] = {}
        self._looks_key: tuple[int, ...] | None = None
        self._looks: list[Look] = []
        self._entries_key: tuple[Any, ...] | None = None
        self._entries_cache: dict[int, Entry] = {}

    def token(self, tile: int, team: str, label: str, health: tuple[int, int], fatigue: tuple[int, int],
              conditions: frozenset[str]) -> pygame.Surface:
        """One creature's token (disc, its label, health bar, fatigue pips, badges), cached by its look."""
        key = (team, label, health, fatigue, conditions, tile)
        surface = self._cache.get(key)
        if surface is None:
            if len(self._cache) > _TOKEN_CACHE_MAX:
                self._cache.clear()
            surface = draw_token(tile, self.colour_of(team), label, health, fatigue, conditions, self.text)
            self._cache[key] = surface
        return surface

    def _entry(self, look: Look, tile: int, labels: Mapping[int, str]) -> Entry:
        """A look's token image, its square's corner in world pixels, its square, whether it lives."""
        health, fatigue, pos = look.health, look.fatigue, look.position
        image = self.token(tile, look.team, labels.get(look.entity) or token_label(look.name),
                           (health.current, health.maximum), (fatigue.level, fatigue.maximum), look.conditions)
        return image, pos.x * tile, pos.y * tile, pos.square, "dead" not in look.conditions

    def _entries(self, tile: int, labels: Mapping[int, str]) -> dict[int, Entry]:
        """Every look's entry, worked out again only when the looks, the tile or the labels change."""
        key = (self._looks_key, tile, id(labels), len(labels))
        if key != self._entries_key:
            self._entries_key = key
            self._entries_cache = {look.entity: self._entry(look, tile, labels) for look in self._looks}
        return self._entries_cache

    def looks(self, battle: Any, feed: EventFeed) -> list[Look]:
        """Every creature's look, read through the facade only when the battle changed.

        Health, fatigue, conditions and squares change only through commands and ticks, and every
        such change is an event or moves ``positions_version``: those are the cache key.
        """
        state = battle.state
        key = (len(state.events), state.positions_version, len(battle.command_log), battle.round)
        if key == self._looks_key:
            return self._looks
        found = [Look(e, battle.get(e, Position), battle.get(e, Health), battle.get(e, Fatigue),
                      frozenset(battle.conditions(e)), battle.team(e), feed.name(battle, e))
                 for e in battle.creatures()]
        # the dead below the living, so a corpse never hides who stands on it
        found.sort(key=lambda c: "dead" not in c.conditions)
        self._looks_key, self._looks = key, found
        return found

    def draw(self, surface: pygame.Surface, view: Viewport, looks: list[Look], feed: EventFeed,
             selected: int | None, moving: Mapping[int, Point | None] | None = None,
             drops: Mapping[int, float] | None = None) -> dict[tuple[int, int], int]:
        """Blit every token in view (a falling one ``drops`` squares above its square, over its
        shadow; a moving one where ``moving`` puts it on its way, or nowhere while that is out of
        sight). Both are the animation timeline's (``game.play.motion``): a fall's drop on the wall
        clock played before the shove that led to it had been shown, and took no notice of the
        animation speed nor of Backspace.

        Returns:
            Square -> the living creature drawn on it (what a hover shows).
        """
        tile = view.tile
        squares: dict[tuple[int, int], int] = {}
        blits = []
        shown = view.map_rect.inflate(tile * 2, tile * 2)
        left, top, right, bottom = shown.left - tile, shown.top - tile, shown.right, shown.bottom
        ox, oy = view.map_rect.x - view.camera[0], view.map_rect.y - view.camera[1]
        labels = feed.labels
        entries = self._entries(tile, labels)
        # the hot loop of a frame (200 tokens): each token's image and corner are worked out once per
        # change of the battle (``_entries``), so a frame only offsets them and culls
        for look in looks:
            e = look.entity
            entry = entries.get(e) or self._entry(look, tile, labels)
            image, x, y, square, alive = entry
            if moving and e in moving:
                at = moving[e]
                if at is None:
                    continue
                x, y = int(at[0] * tile), int(at[1] * tile)
            x += ox
            y += oy
            if not (left < x < right and top < y < bottom):
                continue
            if alive:
                squares[square] = e
            dy = int(drops.get(e, 0.0) * tile) if drops else 0
            if dy:
                _shadow(surface, pygame.Rect(x, y, tile, tile), dy, tile)
            blits.append((image, (x, y - dy)))
            if e == selected:
                pygame.draw.circle(surface, theme.SELECTED, (x + tile // 2, y + tile // 2 - dy), tile // 2 - 1, 2)
        surface.fblits(blits)
        return squares


def _shadow(surface: pygame.Surface, rect: pygame.Rect, dy: int, tile: int) -> None:
    """The shadow under a token still dropping: it grows as the token nears the ground."""
    shadow_w = max(4, int(tile * (0.4 + 0.5 * (1 - min(dy / (tile * 4), 1)))))
    shadow = pygame.Rect(0, 0, shadow_w, max(3, shadow_w // 3))
    shadow.center = (rect.centerx, rect.bottom - tile // 6)
    pygame.draw.ellipse(surface, (0, 0, 0), shadow)


def draw_token(tile: int, colour: theme.Colour, label: str, health: tuple[int, int], fatigue: tuple[int, int],
               conditions: frozenset[str], text: TextFn) -> pygame.Surface:
    """A token for one square: team disc with its label (see ``feed.token_label``), health bar on
    top, fatigue pips, badges; the dead get a grey disc and a red cross and nothing else."""
    surface = pygame.Surface((tile, tile), pygame.SRCALPHA)
    dead = "dead" in conditions
    centre = (tile // 2, tile // 2 + max(1, tile // 16))
    radius = max(4, int(tile * 0.36))
    written = _disc(surface, tile, colour, label, conditions, centre, radius, text)
    if dead:
        r = radius - 2
        pygame.draw.line(surface, (200, 60, 50), (centre[0] - r, centre[1] - r), (centre[0] + r, centre[1] + r), 3)
        pygame.draw.line(surface, (200, 60, 50), (centre[0] - r, centre[1] + r), (centre[0] + r, centre[1] - r), 3)
        return surface
    bar = _health_bar(surface, tile, health)
    _health_number(surface, tile, health, bar, text, written)
    _fatigue_pips(surface, tile, fatigue)
    _badges(surface, tile, conditions, bar.bottom + 1, text, written)
    return surface


def _disc(surface: pygame.Surface, tile: int, colour: theme.Colour, label: str, conditions: frozenset[str],
          centre: tuple[int, int], radius: int, text: TextFn) -> pygame.Rect | None:
    """The team-coloured disc (dimmed when down, darker when dead) with its label and a prone stroke;
    returns where the label is written (None: too small a token for one)."""
    dead = "dead" in conditions
    down = bool(conditions & {"downed", "unconscious"})
    fill = tuple(int(c * (0.35 if dead else 0.6 if down else 1)) for c in colour)
    pygame.draw.circle(surface, (0, 0, 0, 110), (centre[0] + 2, centre[1] + 2), radius)
    pygame.draw.circle(surface, fill, centre, radius)
    pygame.draw.circle(surface, tuple(min(255, c + 70) for c in fill), centre, radius, max(1, tile // 20))
    # a thin dark rim: a token stays readable on ground of its own colour (yellow team on lit sand)
    pygame.draw.circle(surface, (10, 10, 14), centre, radius + 1, 1)
    if "prone" in conditions and not dead:
        pygame.draw.line(surface, (20, 20, 20), (centre[0] - radius + 3, centre[1] + radius // 2),
                         (centre[0] + radius - 3, centre[1] + radius // 2), 2)
    rendered = label_image(label, tile, (255, 255, 255) if not dead else (160, 160, 160), text)
    return None if rendered is None else surface.blit(rendered, rendered.get_rect(center=centre))


def label_image(label: str, tile: int, colour: theme.Colour, text: TextFn) -> pygame.Surface | None:
    """A token's label drawn to fit its square (None: too small a token for one). A label the font
    has no glyphs for is spelt as escapes (``\\U0001f43a``), far wider than the token: drawn whole, the
    square cut it at both ends ("3a\\U0001f" of a wolf emoji's name). Such a label goes to the small
    font, then to its first character, then is shrunk to the square; a label that fits is as it was."""
    if tile < 20:
        return None
    first = label if tile >= 24 else label[:1]
    room = tile - 4
    rendered = text(first, "small" if tile < 36 else "body", colour)
    for words in (first, first[:1]):
        if rendered.get_width() <= room:
            return rendered
        rendered = text(words, "tiny", colour)
    if rendered.get_width() <= room:
        return rendered
    high = max(1, rendered.get_height() * room // rendered.get_width())
    return pygame.transform.smoothscale(rendered, (room, high))


def _health_bar(surface: pygame.Surface, tile: int, health: tuple[int, int]) -> pygame.Rect:
    """The health bar along the top of the square; returns its rectangle."""
    bar = pygame.Rect(3, 1, tile - 6, max(3, tile // 10))
    pygame.draw.rect(surface, theme.HEALTH_BACK, bar)
    current, maximum = health
    share = current / maximum if maximum else 0
    colour = theme.HEALTH_GOOD if share > 0.6 else theme.HEALTH_HURT if share > 0.3 else theme.HEALTH_LOW
    if current > 0:
        pygame.draw.rect(surface, colour, (bar.x, bar.y, max(1, int(bar.w * share)), bar.h))
    return bar


def _health_number(surface: pygame.Surface, tile: int, health: tuple[int, int], bar: pygame.Rect,
                   text: TextFn, label: pygame.Rect | None = None) -> None:
    """Health as a number under the bar's left end ("11/16" on big tokens, "11" on small), on a dark
    backing so it reads on any ground and any team colour; none on tokens too small for text, nor
    where it would cover the token's ``label`` (the health bar still shows it): in a small window the
    number was written over the two letters that tell the creatures apart, "10" over "Ar"."""
    if tile < 24:
        return
    current, maximum = health
    rendered = text(f"{current}/{maximum}" if tile >= 40 else str(current), "tiny", (255, 255, 255))
    backing = rendered.get_rect(topleft=(bar.x, bar.bottom + 1)).inflate(2, 0)
    if label is not None and backing.colliderect(label):
        return
    pygame.draw.rect(surface, (10, 10, 14, 170), backing, border_radius=2)
    surface.blit(rendered, (bar.x, bar.bottom + 1))


def _fatigue_pips(surface: pygame.Surface, tile: int, fatigue: tuple[int, int]) -> None:
    """Fatigue pips along the bottom (only when tired, or when the token is big enough to spare them)."""
    level, most = fatigue
    pip = max(2, tile // 16)
    if level > 0 or tile >= 24:
        step = pip * 2 + 1
        x0 = tile // 2 - (most * step) // 2 + pip
        for i in range(most):
            pygame.draw.circle(surface, theme.FATIGUE_ON if i < level else theme.FATIGUE_OFF,
                               (x0 + i * step, tile - pip - 1), pip)


def badge_boxes(tile: int, count: int, top: int, label: pygame.Rect | None = None) -> list[pygame.Rect]:
    """Where ``count`` condition badges go down the square's right edge, from ``top``: all inside the
    square above the fatigue pips (as many as fit there), and none over the token's ``label``. Laid
    out at a third of the square each whatever the room, a third badge ran off the bottom of a
    56-pixel square, and below 50 pixels (a small window, a big map) the first two covered the
    letters that tell creatures apart."""
    pip = max(2, tile // 16)
    bottom = tile - 2 * pip - 2
    count = min(count, (bottom - top) // 4)  # a badge is at least 3 pixels and a gap: as many as fit
    if count <= 0:
        return []
    size = min(max(8, tile // 3), (bottom - top) // count - 1)
    width = size
    if label is not None and tile - width < label.right + 1:  # (a wide label: "R12" on 25 pixels, 1 to spare)
        width = max(1, tile - label.right - 1)  # (a label never reaches the square's last column)
    return [pygame.Rect(tile - width, top + index * (size + 1), width, size) for index in range(count)]


def _badges(surface: pygame.Surface, tile: int, conditions: frozenset[str], top: int, text: TextFn,
            label: pygame.Rect | None = None) -> None:
    """Up to three condition badges down the right edge, from ``top``, clear of the ``label``; a badge
    too small for its letters is its colour alone, and one narrower than its ring (beside a label as
    wide as the square) a stripe of it (the side panel and a hover name the condition)."""
    badges = [c for c in sorted(conditions) if c not in theme.BADGE_SKIP][:3]
    for condition, box in zip(badges, badge_boxes(tile, len(badges), top, label), strict=False):
        letters, badge_colour = theme.badge(condition)
        pygame.draw.rect(surface, badge_colour, box, border_radius=min(3, box.w // 2))
        if box.w < 3:  # a stripe beside a wide label: its colour alone (a ring would leave none of it)
            continue
        # a ring of the opposite brightness: a red "downed" badge still stands out on a red token
        ring = (10, 10, 14) if sum(badge_colour) > 360 else (245, 245, 245)
        pygame.draw.rect(surface, ring, box, 1, border_radius=min(3, box.w // 2))
        rendered = text(letters, "tiny", (0, 0, 0) if sum(badge_colour) > 360 else (255, 255, 255))
        if rendered.get_width() <= box.w and rendered.get_height() <= box.h + 2:
            surface.blit(rendered, rendered.get_rect(center=box.center))
