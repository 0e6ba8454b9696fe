"""A creature's queued orders: where they will leave it, and whether one more order is legal.

An order is checked when it is issued against where the creature will be after what it has already
queued this turn; the action system checks it again when it resolves. Both the facade and the
script bridge queue through here.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING

import esper

from components import Conditions, Falling, Movement, Position
from components.commands import ActorCommand, Move, Stand, UsePower
from game.battle.errors import IllegalCommand
from game.battle.validate import label, square
from systems.actions import landing_problem, move_problem, movement_left, speed_for_round, stand_cost_ft, walk, walk_end
from systems.areas import flies_its_user
from systems.drops import fall_dice
from systems.falling import round_fall_left
from systems.paths import blocked_for
from systems.state import BattleState
from systems.vitals import is_flying

if TYPE_CHECKING:
    from game.battle.recording import Recording

#: What :func:`_through_queue` finds: the square, the movement used, the height, why it is left
#: falling (or None), whether it will be prone, the fall the round has left it, and whether it
#: flies. A plain tuple: it is made on every ask while something is queued.
_Leaves = tuple[tuple[int, int], int, float, str | None, bool, float, bool]


def projected(state: BattleState, entity: int, then: Sequence[ActorCommand] = ()
              ) -> tuple[Position, Movement, str | None]:
    """Where the creature will be, at what height, and what movement it will have used, after its
    queued commands and then ``then`` (a planner's what-if: nothing is queued, nothing checked)
    (new objects: a caller may keep them); and, when one of those moves leaves it falling into the
    next round, why nothing queued after it can resolve, in words ("it will be falling after its move
    to (4, 6) (it steps off at (4, 5) and falls 600 ft, more than a round's 500)"), else None. (A
    plain tuple: a planner asks it many times a turn.)

    The height is where each move leaves it (a walker on the ground it ends on, or where it lands
    when it steps off a ledge): a forecast after a queued climb starts from the top.
    """
    position = esper.component_for_entity(entity, Position)
    movement = esper.component_for_entity(entity, Movement)
    if not then and not state.actions.get(entity):  # nothing queued (most asks): as it is now
        return (Position(position.x, position.y, position.z),
                Movement(movement.speed_ft, movement.used_ft, movement.flying), None)
    position, movement, falling, _ = projected_room(state, entity, then)
    return position, movement, falling


def projected_room(state: BattleState, entity: int, then: Sequence[ActorCommand] = ()
                   ) -> tuple[Position, Movement, str | None, float]:
    """:func:`projected` (without its short cut when nothing is queued), and the fall the round will
    have left the creature then: what a walk after those orders may step down within."""
    position = esper.component_for_entity(entity, Position)
    movement = esper.component_for_entity(entity, Movement)
    (x, y), used, z, falling, _, room, flying = _through_queue(state, entity, position, movement, then)
    return Position(x, y, z), Movement(movement.speed_ft, used, movement.flying or flying), falling, room


def starting_point(state: BattleState, entity: int, then: Sequence[ActorCommand] = ()
                   ) -> tuple[Position, Movement, str | None, float]:
    """Where one more order of the creature's starts from, to be read and not kept: with nothing
    queued (and no ``then``) its own Position and Movement, the way it is (most asks: no copies
    made), else :func:`projected_room`'s; with why nothing more can resolve, and the fall the round
    has left it. What a move's check, its forecasts and the reachable squares read."""
    if then or state.actions.get(entity):
        return projected_room(state, entity, then)
    return (esper.component_for_entity(entity, Position), esper.component_for_entity(entity, Movement), None,
            round_fall_left(esper.component_for_entity(entity, Falling), state.rules))


def projection(state: BattleState, entity: int, then: Sequence[ActorCommand] = ()) -> tuple[Position, Movement]:
    """:func:`projected`'s position and movement (what most callers read)."""
    position, movement, _ = projected(state, entity, then)
    return position, movement


def queued_fall(state: BattleState, entity: int, then: Sequence[ActorCommand] = ()) -> str | None:
    """Why nothing more the creature queues this turn (after ``then``, a what-if as for ``projected``)
    can resolve (``projected``'s ``falling``), or None; at once when nothing is queued (a planner asks
    it of every use it weighs)."""
    if not then and not state.actions.get(entity):
        return None
    return _through_queue(state, entity, esper.component_for_entity(entity, Position),
                          esper.component_for_entity(entity, Movement), then)[3]


def could_stand(state: BattleState, entity: int, square: tuple[int, int]) -> bool:
    """Whether the creature could stand on ``square`` after its queued orders (a forecast's ``from_square``):
    the square those orders leave it on, or one whose terrain does not block it as a move there would (a
    battlement stops walkers, not fliers; a queued flight counts)."""
    position, movement, _, _ = starting_point(state, entity)
    if square == position.square:  # it stands there, whatever came to block it since
        return True
    return not blocked_for(state.terrain, is_flying(movement, esper.component_for_entity(entity, Conditions)))[square]


def _through_queue(state: BattleState, entity: int, position: Position, movement: Movement,
                   then: Sequence[ActorCommand]) -> _Leaves:
    """The square its queued moves (and ``then``) leave it on, the movement used by then (a stand
    costs half its speed), each move counted only where a path still leads, its height there, whether
    it is left falling, and whether it will be prone, each move as it resolves
    (``systems.actions.walk``).

    A flier keeps its height, raised by higher ground. A walker on level ground at or below it ends
    on the ground (no path is searched: the resolution takes the same short cut). Else its walk
    follows the way the move resolves along, from there within the movement it then has left: a
    climb raises it, a step down that no fall could hurt takes it down, and at the first square with
    more under it than that (short of its goal, or the goal itself) it steps off, having used the walk
    to that square. The turn lets that fall settle before the next order: it lands there (prone when
    the fall hurts) and the orders after it start from the ground. A fall longer than the round has
    left goes on into the next round: the turn refuses everything after it ("it is falling"), and
    ``falling`` says why. Whether the fall downs it is the fall's forecast, not this projection's.

    A queued teleport (a blink) puts it on the ground of its point, and a queued use that makes it
    fly (:func:`_after_use`) makes the moves after it flights, as each resolves when its turn comes (a
    use is taken to land: the resolution checks it again, and the action system refuses the orders
    given after such a use when it is refused).
    """
    here, used, z = position.square, movement.used_ft, position.z
    conditions = esper.component_for_entity(entity, Conditions)
    prone = "prone" in conditions.granted
    rules, terrain = state.rules, state.terrain
    room = round_fall_left(esper.component_for_entity(entity, Falling), rules)
    flying = is_flying(movement, conditions)
    for command in (*state.actions.get(entity, ()), *then):
        if isinstance(command, Move):
            goal = (command.x, command.y)
            moved = _moved(state, entity, goal, here, used, z, movement, conditions, flying, room)
            if moved is None:
                continue
            here, used, z = moved
            ground = float(terrain.ground[here])
            if flying or z <= ground:
                continue
            drop = z - ground
            if drop > room:
                how = f"it steps off at {here}" if here != goal else f"it is {drop:g} ft above the ground there"
                return here, used, z, (f"it will be falling after its move to {goal} ({how} and falls "
                                       f"{drop:g} ft, more than the {room:g} ft a round has left)"), prone, room, \
                    flying
            room -= drop  # it lands: the fall counts toward the round's
            z = ground
            prone = prone or fall_dice(drop, bool(terrain.soft[here]), rules) > 0
        elif isinstance(command, Stand):
            used += stand_cost_ft(movement)
            prone = False
        elif isinstance(command, UsePower):
            here, z, flying = _after_use(state, entity, command, here, z, flying)
    return here, used, z, None, prone, room, flying


def _after_use(state: BattleState, entity: int, command: UsePower, here: tuple[int, int], z: float, flying: bool
               ) -> tuple[tuple[int, int], float, bool]:
    """Where a queued use of a power leaves its user (from ``here`` at ``z``) and whether it flies
    then: a use that makes it fly (``systems.areas.flies_its_user``: a flight on itself, or one
    whose area takes it in) and a teleport, which lands it on the ground of its point; any other
    use leaves it as it was. A script's doings are not foreseen."""
    power = state.powers.get(command.power)
    if power is None:
        return here, z, flying
    if not flying and flies_its_user(state, power, entity, command.target, command.point, command.direction, here, z):
        flying = True
    if power.teleport and command.point is not None:
        return command.point, float(state.terrain.ground[command.point]), flying
    return here, z, flying


def _moved(state: BattleState, entity: int, goal: tuple[int, int], here: tuple[int, int], used: int, z: float,
           movement: Movement, conditions: Conditions, flying: bool, room: float
           ) -> tuple[tuple[int, int], int, float] | None:
    """Where one queued move to ``goal`` leaves the creature, from ``here`` at height ``z`` with ``used``
    ft of movement used and ``room`` ft of the round's fall left (see :func:`_through_queue`): the
    square, the movement used by then, and its height there before any fall; None when no path leads
    there within its speed, or its walk would step off onto another creature (the turn refuses it)."""
    cost = state.paths.cost(here, goal, limit_ft=movement.speed_ft, flying=flying)
    if cost is None:
        return None
    ends = walk_end(state.terrain, goal, goal != here, z, flying)  # a flight, or a walk on level ground
    if ends is not None:
        return goal, used + cost, ends[1]
    left = speed_for_round(movement, conditions, state.rules) - used
    stop, top = _walked(state, goal, here, z, left, room) or (goal, float(state.terrain.ground[goal]))
    if landing_problem(state, entity, goal, stop):
        return None  # the turn refuses it: it stays where it was
    if stop != goal:
        cost = state.paths.cost(here, stop, limit_ft=left, flying=False) or 0
    return stop, used + cost, top


def _walked(state: BattleState, goal: tuple[int, int], here: tuple[int, int], z: float, left: float, room: float
            ) -> tuple[tuple[int, int], float] | None:
    """Where a walker's move to ``goal`` from ``here`` at height ``z`` ends or steps off, and its height
    there, along the way the move resolves along within ``left`` ft (``systems.actions.walk``, with
    ``room`` ft of the round's fall left); None when no way leads there within ``left``."""
    found = state.paths.find(here, goal, limit_ft=left, flying=False)
    return None if found is None else walk(state.terrain, found[0], z, False, state.rules, room)


def move_goal(state: BattleState, entity: int, x: object, y: object) -> tuple[int, int]:
    """The destination, if the creature may move there after its queued commands; else IllegalCommand."""
    goal = square(state, x, y, "destination")
    conditions = esper.component_for_entity(entity, Conditions)
    falling = esper.component_for_entity(entity, Falling)
    position, movement, refused, room = starting_point(state, entity)
    if refused is not None:
        raise IllegalCommand(f"{label(entity)} cannot move to {goal}: {refused}")
    problem = move_problem(state.paths, state.rules, position, movement, conditions, falling, goal,
                           lambda there: state.taken(there, entity))
    if not problem and state.terrain.level_ground() is None and not is_flying(movement, conditions):
        # where the walk steps off on its way (a drop that hurts) it lands: not on another creature
        left = movement_left(movement, conditions, state.rules)
        walked = _walked(state, goal, position.square, position.z, left, room)
        if walked is not None:
            problem = landing_problem(state, entity, goal, walked[0])
    if problem:
        raise IllegalCommand(f"{label(entity)} cannot move to {goal}: {problem}")
    return goal


def next_place(state: BattleState, entity: int, doing: str) -> tuple[tuple[int, int], float]:
    """The square one more order of the creature's starts from (where its queued orders leave it)
    and its height there, read in the same pass that checks it may be given: IllegalCommand
    ("Knight (#3) cannot stand: it will be falling after ...") when its queued orders leave it
    falling into the next round, as the resolution would refuse whatever comes after. ``doing``
    names the order ("stand", "use Strike")."""
    here, z, falling = queue_end(state, entity)
    if falling is not None:
        raise IllegalCommand(f"{label(entity)} cannot {doing}: {falling}")
    return here, z


def queue_end(state: BattleState, entity: int) -> tuple[tuple[int, int], float, str | None]:
    """Where the creature's queued orders leave it, its height there, and why it would then be
    falling into the next round (None when it would not: :func:`next_place`'s refusal)."""
    position = esper.component_for_entity(entity, Position)
    if not state.actions.get(entity):
        return position.square, position.z, None
    here, _, z, falling, _, _, _ = _through_queue(state, entity, position,
                                                  esper.component_for_entity(entity, Movement), ())
    return here, z, falling


def will_be_prone(state: BattleState, entity: int) -> bool:
    """Whether the creature will be prone when one more order resolves: prone now and not standing
    in its queued orders, or a queued move ends in a fall that hurts (it lands prone)."""
    position = esper.component_for_entity(entity, Position)
    return _through_queue(state, entity, position, esper.component_for_entity(entity, Movement), ())[4]


def prone_to_stand(state: BattleState, entity: int) -> bool:
    """Whether a stand given now finds the creature prone (:func:`will_be_prone`); IllegalCommand
    when its queued orders leave it falling (:func:`next_place`), as the turn would refuse the stand."""
    next_place(state, entity, "stand")
    return will_be_prone(state, entity)


def off_turn_problem(state: BattleState, entity: int, doing: str) -> str | None:
    """Why ``entity`` cannot be given an order of its own (``doing``) now, or None: while another
    creature's turn is under way, an order for ``entity`` would not resolve with that turn's orders,
    as the API promises the code playing the turn, but wait for ``entity``'s own turn (the next round's
    when it has acted). Between rounds any creature may be given orders for its turn."""
    actor = state.actor
    if not state.round_open or actor is None or actor == entity:
        return None
    return (f"{label(entity)} cannot {doing}: it is {label(actor)}'s turn, and a creature takes orders only in "
            "its own turn (or between rounds)")


def own_turn(state: BattleState, entity: int, doing: str, recording: Recording) -> int:
    """``entity``, when it may be given an order of its own (``doing``) now; else IllegalCommand with
    :func:`off_turn_problem`'s reason, before any other check of the order. Held to it: the caller's
    own command, and a tick's controller. Not held: a ``Battle.on`` handler's (``recording.handling``,
    though called inside a controller's ``resolve_orders``), whose commands resolve at the next
    opportunity, as a reaction script's do."""
    if recording.handling:
        return entity
    problem = off_turn_problem(state, entity, doing)
    if problem is not None:
        raise IllegalCommand(problem)
    return entity


def queue(state: BattleState, entity: int, command: ActorCommand) -> None:
    """Queue one of a creature's own commands for its turn."""
    queued = state.actions.get(entity)
    if queued is None:
        queued = state.actions[entity] = deque()
    queued.append(command)
