"""The combat log keeps room at the window's smallest size: the side panel leaves the legend out
rather than the log (at 680x540, with a creature selected, the legend took every row the log had)."""

from __future__ import annotations

import pygame
import pytest

from game.battle.facade import Battle
from game.render import Renderer, UiState
from game.render.panels import MIN_LOG_ROWS
from game.render.view import MIN_SIZE
from tests.window_steps import drawn_texts

pytestmark = pytest.mark.usefixtures("pygame_display")


def _battle() -> tuple[Battle, int]:
    """Six one-row log lines (two arrivals, two initiative rolls, the turn order, a hit), and a
    creature with four powers to select."""
    b = Battle(seed=2, width=28, height=20)
    hero = b.spawn("Al", 1, 1, team="blue", powers=["strike", "shove", "heal", "light"])
    b.spawn("Bo", 20, 10, team="red")
    b.start_combat()
    b.damage(hero, 1)
    b.tick()
    return b, hero


def _log_fits_whole(size: tuple[int, int]) -> bool:
    b, hero = _battle()
    renderer = Renderer(b, size)
    lines = renderer.log_lines
    assert len(lines) == MIN_LOG_ROWS and all(len(line) < 44 for line in lines), lines
    renderer.draw(pygame.Surface(size), UiState(selected=hero, human_teams={"blue"}))
    return renderer.log_scroll_max == 0  # all six lines shown, none to scroll back to


def test_the_log_shows_its_rows_at_the_smallest_window() -> None:
    assert _log_fits_whole(MIN_SIZE)


def test_a_tall_window_shows_the_log_and_the_legend() -> None:
    assert _log_fits_whole((1280, 900))


def test_a_turn_strip_of_fifty_creatures_leaves_the_selected_creature_and_the_log_their_room() -> None:
    """Fifty creatures (a scenario's most) with long names took every row of the side panel: the
    selected creature's powers (keys 1-9) and the combat log were lost below it. The strip now takes
    at most a third of the panel, from who acts now on, and says how many more there are."""
    from game.play.app import App

    b = Battle(seed=1, width=40, height=30)
    for i in range(25):
        b.spawn(f"Grenadier of the Northern Watch {i}", 1 + i % 10, 1 + i // 10, team="blue", powers=["strike"])
        b.spawn(f"Marauder of the Southern Wastes {i}", 20 + i % 10, 20 + i // 10, team="red", powers=["strike"])
    app = App(b, {"blue"}, computer_delay=0)
    window = app.open_window(screen=pygame.Surface(MIN_SIZE))
    drawn = drawn_texts(app)
    assert any(line.startswith("1  Strike") for line in drawn)  # the selected creature's power, on key 1
    assert any(line.startswith("+") and line.endswith(" more") for line in drawn)
    from game.render.panels import STRIP_SHARE

    chips = window.renderer.side.chips
    panel_h = window.renderer.size[1]
    assert b.current_actor in chips and len(chips) < 50
    assert max(rect.bottom for rect in chips.values()) <= panel_h // STRIP_SHARE + 44
    assert window.renderer.log_scroll_max is None or window.renderer.log_scroll_max > 0  # a log, and more of it


def test_a_long_name_and_a_long_power_label_are_cut_to_the_side_panel() -> None:
    """A creature named at length ran off the side panel in the selected creature's line: the name,
    its info and its powers' labels are cut to the panel with "...", never drawn past it."""
    from game.play.app import App
    from game.render.draw import Texts

    b = Battle(seed=1, width=12, height=8)
    me = b.spawn("Grenadier " * 7 + "the Last", 1, 1, team="blue", powers=["strike", "fireball"])  # 78 characters
    b.spawn("Foe", 8, 5, team="red", powers=["strike"])
    app = App(b, {"blue"}, computer_delay=0)
    window = app.open_window(screen=pygame.Surface(MIN_SIZE))
    app.ui.selected = me
    drawn: list[tuple[str, int]] = []
    real = Texts.__call__

    def spy(self: Texts, string: str, *args: object, **kwargs: object) -> pygame.Surface:
        surface = real(self, string, *args, **kwargs)  # type: ignore[arg-type]
        drawn.append((string, surface.get_width()))
        return surface

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Texts, "__call__", spy)
        window.renderer.texts.clear()
        app.draw()
    from game.render.panels import SIDEBAR_W

    cut = [(s, w) for s, w in drawn if s.startswith("Grenadier Gren") and s.endswith("the Last  (blue, you)")]
    assert cut and all(w <= SIDEBAR_W - 36 for _, w in cut)  # the name cut in its middle, from x = 36
    assert not any("Grenadier " * 20 in s for s, _ in drawn)  # the whole name was never drawn
    assert any(s.startswith("1  Strike") for s, _ in drawn)


def test_the_log_leaves_out_the_end_of_a_line_cut_off_at_its_top() -> None:
    """Where the rows that fit begin inside a wrapped line, its last row showed alone at the top of the
    log ("now 1", the end of "... gains 1 fatigue (dropped to 0 health): now 1"): the log now begins
    at a line's beginning."""
    from game.play.app import App
    from game.render.draw import CONTINUED

    b = Battle(seed=2, width=12, height=8)
    names = [f"Grenadier of the Northern Watch number {i}" for i in range(12)]
    for i, name in enumerate(names):
        b.spawn(name, i, i % 2, team="blue" if i % 2 else "red")
    app = App(b, computer_delay=0)
    app.open_window(screen=pygame.Surface(MIN_SIZE))
    drawn = drawn_texts(app)
    log = drawn[drawn.index("Combat log  (wheel here to scroll)") + 1:]
    assert any(row.startswith(CONTINUED) for row in log), log  # its lines do wrap
    assert not log[0].startswith(CONTINUED), log[:3]
