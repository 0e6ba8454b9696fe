"""Headless screenshots: draw a battle to PNG files without a window (SDL's dummy video driver).

Kept here because it needs pygame, and only game/render/ may import pygame; callers such as the
headless demo stay pure Python.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pygame

from game.render.png import save_png
from game.render.ui import UiState
from game.render.view import Renderer


class Screenshots:
    """Draws one battle into an off-screen surface and saves it as PNG on request."""

    def __init__(self, battle: Any, size: tuple[int, int] = (1280, 800), team_colours: Any = None,
                 powers: Any = None, title: str = "", human_teams: Any = frozenset()) -> None:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
        pygame.display.init()
        pygame.font.init()
        self.renderer = Renderer(battle, size, team_colours=team_colours)
        if powers is not None:
            self.renderer.powers = powers
        self.surface = pygame.Surface(self.renderer.size)
        self.ui = UiState(title=title, human_teams=human_teams)

    def save(self, path: str | Path, message: str | None = None) -> None:
        """Draw the battle as it is now (animations finished) and write it to ``path``.

        Raises:
            OSError: the picture cannot be written (see :func:`game.render.png.save_png`).
        """
        if message is not None:
            self.ui.message = message
        self.renderer.draw(self.surface, self.ui)
        save_png(self.surface, path)

    def close(self) -> None:
        pygame.quit()
