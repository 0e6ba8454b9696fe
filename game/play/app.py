"""The window application: what the player's clicks and keys mean, and the battle commands they give.

Selection, moves, powers, ending the turn (the computer plays its creatures), saving and loading,
autoplay and the help live here; no pygame does. Input arrives as the plain values of
:mod:`game.render.inputs` through :meth:`App.handle`, from a :class:`game.render.window.Window`
or from a test, which drives the application exactly as a person's clicks do. Every rule question
(can it move there, will it fall, who is still standing) is asked of the battle.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from components import Position
from components.events import CommandRefused
from components.forecasts import MoveForecast
from game import ai
from game.content import saves
from game.play import controls
from game.render.inputs import Input
from game.render.ui import UiState, shown_powers

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
    def inputs(self) -> list[Input]: ...
    def draw(self, ui: UiState) -> None: ...
    def present(self, ui: UiState) -> float: ...
    def close(self) -> None: ...


class App:
    """A battle and the orders the player gives its human teams; the other teams are the computer's.

    Args:
        battle: the battle to play.
        human_teams: teams whose creatures the player orders; the others are played by ``game.ai``.
        team_colours: team -> RGB for the tokens (for the window).
        scenario: the scenario the battle came from (needed to save).
        build_commands: how many of ``battle.command_log`` built the scenario (for saves).
        policy: the computer's AI policy.
        seed: seeds the computer's generator (the battle has its own).
        title: shown at the top of the side panel.
        save_path: where Ctrl+S saves (default: one file per scenario under out/).
        powers: a scenario's entity -> power ids (the ones keys 1-9 choose).
        play_round: how a round is played when the player ends the turn (default: the computer
            orders its creatures on their turns and the battle ticks); the demo directs its rounds.
    """

    def __init__(self, battle: Any, human_teams: set[str] | frozenset[str] = frozenset(),
                 team_colours: dict[str, tuple[int, int, int]] | None = None, scenario: Any = None,
                 build_commands: int | None = None, policy: str = "tactical", seed: int = 0,
                 title: str = "", save_path: Path | str = SAVE_PATH,
                 powers: dict[int, tuple[str, ...]] | None = None,
                 play_round: Callable[[Any], None] | None = None) -> None:
        self.battle = battle
        self.scenario = scenario
        self.build_commands = len(battle.command_log) if build_commands is None else build_commands
        self.team_colours = team_colours
        self.ui = UiState(human_teams=frozenset(human_teams), title=title)
        self.policy = policy
        self.rng = random.Random(seed)
        # one save per scenario, so that a save of the keep is never loaded into the ledge
        stem = Path(scenario.path).stem if scenario is not None and getattr(scenario, "path", None) else ""
        self.save_path = Path(save_path) if save_path != SAVE_PATH or not stem else \
            SAVE_PATH.with_name(f"{stem}.save.json")
        self.powers = powers
        self.play_round = play_round
        self.window: View | None = None
        self.running = True
        self.on_turn_end: list[Callable[[App], None]] = []
        if self.ui.human_teams:
            self._start_combat()
        self._check_over()

    def open_window(self, size: tuple[int, int] = (1280, 800), screen: Any = None) -> Window:
        """Show the battle: a window of ``size``, or ``screen`` (any pygame surface) for tests."""
        from game.render.window import Window

        window = Window(self.battle, size, self.ui.title, self.team_colours, self.powers, screen=screen)
        self.window = window
        return window

    # ------------------------------------------------------------------ the battle's state

    def _start_combat(self) -> None:
        """A person playing sees initiative and surprise before giving the first orders: combat starts
        when the window opens (a battle already under way, or one only watched, is left alone)."""
        b = self.battle
        if b.in_combat or b.round != 0 or not hasattr(b, "start_combat"):
            return
        try:
            b.start_combat()
        except (ValueError, KeyError):
            return
        surprised = [b.name(e) for e in b.turn_order() if self.controls(e) and "surprised" in b.conditions(e)]
        if surprised:
            self.ui.message = (f"Surprised: {', '.join(surprised)} cannot use powers in round 1. "
                               "Give orders, then Space")
        else:
            self.ui.message = "Combat starts: select one of your creatures, give orders, then Space to play the round"

    def winner(self) -> str | None:
        """The one team with anyone still standing once every other team is down or dead, else None
        ("" when nobody at all is standing)."""
        b = self.battle
        teams = {b.team(e) for e in b.creatures()}
        standing = b.standing_teams()
        if len(teams) < 2 or len(standing) > 1:
            return None
        return next(iter(standing), "")

    def _check_over(self) -> None:
        """Put up (or take down, after a load) the banner that says the battle is decided."""
        won = self.winner()
        if won is None:
            self.ui.banner = ""
        elif won == "":
            self.ui.banner = f"Nobody is left standing (round {self.battle.round})"
        else:
            mine = " - you win" if won in self.ui.human_teams else (" - you lose" if self.ui.human_teams else "")
            self.ui.banner = f"{won.capitalize()} wins in round {self.battle.round}{mine}"

    # ------------------------------------------------------------------ orders

    def controls(self, entity: int) -> bool:
        """Whether the player may give this creature orders."""
        return self.battle.team(entity) in self.ui.human_teams

    def creature_at(self, square: tuple[int, int]) -> int | None:
        """The living creature on a square (the dead lie under the living)."""
        b = self.battle
        found = None
        for e in b.creatures():
            if b.get(e, Position).square == square:
                if b.is_alive(e):
                    return e
                found = e
        return found

    def _try(self, what: Callable[[], Any]) -> tuple[bool, Any]:
        """Run battle commands, turning a refusal into a status message instead of a crash.

        Returns:
            Whether they were accepted, and what ``what`` returned.
        """
        try:
            result = what()
        except (ValueError, KeyError) as err:
            # the entity ids in the battle's messages ("Sergeant (#3)") mean nothing to a player
            self.ui.message = re.sub(r" \(#\d+\)", "", str(err).strip("'\""))
            return False, None
        return True, result

    def click(self, square: tuple[int, int]) -> None:
        """A left click on a square: use the chosen power, move the selected creature, or select."""
        ui = self.ui
        occupant = self.creature_at(square)
        if ui.selected is not None and ui.power is not None:
            self.use_power_at(square, occupant)
        elif occupant is not None and occupant != ui.selected:
            self.select(occupant)
        elif ui.selected is not None and occupant is None:
            self.move_to(ui.selected, square)

    def move_to(self, entity: int, square: tuple[int, int]) -> None:
        """Order a move, warning when the battle says the creature will step off something and fall."""
        b = self.battle
        if not self.controls(entity):
            self.ui.message = f"{b.name(entity)} is computer-controlled (Esc to deselect)"
            return

        def order() -> MoveForecast:
            forecast = b.forecast_move(entity, square)  # asked first: the queued move changes the answer
            b.move(entity, *square)
            return forecast

        ok, forecast = self._try(order)
        if not ok:
            return
        self.ui.planned.setdefault(entity, []).append(square)
        warning = ""
        if forecast.fall is not None and forecast.stops_at is not None:
            where, fall = forecast.stops_at, forecast.fall
            soft = " onto soft ground" if fall.soft else ""
            at = "" if where == square else f" at {where}"
            warning = f" - and FALL {fall.distance_ft:g} ft{at}{soft}"
        self.ui.message = f"{b.name(entity)} will move to {square} when the turn ends{warning}"

    def select(self, entity: int | None) -> None:
        self.ui.selected = entity
        self.ui.power = None
        if entity is not None:
            who = self.battle.name(entity)
            self.ui.message = f"{who} selected" + ("" if self.controls(entity) else " (computer-controlled)")
        else:
            self.ui.message = ""

    def choose_power(self, index: int) -> None:
        """Number key ``index`` (1-9): choose that power of the selected creature, or use it at once
        when it needs no aim (centred on the user)."""
        b, ui = self.battle, self.ui
        if ui.selected is None or not hasattr(b, "powers_of"):
            ui.message = "Select one of your creatures first"
            return
        if not self.controls(ui.selected):
            ui.message = f"{b.name(ui.selected)} is computer-controlled"
            return
        powers = shown_powers(b, ui.selected, self.powers)
        if not 1 <= index <= len(powers):
            ui.message = f"{b.name(ui.selected)} has no power {index}"
            return
        power_id = powers[index - 1]
        power = b.power(power_id)
        if _needs_aim(power):
            ui.power = power_id
            ui.message = f"{power.name}: click a target (Esc to cancel)"
            return
        user = ui.selected
        if self._try(lambda: b.use_power(user, power_id))[0]:
            ui.planned_powers.setdefault(user, []).append((power_id, None))
            ui.message = f"{b.name(user)} will use {power.name} when the turn ends"

    def use_power_at(self, square: tuple[int, int], occupant: int | None) -> None:
        """Use the chosen power on the clicked creature (a single-target power) or square."""
        b, ui = self.battle, self.ui
        assert ui.selected is not None and ui.power is not None
        user, power_id = ui.selected, ui.power
        power = b.power(power_id)
        if power.single_target:
            if occupant is None:
                ui.message = f"{power.name} needs a creature: click one"
                return
            ok, _ = self._try(lambda: b.use_power(user, power_id, target=occupant))
        else:
            ok, _ = self._try(lambda: b.use_power(user, power_id, point=square))
        if ok:
            ui.planned_powers.setdefault(user, []).append((power_id, square))
            ui.message = f"{b.name(user)} will use {power.name} when the turn ends"
            ui.power = None

    def end_turn(self) -> None:
        """The player is done: the round is played, each computer creature deciding on its own turn."""
        b = self.battle
        if self.play_round is not None:
            self.play_round(b)
        else:
            if not b.in_combat:
                b.start_combat()
            b.tick(controller=ai.controller(self.policy, self.rng, self.powers,
                                            controls=lambda e: not self.controls(e)))
        self.ui.forget_plans()
        self.ui.power = None
        self.ui.log_scroll = 0
        refused = [e for e in b.events if isinstance(e, CommandRefused) and e.round == b.round
                   and self.controls(e.entity)]
        self.ui.message = f"Round {b.round} played" + (
            f": {len(refused)} of your orders could not be carried out (see the log)" if refused else "") + (
            f". Orders for round {b.round + 1}, then Space" if self.ui.human_teams else "")
        for hook in self.on_turn_end:
            hook(self)
        self._check_over()

    def cancel(self) -> None:
        """Esc or a right click: close the help, else drop the chosen power, else the selection."""
        if self.ui.show_help:
            self.ui.show_help = False
        elif self.ui.power is not None:
            self.ui.power = None
            self.ui.message = "Power cancelled"
        else:
            self.select(None)

    def next_creature(self) -> None:
        """Tab: select the next of the player's living creatures in turn order, and look at it."""
        b = self.battle
        mine = [e for e in b.turn_order() if self.controls(e) and b.is_alive(e)]
        if not mine:
            return
        after = mine.index(self.ui.selected) + 1 if self.ui.selected in mine else 0
        chosen = mine[after % len(mine)]
        self.select(chosen)
        if self.window is not None:
            self.window.centre_on(b.get(chosen, Position).square)

    # ------------------------------------------------------------------ saving

    def save(self) -> None:
        """Ctrl+S: save the scenario and the commands given so far to ``save_path``."""
        if self.scenario is None:
            self.ui.message = "This battle was not loaded from a scenario: nothing to save it against"
            return
        self.save_path.parent.mkdir(parents=True, exist_ok=True)
        try:
            saves.save_game(self.save_path, self.scenario, self.battle, build_commands=self.build_commands)
        except Exception as err:  # whatever went wrong, the player reads it and the game goes on
            self.ui.message = f"Save failed: {err}"
            return
        self.ui.message = f"Saved to {self.save_path}"

    def load(self) -> None:
        """Ctrl+L: replace the battle by the one saved at ``save_path``, if it is of this scenario."""
        try:
            battle, scenario, build_commands = saves.restore_game(self.save_path)
        except Exception as err:  # a missing or broken save is a message, not a crash
            self.ui.message = f"Load failed: {err}"
            return
        if self.scenario is not None and scenario.name != self.scenario.name:
            battle.close()
            self.ui.message = (f"Load refused: {self.save_path} is a save of {scenario.name!r}, "
                               f"this window plays {self.scenario.name!r}")
            return
        old, self.battle = self.battle, battle
        self.scenario, self.build_commands = scenario, build_commands
        if old is not battle:
            old.close()
        if self.window is not None:
            self.window.set_battle(battle)
        self.ui.selected, self.ui.power = None, None
        self.ui.forget_plans()
        self.ui.log_scroll = 0
        self.ui.message = f"Loaded {self.save_path} (round {battle.round})"
        self._check_over()

    # ------------------------------------------------------------------ input

    def handle(self, event: Input) -> None:
        """One input from the window (or a test): what it means (see :func:`game.play.controls.handle`)."""
        controls.handle(self, event)

    def quit(self) -> None:
        self.running = False

    # ------------------------------------------------------------------ the loop

    def handle_inputs(self) -> None:
        """Handle everything the window has seen since the last call."""
        if self.window is not None:
            for event in self.window.inputs():
                self.handle(event)

    def draw(self) -> None:
        """Draw a frame into the window's surface."""
        if self.window is not None:
            self.window.draw(self.ui)

    def run(self, autoplay_seconds: float | None = None, max_rounds: int | None = None) -> None:
        """The window's loop (a window is opened if none is); with ``autoplay_seconds`` the turn ends
        by itself every so many seconds (computer vs computer), up to ``max_rounds``."""
        window = self.window if self.window is not None else self.open_window()
        waited = elapsed = 0.0
        while self.running:
            self.handle_inputs()
            if autoplay_seconds is not None and not self.ui.show_help and not self.ui.banner:
                waited += elapsed  # the clock stops while the help is up or the battle is decided
                if waited >= autoplay_seconds and (max_rounds is None or self.battle.round < max_rounds):
                    waited = 0.0
                    self.end_turn()
            elapsed = window.present(self.ui)
        window.close()


def _needs_aim(power: Any) -> bool:
    """Whether a power asks for a target square or creature after its key, rather than being used at
    once (a burst centred on the user, or a power on the user itself)."""
    needs = power.range_ft is not None or (power.area is not None and power.area.shape != "burst")
    if power.targets == "self" and not getattr(power, "teleport", False):
        needs = False
    if not needs and power.area is None and power.targets != "self":
        needs = True  # melee reach: still pick the creature
    return needs
