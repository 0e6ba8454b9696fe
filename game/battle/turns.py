"""The facade's rounds and turns: combat starting and ending, and a round played turn by turn.

A round is ``begin_round()``, then each creature's turn in initiative order (``current_actor``;
its orders resolve at ``resolve_orders()`` or ``end_turn()``), and it ends when the last turn does.
``tick()`` is that loop with a controller deciding each turn, which is how simulations and replays
play; a window plays the steps itself, so a person acts when their creature's turn comes.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import esper

from components import Conditions, Fatigue, Health
from components.commands import EndCombat, StartCombat
from components.events import CommandRefused, TurnStarted
from components.values import Bound, shown
from game.battle import validate, validate_whole
from game.battle.errors import IllegalCommand, UnknownEntity
from game.battle.world import BattleCore, command, entry
from systems.state import Phase
from systems.vitals import is_dead

Controller = Callable[[Any, int], None]

#: Who is not asked for orders (the downed still are: a controller may have them do nothing).
_OUT_COLD = frozenset({"unconscious", "dead"})
#: How many rounds one ``run`` may tick.
RUN_ROUNDS = Bound(0, 100_000, unit="rounds")

#: Commands a recorded order of a turn may not name: they step the battle, not a creature's turn.
NOT_ORDERS = ("tick", "begin_round", "end_turn")


class Turns(BattleCore):
    """Combat, rounds and turns."""

    @command
    def start_combat(self) -> list[int]:
        """Roll initiative and fix the turn order; creatures not prepared are surprised for the first round.

        Between rounds only: combat's first round is the next one to begin, and a round under way
        keeps the turns it began with, so a start in the middle of one would leave the surprised
        surprised (and powerless) for the rest of it as well as for the whole first round.

        Raises:
            IllegalCommand: combat has already started, or a round is under way.
        """
        if self.state.in_combat:
            raise IllegalCommand("combat has already started")
        if self.state.round_open:
            raise IllegalCommand(f"cannot start combat while round {self.state.round} is under way: "
                                 "end its turns first (combat's first round is the next to begin)")
        self.state.gm_queue.append(StartCombat())
        self._settle()
        return list(self.state.order)

    @command
    def end_combat(self) -> None:
        """Leave combat: no turn order, and surprise (if any is left) ends.

        Between rounds only, as :meth:`start_combat`: a round under way keeps the turns it began with,
        so an end in the middle of one played its later turns out of combat (no ``TurnStarted``, so no
        ``on_turn_start`` reaction) and took a surprised creature's surprise away mid-round.

        Raises:
            IllegalCommand: combat has not started, or a round is under way.
        """
        if not self.state.in_combat:
            raise IllegalCommand("combat has not started (or has already ended)")
        if self.state.round_open:
            raise IllegalCommand(f"cannot end combat while round {self.state.round} is under way: "
                                 "end its turns first")
        self.state.gm_queue.append(EndCombat())
        self._settle()

    @entry
    def turn_order(self) -> list[int]:
        """Who acts in what order: initiative order in combat, spawn order outside it."""
        state = self.state
        if state.in_combat:
            return list(state.order)
        return [e for e in state.creatures
                if not is_dead(esper.component_for_entity(e, Health), esper.component_for_entity(e, Fatigue))]

    @property
    def current_actor(self) -> int | None:
        """Whose turn it is (None between rounds)."""
        return self.state.actor

    @entry
    def turns_left(self) -> list[int]:
        """The creatures still to act this round after the current one, in order (for a turn strip): the
        dead left out, as the round skips them (the window marked a dead creature as the one up next)."""
        state = self.state
        if not state.round_open:
            return []
        return [e for e in state.round_order[state.turn_index + 1:]
                if "dead" not in esper.component_for_entity(e, Conditions).active]

    # ------------------------------------------------------------------ a round, step by step

    @command
    def begin_round(self) -> int | None:
        """Begin a round: its start resolves (the GM's damage and heals), then the first turn begins.

        Returns the creature whose turn it is, or None when nobody can take one.

        Raises:
            IllegalCommand: a round is still under way.
        """
        state = self.state
        self._no_round_open()
        with self.recording.interruptible("begin_round", state):  # (its handlers are the caller's code)
            self.phases.run(Phase.START)
            self.scripts.react()
            state.round_order, state.turn_index, state.round_open = self.turn_order(), -1, True
            return self._next_turn()  # a round with nobody to act ends at once

    @command
    def resolve_orders(self) -> None:
        """Resolve what the current creature has queued, now, without ending its turn.

        Raises:
            IllegalCommand: no turn is under way.
        """
        actor = self._actor()
        with self.recording.interruptible("resolve_orders", self.state):
            self._resolve(actor)

    def _resolve(self, actor: int) -> None:
        """The current turn's queued commands and their consequences, when there are any.

        A pass stops after an order that leaves someone falling, so that the fall settles first (as
        when a person resolves orders one at a time); the orders left resolve in the next pass, each
        checked again.
        """
        state = self.state
        if not (state.actions.get(actor) or state.health_queue or state.fatigue_queue or state.moved):
            return
        while True:
            queued = state.actions.get(actor)
            head = queued[0] if queued else None
            self.phases.run(Phase.TURN, actor)
            self.scripts.react()  # (a reaction may queue more: they resolve this turn too)
            left = state.actions.get(actor)
            if not left or left[0] is head:
                return  # all resolved, or none was (a world without the action system): never spin

    @command
    def end_turn(self) -> int | None:
        """End the current creature's turn (what it queued resolves first) and begin the next one;
        after the last turn the round ends. Returns whose turn it is now, or None.

        Raises:
            IllegalCommand: no turn is under way, or it is called inside another command (a ``tick``'s
                controller or an ``on`` handler): the tick ends each turn itself, and one ended inside it
                began the next creature's turn without its controller (or ended the round under it).
        """
        if self.recording.depth > 1:  # (its own call is the first level)
            raise IllegalCommand("end_turn: called inside another command (a tick's controller, an on handler); "
                                 "a tick ends each turn itself: a controller's turn ends when it returns")
        self.resolve_orders()
        with self.recording.interruptible("end_turn", self.state):
            return self._next_turn()

    def _no_round_open(self) -> None:
        """Refuse to begin a round while one is under way."""
        if self.state.round_open:
            raise IllegalCommand(f"round {self.state.round} is still under way: end its turns first")

    def _actor(self) -> int:
        if self.state.actor is None:
            raise IllegalCommand("no creature's turn is under way: begin a round first")
        return self.state.actor

    def _next_turn(self) -> int | None:
        """Skip the dead and begin the next living creature's turn; when none is left the round ends."""
        state = self.state
        order, index = state.round_order, state.turn_index + 1
        while index < len(order):
            state.turn_index = index
            actor = order[index]
            if "dead" in esper.component_for_entity(actor, Conditions).active:
                state.actions.pop(actor, None)
                index += 1
                continue
            state.actor = actor
            if state.in_combat:
                state.emit(TurnStarted(state.round, actor))
            self.scripts.react()
            return actor
        state.actor, state.round_open = None, False
        self.phases.run(Phase.END)
        self.scripts.react()
        return None

    # ------------------------------------------------------------------ a whole round

    @command
    def tick(self, controller: Controller | None = None, orders: list[list[Any]] | None = None) -> None:
        """Play one round: its start, each creature's turn in turn order, then its end.

        Args:
            controller: called as ``controller(battle, actor)`` at the start of each turn of a
                creature neither dead nor unconscious (a downed one is asked: it may do nothing; an
                unconscious one's turn passes without it), so that a computer player decides with the
                battle as it is at that moment; the commands it issues resolve in that turn (an order for
                another creature than ``actor`` is refused: a creature takes orders in its own turn). An
                order the battle refuses (IllegalCommand, UnknownEntity) ends its turn as a
                ``CommandRefused``, and the round goes on (not one a ``Battle.on`` handler met inside the
                controller's ``resolve_orders``: that leaves the round half played and is raised on, as
                outside a tick); any other exception, a ValueError of its own included, is raised on.
            orders: what controllers issued in a recorded tick, ``[[actor, [[name, args, kwargs],
                ...]], ...]``; replays pass it instead of a controller (the log records it).

        Raises:
            IllegalCommand: a controller that cannot be called or that names a team the battle
                does not have (``ai.controller("bleu=random")``), malformed ``orders`` (or orders beside
                a controller, for no creature of the battle, or twice for one), a round still
                under way, or (after an exception in the controller or a handler left the round half
                played, the exception itself re-raised) any command until a snapshot is restored.
        """
        recorded = validate_whole.recorded_orders(controller, orders, self.ids, self.order_problem)
        validate_whole.controller_teams(controller, self.state)
        self._no_round_open()  # (begin_round's refusal, before the tick's stretch of the caller's code)
        self.recording.tick_orders = []
        with self.recording.interruptible("tick", self.state):
            actor = self.begin_round()
            while actor is not None:
                if controller is not None or actor in recorded:
                    self._turn_orders(actor, controller, recorded.get(actor, ()))
                # end_turn without its wrappers: inside a tick it is never logged, and a turn is short
                self._resolve(self._actor())
                actor = self._next_turn()

    def run(self, rounds: int) -> None:
        """Tick ``rounds`` times.

        Raises:
            IllegalCommand: ``rounds`` is not a whole number in 0..100000 (many more would not return
                in a person's lifetime, and no run of a battle needs them).
        """
        rounds = validate.within(rounds, RUN_ROUNDS, "rounds")
        for _ in range(rounds):
            self.tick()

    @classmethod
    def is_command(cls, name: object) -> bool:
        """Whether ``name`` is one of the commands a log may hold (what replays and saves may call).

        Anything but a string is no command's name (a tool checking a log read from a file asks about
        whatever it holds: getattr raised TypeError on a number)."""
        return isinstance(name, str) and bool(getattr(getattr(cls, name, None), "is_command", False))

    @classmethod
    def call_problem(cls, name: str, args: Sequence[Any], kwargs: Mapping[str, Any],
                     signatures: dict[str, inspect.Signature] | None = None) -> str | None:
        """Why a logged call of command ``name`` cannot be made with these arguments (its signature does
        not take them), or None. Why: replayed, such a call raised a TypeError from inside the battle, and
        inside a recorded tick it left the round half played.

        ``signatures``: the commands' signatures worked out so far, by name, filled in as they are needed
        (a caller checking many entries keeps one: ``inspect.signature`` took most of the time a file of
        240,000 commands took to read, about 26 s of CPU).
        """
        known = {} if signatures is None else signatures
        signature = known.get(name)
        if signature is None:
            signature = known[name] = inspect.signature(getattr(cls, name))
        try:
            signature.bind(None, *args, **kwargs)
        except TypeError as err:
            why = str(err)  # (it names an unexpected keyword, whatever its length: clipped as shown() clips)
            why = why if len(why) <= 120 else f"{why[:117]}..."
            return f"{name} cannot take the arguments {shown(list(args))} {shown(dict(kwargs))}: {why}"
        return None

    @classmethod
    def order_problem(cls, name: str, args: Sequence[Any], kwargs: Mapping[str, Any],
                      signatures: dict[str, inspect.Signature] | None = None) -> str | None:
        """Why a recorded order of a turn could not be replayed, or None: ``refused`` records a refusal
        (``["refused", [its reason], {}]``); any other order is a command a turn may give (not one of
        :data:`NOT_ORDERS`) with arguments it takes. The one check of ``tick``'s orders and of a save's."""
        if name == "refused":
            if len(args) == 1 and isinstance(args[0], str) and not kwargs:
                return None
            return 'a recorded refusal is ["refused", [its reason], {}]'
        if not cls.is_command(name) or name in NOT_ORDERS:
            return f"a recorded order names {shown(name)}, which is not a battle command a turn may give"
        return cls.call_problem(name, args, kwargs, signatures)

    def _turn_orders(self, actor: int, controller: Controller | None, recorded: Iterable[list[Any]]) -> None:
        """Let the controller (or the recorded orders) issue this turn's commands, and log them."""
        recording = self.recording
        recording.orders = issued = []
        # a controller is held to its creature's turn even in a tick a handler plays (handlers are not)
        handling, recording.handling = recording.handling, 0
        try:
            if controller is not None:
                if esper.component_for_entity(actor, Conditions).active.isdisjoint(_OUT_COLD):
                    try:
                        controller(self, actor)
                    except (IllegalCommand, UnknownEntity) as err:  # the battle refused an order: the round goes on
                        # (a ValueError of the controller's own code is a bug, raised on as any exception is:
                        # it was taken for a refusal, and the round played on without that creature's turn;
                        # so is a refusal a handler met inside the controller's resolve_orders, which left
                        # the round half played, as it does outside a tick)
                        if recording.interrupted is not None:
                            raise
                        self.state.emit(CommandRefused(self.state.round, actor, "controller", str(err)))
                        issued.append(["refused", [str(err)], {}])
            else:
                self._replay_orders(actor, recorded)
        finally:
            recording.handling = handling
            if issued:
                recording.tick_orders.append([actor, issued])
            recording.orders = None
            self.make_current()

    def _replay_orders(self, actor: int, recorded: Iterable[list[Any]]) -> None:
        """Issue a turn's recorded orders (each checked by :meth:`order_problem` before the round)."""
        for name, args, kwargs in recorded:
            if name == "refused":
                self.state.emit(CommandRefused(self.state.round, actor, "controller", str(args[0])))
            else:
                getattr(self, name)(*args, **kwargs)
