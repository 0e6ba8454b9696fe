"""The combat log keeps room at the window's smallest size: the side panel leaves the legend out
rather than the log (at 680x540, with a creature selected, the legend took every row the log had)."""

from __future__ import annotations

import pygame
import pytest

from game.battle.facade import Battle
from game.render import Renderer, UiState
from game.render.panels import MIN_LOG_ROWS
from game.render.view import MIN_SIZE

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
    renderer.draw(pygame.Surface(size), UiState(selected=hero, human_teams={"blue"}), now=1e9)
    return renderer.log_scroll_max == 0  # all six lines shown, none to scroll back to


def test_the_log_shows_its_rows_at_the_smallest_window() -> None:
    assert _log_fits_whole(MIN_SIZE)


def test_a_tall_window_shows_the_log_and_the_legend() -> None:
    assert _log_fits_whole((1280, 900))
