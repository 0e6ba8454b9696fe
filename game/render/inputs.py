"""The player's input as small plain values: what the window saw, not what it means.

``game.render.window`` turns pygame's events into these; ``game.play.app`` decides what they mean
(select, move, use a power, save). Neither this module nor the application imports pygame, so the
application can be driven by tests, a script or a replay with exactly the values a window sends.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Mouse buttons as pygame numbers them.
LEFT, RIGHT = 1, 3


@dataclass(frozen=True, slots=True)
class Click:
    """A mouse click on a square of the map (``square`` None: outside it). A right-drag that scrolled
    the map is not a click: the window scrolls and sends nothing."""

    square: tuple[int, int] | None
    button: int = LEFT


@dataclass(frozen=True, slots=True)
class Key:
    """A key pressed: its name as pygame names keys ("space", "escape", "tab", "left", "1", "s",
    "f1", "/"), the character it typed (``text``, e.g. "?"), and the modifiers held."""

    name: str
    ctrl: bool = False
    shift: bool = False
    text: str = ""


@dataclass(frozen=True, slots=True)
class Hover:
    """The mouse is over a square now (None: not over the map)."""

    square: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class Wheel:
    """The mouse wheel turned: ``dy`` up is positive; ``over_log`` when the mouse is on the side panel."""

    dy: int
    dx: int = 0
    over_log: bool = False
    shift: bool = False


@dataclass(frozen=True, slots=True)
class Button:
    """A click on one of the window's buttons, by name ("end_turn", "skip", "undo", "gm_view")."""

    name: str


@dataclass(frozen=True, slots=True)
class PowerRow:
    """A click on a power's row in the side panel: choose that power (``index`` counts from 1, as the
    keys 1-9 do; a row past the ninth is chosen only so)."""

    index: int


@dataclass(frozen=True, slots=True)
class Quit:
    """The window is being closed."""


Input = Click | Key | Hover | Wheel | Button | PowerRow | Quit
