"""The window: opens the display, turns pygame's events into plain inputs, and shows frames.

Nothing here knows what a click means. :meth:`Window.inputs` says only what happened (a click on
square (4, 3), the Space key, the wheel over the log) as the values of :mod:`game.render.inputs`;
the application (``game.play.app``) decides. The one thing the window does by itself is scroll the
map while the right button is dragged: that is the view moving, not an order.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

import pygame

from components.values import escaped
from game.render import theme
from game.render.inputs import LEFT, RIGHT, Button, Click, Hover, Input, Key, PowerRow, Quit, Wheel
from game.render.png import save_png
from game.render.ui import UiState
from game.render.view import MIN_SIZE, Renderer

FPS = 60


def open_display(size: tuple[int, int]) -> pygame.Surface:
    """The game's window: resizable, and no smaller than the frame can be laid out for
    (:data:`game.render.view.MIN_SIZE`). A window opened with a fixed size still grows when a
    window manager maximises or tiles it, and pygame then crashed drawing into the old surface."""
    screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    # the one way pygame-ce 2.5 sets a display window's minimum size; it warns that drawing through
    # that Window object is deprecated, which is not what is done here (a smaller window still works:
    # the frame is laid out for MIN_SIZE and clipped)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        pygame.Window.from_display_module().minimum_size = MIN_SIZE
    return screen


def caption(title: str) -> str:
    """The window's caption for a scenario's title, escaped as every text the window shows is (a
    title is a stranger's text; SDL takes the caption as UTF-8)."""
    return f"Grid battle - {escaped(title)}" if title else "Grid battle"


class Window:
    """A display (or any surface) showing one battle through a :class:`Renderer`.

    Args:
        battle: the battle to show.
        size: the window size, when a window is opened.
        title: in the window's caption.
        team_colours: team -> RGB for the tokens.
        powers: a scenario's entity -> power ids (the ones listed for each creature).
        screen: draw into this surface instead of opening a window (tests, screenshots).
        offscreen: draw into a new surface of ``size`` (headless play).
    """

    def __init__(self, battle: Any, size: tuple[int, int] = (1280, 800), title: str = "",
                 team_colours: dict[str, theme.Colour] | None = None,
                 powers: Mapping[int, tuple[str, ...]] | None = None, screen: pygame.Surface | None = None,
                 offscreen: bool = False) -> None:
        # display and fonts only: pygame.init() would also open the audio device, which the game
        # never uses (and on a machine without a sound card it prints a screenful of ALSA errors)
        if not pygame.display.get_init():
            pygame.display.init()
        if not pygame.font.get_init():
            pygame.font.init()
        if screen is None and offscreen:
            screen = pygame.Surface(size)
        if screen is None:
            screen = open_display(size)
            pygame.display.set_caption(caption(title))
        self.screen = screen
        #: whether this window draws into the display (not into a surface of its own)
        self._on_display = screen is pygame.display.get_surface()
        self.renderer = Renderer(battle, screen.get_size(), team_colours=team_colours)
        self.renderer.powers = powers
        self._clock = pygame.time.Clock()
        self._drag: tuple[int, int] | None = None
        self._dragged = False
        #: the buttons the last frame showed (what a click beside the map may press)
        self._buttons: tuple[str, ...] = ()
        #: the map moved under the pointer since the last inputs (the square under it changed)
        self._view_moved = False

    # ------------------------------------------------------------------ the view

    @property
    def log_scroll_max(self) -> int | None:
        """How far back the combat log can scroll, once the renderer knows."""
        return self.renderer.log_scroll_max

    def pan(self, dx: int, dy: int) -> None:
        """Scroll the map by whole squares."""
        tile = self.renderer.tile
        self.renderer.pan(dx * tile, dy * tile)
        self._view_moved = True

    def centre_on(self, square: tuple[int, int]) -> None:
        self.renderer.centre_on(*square)
        self._view_moved = True

    def set_title(self, title: str) -> None:
        """The window's caption (a hot reload may rename the scenario); an off-screen surface has none."""
        if self.screen is pygame.display.get_surface():
            pygame.display.set_caption(caption(title))

    def set_battle(self, battle: Any) -> None:
        """Show another battle (after a load)."""
        self.renderer.set_battle(battle)
        self._view_moved = True

    def forget(self) -> None:
        """Redraw everything from the battle (after an undo)."""
        self.renderer.forget()

    # ------------------------------------------------------------------ input

    def inputs(self) -> list[Input]:
        """Everything in pygame's event queue, as plain inputs (drags scroll the map and send nothing)."""
        found = []
        for event in pygame.event.get():
            value = self.translate(event)
            if value is not None:
                found.append(value)
        if self._view_moved:
            found.extend(self._hover_after_move(found))
        return found

    def _hover_after_move(self, found: list[Input]) -> list[Input]:
        """The square now under a pointer that did not move while the map did (arrows, the wheel, the
        map centred on the creature whose turn came, a load, a resize): without it the preview kept
        showing the old square's path, drawn away from the pointer, while a click went to the square
        under it. Nothing for an off-screen surface, or a pointer outside the window."""
        self._view_moved = False
        if not self._on_display or not pygame.mouse.get_focused() or any(isinstance(v, Hover) for v in found):
            return []
        return [Hover(self.renderer.square_at(pygame.mouse.get_pos()))]

    def translate(self, event: pygame.event.Event) -> Input | None:
        """One pygame event as a plain input, or None when it means nothing to the application."""
        if event.type == pygame.QUIT:
            return Quit()
        if event.type == pygame.MOUSEMOTION:
            return self._motion(event)
        if event.type == pygame.MOUSEBUTTONDOWN:
            return self._press(event)
        if event.type == pygame.MOUSEBUTTONUP and event.button == RIGHT:
            dragged, self._drag = self._dragged, None
            return None if dragged else Click(self.renderer.square_at(event.pos), RIGHT)
        if event.type == pygame.MOUSEWHEEL:
            over_log = pygame.mouse.get_pos()[0] >= self.renderer.map_rect.right
            return Wheel(event.y, event.x, over_log, bool(pygame.key.get_mods() & pygame.KMOD_SHIFT))
        if event.type == pygame.VIDEORESIZE:
            self.resized()
            return None
        if event.type == pygame.KEYDOWN:
            return Key(pygame.key.name(event.key), bool(event.mod & pygame.KMOD_CTRL),
                       bool(event.mod & pygame.KMOD_SHIFT), getattr(event, "unicode", ""))
        return None

    def _press(self, event: pygame.event.Event) -> Input | None:
        """A mouse button pressed: a left click on a square or a button; the right one starts a drag."""
        if event.button == LEFT:
            square = self.renderer.square_at(event.pos)
            if square is not None:
                return Click(square, LEFT)
            button = self.renderer.button_at(event.pos, self._buttons)
            if button is not None:
                return Button(button)
            row = self.renderer.power_at(event.pos)
            return PowerRow(row) if row is not None else None
        if event.button == RIGHT:
            self._drag, self._dragged = event.pos, False
        return None

    def resized(self) -> None:
        """The window changed size (dragged, maximised, tiled by the window manager): draw into the
        display's surface as it is now and lay the frame out for its size. Drawing on into the
        surface the window had before is what crashed the game (a segmentation fault inside
        pygame) when the window grew. An off-screen surface never changes size."""
        screen = pygame.display.get_surface()
        if not self._on_display or screen is None:
            return
        self.screen = screen
        self.renderer.resize(screen.get_size())
        self._view_moved = True

    def _motion(self, event: pygame.event.Event) -> Hover:
        """The square under the mouse; with the right button held, the map follows the drag."""
        if self._drag is not None and event.buttons[2]:
            dx, dy = event.pos[0] - self._drag[0], event.pos[1] - self._drag[1]
            if abs(dx) + abs(dy) > 0:
                self.renderer.pan(-dx, -dy)
                self._dragged = True
            self._drag = event.pos
        return Hover(self.renderer.square_at(event.pos))

    # ------------------------------------------------------------------ output

    def draw(self, ui: UiState) -> None:
        """Draw a frame into the screen surface (not shown until :meth:`present`)."""
        self._buttons = ui.buttons
        self.renderer.draw(self.screen, ui)

    def screenshot(self, path: str, ui: UiState) -> None:
        """Draw a frame with its animations finished and write it to ``path`` as PNG.

        Raises:
            OSError: the picture cannot be written (see :func:`game.render.png.save_png`).
        """
        self._buttons = ui.buttons
        self.renderer.draw(self.screen, ui)
        save_png(self.screen, path)

    def present(self, ui: UiState) -> float:
        """Draw a frame, show it and wait for the next one.

        Returns:
            Seconds since the previous frame was shown (what an autoplay timer counts).
        """
        self.draw(ui)
        if self.screen is pygame.display.get_surface():  # an off-screen surface has nothing to show
            pygame.display.flip()
        return self._clock.tick(FPS) / 1000

    def close(self) -> None:
        pygame.quit()
