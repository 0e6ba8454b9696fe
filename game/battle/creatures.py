"""The facade's creatures: spawning them, their commands (damage, heal, fatigue, move, stand,
conditions) and what a caller may ask about them."""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractContextManager, nullcontext
from typing import Any, NamedTuple, TypeVar

import esper
import numpy as np

from components import (
    Abilities,
    Conditions,
    Cover,
    Creature,
    Defense,
    Falling,
    Fatigue,
    Health,
    Movement,
    Position,
    Readiness,
    Vision,
)
from components.commands import ChangeFatigue, GrantCondition, Heal, Hit, Move, RevokeCondition, Stand
from components.events import Spawned
from components.values import shown
from game.battle import orders, validate
from game.battle.errors import IllegalCommand, UnknownEntity
from game.battle.naming import lone_team, numbered
from game.battle.reach import refuse_landings, unseen_absent
from game.battle.world import BattleCore, command, entry
from systems.actions import movement_left, stand_problem
from systems.paths import blocked_for
from systems.power_checks import known_powers, power_ids
from systems.state import Phase, check_stamp
from systems.vitals import can_act, is_dead, is_flying

T = TypeVar("T")


class Glance(NamedTuple):
    """One creature as a planner reads it at the start of a turn (see ``Battle.roster``): plain values,
    as they are at that moment.

    (A NamedTuple, not a frozen dataclass: every plan reads every creature, a few hundred a battle, and a frozen
    dataclass's ``__init__`` pays a setattr call per field; a tuple is made in one.)"""

    entity: int
    team: str
    square: tuple[int, int]
    z: float
    conditions: frozenset[str]  # every condition it has, derived ones included
    can_act: bool
    health: int
    max_health: int
    fatigue: int
    max_fatigue: int
    speed_ft: int
    powers: tuple[str, ...]  # the powers it has (``powers_of``)
    name: str  # the name a person reads (``display_name``)


#: The components a roster reads of each creature, in the order it unpacks them.
_GLANCED: tuple[type[Any], ...] = (Creature, Position, Health, Fatigue, Conditions, Movement, Abilities)


class Creatures(BattleCore):
    """Spawning, commanding and asking about creatures."""

    @command
    def spawn(self, name: str, x: int, y: int, z: float | None = None, health: int = 10, defense: int = 10,
              flying: bool = False, prepared: bool = True, *, team: str | None = None, speed: int | None = None,
              attack_bonus: int = 0, initiative_bonus: int = 0, powers: Iterable[str] = (), fatigue: int = 0) -> int:
        """Put a creature on the grid and return its entity id.

        Without ``z`` it stands on the ground of its square (a ledge, or the bed of a stream below
        0); a ``z`` below the ground is raised to it, and a creature spawned above the ground
        without flying falls at once once the first round has begun, and at the first tick while
        the battle is being set up. Two living creatures never share a square (the scenario loader
        refuses it too): a move could not bring them there. Without a ``team`` it fights alone.
        Without ``powers`` (or with none listed) it may use every power of the battle, as a GM's
        creature does.

        Raises:
            IllegalCommand: a square off the grid, in a wall or with a living creature on it, or a
                value out of range.
        """
        name, z, health, defense, flying, prepared, team, attack_bonus, initiative_bonus, powers, fatigue = \
            validate.spawn_values(name, z, health, defense, flying, prepared, team, attack_bonus, initiative_bonus,
                                  powers, fatigue)
        state = self.state
        square = self._spawn_square(name, x, y, flying)
        terrain = state.terrain
        speed_ft = state.rules.speed_ft if speed is None else validate.speed(speed, state.rules, name)
        for power_id in powers:
            if power_id not in state.powers:
                raise IllegalCommand(f"cannot spawn {name!r}: unknown power {shown(power_id)}")
        try:
            ground = float(terrain.ground[square])
            position = Position(square[0], square[1], ground if z is None else max(z, ground))
            parts = [Health(health, health), Fatigue(fatigue, state.rules.max_fatigue), position,
                     Defense(defense, attack_bonus), Movement(speed_ft, 0, flying), Falling(),
                     Readiness(prepared, initiative_bonus), Conditions(), Vision(), Cover(), Abilities(powers)]
            Creature(name, team or "-")
        except ValueError as err:
            raise IllegalCommand(f"cannot spawn {name!r}: {err}") from None
        entity = self.last_entity = esper.create_entity(*parts)
        creature = Creature(name, team or lone_team(entity))
        esper.add_component(entity, creature)
        state.creatures.append(entity)
        self.ids.add(entity)
        if state.in_combat:
            state.order.append(entity)
        state.emit(Spawned(state.round, entity, name, creature.team, position.x, position.y, position.z))
        state.place(entity, position, position.square)
        state.dirty.add(entity)  # its conditions are derived for the first time (a spawned fatigue slows it)
        self._settle()
        return entity

    def _spawn_square(self, name: str, x: int, y: int, flying: bool) -> tuple[int, int]:
        """The square a creature may be spawned on: on the grid, open to it, and free of the living.

        Raises:
            IllegalCommand: off the grid, a wall, terrain that blocks it, or a living creature there.
        """
        state = self.state
        square = validate.square(state, x, y, f"spawn square of {name!r}")
        if state.terrain.walls[square]:
            raise IllegalCommand(f"cannot spawn {name!r} at {square}: it is a wall")
        if blocked_for(state.terrain, flying)[square]:
            raise IllegalCommand(f"cannot spawn {name!r} at {square}: the terrain there blocks it")
        if state.taken(square):
            there = ", ".join(validate.label(e) for e in sorted(state.squares.get(square, ()))
                              if "dead" not in esper.component_for_entity(e, Conditions).active)
            raise IllegalCommand(f"cannot spawn {name!r} at {square}: {there} stands there (pick a free square)")
        return square

    # ------------------------------------------------------------------ asking

    @entry
    def creatures(self) -> list[int]:
        """Every creature ever spawned, the dead included, in spawn order."""
        return list(self.state.creatures)

    @entry
    def get(self, entity: int, component: type[T]) -> T:
        """One component of a creature (Cover worked out for it first: cover is derived only when asked).

        Raises:
            IllegalCommand: ``component`` is not a component class.
            UnknownEntity: no such creature, or it has no such component (a KeyError too).
        """
        validate.component_kind(component)
        entity = self.check(entity)
        if component is Cover:
            self.phases.run(Phase.REFRESH, entity)  # cover is worked out only when asked, for the one asked about
        try:
            return esper.component_for_entity(entity, component)
        except KeyError:
            raise UnknownEntity(f"{validate.label(entity)} has no {component.__name__} component") from None

    @entry
    def roster(self) -> list[Glance]:
        """Every creature (the dead included), in spawn order, as a planner reads it: its team, square,
        conditions, health, fatigue, speed, powers and name in one call (a plan reads them for every
        creature, which one question each would ask of the battle a hundred times a turn)."""
        state, found, names = self.state, [], self._numbered()
        # one esper query for every creature's parts (kept by esper until a component is added or
        # removed, which a battle under way never does), rather than seven lookups a creature
        parts: dict[int, Any] = dict(esper.get_components(*_GLANCED))
        for entity in state.creatures:
            creature, position, health, fatigue, conditions, movement, abilities = parts[entity]
            found.append(Glance(entity, creature.team, (position.x, position.y), float(position.z), conditions.active,
                                can_act(conditions), health.current, health.maximum, fatigue.level, fatigue.maximum,
                                movement.speed_ft, power_ids(state, abilities), names[entity]))
        return found

    @entry
    def name(self, entity: int) -> str:
        """The creature's own name, as its scenario gives it."""
        return esper.component_for_entity(self.check(entity), Creature).name

    @entry
    def display_name(self, entity: int) -> str:
        """The name a person reads in the log, the window and the computer player's reasons: the
        creature's own, numbered in spawn order when others share it ("Raider 1", "Raider 2"), by
        :func:`game.battle.naming.numbered`, as the log names them."""
        entity = self.check(entity)
        return self._numbered()[entity]

    def _numbered(self) -> dict[int, str]:
        """Every creature's display name, numbered again only when the creatures changed."""
        counted, names = self.display_names
        creatures = self.state.creatures
        # ids only grow, so the count and the last id say whether a spawn (or a restore) changed the list
        key = (len(creatures), creatures[-1] if creatures else -1)
        if counted != key:  # a creature entered since, or a restore took one away: number them again
            names = numbered([(e, esper.component_for_entity(e, Creature).name) for e in creatures])
            self.display_names = (key, names)
        return names

    @entry
    def team(self, entity: int) -> str:
        return esper.component_for_entity(self.check(entity), Creature).team

    @entry
    def conditions(self, entity: int) -> set[str]:
        """Every condition the creature has, derived ones (downed, slowed, flat-footed, ...) included."""
        return set(esper.component_for_entity(self.check(entity), Conditions).active)

    @entry
    def is_alive(self, entity: int) -> bool:
        """Not dead (a downed or unconscious creature is alive)."""
        entity = self.check(entity)
        return not is_dead(esper.component_for_entity(entity, Health), esper.component_for_entity(entity, Fatigue))

    @entry
    def can_act(self, entity: int) -> bool:
        """Alive and not downed or unconscious: able to carry out commands of its own."""
        return can_act(esper.component_for_entity(self.check(entity), Conditions))

    @entry
    def standing_teams(self) -> set[str]:
        """Teams that still have a creature able to act: a battle is decided when one is left."""
        return {esper.component_for_entity(e, Creature).team for e in self.state.creatures
                if can_act(esper.component_for_entity(e, Conditions))}

    @entry
    def powers_of(self, entity: int) -> list[str]:
        """The powers a creature has (all the battle's powers if it was given none)."""
        return known_powers(self.state, self.check(entity))

    @entry
    def reachable(self, entity: int, unseen: Iterable[int] = ()) -> np.ndarray:
        """Boolean ``[x, y]`` mask of the squares the creature could move to now (for a UI); with
        ``unseen``, as a player who cannot see those creatures is shown it (their squares count as
        free: a window must not give them away; a move onto one is still refused when given)."""
        entity = self.check(entity)
        with self._hiding(unseen):
            return self._reachable(entity)

    def _hiding(self, unseen: Iterable[int]) -> AbstractContextManager[None]:
        """The battle as a player who cannot see ``unseen`` is told it, for one question (nothing to
        hide: the battle as it is).

        Raises:
            IllegalCommand / UnknownEntity: ``unseen`` is not a list of this battle's creatures.
        """
        hidden = [self.check(other) for other in validate.ids(unseen, "unseen")]
        return unseen_absent(self.state, hidden) if hidden else nullcontext()

    def _reachable(self, entity: int) -> np.ndarray:
        state = self.state
        position, movement, falling, room = orders.starting_point(state, entity)
        conditions = esper.component_for_entity(entity, Conditions)
        if not can_act(conditions) or falling is not None:  # a queued move leaves it falling: no more moves
            return np.zeros(state.terrain.walls.shape, dtype=bool)
        left = movement_left(movement, conditions, state.rules)
        here = position.square
        flying = is_flying(movement, conditions)
        costs = state.paths.costs_up_to(here, left, flying)
        mask: np.ndarray = costs <= left
        taken = [square for square in list(state.squares) if square != here and state.taken(square, entity)]
        for square in taken:
            mask[square] = False
        if not flying:
            refuse_landings(state, entity, mask, costs, taken, here, position.z, left, room)
        return mask

    # ------------------------------------------------------------------ commands at the next tick

    @command
    def damage(self, entity: int, amount: int, source: str = "gm") -> None:
        """One hit of ``amount`` damage, in the order issued: at the start of the next round, or, issued
        while a turn is under way (a round stepped turn by turn, a controller), when its orders resolve."""
        source = validate.text(source, "damage source")
        entity = self.check(entity)
        self.state.health_queue.append(Hit(entity, validate.amount(amount, "damage"), source))

    @command
    def heal(self, entity: int, amount: int, source: str = "gm") -> None:
        """Heal ``amount`` points (never above the maximum; not the dead), when :meth:`damage` would resolve."""
        source = validate.text(source, "healing source")
        entity = self.check(entity)
        self.state.health_queue.append(Heal(entity, validate.amount(amount, "healing"), source))

    @command
    def add_fatigue(self, entity: int, amount: int = 1, reason: str = "gm") -> None:
        """Gain fatigue (exhaustion), when :meth:`damage` would resolve; the track stops at its maximum."""
        reason = validate.text(reason, "fatigue reason")
        entity = self.check(entity)
        self.state.fatigue_queue.append(ChangeFatigue(entity, validate.amount(amount, "fatigue"), reason))

    @command
    def recover_fatigue(self, entity: int, amount: int = 1, reason: str = "rest") -> None:
        """Lose fatigue (rest), when :meth:`damage` would resolve; the track stops at 0."""
        reason = validate.text(reason, "recovery reason")
        entity = self.check(entity)
        self.state.fatigue_queue.append(ChangeFatigue(entity, -validate.amount(amount, "fatigue"), reason))

    @command
    def move(self, entity: int, x: int, y: int) -> None:
        """Move along the cheapest path around walls, on the creature's turn, within its speed.

        Stepping off a ledge is legal: the creature falls from there and its fall settles before its
        next order (it lands, prone if the fall hurts); only a fall longer than the round has left
        goes on into the next round, and nothing can be queued after such a move.

        Raises:
            IllegalCommand: the move is not legal after what it has queued, or it is another's turn.
            UnknownEntity: a creature this battle does not have.
        """
        entity = orders.own_turn(self.state, self.check(entity), "move", self.recording)
        goal = orders.move_goal(self.state, entity, x, y)
        orders.queue(self.state, entity, Move(entity, goal[0], goal[1], check_stamp(self.state)))

    @entry
    def queued_fall(self, entity: int, moves: Iterable[tuple[int, int]] = ()) -> str | None:
        """Why nothing more ``entity`` queues this turn could resolve: a queued move leaves it falling
        into the next round ("it will be falling after its move to (4, 6) (it steps off at (4, 5) and
        falls 600 ft, more than the 500 ft a round has left)"), so the turn refuses whatever comes
        after; None when it may queue more (after a fall that lands this round, it may). With ``moves``, as
        if moves to those squares were queued too (a planner's what-if: nothing is queued, and the
        moves are not checked: their forecasts say whether they are legal).

        Raises:
            IllegalCommand: a square off the grid.
            UnknownEntity: a creature this battle does not have.
        """
        entity, then = self._what_if_moves(entity, moves)
        return orders.queued_fall(self.state, entity, then)

    @entry
    def queued_stop(self, entity: int, moves: Iterable[tuple[int, int]] = ()) -> tuple[tuple[int, int], str | None]:
        """Where ``entity``'s queued orders (and then moves to ``moves``, a what-if as for
        :meth:`queued_fall`) leave it, on the ground where a fall lands it: a walk that steps off a
        ledge short of its goal lands where it stepped off. With :meth:`queued_fall`'s reason.

        Raises:
            IllegalCommand: a square off the grid.
            UnknownEntity: a creature this battle does not have.
        """
        entity, then = self._what_if_moves(entity, moves)
        position, _, falling = orders.projected(self.state, entity, then)
        return position.square, falling

    def _what_if_moves(self, entity: int, moves: object) -> tuple[int, tuple[Move, ...]]:
        """A checked creature and moves to checked squares, not queued (a planner's what-if)."""
        entity = self.check(entity)  # (an unknown creature is told before a bad square, as it always was)
        squares = validate.on_grid(self.state, validate.places(self.state, moves, "moves"))  # (one pass each)
        return entity, tuple(Move(entity, x, y) for x, y in squares)

    @command
    def stand(self, entity: int) -> None:
        """Get up from prone on the creature's turn, for half its speed (queued for the next tick).

        Raises:
            IllegalCommand: another's turn is under way, it cannot act, its queued orders leave it
                falling, or it is not prone (nor will be after its queued orders).
            UnknownEntity: no such creature.
        """
        entity = orders.own_turn(self.state, self.check(entity), "stand", self.recording)
        conditions = esper.component_for_entity(entity, Conditions)
        problem = stand_problem(conditions, lambda: orders.prone_to_stand(self.state, entity))
        if problem is not None:
            standing = can_act(conditions) and "prone" in conditions.granted  # (prone now: not after its orders)
            queued = " (it stands up in its queued orders)" if standing else ""
            raise IllegalCommand(f"{validate.label(entity)} cannot stand: {problem}{queued}")
        orders.queue(self.state, entity, Stand(entity))

    # ------------------------------------------------------------------ commands at once

    @command
    def add_condition(self, entity: int, condition: str, source: str = "gm") -> None:
        """Grant a condition now (dazzled, blinded, prone, ...). Derived ones cannot be granted; a dead
        creature is a record, and a grant to it changes nothing."""
        source = validate.text(source, "condition source")
        entity = self.check(entity)
        self.state.gm_queue.append(GrantCondition(entity, validate.condition_name(condition), source))
        self._settle()

    @command
    def remove_condition(self, entity: int, condition: str, source: str | None = None) -> None:
        """End a granted condition now: every grant of it, or only ``source``'s.

        Raises:
            IllegalCommand: an unknown condition, or no grant of it (by ``source``: the message says whose
                it is) on a living creature: taken, it changed nothing, and a misspelt source went unseen.
            UnknownEntity: a creature this battle does not have.
        """
        source = validate.optional_text(source, "condition source")
        entity = self.check(entity)
        condition = validate.condition_name(condition)
        validate.granted(entity, condition, source)
        self.state.gm_queue.append(RevokeCondition(entity, condition, source))
        self._settle()

