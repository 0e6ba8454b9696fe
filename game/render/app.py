"""The playable window: input on top of the renderer, the computer's side, saving and loading.

Input handling is a method per pygame event (``handle_event``) so that tests can post real events
into pygame's queue, call :meth:`App.handle_events`, and check what the battle was told: the same
path a person's clicks take.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame

from components import Position
from game import ai
from game.render.view import Renderer, UiState

SAVE_PATH = Path("out/save.json")


class App:
    """A window (or any surface) showing a battle and taking orders for the human teams.

    Args:
        battle: the battle to play.
        human_teams: teams whose creatures the player orders; the others are played by ``game.ai``.
        team_colours: team -> RGB for the tokens.
        scenario: the scenario the battle came from (needed to save).
        build_commands: how many of ``battle.command_log`` built the scenario (for saves).
        screen: the surface to draw into (default: open a window of ``size``).
        policy: the computer's AI policy.
        seed: seeds the computer's generator (the battle has its own).
        title: shown at the top of the side panel.
    """

    def __init__(self, battle: Any, human_teams: set[str] | frozenset[str] = frozenset(),
                 team_colours: dict[str, tuple[int, int, int]] | None = None, scenario: Any = None,
                 build_commands: int | None = None, screen: pygame.Surface | None = None,
                 size: tuple[int, int] = (1280, 800), policy: str = "tactical", seed: int = 0,
                 title: str = "", save_path: Path | str = SAVE_PATH,
                 powers: dict[int, tuple[str, ...]] | None = None) -> None:
        # display and fonts only: pygame.init() would also open the audio device, which the game
        # never uses (and on a machine without a sound card it prints a screenful of ALSA errors)
        if not pygame.display.get_init():
            pygame.display.init()
        if not pygame.font.get_init():
            pygame.font.init()
        if screen is None:
            screen = pygame.display.set_mode(size)
            pygame.display.set_caption(f"Grid battle - {title}" if title else "Grid battle")
        self.screen = screen
        self.battle = battle
        self.scenario = scenario
        self.build_commands = len(battle.command_log) if build_commands is None else build_commands
        self.renderer = Renderer(battle, screen.get_size(), team_colours=team_colours)
        self.ui = UiState(human_teams=frozenset(human_teams), title=title)
        self.policy = policy
        self.rng = random.Random(seed)
        # one save per scenario, so that a save of the keep is never loaded into the ledge
        stem = Path(scenario.path).stem if scenario is not None and getattr(scenario, "path", None) else ""
        self.save_path = Path(save_path) if save_path != SAVE_PATH or not stem else \
            SAVE_PATH.with_name(f"{stem}.save.json")
        self.powers = powers
        self.renderer.powers = powers
        self.running = True
        self._drag: tuple[int, int] | None = None
        self._dragged = False
        self.on_turn_end: list[Callable[[App], None]] = []
        if self.ui.human_teams:
            self._start_combat()
        self._check_over()

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
        surprised = [b.name(e) for e in b.turn_order()
                     if self.controls(e) and "surprised" in b.conditions(e)]
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

    def _try(self, what: Callable[[], Any]) -> bool:
        """Run a battle command, turning the refusal into a status message instead of a crash."""
        try:
            what()
        except (ValueError, KeyError) as err:
            # the entity ids in the battle's messages ("Sergeant (#3)") mean nothing to a player
            self.ui.message = re.sub(r" \(#\d+\)", "", str(err).strip("'\""))
            return False
        return True

    def click(self, square: tuple[int, int]) -> None:
        """A left click on a square: use the chosen power, move the selected creature, or select."""
        b, ui = self.battle, self.ui
        occupant = self.creature_at(square)
        if ui.selected is not None and ui.power is not None:
            self.use_power_at(square, occupant)
            return
        if occupant is not None and occupant != ui.selected:
            self.select(occupant)
            return
        if ui.selected is not None and occupant is None:
            selected = ui.selected
            if not self.controls(selected):
                ui.message = f"{b.name(selected)} is computer-controlled (Esc to deselect)"
            elif self._try(lambda: b.move(selected, *square)):
                ui.planned.setdefault(selected, []).append(square)
                drop = self._drop(selected, square)
                ui.message = f"{b.name(selected)} will move to {square} when the turn ends{drop}"

    def _drop(self, entity: int, square: tuple[int, int]) -> str:
        """A warning when a move ends lower than the creature stands: it will fall."""
        b = self.battle
        try:
            z = float(b.get(entity, Position).z)
            ground = float(b.terrain.ground[square])
            soft = bool(b.terrain.soft[square])
        except (AttributeError, IndexError, KeyError, ValueError):
            return ""
        if "flying" in b.conditions(entity) or z <= ground:
            return ""
        return f" - and FALL {z - ground:g} ft{' onto soft ground' if soft else ''}"

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
        powers = self.renderer.powers_for(ui.selected)
        if not 1 <= index <= len(powers):
            ui.message = f"{b.name(ui.selected)} has no power {index}"
            return
        power_id = powers[index - 1]
        power = b.power(power_id)
        needs_aim = power.range_ft is not None or (power.area is not None and power.area.shape != "burst")
        if power.targets == "self" and not getattr(power, "teleport", False):
            needs_aim = False
        if not needs_aim and power.area is None and power.targets != "self":
            needs_aim = True  # melee reach: still pick the creature
        if not needs_aim:
            user = ui.selected
            if self._try(lambda: b.use_power(user, power_id)):
                ui.planned_powers.setdefault(user, []).append((power_id, None))
                ui.message = f"{b.name(user)} will use {power.name} when the turn ends"
            return
        ui.power = power_id
        ui.message = f"{power.name}: click a target (Esc to cancel)"

    def use_power_at(self, square: tuple[int, int], occupant: int | None) -> None:
        b, ui = self.battle, self.ui
        assert ui.selected is not None and ui.power is not None
        user, power_id = ui.selected, ui.power
        power = b.power(power_id)
        if power.single_target:
            if occupant is None:
                ui.message = f"{power.name} needs a creature: click one"
                return
            ok = self._try(lambda: b.use_power(user, power_id, target=occupant))
        else:
            ok = self._try(lambda: b.use_power(user, power_id, point=square))
        if ok:
            ui.planned_powers.setdefault(user, []).append((power_id, square))
            ui.message = f"{b.name(user)} will use {power.name} when the turn ends"
            ui.power = None

    def end_turn(self) -> None:
        """The player is done: the round is played, each computer creature deciding on its own turn."""
        b = self.battle
        if not b.in_combat:
            b.start_combat()
        b.tick(controller=ai.controller(self.policy, self.rng, self.powers, controls=lambda e: not self.controls(e)))
        self.ui.planned.clear()
        self.ui.planned_powers.clear()
        self.ui.power = None
        self.ui.log_scroll = 0
        refused = [e for e in b.state.events if type(e).__name__ == "CommandRefused" and e.round == b.round
                   and self.controls(e.entity)] if hasattr(b, "state") else []
        self.ui.message = f"Round {b.round} played" + (
            f": {len(refused)} of your orders could not be carried out (see the log)" if refused else "") + (
            f". Orders for round {b.round + 1}, then Space" if self.ui.human_teams else "")
        for hook in self.on_turn_end:
            hook(self)
        self._check_over()

    # ------------------------------------------------------------------ saving

    def save(self) -> None:
        try:
            from game.content import saves
        except ImportError:
            self.ui.message = "Saving is not available yet (game.content.saves is missing)"
            return
        if self.scenario is None:
            self.ui.message = "This battle was not loaded from a scenario: nothing to save it against"
            return
        self.save_path.parent.mkdir(parents=True, exist_ok=True)
        try:
            saves.save_game(self.save_path, self.scenario, self.battle, build_commands=self.build_commands)
        except Exception as err:
            self.ui.message = f"Save failed: {err}"
            return
        self.ui.message = f"Saved to {self.save_path}"

    def load(self) -> None:
        try:
            from game.content import saves
        except ImportError:
            self.ui.message = "Loading is not available yet (game.content.saves is missing)"
            return
        try:
            battle, scenario, build_commands = saves.restore_game(self.save_path)
        except Exception as err:
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
        self.renderer.set_battle(battle)
        self.ui.selected, self.ui.power = None, None
        self.ui.planned.clear()
        self.ui.planned_powers.clear()
        self.ui.log_scroll = 0
        self.ui.message = f"Loaded {self.save_path} (round {battle.round})"
        self._check_over()

    # ------------------------------------------------------------------ events

    def handle_events(self) -> None:
        """Handle everything in pygame's event queue."""
        for event in pygame.event.get():
            self.handle_event(event)

    def handle_event(self, event: pygame.event.Event) -> None:
        r, ui = self.renderer, self.ui
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.MOUSEMOTION:
            ui.hover = r.square_at(event.pos)
            if self._drag is not None and event.buttons[2]:
                dx, dy = event.pos[0] - self._drag[0], event.pos[1] - self._drag[1]
                if abs(dx) + abs(dy) > 0:
                    r.pan(-dx, -dy)
                    self._dragged = True
                self._drag = event.pos
        elif event.type == pygame.MOUSEBUTTONDOWN:
            if event.button == 1:
                square = r.square_at(event.pos)
                if square is not None:
                    ui.hover = square
                    self.click(square)
            elif event.button == 3:
                self._drag, self._dragged = event.pos, False
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 3:
            if not self._dragged:
                self.cancel()
            self._drag = None
        elif event.type == pygame.MOUSEWHEEL and pygame.mouse.get_pos()[0] >= r.map_rect.right:
            # over the side panel the wheel scrolls the combat log (up: older lines)
            ui.log_scroll = max(0, ui.log_scroll + event.y * 3)
            if r.log_scroll_max is not None:
                ui.log_scroll = min(ui.log_scroll, r.log_scroll_max)
        elif event.type == pygame.MOUSEWHEEL:
            step = r.tile * 2
            if pygame.key.get_mods() & pygame.KMOD_SHIFT:
                r.pan(-event.y * step, 0)
            else:
                r.pan(-event.x * step, -event.y * step)
        elif event.type == pygame.KEYDOWN:
            self.handle_key(event)

    def cancel(self) -> None:
        if self.ui.show_help:
            self.ui.show_help = False
        elif self.ui.power is not None:
            self.ui.power = None
            self.ui.message = "Power cancelled"
        else:
            self.select(None)

    def handle_key(self, event: pygame.event.Event) -> None:
        ui, r = self.ui, self.renderer
        ctrl = event.mod & pygame.KMOD_CTRL
        if event.unicode == "?" or event.key in (pygame.K_F1,) or (event.key == pygame.K_SLASH and
                                                                   event.mod & pygame.KMOD_SHIFT):
            ui.show_help = not ui.show_help
        elif ui.show_help and not ctrl:
            # the help covers the map: plain keys do not act behind it (Space would play a round
            # unseen); Esc closes it, Ctrl+S/L/Q still work
            if event.key == pygame.K_ESCAPE:
                ui.show_help = False
        elif event.key == pygame.K_ESCAPE:
            self.cancel()
        elif ctrl and event.key == pygame.K_s:
            self.save()
        elif ctrl and event.key == pygame.K_l:
            self.load()
        elif ctrl and event.key == pygame.K_q:
            self.running = False
        elif event.key == pygame.K_SPACE:
            self.end_turn()
            self._check_over()  # end_turn may be replaced (the demo's directed rounds)
        elif pygame.K_1 <= event.key <= pygame.K_9:
            self.choose_power(event.key - pygame.K_0)
        elif event.key == pygame.K_TAB:
            mine = [e for e in self.battle.turn_order() if self.controls(e) and self.battle.is_alive(e)]
            if mine:
                after = mine.index(ui.selected) + 1 if ui.selected in mine else 0
                self.select(mine[after % len(mine)])
                r.centre_on(*self.battle.get(mine[after % len(mine)], Position).square)
        elif event.key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
            step = r.tile * 2
            dx = {pygame.K_LEFT: -step, pygame.K_RIGHT: step}.get(event.key, 0)
            dy = {pygame.K_UP: -step, pygame.K_DOWN: step}.get(event.key, 0)
            r.pan(dx, dy)

    # ------------------------------------------------------------------ loop

    def draw(self) -> None:
        self.renderer.draw(self.screen, self.ui)

    def run(self, autoplay_seconds: float | None = None, max_rounds: int | None = None) -> None:
        """The window's loop; with ``autoplay_seconds`` the turn ends by itself (computer vs computer)."""
        clock = pygame.time.Clock()
        waited = 0.0
        while self.running:
            self.handle_events()
            if autoplay_seconds is not None and not self.ui.show_help and not self.ui.banner:
                waited += clock.get_time() / 1000
                if waited >= autoplay_seconds and (max_rounds is None or self.battle.round < max_rounds):
                    waited = 0.0
                    self.end_turn()
                    self._check_over()
            self.draw()
            pygame.display.flip()
            clock.tick(60)
        pygame.quit()
