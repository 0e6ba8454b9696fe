"""Colours, sizes and short labels shared by the renderer, the window and the tests.

One place for the palette so that tests can read a pixel and compare it with the colour the
renderer promised (a wall square is ``WALL`` at its centre), and so the look can be tuned at once.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from types import MappingProxyType

Colour = tuple[int, int, int]

BACKGROUND: Colour = (22, 24, 30)
PANEL: Colour = (30, 33, 42)
PANEL_EDGE: Colour = (62, 68, 84)
TEXT: Colour = (226, 228, 234)
TEXT_DIM: Colour = (150, 156, 170)
ACCENT: Colour = (255, 206, 92)

GROUND_LOW: Colour = (84, 112, 74)     # ground at the lowest height on the map
GROUND_HIGH: Colour = (168, 160, 122)  # ground at the highest height on the map
GRID_LINE: Colour = (0, 0, 0)
GRID_ALPHA = 38
WALL: Colour = (74, 72, 84)
WALL_TOP: Colour = (112, 110, 124)
WALL_SHADOW: Colour = (44, 42, 52)
#: Soft ground (a fall onto it rolls half the dice), whatever the scenario calls it: the battle knows a
#: square is soft, not whether it is hay, water or mud, so it is drawn as what it is to the rules.
SOFT: Colour = (200, 166, 98)
SOFT_DOT: Colour = (236, 210, 150)
CLIFF: Colour = (24, 22, 20)
PIT_HATCH: Colour = (30, 34, 30)

#: Visibility level (0 no vision .. 3 normal) -> (colour, alpha) of the darkness laid over a square.
DARKNESS: Mapping[int, tuple[Colour, int]] = MappingProxyType({
    3: ((0, 0, 0), 0),
    2: ((12, 16, 44), 95),
    1: ((6, 8, 26), 160),
    0: ((0, 0, 0), 222),
})
#: The same for squares darkened by a fog or smoke area rather than by night: grey, not black.
FOG: Mapping[int, tuple[Colour, int]] = MappingProxyType({
    3: ((0, 0, 0), 0),
    2: ((176, 180, 188), 110),
    1: ((70, 72, 80), 175),
    0: ((20, 20, 24), 238),
})
LIGHT_GLOW: Colour = (255, 168, 70)

REACH: Colour = (90, 200, 255)
REACH_ALPHA = 70
RANGE: Colour = (255, 210, 90)
RANGE_ALPHA = 46
AREA: Colour = (255, 90, 60)
AREA_ALPHA = 120
LOS_CLEAR: Colour = (120, 255, 140)
LOS_BLOCKED: Colour = (255, 90, 90)
COVER: Colour = (110, 180, 255)
SELECTED: Colour = (255, 240, 120)
FALL: Colour = (140, 220, 255)

HEALTH_GOOD: Colour = (80, 210, 100)
HEALTH_HURT: Colour = (240, 200, 60)
HEALTH_LOW: Colour = (235, 70, 60)
HEALTH_BACK: Colour = (20, 20, 20)
FATIGUE_ON: Colour = (200, 110, 255)
FATIGUE_OFF: Colour = (60, 56, 70)

#: Team colours handed out in order to teams that a scenario did not colour.
TEAM_COLOURS: tuple[Colour, ...] = (
    (66, 133, 244), (219, 68, 55), (244, 180, 0), (15, 157, 88), (171, 71, 188), (0, 172, 193),
    (255, 112, 67), (158, 157, 36),
)


def _apart(a: Colour, b: Colour) -> float:
    """How far apart two colours are (straight-line RGB distance)."""
    return math.dist(a, b)


#: A palette colour nearer a team's colour than this (the palette's own two nearest colours, red and
#: orange, are just this far apart) reads as the same team's.
NEAR = min(_apart(a, b) for i, a in enumerate(TEAM_COLOURS) for b in TEAM_COLOURS[i + 1:])


def unused_colours(used: Iterable[Colour]) -> list[Colour]:
    """The team colours no team has yet, nor one near it, in the palette's order (all of them once
    every one is taken): what a team the scenario did not colour is given, by the window and by a
    scenario's loading alike. Only the very colour counted as taken: a third team beside the shipped
    scenarios' blue ``#3060d0`` and red ``#c03030`` was given the palette's blue, and its tokens, chips
    and log dots read as the first team's."""
    taken = list(used)
    far = [c for c in TEAM_COLOURS if all(_apart(c, t) >= NEAR for t in taken)]
    return far or [c for c in TEAM_COLOURS if c not in taken] or list(TEAM_COLOURS)

#: Condition -> (badge letters, badge colour). Letters stay short: a badge is a third of a square.
CONDITIONS: Mapping[str, tuple[str, Colour]] = MappingProxyType({
    "prone": ("P", (200, 140, 60)),
    "surprised": ("S", (240, 200, 40)),
    "flat-footed": ("F", (230, 120, 40)),
    "downed": ("D", (220, 50, 50)),
    "unconscious": ("U", (150, 40, 160)),
    "dead": ("X", (90, 90, 90)),
    "slowed": ("Sl", (90, 150, 220)),
    "dazzled": ("Dz", (250, 240, 150)),
    "blinded": ("B", (40, 40, 40)),
    "flying": ("Fl", (140, 220, 255)),
    "hidden": ("H", (80, 90, 110)),
    "restrained": ("R", (170, 110, 70)),
})
#: Badges left off the token because something else already shows them (dead is the whole token).
BADGE_SKIP = frozenset({"dead"})


def badge(condition: str) -> tuple[str, Colour]:
    """Letters and colour for a condition; unknown ones get their first two letters in grey."""
    return CONDITIONS.get(condition, (condition[:2].capitalize(), (120, 120, 130)))


def parse_colour(value: object, fallback: Colour) -> Colour:
    """A scenario colour ("#4285f4", "red", [r, g, b]) as an RGB tuple; the fallback when unreadable."""
    if isinstance(value, (list, tuple)) and len(value) >= 3:
        try:
            return (int(value[0]), int(value[1]), int(value[2]))
        except (TypeError, ValueError):
            return fallback
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("#") and len(text) in (4, 7):
            digits = text[1:]
            if len(digits) == 3:
                digits = "".join(c * 2 for c in digits)
            try:
                return (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))
            except ValueError:
                return fallback
        named = {"red": TEAM_COLOURS[1], "blue": TEAM_COLOURS[0], "yellow": TEAM_COLOURS[2],
                 "green": TEAM_COLOURS[3], "purple": TEAM_COLOURS[4], "cyan": TEAM_COLOURS[5],
                 "orange": TEAM_COLOURS[6], "olive": TEAM_COLOURS[7], "white": (230, 230, 230),
                 "black": (40, 40, 40), "grey": (140, 140, 140), "gray": (140, 140, 140)}
        return named.get(text.lower(), fallback)
    return fallback
