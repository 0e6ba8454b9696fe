"""The orders a person gives the creature whose turn it is: select, move, choose and use a power.

Each order is a battle command resolved at once (``resolve_orders``), so the person sees what it
did before giving the next; a refusal becomes the status message. Which powers a key chooses is
``game.render.ui.shown_powers``, so the panel and the keys never disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from components import Position
from components.forecasts import MoveForecast
from game.play.flow import TurnFlow, plain
from game.render.ui import UiState, shown_powers

#: What Tab and the power keys say in a battle the computer plays alone (the demo, ``--policy`` for all).
NO_CREATURE = "The computer plays every side here: you have no creature to order"


class Looks(Protocol):
    """What selecting a creature asks of the window: the map centred on its square."""

    def centre_on(self, square: tuple[int, int]) -> None: ...


class Orders:
    """The order half of :class:`game.play.app.App` (it supplies these attributes and ``refresh``)."""

    battle: Any
    ui: UiState
    flow: TurnFlow
    powers: Mapping[int, tuple[str, ...]] | None
    play_round: Callable[[Any], None] | None
    window: Looks | None

    def refresh(self) -> bool:
        raise NotImplementedError

    def controls(self, entity: int) -> bool:
        """Whether the player may give this creature orders."""
        return self.battle.team(entity) in self.ui.human_teams

    def may_order(self, entity: int) -> bool:
        """The player's creature whose turn it is."""
        return self.controls(entity) and entity == self.flow.actor and self.play_round is None

    def creature_at(self, square: tuple[int, int]) -> int | None:
        """The living creature the person sees on a square (the dead lie under the living)."""
        b = self.battle
        found = None
        for e in b.creatures():
            if b.get(e, Position).square == square and self.ui.shows(e):
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
            self.ui.message = plain(str(err))
            return False, None
        return True, result

    def _why_not(self, entity: int) -> str | None:
        """Why the player cannot order this creature now (None: they can)."""
        b = self.battle
        if not self.controls(entity):
            return f"{b.display_name(entity)} is computer-controlled (Esc to deselect)"
        if self.flow.over():  # the turn left standing is no one's: it said a dead enemy "acts now"
            won = b.winner()
            how = "nobody is left standing" if won == "" else f"{won} won" if won else "its last round is played"
            return f"The battle is over ({how}): no more orders"
        if not self.may_order(entity):
            return f"Not {b.display_name(entity)}'s turn{self._acting_now()}"
        return None

    def _acting_now(self) -> str:
        """Whose turn it is instead, for a refusal: ": Orc acts now", or that its turn is passing (a
        downed or dead creature's turn, which the computer passes on its next step)."""
        b, now = self.battle, self.flow.actor
        if now is None:
            return ""
        if not self.ui.shows(now):
            return ": someone unseen acts now"
        return f": {b.display_name(now)} acts now" if b.can_act(now) else \
            f": it is {b.display_name(now)}'s turn, which passes (it cannot act)"

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
        elif occupant is None and self.flow.human_turn():  # (Esc or a right click let go of it: it said nothing)
            who = self.battle.display_name(self.flow.actor)
            ui.message = f"Nobody is selected: click {who} first to give it orders"
        self.refresh()

    def move_to(self, entity: int, square: tuple[int, int]) -> None:
        """Move the creature whose turn it is, now, along the battle's path; say the cost and any fall."""
        b = self.battle
        problem = self._why_not(entity)
        if problem is not None:
            self.ui.message = problem
            return

        # as the person's team sees the map first: a square out of reach where an enemy it does not see
        # stands was refused for that enemy ("square (7, 10) is taken by another creature"), giving away
        # where it stood, where the preview had said "35 ft away" (walking onto one is still refused)
        try:
            seen = b.forecast_move(entity, square, unseen=self.ui.hidden) if self.ui.hidden else None
        except (ValueError, KeyError):  # (the command says why)
            seen = None
        if seen is not None and not seen.legal:
            self.ui.message = f"{b.display_name(entity)} cannot move to {square}: {seen.problem}"
            return

        def order() -> MoveForecast:
            forecast = b.forecast_move(entity, square)  # asked first: the move changes the answer
            b.move(entity, *square)
            b.resolve_orders()
            return forecast

        ok, forecast = self._try(order)
        if not ok:
            return
        warning, short = "", ""
        if forecast.fall is not None and forecast.stops_at is not None:
            fall = forecast.fall
            soft = " onto soft ground" if fall.soft else ""
            # (where it stepped off is where it now stands: the line named that square twice)
            short = "" if forecast.stops_at == square else f", short of {square}"
            warning = f" - and FELL {fall.distance_ft:g} ft{soft}"
        self.ui.message = f"{b.display_name(entity)} moved to {b.get(entity, Position).square} " \
                          f"({forecast.cost_ft} ft{short}){warning}"

    def select(self, entity: int | None) -> None:
        self.ui.selected = entity
        self.ui.power = None
        if entity is not None:
            who = self.battle.display_name(entity)
            self.ui.message = f"{who} selected" + ("" if self.controls(entity) else " (computer-controlled)")
        else:
            self.ui.message = ""

    def next_creature(self) -> None:
        """Tab: select the next of the player's living creatures in turn order, and look at it; with
        none (the computer plays every side, or all the player's are dead), say so: it said nothing,
        and the last message stood as if it were Tab's answer."""
        b = self.battle
        mine = [e for e in b.turn_order() if self.controls(e) and b.is_alive(e)]
        if not mine:
            self.ui.message = NO_CREATURE if not self.ui.human_teams else "None of your creatures is alive"
            return
        after = mine.index(self.ui.selected) + 1 if self.ui.selected in mine else 0
        chosen = mine[after % len(mine)]
        self.select(chosen)
        if self.window is not None:
            self.window.centre_on(b.get(chosen, Position).square)
        self.refresh()

    def choose_power(self, index: int) -> None:
        """Number key ``index`` (1-9), or a click on the power's row in the side panel (any row, past
        the ninth too): choose that power of the creature whose turn it is; a power that needs no aim
        (on the user, or centred on it) is used by the same key or row again or a click, once its
        forecast (who it catches, what it does) has been seen."""
        b, ui = self.battle, self.ui
        if ui.selected is None:  # with no team of the person's (the demo, --policy for all), none to select
            ui.message = "Select one of your creatures first" if ui.human_teams else NO_CREATURE
            return
        problem = self._why_not(ui.selected)
        if problem is not None:
            ui.message = problem
            return
        powers = shown_powers(b, ui.selected, self.powers)
        if not 1 <= index <= len(powers):
            ui.message = f"{b.display_name(ui.selected)} has no power {index}"
            return
        power_id = powers[index - 1]
        power = b.power(power_id)
        unusable = b.power_problem(ui.selected, power_id)
        if unusable is not None:  # said now, not as "cannot" over every square the mouse then tries
            ui.message = f"{b.display_name(ui.selected)} cannot use {power.name}: {unusable}"
            ui.power = None
            self.refresh()
            return
        if not needs_aim(power) and ui.power == power_id:
            self._use(ui.selected, power_id, None, None)
        elif needs_aim(power):
            ui.power = power_id
            # (a square, not "a target", for a power aimed at one: a darkness, a blink, a cone)
            aim = "a creature for the odds" if power.single_target else \
                "a square for whom it catches and the odds" if power.area is not None else "a square for what it does"
            ui.message = f"{power.name}: hover {aim}, click to use it (Esc to cancel)"
        else:
            ui.power = power_id
            ui.message = f"{power.name} on {b.display_name(ui.selected)}: hover for what it does; " \
                         f"{index if index <= 9 else 'its row'} again or click to use it (Esc to cancel)"
        self.refresh()  # the forecast at the square already under the mouse, not the move preview

    def use_power_at(self, square: tuple[int, int], occupant: int | None) -> None:
        """Use the chosen power on the clicked creature (a single-target power) or square."""
        b, ui = self.battle, self.ui
        assert ui.selected is not None and ui.power is not None
        power = b.power(ui.power)
        if not needs_aim(power):
            self._use(ui.selected, ui.power, None, None)
            return
        if power.single_target and occupant is None:
            ui.message = f"{power.name} needs a creature: click one"
            return
        problem = self._why_not(ui.selected)
        if problem is not None:
            ui.message = problem
            return
        if power.single_target:
            self._use(ui.selected, ui.power, occupant, None)
        else:
            self._use(ui.selected, ui.power, None, square)

    def _use(self, user: int, power_id: str, target: int | None, point: tuple[int, int] | None) -> None:
        """Use a power now: it resolves (the dice are rolled) and the log tells what it did."""
        b = self.battle

        def order() -> None:
            b.use_power(user, power_id, target=target, point=point)
            b.resolve_orders()

        if self._try(order)[0]:
            self.ui.power = None
            self.ui.message = f"{b.display_name(user)} used {b.power(power_id).name} (see the log); End turn when done"


def needs_aim(power: Any) -> bool:
    """Whether a power asks for a target creature, square or direction after its key, rather than
    where the user stands (on itself, or centred on it): the power's own reading of its kind."""
    return bool(power.single_target or power.takes_point)
