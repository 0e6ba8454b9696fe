"""Extending a battle: designers' reaction scripts, and developers' trusted Python."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import esper

from components.events import Downed, Event
from components.forecasts import ReactionForecast
from game.battle import validate, validate_whole
from game.battle.errors import IllegalCommand
from game.battle.reactions import REACTIONS, reaction_entries
from game.battle.script_names import POWER_ENTRIES, no_reaction
from game.battle.world import BattleCore, command, entry
from game.scripting import ScriptError
from systems.power_checks import height_at


class Extending(BattleCore):
    """Reaction scripts, event handlers and extra systems."""

    @command
    def attach_reaction(self, script: str, entity: int | None = None) -> None:
        """Run a Starlark script's reactions (``on_damaged``, ``on_downed``, ``on_fell``, ``on_landed``,
        ``on_turn_start``, ``on_round_end``) for one creature's events, or for every event when no
        creature is given.

        Raises:
            IllegalCommand: the script cannot be read or parsed, defines no reaction, or one the
                battle cannot call with ``(ctx, event)``, or an ``on_`` function that is no entry
                point (it is loaded now, so a broken one is refused at once).
            UnknownEntity: ``entity`` is not a creature of this battle.
        """
        script = validate.text(script, "a reaction script's file name")
        if entity is not None:
            entity = self.check(entity)
        try:
            functions = self.scripts.load(script)
        except ScriptError as err:
            raise IllegalCommand(f"cannot attach reaction script: {err}") from None
        problem = no_reaction(script, functions, tuple(REACTIONS.values()))
        if problem:
            raise IllegalCommand(problem)
        problems = self.scripts.entry_problems(script, reaction_entries(), POWER_ENTRIES)
        if problems:  # found now, not when the event first happens in the middle of a battle
            raise IllegalCommand(f"cannot attach reaction script: {'; '.join(problems)}")
        self.scripts.skip_to_now()
        self.scripts.reactions.append((script, entity))

    @entry
    def forecast_reactions(self, entity: int, moved: Mapping[int, tuple[int, int]] | None = None
                           ) -> ReactionForecast:
        """What the battle's reaction scripts would do if ``entity`` were downed now: the commands
        they would ask for (a rally's heals, say), checked and not applied, with ``moved`` creatures
        read as standing on other squares (where a planner thinks of ending its turn), at the height
        a move there leaves them (``systems.power_checks.height_at``: a flier keeps its own, as ``forecast_move``'s
        ``z`` says).

        Why: a computer player that cannot see a scenario's reactions fights as if they were not
        there; this is their forecast, by the scripts themselves, and it costs the battle nothing
        (no budget, no event, no roll that stays rolled).

        Raises:
            IllegalCommand: a square off the grid, or ``moved`` not a mapping of creatures to squares.
            UnknownEntity: a creature (``entity`` or one in ``moved``) this battle does not have.
        """
        validate.moved(moved)
        entity = self.check(entity)
        places = {}  # checked before the answer without reactions: a bad question is refused either way
        for creature, square in (moved or {}).items():
            at = validate.place(self.state, square, "square")
            creature = self.check(creature)
            places[creature] = (at[0], at[1], height_at(self.state, creature, at))
        if not self.scripts.reactions:
            return ReactionForecast("downed", entity)
        commands, known, heard = self.scripts.foresee(Downed(self.state.round, entity), places)
        return ReactionForecast("downed", entity, commands, known, heard)

    @entry
    def reacts_to_downs(self) -> bool:
        """Whether a reaction script of this battle listens for a creature going down (so a
        planner knows whether :meth:`forecast_reactions` can tell it anything)."""
        return self.scripts.listens(Downed)

    @entry
    def on(self, event_type: type[Event], handler: Callable[[Any, Event], None]) -> None:
        """Trusted Python: call ``handler(battle, event)`` for each event of this type or a subclass of
        it, during ticks (``on(Event, ...)`` hears every event; an event's own class's handlers are
        called first, then those of each class it derives from, each in the order they were added).

        For developers only (it runs with the engine's full power); designers use reaction scripts.
        A handler talks back through the public commands, which resolve at the next opportunity. One
        that raises leaves the round it ran in half played: the battle refuses commands until a restore.

        Raises:
            IllegalCommand: ``event_type`` is not an event class, or ``handler`` cannot be called.
        """
        validate_whole.handler(event_type, handler, Event)
        self.scripts.python_handlers.setdefault(event_type, []).append(handler)

    @entry
    def add_system(self, processor: esper.Processor, priority: int) -> None:
        """Trusted Python: add an esper processor to this battle's world.

        It is called as ``process(phase, actor)`` in every phase (see ``systems.state.Phase``);
        ``priority`` places it in ``systems.schedule.ORDER`` (higher runs earlier; the built-in
        systems have priorities ``len(ORDER)`` down to 1). A turn runs ``Phase.TURN`` once for each
        stretch of its orders: an order that leaves someone falling ends a pass, and the orders after
        it run in the next, so something meant to happen once a turn belongs in ``TurnStarted``'s
        handler (:meth:`on`) rather than in every TURN pass.
        """
        self.phases.add(processor, priority)
