"""The panels around the map: the side panel (title, round, turn order strip, the selected creature,
the combat log), the status bar, the help and the buttons (the banner of a decided battle is
``game.render.notice``'s).

The side panel changes only when the battle or the selection does, so :class:`SidePanel` renders it
into its own surface and a frame blits that.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

import pygame

from components import Rules
from game.battle.log_lines import Tone, tone_of
from game.render import theme
from game.render.draw import Texts, clipped, clipped_middle, panel_lines, wrap
from game.render.feed import EventFeed
from game.render.legend import draw_legend, legend_height
from game.render.selected import draw_selected
from game.render.ui import UiState

SIDEBAR_W = 360
STATUS_H = 26
BUTTONS_H = 34
LOG_ROW = 17
#: the fewest combat log rows the side panel keeps: in a short window (or beside a long turn strip)
#: the legend is left out rather than the log
MIN_LOG_ROWS = 6
#: The turn strip takes at most this share of the side panel's height (1/3): with fifty creatures
#: of long names it took all of it, and the selected creature's powers and the log were lost below.
STRIP_SHARE = 3
#: Room kept at the end of the strip's last row for its "+N more" chip.
MORE_W = 80
HINT = ("Click: move / target   1-9: power   Space: end turn   Enter: skip   U: undo   G: GM view   "
        "R: rewind   F5: reload   ?: help")
#: button name -> its label
BUTTON_LABELS = MappingProxyType({"end_turn": "End turn", "skip": "Skip wait", "undo": "Undo", "gm_view": "GM view"})
#: "P prone", ...: each badge a token draws (``theme.CONDITIONS``), in its order, as the help names it
_BADGES = tuple(f"{letters} {name}" for name, (letters, _) in theme.CONDITIONS.items() if name not in theme.BADGE_SKIP)
HELP: tuple[tuple[str, str], ...] = (
    ("Controls", "head"),
    ("Creatures act in initiative order: yours is selected when its turn comes", "body"),
    ("Left click a highlighted square: move there now (hover first: path, cost, falls)", "body"),
    ("1-9 / a click on its row: choose a power; hover where it aims for the odds, click to use it", "body"),
    ("Hover an enemy: line of sight, cover and your roll mode", "body"),
    ("Space / End turn: pass to the next creature   Enter: computer turns at once", "body"),
    ("U: undo this turn's orders (no dice rolled, no new foe seen)   G: GM view (no fog)", "body"),
    ("R: GM rewind to a round's start (type it, or PageUp/PageDown; Enter rewinds, Esc cancels)", "body"),
    ("F5 / Ctrl+R: reload the scenario, its powers and scripts from disk, restart on the same seed", "body"),
    ("Esc / right click: cancel power / selection     Tab: next of your creatures", "body"),
    ("[ / ]: animations slower / faster     Backspace: end the animation playing", "body"),
    ("Mouse wheel / arrows / right-drag: scroll the map (wheel over the log: scroll the log)", "body"),
    ("Blue: where the selected creature can move   Yellow: the power's reach   Red: its area", "body"),
    ("Numbers on squares: ground height in ft ({falls})", "body"),
    ("Dashed line to the hovered creature: green in sight (or a legal use), red not", "body"),
    ("Ctrl+S: save to {save}     Ctrl+L: load it     Ctrl+Q: quit", "body"),
    ("Badges: " + "  ".join(_BADGES[:5]), "body"),
    ("  ".join(_BADGES[5:]), "body"),
    ("Pips under a token: fatigue ({fatigue})", "body"),
    ("? / Esc / right click: close this help", "body"),
)


class SidePanel:
    """The right-hand panel of one renderer, cached until the battle, selection or scroll changes.

    Args:
        texts: the renderer's fonts and text cache.
        colour_of: team -> its colour.
    """

    def __init__(self, texts: Texts, colour_of: Callable[[str], theme.Colour]) -> None:
        self.texts = texts
        self.colour_of = colour_of
        self._key: tuple[Any, ...] | None = None
        self._surface: pygame.Surface | None = None
        #: how far the log can scroll back, once the whole log fitted into a render (None: unknown)
        self.log_scroll_max: int | None = None
        #: the turn strip's chips in the last render, by creature (in the panel's own coordinates)
        self.chips: dict[int, pygame.Rect] = {}
        self._strip_key: tuple[Any, ...] | None = None
        self._strip_surface: pygame.Surface | None = None
        self._strip_chips: dict[int, pygame.Rect] = {}
        #: the selected creature's power rows in the last render, by 1-based index (panel coordinates)
        self.power_rows: dict[int, pygame.Rect] = {}
        #: where the panel was last drawn on the surface (a click on a power row is found from it)
        self.at = (0, 0)

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, battle: Any, feed: EventFeed, ui: UiState,
             selected: int | None, powers: Mapping[int, tuple[str, ...]] | None) -> None:
        state = battle.state
        key = (battle.round, len(state.events), len(battle.command_log), selected, ui.power, ui.title,
               tuple(sorted(ui.human_teams)), rect.size, ui.log_scroll, ui.actor, ui.up_next, ui.hidden,
               ui.visible is None)
        if key != self._key or self._surface is None:
            self._key = key
            self._surface = self._render(rect.size, battle, feed, ui, selected, powers)
        surface.blit(self._surface, rect.topleft)
        self.at = rect.topleft

    def power_at(self, pos: tuple[int, int]) -> int | None:
        """The 1-based index of the selected creature's power row under a surface position, or None."""
        inside = (pos[0] - self.at[0], pos[1] - self.at[1])
        return next((index for index, row in self.power_rows.items() if row.collidepoint(inside)), None)

    def _render(self, size: tuple[int, int], battle: Any, feed: EventFeed, ui: UiState, selected: int | None,
                powers: Mapping[int, tuple[str, ...]] | None) -> pygame.Surface:
        side = pygame.Surface(size)
        side.fill(theme.PANEL)
        y = self._title(side, size[0], battle.round, ui.title)
        y = self._strip(side, size[0], y, battle, feed, selected, ui)
        if self._legend_fits(size, y - 6, battle, feed, selected, ui, powers):
            y = draw_legend(side, 14, y - 6, size[0] - 28, self.texts)
        self.power_rows = {}
        if selected is not None:
            bottom = size[1] - 6 - 18 - MIN_LOG_ROWS * LOG_ROW - 8  # the log keeps its rows below
            block = draw_selected(side, y, battle, feed, selected, ui, powers, self.texts, self.colour_of, bottom)
            y, self.power_rows = block.bottom, block.rows
        pygame.draw.line(side, theme.PANEL_EDGE, (10, y), (size[0] - 10, y), 1)
        y += 6
        heading = "Combat log" + (f"  (back {ui.log_scroll} lines: wheel down for newest)"
                                  if ui.log_scroll else "  (wheel here to scroll)")
        side.blit(self.texts(clipped(heading, self.texts.fonts["small"], size[0] - 28), "small", theme.TEXT_DIM),
                  (14, y))
        y += 18
        lines = feed.lines if ui.visible is None else feed.seen_lines
        self._log(side, pygame.Rect(10, y, size[0] - 20, size[1] - y - 8), lines, ui.log_scroll)
        pygame.draw.line(side, theme.PANEL_EDGE, (0, 0), (0, size[1]), 2)
        return side

    def _legend_fits(self, size: tuple[int, int], y: int, battle: Any, feed: EventFeed, selected: int | None,
                     ui: UiState, powers: Mapping[int, tuple[str, ...]] | None) -> bool:
        """Whether the legend at ``y`` leaves the combat log below it (and the selected creature's
        block) at least :data:`MIN_LOG_ROWS` rows: at the window's smallest, the legend took all the
        room and the log had none."""
        block = 0
        if selected is not None:  # its height, drawn where nothing shows
            block = draw_selected(pygame.Surface((size[0], 1)), 0, battle, feed, selected, ui, powers,
                                  self.texts, self.colour_of).bottom
        log = size[1] - y - legend_height(size[0] - 28, self.texts) - block - 6 - 18 - 8
        return log >= MIN_LOG_ROWS * LOG_ROW

    def _strip(self, side: pygame.Surface, width: int, y: int, battle: Any, feed: EventFeed,
               selected: int | None, ui: UiState) -> int:
        """The turn order strip at ``y``, rendered again only when what it shows changed: with 200
        creatures its chips are most of a panel's render, and choosing a power redraws the panel."""
        state = battle.state
        key = (battle.round, len(state.events), len(battle.command_log), selected, ui.actor, ui.up_next,
               ui.hidden, width, side.get_height())
        if key != self._strip_key or self._strip_surface is None:
            strip = pygame.Surface((width, side.get_height()))
            strip.fill(theme.PANEL)
            height = self._turn_order(strip, 0, battle, feed, selected, ui)
            self._strip_key, self._strip_chips = key, self.chips
            self._strip_surface = strip.subsurface((0, 0, width, min(height, strip.get_height()))).copy()
        side.blit(self._strip_surface, (0, y))
        self.chips = {e: rect.move(0, y) for e, rect in self._strip_chips.items()}
        return y + self._strip_surface.get_height()

    def _title(self, side: pygame.Surface, width: int, round_: int, title: str) -> int:
        """The scenario's name (shortened so it never runs into the round number) and the round."""
        text = self.texts
        title = title or "Battle"
        round_text = text(f"Round {round_}", "head")
        room = width - round_text.get_width() - 14 - 14 - 12
        font = text.fonts["head"]
        if font.size(title)[0] > room:
            # the longest prefix that fits with its "...", found by halving (a title may be long)
            low, high = 0, len(title)
            while low < high:
                mid = (low + high + 1) // 2
                low, high = (mid, high) if font.size(title[:mid] + "...")[0] <= room else (low, mid - 1)
            title = title[:low].rstrip() + "..."
        side.blit(text(title, "head", theme.ACCENT), (14, 10))
        side.blit(round_text, (width - round_text.get_width() - 14, 10))
        return 44

    def _turn_order(self, side: pygame.Surface, y: int, battle: Any, feed: EventFeed,
                    selected: int | None, ui: UiState) -> int:
        """The turn order strip: a chip per creature, the one acting now outlined and marked, the
        next one marked, the down greyed, the dead struck through, the unseen shown as "?"."""
        now = ui.actor
        after = ui.up_next[0] if ui.up_next else None
        who, font = "Turn order", self.texts.fonts["small"]
        if now is not None:  # (a long name is cut in its middle, as its chip is: its end tells knights apart)
            who += "  -  now: "
            who += clipped_middle(self._who(battle, feed, now, ui), font, side.get_width() - 28 - font.size(who)[0])
        side.blit(self.texts(clipped(who, font, side.get_width() - 28), "small", theme.TEXT_DIM), (14, y))
        y += 18
        order = list(battle.turn_order())
        rows_most = max(2, (side.get_height() // STRIP_SHARE - 26) // 20)
        if now in order and self._rows_needed(order, side.get_width(), battle, feed, ui, now, after) > rows_most:
            at = order.index(now)  # who acts now and after it first: the rest is "+N more"
            order = order[at:] + order[:at]
        x, row, shown = 14, 1, 0
        self.chips = {}
        for e in order:
            reserve = MORE_W if row == rows_most and shown < len(order) - 1 else 0
            w = self._chip(side, x, y, battle, feed, e, ui, selected, now, after, reserve)
            if w < 0 and row == rows_most:
                break
            if w < 0:  # no room on this row: the next one
                x, y, row = 14, y + 20, row + 1
                reserve = MORE_W if row == rows_most and shown < len(order) - 1 else 0
                w = self._chip(side, x, y, battle, feed, e, ui, selected, now, after, reserve)
            x, shown = x + abs(w) + 4, shown + 1
        if shown < len(order):
            more = self.texts(f"+{len(order) - shown} more", "small", theme.TEXT_DIM)
            pygame.draw.rect(side, (44, 48, 60), (x, y, more.get_width() + 12, 18), border_radius=9)
            side.blit(more, (x + 6, y + 2))
        return y + 28

    def _rows_needed(self, order: list[int], width: int, battle: Any, feed: EventFeed, ui: UiState,
                     now: int | None, after: int | None) -> int:
        """How many rows the strip's chips take in a panel ``width`` wide (measured, not drawn)."""
        scratch = pygame.Surface((width, 1))
        rows, x = 1, 14
        for e in order:
            w = self._chip(scratch, x, 0, battle, feed, e, ui, None, now, after)
            if w < 0:
                rows, x = rows + 1, 14
                w = self._chip(scratch, x, 0, battle, feed, e, ui, None, now, after)
            x += abs(w) + 4
        return rows

    def _who(self, battle: Any, feed: EventFeed, entity: int, ui: UiState) -> str:
        return feed.name(battle, entity) if ui.shows(entity) else "?"

    def _chip(self, side: pygame.Surface, x: int, y: int, battle: Any, feed: EventFeed, e: int, ui: UiState,
              selected: int | None, now: int | None, after: int | None, reserve: int = 0) -> int:
        """One chip of the strip at (x, y); returns its width, negated when it does not fit there
        (``reserve``: pixels kept free at the row's right end, for the "+N more" chip)."""
        seen = ui.shows(e)
        alive = battle.is_alive(e)
        standing = alive and battle.can_act(e)
        tag = "> " if e == now else ("next: " if e == after else "")
        # a name too long for a whole row is cut to it: its chip ran off the panel
        words = clipped_middle(tag + (feed.name(battle, e) if seen else "?"), self.texts.fonts["small"],
                        side.get_width() - 10 - reserve - 14 - 22)
        label = self.texts(words, "small", theme.TEXT if standing and seen else theme.TEXT_DIM)
        w = label.get_width() + 22
        if x + w > side.get_width() - 10 - reserve and x > 14:
            return -w
        chip = self.chips[e] = pygame.Rect(x, y, w, 18)
        pygame.draw.rect(side, (80, 76, 40) if e == selected else (44, 48, 60), chip, border_radius=9)
        if e == now:
            pygame.draw.rect(side, theme.ACCENT, chip, 2, border_radius=9)
        dot = self.colour_of(battle.team(e)) if alive and seen else (80, 80, 80)
        pygame.draw.circle(side, dot, (x + 9, y + 9), 6)
        side.blit(label, (x + 18, y + 2))
        if not alive and seen:
            pygame.draw.line(side, theme.HEALTH_LOW, (x + 18, y + 9), (x + w - 4, y + 9), 2)
        return w

    def _log(self, side: pygame.Surface, box: pygame.Rect, lines: list[str], scroll: int = 0) -> None:
        """The newest log lines that fit (or ``scroll`` wrapped lines further back), wrapped to the
        panel, newest at the bottom."""
        font = self.texts.fonts["small"]
        rows: list[tuple[str, theme.Colour, bool]] = []  # (text, colour, whether it begins its line)
        fit = box.h // LOG_ROW if box.h > 0 else 0
        self.log_scroll_max = None
        for line in reversed(lines):
            colour = log_colour(line)
            rows[:0] = [(w, colour, i == 0) for i, w in enumerate(wrap(line, font, box.w))]
            if len(rows) > fit + scroll:
                break
        else:  # the whole log is in rows: the window knows how far back it can scroll
            self.log_scroll_max = max(0, len(rows) - fit)
        end = max(len(rows) - scroll, min(fit, len(rows)))
        rows = rows[max(0, end - fit):end] if fit else []
        # the end of a line whose beginning is cut off at the top ("now 1", alone) is left out, its rows
        # left empty: it read as a line of its own
        cut = next((i for i, row in enumerate(rows) if row[2]), 0)
        y = box.y + cut * LOG_ROW
        for line, colour, _ in rows[cut:]:
            side.blit(self.texts(line, "small", colour), (box.x, y))
            y += LOG_ROW


#: Each log tone's colour: deaths red, falls blue, hits orange, surprise yellow, the set-up and notes dim.
LOG_COLOURS: Mapping[Tone, theme.Colour] = MappingProxyType({
    Tone.DEATH: (255, 110, 100),
    Tone.FALL: theme.FALL,
    Tone.HIT: (255, 190, 140),
    Tone.ALERT: theme.ACCENT,
    Tone.SETUP: theme.TEXT_DIM,
    Tone.NOTE: theme.TEXT_DIM,
    Tone.PLAIN: theme.TEXT,
})


def log_colour(line: str) -> theme.Colour:
    """A log line's colour, by the tone of the event it tells (never by its words: a creature named
    "Hit Dies" is not a death, and a computer player's reason, a NOTE in the GM's log, is dim whatever
    it weighs: "(why) ... 4.5 expected damage there" is not a hit)."""
    return LOG_COLOURS[tone_of(line)]


def draw_status(surface: pygame.Surface, size: tuple[int, int], message: str, texts: Texts,
                reserve: int = 0) -> pygame.Rect:
    """The status bar: the last message, or the key hint when there is none. A message wider than the
    bar (``reserve``: pixels kept free at its right end, for the animation speed) is wrapped to the
    map's width and the bar grows upward over the map alone: a refusal naming two files, or any
    message in a small window, lost its end under the speed label and the window's edge, and grown
    the whole window's width it covered the buttons (End turn, Undo) under a long refusal. Returns
    the part of the bar over the map (its whole width when the message takes one line), where a
    click is the bar's."""
    font = texts.fonts["small"]
    text = message or HINT
    lines = wrap(text, font, max(size[0] - 20 - reserve, 120))
    if len(lines) > 1:  # (the side panel's column keeps its buttons: the lines stay over the map)
        lines = wrap(text, font, max(size[0] - SIDEBAR_W - 20, 120))
    step = font.get_linesize()
    grown = step * (len(lines) - 1)
    width = size[0] if not grown else max(size[0] - SIDEBAR_W, 140)
    bar = pygame.Rect(0, size[1] - STATUS_H - grown, width, STATUS_H + grown)
    pygame.draw.rect(surface, (16, 17, 22), bar)
    pygame.draw.rect(surface, (16, 17, 22), (0, size[1] - STATUS_H, size[0], STATUS_H))
    for row, line in enumerate(lines):
        surface.blit(texts(line, "small", theme.TEXT if message else theme.TEXT_DIM), (10, bar.y + 6 + step * row))
    return bar


def fall_words(rules: Rules) -> str:
    """What a drop costs under this battle's rules, in the help's words (a scenario may change them)."""
    if rules.fall_max_dice == 0:
        return "no fall hurts"
    feet, soft = f"{rules.fall_ft_per_die:g}", rules.soft_landing_divisor
    softer = "soft halves" if soft == 2 else "soft: as is" if soft == 1 else f"soft: dice / {soft:g}"
    return (f"a drop of {feet}+ ft: 1d{rules.fall_die_sides} per full {feet} ft"
            f" (at most {rules.fall_max_dice}d{rules.fall_die_sides}), {softer}")


def fatigue_words(rules: Rules) -> str:
    """What the fatigue pips' count means under this battle's rules (a scenario may move the marks:
    the help said "5 = unconscious" whatever they were)."""
    return f"{rules.unconscious_at_fatigue} = unconscious"


def draw_help(surface: pygame.Surface, size: tuple[int, int], centre: tuple[int, int], texts: Texts,
              save_path: str = "out/SCENARIO.save.json", rules: Rules | None = None) -> pygame.Rect:
    """The controls, in a panel over the shaded window (with the file Ctrl+S really writes, and the
    battle's own cost of a fall and fatigue that knocks out), centred on the map but kept inside the
    window, its lines wrapped to the window's width: in a small window the map is narrower than the
    help, whose first words were cut off on the left. Returns the panel."""
    rules = rules or Rules()
    falls, fatigue = fall_words(rules), fatigue_words(rules)
    room = size[0] - 60  # a line wider than the window (a long save path, a small window) is wrapped
    surfaces = [texts(part, f, theme.ACCENT if f == "head" else theme.TEXT) for t, f in HELP
                for part in wrap(t.replace("{save}", save_path).replace("{falls}", falls)
                                  .replace("{fatigue}", fatigue), texts.fonts[f], room)]
    w = max(s.get_width() for s in surfaces) + 40
    h = sum(s.get_height() + 6 for s in surfaces) + 30
    box = pygame.Rect(0, 0, w, h)
    box.center = centre
    box.clamp_ip(pygame.Rect((0, 0), size))
    shade = pygame.Surface(size, pygame.SRCALPHA)
    shade.fill((0, 0, 0, 140))
    surface.blit(shade, (0, 0))
    panel_lines(surface, box, surfaces, (20, 15), 6)
    return box


def button_rects(size: tuple[int, int], names: tuple[str, ...]) -> dict[str, pygame.Rect]:
    """Where the buttons are: a row under the side panel, above the status bar."""
    if not names:
        return {}
    left, top = size[0] - SIDEBAR_W + 8, size[1] - STATUS_H - BUTTONS_H + 4
    width = (SIDEBAR_W - 16 - 6 * (len(names) - 1)) // len(names)
    return {name: pygame.Rect(left + i * (width + 6), top, width, BUTTONS_H - 8) for i, name in enumerate(names)}


def draw_buttons(surface: pygame.Surface, size: tuple[int, int], ui: UiState, texts: Texts) -> None:
    """The buttons (End turn first); the GM view's is lit while it is on."""
    rects = button_rects(size, ui.buttons)
    if not rects:
        return
    pygame.draw.rect(surface, theme.PANEL, (size[0] - SIDEBAR_W, size[1] - STATUS_H - BUTTONS_H, SIDEBAR_W,
                                            BUTTONS_H))
    for name, rect in rects.items():
        lit = name == "gm_view" and ui.gm_view
        pygame.draw.rect(surface, (88, 80, 40) if lit else (52, 58, 74), rect, border_radius=6)
        pygame.draw.rect(surface, theme.PANEL_EDGE, rect, 1, border_radius=6)
        label = texts(BUTTON_LABELS.get(name, name), "small", theme.TEXT)
        surface.blit(label, label.get_rect(center=rect.center))
