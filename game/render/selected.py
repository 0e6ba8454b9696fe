"""The side panel's block for the selected creature: who, health, fatigue, where, conditions, and
every power it may use, one row each.

Keys 1-9 choose the first nine powers; every row, those past the ninth too, is chosen by a click on
it. The panel listed nine and bound nine keys, so a wizard with ten powers never saw or used its
tenth, and a creature whose scenario lists none (it may use any of the 17 shipped) lost eight.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pygame

from components import Fatigue, Health, Position
from game.render import theme
from game.render.draw import Texts, clipped, clipped_middle, wrap
from game.render.feed import EventFeed
from game.render.odds import reach_words
from game.render.ui import UiState, shown_powers

#: Pixels a power row takes.
POWER_ROW = 17
#: Power rows with a key of their own (1-9).
KEYED = 9


@dataclass
class SelectedBlock:
    """What drew the block: where it ends and where each power row is (by its 1-based index, in the
    panel's own coordinates), for a click on a row to choose that power."""

    bottom: int
    rows: dict[int, pygame.Rect] = field(default_factory=dict)


def power_label(index: int, name: str) -> str:
    """A power row's words: its key (1-9), or "click" for a row past the ninth, which has none."""
    return f"{index}  {name}" if index <= KEYED else f"click  {name}"


def name_line(name: str, tail: str, font: pygame.font.Font, room: int) -> str:
    """The block's first line, ``name`` then ``tail`` (its team and who plays it), within ``room``
    pixels: a long name is cut in its middle, as its chip and token are, keeping its end and the tail
    in view as far as room allows. Cut at the line's end, two knights "... of the Blue Order number 12"
    and "... number 13" read alike here while their chips told them apart."""
    whole = name + tail
    if font.size(whole)[0] <= room:
        return whole
    for share in (room - font.size(tail)[0], room * 3 // 5):  # the whole tail; else most of the line to the name
        if share >= font.size("M...M")[0]:
            return clipped(clipped_middle(name, font, share) + tail, font, room)
    return clipped_middle(name, font, room)


def draw_selected(side: pygame.Surface, y: int, battle: Any, feed: EventFeed, entity: int, ui: UiState,
                  powers: Mapping[int, tuple[str, ...]] | None, texts: Texts,
                  colour_of: Callable[[str], theme.Colour], bottom: int | None = None) -> SelectedBlock:
    """The selected creature's block at ``y``: its powers in rows down to ``bottom`` (None: all of
    them); a list cut short there ends with "+N more" and how to see them, so that a short window
    keeps its combat log without a power going unsaid."""
    team = battle.team(entity)
    health, fatigue, pos = battle.get(entity, Health), battle.get(entity, Fatigue), battle.get(entity, Position)
    pygame.draw.circle(side, colour_of(team), (22, y + 10), 8)
    control = "you" if team in ui.human_teams else "computer"
    room = side.get_width() - 50  # (the name, info and labels stay on their lines: cut, not run off)
    who = name_line(feed.name(battle, entity), f"  ({team}, {control})", texts.fonts["body"], room)
    side.blit(texts(who, "body"), (36, y + 2))
    y += 24
    info = f"Health {health.current}/{health.maximum}   Fatigue {fatigue.level}/{fatigue.maximum}   " \
           f"at ({pos.x}, {pos.y}) {pos.z:g} ft"
    side.blit(texts(clipped(info, texts.fonts["small"], room + 22), "small", theme.TEXT_DIM), (14, y))
    y += 18
    conditions = sorted(battle.conditions(entity))
    if conditions:
        for line in wrap("Conditions: " + ", ".join(conditions), texts.fonts["small"], room + 22):
            side.blit(texts(line, "small", theme.ACCENT), (14, y))
            y += 18
    listed = shown_powers(battle, entity, powers)
    fit = len(listed) if bottom is None else max(1, (bottom - y) // POWER_ROW)
    shown = listed if len(listed) <= fit else listed[:fit - 1]
    block = SelectedBlock(y)
    for index, power_id in enumerate(shown, start=1):
        try:
            power = battle.power(power_id)
            label = power_label(index, f"{power.name}  ({reach_words(power, battle.rules.square_ft)})")
        except (KeyError, ValueError):
            label = power_label(index, power_id)
        side.blit(texts(clipped(label, texts.fonts["small"], room + 14), "small",
                        theme.ACCENT if power_id == ui.power else theme.TEXT), (22, y))
        block.rows[index] = pygame.Rect(14, y, side.get_width() - 28, POWER_ROW)
        y += POWER_ROW
    if len(shown) < len(listed):
        more = f"+{len(listed) - len(shown)} more powers: a taller window lists them"
        side.blit(texts(clipped(more, texts.fonts["small"], room + 14), "small", theme.TEXT_DIM), (22, y))
        y += POWER_ROW
    block.bottom = y + 6
    return block
