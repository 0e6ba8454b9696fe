"""Every power of the selected creature is in the side panel and can be chosen: keys 1-9 the first
nine, a click on its row any of them. The panel listed nine and bound nine keys, so a wizard with ten
powers never saw or used the tenth, and a creature that may use any power lost all past the ninth."""

from __future__ import annotations

import pygame
import pytest

from game.battle.facade import Battle
from game.play.app import App
from game.render.inputs import LEFT, PowerRow
from game.render.panels import BUTTONS_H, LOG_ROW, MIN_LOG_ROWS, STATUS_H
from game.render.selected import POWER_ROW
from game.render.view import MIN_SIZE
from tests.window_steps import drawn_texts

pytestmark = pytest.mark.usefixtures("pygame_display")

TEN = ["fireball", "burning-hands", "lightning", "light", "darkness", "fog-cloud", "dazzle", "blind",
       "fly", "blink", "strike"]


def _drawn(app: App) -> list[str]:
    """The strings the next frame draws."""
    assert app.window is not None
    return drawn_texts(app)


def _wizard(size: tuple[int, int], powers: list[str] | None = TEN) -> tuple[App, int]:
    b = Battle(seed=4, width=16, height=12)
    listed = {} if powers is None else {"powers": powers}
    wizard = b.spawn("Wizard", 2, 2, team="blue", initiative_bonus=100, **listed)
    b.spawn("Orc", 6, 2, team="red", powers=["strike"])
    b.start_combat()
    app = App(b, {"blue"}, computer_delay=0)
    app.open_window(screen=pygame.Surface(size))
    app.ui.selected = wizard
    return app, wizard


def _click(app: App, pos: tuple[int, int]) -> None:
    assert app.window is not None
    event = app.window.translate(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=LEFT))
    assert event is not None
    app.handle(event)


def test_the_tenth_and_eleventh_powers_are_listed_and_a_click_on_a_row_chooses_it() -> None:
    app, wizard = _wizard((1280, 800))
    assert app.battle.current_actor == wizard
    drawn = _drawn(app)
    assert any(s.startswith("9  Fly") for s in drawn)
    assert any(s.startswith("click  Blink") for s in drawn) and any(s.startswith("click  Strike") for s in drawn)
    assert app.window is not None
    side = app.window.renderer.side
    assert sorted(side.power_rows) == list(range(1, 12))
    row = side.power_rows[11]
    _click(app, (side.at[0] + row.centerx, side.at[1] + row.centery))
    assert app.ui.power == "strike", app.ui.message
    row = side.power_rows[1]
    assert app.window.translate(pygame.event.Event(
        pygame.MOUSEBUTTONDOWN, pos=(side.at[0] + row.centerx, side.at[1] + row.centery), button=LEFT)) == PowerRow(1)


def test_a_power_row_over_the_help_only_closes_it() -> None:
    app, _ = _wizard((1280, 800))
    app.draw()
    app.ui.show_help = True
    app.handle(PowerRow(1))
    assert not app.ui.show_help and app.ui.power is None


def test_a_short_window_lists_what_fits_keeps_its_log_and_says_how_many_more() -> None:
    """A creature that may use any power (the scenario lists none): seventeen rows at the smallest
    window would take the combat log's room; the panel lists what fits and says how many more."""
    app, wizard = _wizard(MIN_SIZE, powers=None)
    listed = len(app.battle.powers_of(wizard))
    assert listed > 9
    drawn = _drawn(app)
    assert app.window is not None
    rows = app.window.renderer.side.power_rows
    more = [s for s in drawn if s.endswith("more powers: a taller window lists them")]
    assert more == [f"+{listed - len(rows)} more powers: a taller window lists them"]
    panel_h = MIN_SIZE[1] - STATUS_H - BUTTONS_H  # the side panel, above the buttons and the status bar
    more_bottom = max(r.bottom for r in rows.values()) + POWER_ROW  # the "+N more" line under the rows
    log_room = panel_h - more_bottom - 6 - 6 - 18 - 8  # its gap, the rule, the heading, the margin
    assert log_room >= MIN_LOG_ROWS * LOG_ROW, log_room
