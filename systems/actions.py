"""Actions: a creature's own commands (move, stand, use a power), resolved on its turn, in order.

Moving follows paths around walls within the creature's speed (:mod:`systems.paths`); the check
(``move_problem``) is one function, called when a move is issued, when it resolves, and by the
forecasts, so a person, the computer player and the window all get the numbers the system uses.
Commands this system does not resolve itself (powers) go to the handler registered for their type
in ``state.handlers``: the power system registers there when it is installed.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Sequence

import esper

from components import Conditions, Falling, Movement, Position, Rules
from components.commands import ActorCommand, Move, Stand, UsePower
from components.events import CommandRefused, Moved, StoodUp
from components.terrain import Terrain
from systems.areas import flies_its_user
from systems.drops import steps_off
from systems.falling import is_unsupported, round_fall_left
from systems.geometry import distance_ft
from systems.paths import Paths, blocked_for
from systems.state import BattleState, Phase, check_stamp
from systems.vitals import can_act, helpless_problem, is_flying


def speed_for_round(movement: Movement, conditions: Conditions, rules: Rules) -> int:
    """A creature's speed this round in feet: slowed multiplies it by the rules' factor (half)."""
    if "slowed" in conditions.active:
        return math.floor(movement.speed_ft * rules.slowed_speed_factor)
    return movement.speed_ft


def movement_left(movement: Movement, conditions: Conditions, rules: Rules) -> int:
    """The feet of movement a creature has left this round: its speed this round less what it used,
    never below 0 (slowed after it moved, it has used more than its speed now allows). The one answer
    the move's check, its resolution, its forecasts and the reachable squares all walk within."""
    left = speed_for_round(movement, conditions, rules) - movement.used_ft
    return left if left > 0 else 0  # (max(left, 0), without the builtin's call: planners ask it often)


def _stuck(conditions: Conditions, falling: Falling) -> str | None:
    """Why the creature cannot move at all now, or None."""
    if not can_act(conditions):  # (the quick test first: every move a planner weighs asks it)
        return helpless_problem(conditions, "move")
    if falling.start_z is not None:
        return "it is falling"
    if "restrained" in conditions.active:
        return "it is restrained"
    return None


def stand_problem(conditions: Conditions, prone: Callable[[], bool]) -> str | None:
    """Why the creature cannot stand up, or None: it is helpless, or not prone. ``prone()`` tells
    whether it is (the battle, giving the order, asks whether it will be once its queued orders
    resolve); it is asked only of a creature that can act. The facade and the turn ask this alike."""
    helpless = helpless_problem(conditions, "stand")
    if helpless is not None:
        return helpless
    return None if prone() else "it is not prone"


def walk_speed(movement: Movement, conditions: Conditions, falling: Falling, rules: Rules) -> int:
    """How far the creature could walk in a round as it is now: nothing while it cannot move at all
    (downed, falling, restrained), else its speed this round (slowed included). What a planner
    reaches with, for itself and for an enemy."""
    return 0 if _stuck(conditions, falling) is not None else speed_for_round(movement, conditions, rules)


def move_problem(paths: Paths, rules: Rules, position: Position, movement: Movement,
                 conditions: Conditions, falling: Falling, goal: tuple[int, int],
                 taken: Callable[[tuple[int, int]], bool]) -> str | None:
    """Why a move to ``goal`` is illegal right now, in words a player can act on; None if it is legal.

    ``taken(square)`` says whether another living creature stands on a square. What stops the
    mover depends on whether it flies (a battlement stops walkers, not fliers).
    """
    return move_problems(paths, rules, position, movement, conditions, falling, (goal,), taken)[0]


def move_problems(paths: Paths, rules: Rules, position: Position, movement: Movement,
                  conditions: Conditions, falling: Falling, goals: Sequence[tuple[int, int]],
                  taken: Callable[[tuple[int, int]], bool]) -> list[str | None]:
    """:func:`move_problem` for each of ``goals``: one check, what does not depend on the goal (can it
    move at all, does it fly, how far it may go) read once, since a planner weighs several squares a
    turn and the forecasts ask about them together."""
    problem = _stuck(conditions, falling)
    if problem:
        return [problem for _ in goals]
    flying = is_flying(movement, conditions)
    blocked = blocked_for(paths.terrain, flying)
    left = movement_left(movement, conditions, rules)
    here = position.square
    found: list[str | None] = []
    for goal in goals:
        if blocked[goal]:  # (walls block everyone: a wall is the first reason)
            if paths.terrain.walls[goal]:
                found.append(f"square {goal} is a wall")
            else:
                found.append(f"square {goal} is blocked to {'fliers' if flying else 'movement'}")
            continue
        if goal != here and taken(goal):
            found.append(f"square {goal} is taken by another creature")
            continue
        straight = distance_ft(here, goal, rules)
        if straight > left:
            found.append(f"square {goal} is {straight} ft away in a straight line and it has {left} ft of movement "
                         "left this round")
            continue
        cost = paths.cost(here, goal, limit_ft=left, flying=flying)
        if cost is None:
            if paths.cost(here, goal, flying=flying) is None:
                found.append(f"no path to {goal} around the walls")
            else:
                found.append(f"the way around the walls to {goal} is longer than the {left} ft of movement it "
                             "has left")
        elif cost > left:
            found.append(f"square {goal} is {cost} ft away around the walls and it has {left} ft of movement left")
        else:
            found.append(None)
    return found


def walk(terrain: Terrain, path: list[tuple[int, int]], z: float, flying: bool, rules: Rules,
         fall_room_ft: float) -> tuple[tuple[int, int], float]:
    """Where a move along ``path`` ends and at what height: the move itself and its forecast.

    A walker keeps its height (raised by higher ground). A step down that no fall could hurt (under
    the first die's drop, or a soft landing that halves the dice to none) is part of the walk: it
    drops at once, unhurt, and walks on, as down a stair or into a stream, when the drop fits in the
    fall the round has left it (``fall_room_ft``: a round's fall less what it fell this round). It
    stops at the first square with more under it than that, where it steps off and falls (the
    falling system). A flier goes all the way.
    """
    goal = path[-1]
    ends = walk_end(terrain, goal, len(path) > 1, z, flying)
    if ends is not None:
        return ends
    ground, soft = terrain.ground, terrain.soft
    for square in path[1:]:
        floor = float(ground[square])
        if floor < z and steps_off(z - floor, bool(soft[square]), fall_room_ft, rules):
            return square, z
        z = floor
    return goal, z


def stand_cost_ft(movement: Movement) -> int:
    """What standing up from prone costs of a round's movement: half the creature's speed."""
    return movement.speed_ft // 2


def walk_end(terrain: Terrain, goal: tuple[int, int], steps: bool, z: float, flying: bool
             ) -> tuple[tuple[int, int], float] | None:
    """:func:`walk`'s answer where no square of the way between decides it, else None: a flier goes all
    the way; a walker that takes a step (``steps``) onto level ground none of whose steps go down from
    ``z`` ends on its goal at that level. So a forecast that needs only the end asks no way there."""
    if flying:
        return goal, max(z, float(terrain.ground[goal]))
    if steps:
        level = terrain.level_ground()
        if level is not None and not level < z:  # every step onto the one level, none of them down from z
            return goal, level
    return None


def landing_problem(state: BattleState, mover: int, goal: tuple[int, int], stop: tuple[int, int]) -> str | None:
    """Why a walk that steps off a ledge short of its goal cannot (another creature stands where it
    would land: two never share a square), or None. Checked where the walk is known: when the move
    is given, forecast and resolved."""
    if stop != goal and state.taken(stop, mover):
        return f"its way steps off a ledge at {stop}, where another creature stands"
    return None


def _describe(command: object) -> str:
    """A command as the log names it: "move to (3, 4)", "stand", "use strike"."""
    if isinstance(command, Move):
        return f"move to {(command.x, command.y)}"
    if isinstance(command, Stand):
        return "stand"
    power = getattr(command, "power", None)
    return f"use {power}" if power is not None else type(command).__name__.lower()


class ActionSystem(esper.Processor):
    """Resolves the acting creature's own commands on its turn, in the order it issued them.

    An order that leaves someone with nothing under it ends the pass: the systems after this one
    settle the fall (it lands, is hurt, falls prone or is downed), and the turn runs the pass again
    for the orders left (``game.battle.turns``), each checked again against the battle as it is then.
    """

    PHASES = frozenset({Phase.TURN})  # the only phases it runs in

    def __init__(self, state: BattleState) -> None:
        self.state = state

    def process(self, phase: Phase, actor: int | None = None) -> None:
        if phase is not Phase.TURN or actor is None:
            return
        state = self.state
        queue = state.actions.get(actor)
        if not queue:
            return
        issued_in = check_stamp(state)  # the state every order queued in it was checked against
        first = True
        while queue:
            command = queue.popleft()
            if is_unsupported(state, actor):
                state.emit(CommandRefused(state.round, actor, _describe(command), "it is falling"))
                first = False
                continue
            if isinstance(command, Move):
                if self._move(command, issued_in if first else None) and first and command.checked == issued_in \
                        and queue:
                    self._restamp(queue, issued_in)
            elif isinstance(command, Stand):
                self._stand(command)
            else:
                self._handle(command, queue)
            first = False
            if queue and (self._falls_to_settle() or isinstance(command, UsePower) and self._use_to_settle()):
                return  # the rest resolves once the fall or the use has (the turn runs ``Phase.TURN`` again)

    def _handle(self, command: ActorCommand, queue: deque[ActorCommand]) -> None:
        """A command this system does not resolve itself (a power's use): its type's handler does."""
        state = self.state
        handler = state.handlers.get(type(command))
        if handler is None:
            state.emit(CommandRefused(state.round, command.actor, type(command).__name__,
                                      "no handler for this kind of command"))
        elif handler(command) is False and queue and isinstance(command, UsePower):
            self._refuse_what_relied_on(command, queue)

    def _refuse_what_relied_on(self, use: UsePower, queue: deque[ActorCommand]) -> None:
        """A refused use that would have moved its user (a teleport, a flight on itself): the orders
        queued after it were checked from where, or as what, it would have left the user, so they
        are refused too, rather than carried out from where it still stands (a step forecast dry
        from a blink's point walked from the old square into a trench)."""
        state = self.state
        power = state.powers.get(use.power)
        if power is None or not (power.teleport or flies_its_user(state, power, use.actor, use.target, use.point,
                                                                   use.direction)):
            return
        while queue:
            state.emit(CommandRefused(state.round, use.actor, _describe(queue.popleft()),
                                      f"it was given after {power.name}, which was refused"))

    def _restamp(self, queue: deque[ActorCommand], issued_in: tuple[object, ...]) -> None:
        """The turn's first order was a move that went where the next order's check put the user:
        a use checked in the same state (``issued_in``) is stamped as of now.

        A use's check reads nothing a move changes but the user's square and its height there, and
        a walk that reaches its goal stands on the ground there (a flier keeps its height, as the
        check assumed): the state is the one the check saw, so it is not made a second time.
        """
        use = queue[0]
        if isinstance(use, UsePower) and use.checked == issued_in:
            queue[0] = UsePower(use.actor, use.power, use.target, use.point, use.direction, check_stamp(self.state))

    def _falls_to_settle(self) -> bool:
        """Whether the last order left someone with nothing under it (the mover stepped off a ledge, a
        push sent a creature over one): its fall, landing and hurt come before the next order, as when
        a person resolves the orders one at a time."""
        state = self.state
        return any(is_unsupported(state, entity) for entity in state.moved if esper.entity_exists(entity))

    def _use_to_settle(self) -> bool:
        """Whether the last order, a power's use, left something for the systems after this one to
        settle: hits and heals (who is downed), fatigue, a light or an area (the level grid, who
        sees what), a grant (the derived conditions: flat-footed, downed). The next order meets the
        battle as that use left it, as when a person resolves the orders one at a time: a shot after
        a light rolls in the light, a blink after darkness needs to see its point, a downed caster
        blinks nowhere."""
        state = self.state
        return bool(state.health_queue or state.fatigue_queue or state.dirty or state.looked
                    or state.terrain.version != state.levels_of_map)

    def _move(self, command: Move, stamp: tuple[object, ...] | None) -> bool:
        """Resolve one move (``stamp``: the battle's, when known); True when it ended on its goal
        (where the checks of later orders put it)."""
        state, entity = self.state, command.actor
        position = esper.component_for_entity(entity, Position)
        movement = esper.component_for_entity(entity, Movement)
        conditions = esper.component_for_entity(entity, Conditions)
        goal = (command.x, command.y)
        if command.checked is None or command.checked != (stamp or check_stamp(state)):  # else: checked as it is
            problem = move_problem(state.paths, state.rules, position, movement, conditions,
                                   esper.component_for_entity(entity, Falling), goal,
                                   lambda square: state.taken(square, entity))
            if problem:
                state.emit(CommandRefused(state.round, entity, f"move to {goal}", problem))
                return False
        left = movement_left(movement, conditions, state.rules)
        flying = is_flying(movement, conditions)
        start = position.square
        level = state.terrain.level_ground()
        if level is not None and (flying or position.z <= level):
            # walk's answer on flat ground, from its height or below: the goal, at the ground or above
            found_cost = state.paths.cost(start, goal, limit_ft=left, flying=flying)
            assert found_cost is not None  # move_problem found it (now, or when the move was issued)
            cost = found_cost
            stop, z = walk_end(state.terrain, goal, goal != start, position.z, flying) or (goal, position.z)
        else:
            found = state.paths.find(start, goal, limit_ft=left, flying=flying)
            assert found is not None
            path, cost = found
            room = round_fall_left(esper.component_for_entity(entity, Falling), state.rules)
            stop, z = walk(state.terrain, path, position.z, flying, state.rules, room)
            problem = landing_problem(state, entity, goal, stop)
            if problem:
                state.emit(CommandRefused(state.round, entity, f"move to {goal}", problem))
                return False
            if stop != goal:
                cost = state.paths.cost(start, stop, limit_ft=left, flying=flying) or 0
        movement.used_ft += cost
        state.place(entity, position, stop)
        position.z = z
        state.emit(Moved(state.round, entity, start, stop, cost, position.z))
        return stop == goal

    def _stand(self, command: Stand) -> None:
        state, entity = self.state, command.actor
        conditions = esper.component_for_entity(entity, Conditions)
        movement = esper.component_for_entity(entity, Movement)
        problem = stand_problem(conditions, lambda: "prone" in conditions.granted)
        if problem is not None:
            state.emit(CommandRefused(state.round, entity, "stand", problem))
            return
        movement.used_ft += stand_cost_ft(movement)
        conditions.revoke("prone")
        state.dirty.add(entity)
        state.emit(StoodUp(state.round, entity))
