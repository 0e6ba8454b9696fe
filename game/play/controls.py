"""What each input means: the key and mouse bindings of the window application, in one place.

:func:`handle` turns one plain input (:mod:`game.render.inputs`) into a call on the
:class:`game.play.app.App`: a click selects, moves or aims, Space (or the button) ends the turn,
Enter plays the computer's turns at once, U undoes, G toggles the GM view, 1-9 choose a power, the
wheel and the arrows scroll, R (or PageUp/PageDown) rewinds to a round's start, F5 or Ctrl+R
reloads the scenario from disk, Ctrl+S/L/Q save, load and quit. No pygame here either.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from game.render.inputs import LEFT, RIGHT, Button, Click, Hover, Input, Key, PowerRow, Quit, Wheel

if TYPE_CHECKING:
    from game.play.app import App

#: Squares the map scrolls per arrow key or wheel notch.
SCROLL_SQUARES = 2
#: Log lines the wheel scrolls per notch over the side panel.
LOG_LINES_PER_NOTCH = 3
#: Arrow key -> the direction it scrolls the map.
ARROWS: Mapping[str, tuple[int, int]] = MappingProxyType({"left": (-1, 0), "right": (1, 0), "up": (0, -1),
                                                          "down": (0, 1)})
POWER_KEYS = tuple("123456789")
#: Keys for the animations: slower, faster, skip what is playing.
ANIMATION_KEYS = ("[", "]", "backspace")
#: Plain keys that do what a button does (the keypad's Enter as the main one).
PLAIN_ACTIONS: Mapping[str, str] = MappingProxyType({"space": "end_turn", "return": "skip", "enter": "skip",
                                                     "u": "undo", "g": "gm_view"})

#: Ctrl+key -> the application's method it calls (save, load, quit, hot reload).
CTRL_KEYS: Mapping[str, str] = MappingProxyType({"s": "save", "l": "load", "q": "quit", "r": "reload"})

#: Keys that open the GM's rewind picker, and the round they open it on (from the current one).
REWIND_KEYS: Mapping[str, int] = MappingProxyType({"r": 0, "page up": -1, "page down": 1})


def handle(app: App, event: Input) -> None:
    """One input from the window (or a test): what it means for the battle and the view. Over the
    help a button or a click on the map only closes it: End turn played on unseen under it, and a
    click moved the creature, which Space and the other keys are kept from doing there. A button or
    a click closes the rewind picker, as the Ctrl keys do: its prompt went from the status bar under
    the button's news while it stayed open, and the next Enter (to skip the computer's wait) rewound
    the battle unasked."""
    if isinstance(event, Button | Click | PowerRow) and _closes_an_overlay(app):
        return
    match event:
        case Quit():
            app.quit()
        case Hover(square):
            if square != app.ui.hover:
                app.ui.hover = square
                app.refresh()
        case Button() | PowerRow():
            _pressed(app, event)
        case Click(square, button) if button == LEFT and square is not None:
            app.ui.hover = square
            app.click(square)
        case Click(_, button) if button == RIGHT:
            app.cancel()
        case Wheel() as wheel:
            _wheel(app, wheel)
        case Key() as key:
            _key(app, key)


def _closes_an_overlay(app: App) -> bool:
    """A button or a click: the help closes and that is all it does (nothing acts under the help, as
    Space does not); the rewind picker closes and the click acts. Whether the click is spent."""
    if app.ui.show_help:
        app.ui.show_help = False
        return True
    app.picker.active = False
    return False


def _pressed(app: App, event: Button | PowerRow) -> None:
    """A click on one of the window's buttons, or on a power's row in the side panel (any power,
    those past the ninth too, which have no key)."""
    if isinstance(event, PowerRow):
        app.choose_power(event.index)
    else:
        _button(app, event.name)


def _button(app: App, name: str) -> None:
    """A click on one of the window's buttons."""
    action = {"end_turn": app.end_turn, "skip": app.skip, "undo": app.undo, "gm_view": app.toggle_gm_view}.get(name)
    if action is not None:
        action()


def _wheel(app: App, wheel: Wheel) -> None:
    """Over the side panel the wheel scrolls the combat log (up: older lines); over the map, the map
    (sideways with Shift)."""
    if wheel.over_log:
        app.ui.log_scroll = scrolled_log(app.ui.log_scroll, wheel, app.window)
    elif app.window is not None:
        if wheel.shift:
            app.window.pan(-wheel.dy * SCROLL_SQUARES, 0)
        else:
            app.window.pan(-wheel.dx * SCROLL_SQUARES, -wheel.dy * SCROLL_SQUARES)


def scrolled_log(scroll: int, wheel: Wheel, window: Any) -> int:
    """How far back the combat log is after a notch of the wheel over it: never past its first line,
    once the window knows where that is (``log_scroll_max``; the replay window's wheel had no end, and
    the person then turned it back as many notches for nothing)."""
    scroll = max(0, scroll + wheel.dy * LOG_LINES_PER_NOTCH)
    most = window.log_scroll_max if window is not None else None
    return scroll if most is None else min(scroll, most)


def is_help_key(key: Key) -> bool:
    """?, Shift+/ or F1: the help."""
    return key.text == "?" or key.name == "f1" or (key.name == "/" and key.shift)


def _key(app: App, key: Key) -> None:
    """A key: the help toggles; over the help only Esc and the Ctrl keys act (Space would play a
    round unseen); Ctrl+S/L/Q/R save, load, quit and reload, also while the rewind picker is open
    (they close it); the picker takes the other keys while it is open; else Esc cancels and the
    plain keys act. F5 acts as Ctrl+R does."""
    if is_help_key(key):
        app.ui.show_help = not app.ui.show_help
    elif app.ui.show_help and not key.ctrl and key.name != "f5":
        if key.name == "escape":
            app.ui.show_help = False
    elif (key.ctrl and key.name in CTRL_KEYS) or key.name == "f5":  # F5 is Ctrl+R's other key
        app.picker.active = False
        getattr(app, "reload" if key.name == "f5" else CTRL_KEYS[key.name])()
    elif app.picker.active:
        app.picker.key(app, key.name)
    elif key.name == "escape":
        app.cancel()
    else:
        _plain_key(app, key.name)


def _plain_key(app: App, name: str) -> None:
    """Space ends the turn, Enter skips the computer's wait, U undoes, G toggles the GM view, 1-9
    choose a power, Tab selects the next creature, arrows scroll."""
    if name in PLAIN_ACTIONS:
        _button(app, PLAIN_ACTIONS[name])
    elif keypad(name) in POWER_KEYS:
        app.choose_power(int(keypad(name)))
    elif name == "tab":
        app.next_creature()
    elif name in REWIND_KEYS:
        app.picker.open(app, REWIND_KEYS[name])
    elif name in ANIMATION_KEYS:
        _animation_key(app, name)
    elif name in ARROWS and app.window is not None:
        dx, dy = ARROWS[name]
        app.window.pan(dx * SCROLL_SQUARES, dy * SCROLL_SQUARES)


def keypad(name: str) -> str:
    """A key's name with the keypad's brackets taken off ("[1]" -> "1"): a digit typed on the keypad
    chooses a power as the row's does (it did nothing; the rewind picker already read both)."""
    return name[1:-1] if len(name) == 3 and name[0] == "[" and name[-1] == "]" else name


def _animation_key(app: App, name: str) -> None:
    """[ and ] make the animations slower and faster; Backspace ends the one playing at once."""
    motion = app.motion
    if name == "backspace":
        motion.skip()
    else:
        app.ui.message = f"Animation speed: {motion.slower() if name == '[' else motion.faster()}"
    app.animate()
