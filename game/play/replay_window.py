"""``python -m game replay FILE`` in a window: a replay you can step, forward and back.

Left and Right step one event, Up and Down one turn, PageUp and PageDown one round, Home and End
go to the start and the end, Space plays and pauses (one event per ``event_seconds``). The
timeline along the bottom of the map shows where the cursor is (round, turn, event n of N, and a
tick where each round begins); the status bar says what the event at the cursor was. Every point
is the battle replayed to there (:mod:`game.play.timeline`): back steps rebuild from the seed
and the commands, so what is shown is exactly what was recorded. Input comes as the plain values
of :mod:`game.render.inputs` through :meth:`ReplayApp.handle`, from the window or a test.
"""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from game.battle.log import describe
from game.battle.naming import display_names
from game.play.controls import scrolled_log
from game.play.status import decided_line
from game.play.timeline import Timeline
from game.render.inputs import Input, Key, Quit, Wheel
from game.render.ui import UiState

if TYPE_CHECKING:
    from game.content.rebuild import ReplayFile

#: Seconds between two events while playing.
EVENT_SECONDS = 0.12

#: key -> (what it steps, by how much)
STEPS = MappingProxyType({"right": ("event", 1), "left": ("event", -1), "down": ("turn", 1), "up": ("turn", -1),
                          "page down": ("round", 1), "page up": ("round", -1)})

#: Under the replay's end banner: what its keys can still do (the play window's named R, F5 and Ctrl+L).
BANNER_HINT = "Left/Up/PageUp/Home: step back   Esc or Ctrl+Q: quit"

HELP = ("Replay: Left/Right one event, Up/Down one turn, PageUp/PageDown one round, Home/End start/end, "
        "Space play/pause, Esc or Ctrl+Q quit")


class ReplayApp:
    """A replay stepped in a window.

    Args:
        timeline: the replay (its battle is the one shown; the app closes it with itself).
        title: shown at the top of the side panel.
        event_seconds: seconds between two events while playing.
    """

    def __init__(self, timeline: Timeline, title: str = "", event_seconds: float = EVENT_SECONDS) -> None:
        self.timeline = timeline
        #: each creature as the log names it ("Raider 2", not "Raider"): the status line names them alike
        self.names = display_names(timeline.final_events)
        self.ui = UiState(title=title)
        self.event_seconds = event_seconds
        self.waited = 0.0
        self.window: Any = None
        self.running = True
        self._show()

    @property
    def battle(self) -> Any:
        """The battle at the cursor."""
        return self.timeline.battle

    def open_window(self, size: tuple[int, int] = (1280, 800), screen: Any = None) -> Any:
        """Show the replay: a window of ``size``, or ``screen`` (any pygame surface) for tests."""
        from game.play.demo import team_colours
        from game.render.window import Window

        colours = team_colours(self.timeline.scenario)
        self.window = Window(self.battle, size, self.ui.title, colours, None, screen=screen)
        return self.window

    # ------------------------------------------------------------------ input

    def handle(self, event: Input) -> None:
        """One input: a step, play/pause, the wheel over the log, or quit."""
        match event:
            case Quit():
                self.running = False
            case Wheel() as wheel if wheel.over_log:
                self.ui.log_scroll = scrolled_log(self.ui.log_scroll, wheel, self.window)
            case Key() as key:
                self._key(key)

    def _key(self, key: Key) -> None:
        timeline = self.timeline
        if key.name == "escape" or (key.ctrl and key.name == "q"):
            self.running = False
            return
        if key.name in STEPS:
            what, step = STEPS[key.name]
            {"event": timeline.step_event, "turn": timeline.step_turn, "round": timeline.step_round}[what](step)
            timeline.playing = False
        elif key.name == "home":
            timeline.go(timeline.first)
        elif key.name == "end":
            timeline.go(timeline.total)
        elif key.name == "space":
            timeline.playing = not timeline.playing and timeline.event < timeline.total
            self.waited = 0.0
        elif key.text == "?" or key.name == "f1":
            self.ui.message = HELP
            return
        else:
            return
        self._show()

    def tick_clock(self, elapsed: float) -> None:
        """While playing, one event on per ``event_seconds``; at the end it pauses."""
        timeline = self.timeline
        if not timeline.playing:
            return
        self.waited += elapsed
        while self.waited >= self.event_seconds and timeline.playing:
            self.waited -= self.event_seconds
            timeline.step_event(1)
            timeline.playing = timeline.event < timeline.total
        self._show()

    # ------------------------------------------------------------------ output

    def _show(self) -> None:
        """The UI follows the cursor: the timeline, and the event at the cursor in the status bar."""
        timeline = self.timeline
        self.ui.timeline = timeline.position()
        self.ui.log_scroll = 0
        won = self.battle.winner()
        # decided: nobody acts now, nor next (the strip named the next creature on, a downed one too,
        # when the play window's strip no longer did), and the banner says who won, as it said there
        decided = won is not None
        self.ui.actor = None if decided else self.battle.current_actor
        self.ui.up_next = () if decided else tuple(self.battle.turns_left())
        self.ui.banner = decided_line(won, self.battle.round) if decided else ""
        self.ui.banner_hint = BANNER_HINT
        event = timeline.event_line()
        said = describe(self.battle, event, self.names) if event is not None else "The start"
        self.ui.message = f"Event {timeline.event}/{timeline.total}: {said}"
        if self.window is not None and self.window.renderer.battle is not self.battle:
            self.window.set_battle(self.battle)

    def draw(self) -> None:
        if self.window is not None:
            self.window.draw(self.ui)

    def run(self) -> None:
        """The window's loop, until it is closed."""
        window = self.window if self.window is not None else self.open_window()
        elapsed = 0.0
        while self.running:
            for event in window.inputs():
                self.handle(event)
            self.tick_clock(elapsed)
            elapsed = window.present(self.ui)
        window.close()
        self.timeline.close()


def open_replay(path: str | Path, title: str | None = None, found: ReplayFile | None = None) -> ReplayApp:
    """A replay (or save) file as a :class:`ReplayApp` (no window yet); ``found``: the file as already
    read (``game.content.saves.check_replay``), which is then not read again: ``replay FILE`` checks a
    file and steps it, and a second reading could step a file changed since the check.

    Raises:
        SaveError: the file cannot be read as a replay, or its scenario does not load.
        ValueError: a command of it is refused on replay.
    """
    from game.content.saves import read_replay

    if found is None:
        found = read_replay(path)
    timeline = Timeline(found.scenario, found.seed, found.commands, found.powers, found.power_overrides,
                        found.build_commands, found.events)
    return ReplayApp(timeline, title or f"Replay of {Path(path).name}")
