"""The window application: what the player's clicks and keys mean, and the battle commands they give.

Turns come in initiative order (:mod:`game.play.flow`): when one of the person's creatures' turn
comes it is selected, and its orders (a move and a power, in either order as the rules allow)
resolve at once; ``End turn`` (Space or the button) passes to the next creature, and the
computer's creatures act one at a time, a short delay apart (Enter plays them at once). Hovering
shows the battle's forecasts (:mod:`game.play.preview`), the person sees only what their team
sees (:mod:`game.play.fog`, G for the GM view), and U takes back the current creature's orders
while no dice were rolled. Input arrives as the plain values of :mod:`game.render.inputs` through
:meth:`App.handle`, from a :class:`game.render.window.Window` or from a test; no pygame here, and
every rule question is asked of the battle.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from components import Position
from game.ai import DEFAULT_POLICY
from game.play import controls, preview, reload, saving
from game.play.flow import COMPUTER_DELAY, TurnFlow
from game.play.fog import Fog
from game.play.headless import PlayError, check_policy
from game.play.motion import Motion
from game.play.orders import Orders
from game.play.rewind import RoundPicker
from game.play.status import StatusLine, decided_line, start_line, step_line
from game.render.inputs import Button, Click, Input, Key
from game.render.ui import UiState

if TYPE_CHECKING:
    from game.render.window import Window

SAVE_PATH = Path("out/save.json")


class View(Protocol):
    """What the application needs of a window (``game.render.window.Window`` is one)."""

    @property
    def log_scroll_max(self) -> int | None: ...

    def pan(self, dx: int, dy: int) -> None: ...
    def centre_on(self, square: tuple[int, int]) -> None: ...
    def set_battle(self, battle: Any) -> None: ...
    def forget(self) -> None: ...
    def inputs(self) -> list[Input]: ...
    def draw(self, ui: UiState) -> None: ...
    def present(self, ui: UiState) -> float: ...
    def close(self) -> None: ...


class App(Orders):
    """A battle and the orders the player gives its human teams; the other teams are the computer's.

    Args:
        battle: the battle to play.
        human_teams: teams whose creatures the player orders; the others are played by ``game.ai``.
        team_colours: team -> RGB for the tokens (for the window).
        scenario: the scenario the battle came from (needed to save).
        build_commands: how many of ``battle.command_log`` built the scenario (for saves).
        policy: the computer's AI policy, for every team or per team (``keep=tactical,raiders=greedy``).
        seed: seeds the computer's generator (None: the battle's own seed, as the command line and a
            loaded save use; 0 here played other computer turns than the same battle after a load).
        title: shown at the top of the side panel.
        save_path: where Ctrl+S saves (default: one file per scenario under out/).
        powers: a scenario's entity -> power ids (the ones keys 1-9 choose).
        play_round: how a whole round is played when the turn ends, instead of turn by turn (the
            demo directs its rounds).
        computer_delay: seconds between two computer turns shown in the window.
        max_rounds: no round is begun after this one (None: no limit).
    """

    def __init__(self, battle: Any, human_teams: set[str] | frozenset[str] = frozenset(),
                 team_colours: dict[str, tuple[int, int, int]] | None = None, scenario: Any = None,
                 build_commands: int | None = None, policy: str = DEFAULT_POLICY, seed: int | None = None,
                 title: str = "", save_path: Path | str = SAVE_PATH,
                 powers: dict[int, tuple[str, ...]] | None = None,
                 play_round: Callable[[Any], None] | None = None, computer_delay: float = COMPUTER_DELAY,
                 max_rounds: int | None = None, explain: bool = False) -> None:
        self.battle = battle
        self.scenario = scenario
        self.build_commands = len(battle.command_log) if build_commands is None else build_commands
        self.team_colours = team_colours
        self.ui = UiState(human_teams=frozenset(human_teams), title=title)
        self.policy = policy
        # one save per scenario, so that a save of the keep is never loaded into the ledge
        scenario_path = getattr(scenario, "path", None) if scenario is not None else None
        self.save_path = Path(save_path) if save_path != SAVE_PATH or not scenario_path else \
            saving.slot_for(SAVE_PATH.parent, scenario_path)
        self.ui.save_path = str(self.save_path)
        self.powers = powers
        self.play_round = play_round
        self.flow = TurnFlow(battle, self.controls, policy, battle.seed if seed is None else seed, powers,
                             max_rounds, computer_delay)
        self.ui.notes = self.flow.reasons if explain else None  # the computer's reasons in the GM's log
        self.fog = Fog()
        self.picker = RoundPicker()  # R: the GM's rewind to a round's start (game.play.rewind)
        self.motion = Motion()  # tokens walking, floating numbers: presentation only (game.play.motion)
        self.shown: frozenset[int] = frozenset()  # the creatures the person saw at the last frame
        self.status = StatusLine()  # the person's last line, held against the computer's (game.play.status)
        self.window: View | None = None
        self.running = True
        self.on_turn_end: list[Callable[[App], None]] = []
        self.ui.buttons = () if play_round is not None else ("end_turn", "skip", "undo", "gm_view")
        if self.ui.human_teams and play_round is None:
            self._start_combat()
        self.motion.reset(battle)
        self.refresh()

    def open_window(self, size: tuple[int, int] = (1280, 800), screen: Any = None, offscreen: bool = False
                    ) -> Window:
        """Show the battle: a window of ``size``, or ``screen`` (any pygame surface) for tests, or an
        off-screen surface of ``size`` (headless play)."""
        from game.render.window import Window

        window = Window(self.battle, size, self.ui.title, self.team_colours, self.powers, screen=screen,
                        offscreen=offscreen)
        self.window = window
        return window

    # ------------------------------------------------------------------ the battle's state

    def _start_combat(self) -> None:
        """A person playing sees initiative and surprise before giving the first orders: combat starts
        and the first round begins when the window opens (a battle under way is left as it is)."""
        b = self.battle
        try:
            self.flow.begin()
        except (ValueError, KeyError):
            return
        surprised = [b.display_name(e) for e in b.turn_order() if self.controls(e) and "surprised" in b.conditions(e)]
        self.ui.message = start_line(b, surprised)

    def winner(self) -> str | None:
        """The one team still standing, "" when nobody is, None while the battle goes on."""
        return self.battle.winner()  # type: ignore[no-any-return]

    def _check_over(self, was: str | None = None) -> None:
        """Put up (or take down, after a load) the banner that says the battle is decided; the status
        bar says the same as it goes up (from ``was``, the banner before a step that told its own line
        after a refresh), and then what the person's keys say (every hover wrote the banner again over
        the rewind picker's prompt, or over "Saved to ...")."""
        won, humans = self.winner(), self.ui.human_teams  # hot seat (two human teams): no "you"
        if won is None:
            self.ui.banner = ""
            return
        mine = "" if won == "" or len(humans) != 1 else " - you win" if won in humans else " - you lose"
        if (banner := decided_line(won, self.battle.round) + mine) != (self.ui.banner if was is None else was):
            self.ui.banner = self.ui.message = banner
        self.ui.banner_hint = saving.decided_hint(self)

    def refresh(self) -> bool:
        """After anything changed: whose turn it is (theirs selected when it is the person's), what
        the person's team sees, the forecast under the mouse, and whether the battle is decided.

        Returns:
            Whether a turn of the person's began (its prompt is now the status message).
        """
        ui, b = self.ui, self.battle
        over = self.winner() is not None  # decided: nobody's turn is "now" in the strip, not even the fallen's
        actor = self.flow.actor if self.play_round is None and not over else None
        new_turn = actor != ui.actor
        if new_turn and actor is not None and self.controls(actor):
            self.select(actor)
            ui.message = f"{b.display_name(actor)}'s turn: move and use a power, then End turn (Space)"
            if self.window is not None:
                self.window.centre_on(b.get(actor, Position).square)
        ui.actor, ui.up_next = actor, () if over else tuple(self.flow.up_next())
        self.fog.update(self)
        self.fog.note_turn(ui, new_turn)
        if ui.selected is not None and not ui.shows(ui.selected):
            ui.selected, ui.power = None, None
        preview.update(self)
        self._check_over()
        return new_turn and actor is not None and self.controls(actor) and not ui.banner

    def _tell(self, line: str, prompted: bool) -> None:
        """Say ``line`` in the status bar, before the turn prompt :meth:`refresh` just put there
        (``prompted``), so that neither writes over the other."""
        self.ui.message = f"{line}. {self.ui.message}" if prompted else line

    def replace_battle(self, battle: Any) -> str:
        """Play another battle in this window (a load): the turn flow, the view and the UI follow.

        Returns:
            What the person should be told of it besides (a ``--policy`` team it lacks), or "".
        """
        self.battle = battle
        self.flow.set_battle(battle)
        if self.window is not None:
            self.window.set_battle(battle)
        self.ui.selected, self.ui.power, self.ui.actor = None, None, None
        self.ui.seen_at.clear()
        self.fog.start_over()  # its sight was the old battle's: the new one's counters may be the same
        self.ui.log_scroll = 0
        self.motion.reset(battle)
        self.refresh()
        try:
            check_policy(self.flow.policy, battle, "this battle")
        except PlayError as err:  # a reload that renamed a team: it now plays under the default policy
            self.ui.message = f"{err}; its teams not named play {self.flow.policies['']}"
            return self.ui.message
        return ""

    def end_turn(self) -> None:
        """Space or the button: the person's creature ends its turn; on a computer turn, the computer
        plays on at once up to the person's next turn (or the round's end)."""
        if self.play_round is not None:
            self._play_whole_round()
            return
        self.status.release()
        if self.ui.banner:  # decided: no turn to pass ("Hero ends its turn" read as if the battle went on)
            self.ui.message = self.ui.banner
        elif self.flow.human_turn():
            self.ui.message = f"{self.battle.display_name(self.flow.actor)} ends its turn"
            self.flow.pass_turn()
        else:
            self.skip()
            return
        self.ui.power = None
        self.refresh()

    def skip(self) -> None:
        """Enter: play the computer's turns now instead of one per delay."""
        if self.play_round is not None or self.flow.over():
            return
        if self.flow.human_turn():  # nothing to skip: say so, not "the computer played 0 turns"
            name = self.battle.display_name(self.flow.actor)
            self.ui.message = f"It is {name}'s turn: Enter plays only the computer's turns (Space ends this one)"
            return
        self.status.release()
        played, was = self.flow.skip(), self.ui.banner
        prompted = self.refresh()
        line = f"The computer played {played} turn{'s' if played != 1 else ''}" if played or \
            not self.flow.began_round else f"Round {self.battle.round} begins"
        self._tell(". ".join([line, *self.flow.passed]), prompted)
        self._check_over(was)  # (the banner's words, if these turns decided the battle)

    def undo(self) -> None:
        """U or the button: take back the current creature's orders this turn, if no dice were rolled
        and its team has not seen an enemy it did not see when the turn began."""
        problem = self.flow.can_undo()
        if problem is None and self.fog.revealed:
            problem = "cannot undo: your creatures saw something new this turn"
        self.ui.power = None
        if problem is not None:
            self.ui.message = problem
            preview.update(self)  # the power U dropped: its odds went on showing under the mouse
            return
        self.ui.message = self.flow.undo()
        self.fog.forget()
        self.motion.reset(self.battle)
        if self.window is not None:
            self.window.forget()
        self.refresh()

    def toggle_gm_view(self) -> None:
        """G or the button: the GM view shows everything; again, back to what your team sees."""
        self.ui.gm_view = not self.ui.gm_view
        self.ui.message = "GM view: everything shown" if self.ui.gm_view else "Your team's view"
        self.refresh()

    def _play_whole_round(self) -> None:
        """The demo's way: the round is played whole by ``play_round``."""
        assert self.play_round is not None
        self.play_round(self.battle)
        self.ui.power = None
        self.ui.log_scroll = 0
        self.ui.message = f"Round {self.battle.round} played"
        for hook in self.on_turn_end:
            hook(self)
        self.refresh()

    def reload(self) -> None:
        """F5 or Ctrl+R: the scenario, its powers and scripts read again from disk and the battle
        restarted on the same seed (:mod:`game.play.reload`); a bad edit is shown, the battle kept."""
        fresh = reload.load_fresh(self)
        if fresh is None:
            return
        warning = reload.install(self, fresh)
        if self.ui.human_teams and self.play_round is None:
            self._start_combat()
        prompted = self.refresh()
        self._tell(f"Reloaded {self.scenario.path}: restarted on seed {self.battle.seed}" +
                   (f". {warning}" if warning else ""), prompted)

    def cancel(self) -> None:
        """Esc or a right click: close the help or an error, else drop the chosen power, else the selection."""
        if self.ui.show_help:
            self.ui.show_help = False
        elif self.ui.error:
            self.ui.error = ""
        elif self.ui.power is not None:
            self.ui.power = None
            self.ui.message = "Power cancelled"
        else:
            self.select(None)
        self.refresh()

    # ------------------------------------------------------------------ saving, input, the loop

    def save(self) -> None:
        """Ctrl+S: save the scenario and the commands given so far to ``save_path``."""
        saving.save(self)

    def load(self) -> None:
        """Ctrl+L: replace the battle by the one saved at ``save_path``, if it is of this scenario."""
        saving.load(self)

    def handle(self, event: Input) -> None:
        """One input from the window (or a test): what it means (see :func:`game.play.controls.handle`).
        A line the person's key, click or button put in the status bar is held there a few seconds
        in front of the computer's turns (:class:`game.play.status.StatusLine`)."""
        before, releases = self.ui.message, self.status.releases
        controls.handle(self, event)
        if isinstance(event, Key | Click | Button) and self.ui.message != before \
                and self.status.releases == releases:  # (an input that passed the turn is not held)
            self.status.hold(self.ui.message, self.motion.clock)

    def quit(self) -> None:
        self.running = False

    def handle_inputs(self) -> None:
        """Handle everything the window has seen since the last call."""
        if self.window is not None:
            for event in self.window.inputs():
                self.handle(event)

    def draw(self) -> None:
        """Draw a frame into the window's surface."""
        if self.window is not None:
            self.animate()
            self.window.draw(self.ui)

    def animate(self) -> None:
        """The animations of what happened since the last frame, at the motion clock's instant."""
        shown, self.shown = self.shown, frozenset(self.battle.creatures()) - self.ui.hidden

        def ours(e: int) -> bool:
            return bool(self.battle.team(e) == self.fog.team)

        self.motion.take(self.battle, lambda e: self.ui.shows(e) or e in shown,  # (and who walked out of sight)
                         (self.ui.sight_team, self.ui.team_visible), ours)
        self.ui.motion = self.motion.frame(self.ui.shows, self.ui.visible, ours)

    def tick_clock(self, elapsed: float) -> None:
        """The loop's clock: the computer's next turn when its delay has passed since the last walk
        ended (not under the help, nor while the GM picks a round to rewind to: the battle would move
        on under the choice and write over its prompt)."""
        self.motion.advance(elapsed)  # and the animations move on
        # the next computer creature waits until the last one's walk is over: one at a time, visibly
        waiting = self.ui.show_help or self.motion.walking or self.picker.active
        actor = self.flow.actor  # one the person saw take its turn is named, though it walked out of sight
        seen, seat, was = actor is not None and self.ui.shows(actor), self.ui.sight_team, self.ui.banner
        if self.play_round is None and not waiting and self.flow.update(elapsed):
            prompted = self.refresh()
            # (by the seat that saw it: a hot seat's team seated by this step did not, and read "Wolf waits")
            seen = seen and self.ui.sight_team == seat
            line = step_line(self.flow, self.battle.round, lambda e: self.ui.shows(e) or (seen and e == actor),
                             sees_all=self.ui.visible is None)
            self._tell(self.status.compose(line, self.motion.clock), prompted)
            self._check_over(was)
        self.animate()

    def run(self, autoplay_seconds: float | None = None, max_rounds: int | None = None) -> None:
        """The window's loop (a window is opened if none is). Computer turns are played one per
        ``autoplay_seconds`` (default: the app's delay), up to ``max_rounds``; with ``play_round``
        the round is played whole every ``autoplay_seconds``."""
        window = self.window if self.window is not None else self.open_window()
        if autoplay_seconds is not None:
            self.flow.delay = autoplay_seconds
        if max_rounds is not None:
            self.flow.max_rounds = max_rounds
        waited = elapsed = 0.0
        while self.running:
            self.handle_inputs()
            self.tick_clock(elapsed)
            if self.play_round is not None and autoplay_seconds is not None and not self.ui.show_help \
                    and not self.ui.banner:
                waited += elapsed  # the clock stops while the help is up or the battle is decided
                if waited >= autoplay_seconds and (max_rounds is None or self.battle.round < max_rounds):
                    waited = 0.0
                    self.end_turn()
            elapsed = window.present(self.ui)
        window.close()

