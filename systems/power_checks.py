"""Whether a power may be used, and the terms its rolls are made on: shared by resolution and forecasts.

``use_problem`` is one function called three times: when a use is issued (so a person gets the
error at once), when it resolves on the user's turn (the world may have changed) and when a
forecast asks whether it would be legal. ``attack_terms`` and ``save_terms`` are what a roll is
made against; the power system rolls on them and the forecasts enumerate them, so the odds shown
are the odds rolled.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import NamedTuple

import esper

from components import Abilities, Conditions, Creature, Defense, Fatigue, Health, Movement, Position
from components.commands import UsePower
from components.forecasts import DefenseBreakdown, RollMode
from components.powers import Power
from components.rules import Rules
from systems.areas import facing, of_kind
from systems.falling import is_unsupported
from systems.geometry import SLACK_FT, distance_3d_ft
from systems.odds import chance_at_least
from systems.paths import blocked_for
from systems.rolls import attack_mode, defense_against, defense_value, roll_mode
from systems.state import BattleState
from systems.visibility import level_at, seen_from, sight_value, vision_value
from systems.vitals import can_act, is_dead, is_flying

#: A reach longer than this many squares is a shot: the threat forecast and the planner measure it as
#: the straight distance, and a blow at hand (a reach this long or shorter) by the walk to the target.
AT_HAND_SQUARES = 2


def reach_ft(power: Power, rules: Rules) -> float:  # a power's reach; distances are systems.geometry's
    """How far a power reaches: its range, or one square (melee) when it lists none."""
    return power.range_ft if power.range_ft is not None else float(rules.square_ft)


def touch_ft(power: Power, rules: Rules) -> float:
    """How far from its user one use of a power can touch a creature, in feet: its reach
    (:func:`reach_ft`) to the centre of its area, if it has one, and then the area's own spread past
    that centre (a burst's radius, a cone's or a line's length); an area with no range spreads from
    the user itself. A fireball of range 60 and radius 10 touches a creature 70 ft away; a 15 ft
    cone, one 15 ft away. What a planner reads as a power's reach, whoever's it is."""
    area = power.area
    if area is None:
        return reach_ft(power, rules)
    spread = area.radius_ft if area.shape == "burst" else area.length_ft
    return spread + (power.range_ft if power.range_ft is not None else 0.0)


def known_powers(state: BattleState, user: int) -> list[str]:
    """The powers a creature has: its own, or every power of the battle for a GM's creature."""
    return list(power_ids(state, esper.component_for_entity(user, Abilities)))


def power_ids(state: BattleState, abilities: Abilities) -> tuple[str, ...]:
    """:func:`known_powers` from a creature's ``Abilities``, as a tuple (what a roster keeps): its own
    in their order, or the battle's sorted."""
    known = _known(state, abilities)
    return tuple(known) if known is not state.powers else tuple(sorted(known))


def _known(state: BattleState, abilities: Abilities) -> Collection[str]:
    """The powers a creature has, without a copy (to ask whether it has one): its own, else every
    power of the battle (a GM's creature). The one place that rule is written."""
    own: Collection[str] = abilities.powers
    return own if own else state.powers


def _spent(state: BattleState, power: Power, user: int, queued: Iterable[UsePower]) -> str | None:
    """Why the user's action of this kind is gone this round, or None."""
    action = power.action
    if action == "free" or not state.in_combat:
        return None
    used = state.spent.get((user, state.round + (0 if state.actor == user else 1), action), 0)
    for q in queued:
        if state.powers[q.power].action == action:
            used += 1
    return f"it has already used its {action} this round" if used >= 1 else None


class Vantage(NamedTuple):
    """Where a user would stand for its uses, read once for every aim asked from there: the square,
    the height of its feet there, its team and how well it sees from there (a planner asks about
    several aims of several powers from one square).

    (A NamedTuple, not a frozen dataclass: a planner makes one per square and power it weighs, and a frozen
    dataclass's ``__init__`` pays a setattr call per field; a tuple is made in one.)"""

    user: int
    square: tuple[int, int]
    z: float
    team: str
    sight: int


def vantage(state: BattleState, user: int, square: tuple[int, int], z: float | None = None) -> Vantage:
    """The user as it would stand on ``square`` (see :class:`Vantage`), at height ``z`` when known
    (where its queued orders leave it), else as :func:`height_at` guesses."""
    height = height_at(state, user, square) if z is None else z
    return Vantage(user, square, height, esper.component_for_entity(user, Creature).team,
                   sight_value(state, user, square))


def vantages(state: BattleState, user: int, squares: list[tuple[int, int]]) -> list[Vantage]:
    """:func:`vantage` on each of ``squares`` (on the grid), the user's components read once: a planner
    weighs its uses from several squares a turn. Its height as :func:`heights_at` gives it, its sight
    as :func:`systems.visibility.sight_value` works it out."""
    team = esper.component_for_entity(user, Creature).team
    conditions = esper.component_for_entity(user, Conditions)
    return [Vantage(user, square, z, team, vision_value(level_at(state, square), conditions))
            for square, z in zip(squares, heights_at(state, user, squares))]


#: What an aim at a creature reads of it that no square of the user's changes (see :func:`target_reading`).
TargetReading = tuple[str, tuple[int, int], float] | str


def target_reading(target: int) -> TargetReading:
    """``target`` as an aim at it reads it from any square: why there is none to aim at (no such
    creature, or a dead one), else its team, square and height. A planner asking about one target from
    several squares reads it once (``aim_problem``'s ``readings``)."""
    if not esper.entity_exists(target) or not esper.has_component(target, Creature):
        return f"there is no creature {target!r} in this battle"
    get = esper.component_for_entity
    creature = get(target, Creature)
    if is_dead(get(target, Health), get(target, Fatigue)):
        return f"{creature.name} is dead"
    t_position = get(target, Position)
    return creature.team, (t_position.x, t_position.y), t_position.z


def _target_problem(state: BattleState, power: Power, seen: Vantage, target: int | None,
                    readings: dict[int, TargetReading] | None = None) -> str | None:
    """Why a single-target power cannot reach ``target`` from where ``seen`` stands, or None
    (``readings``: see :func:`aim_problem`)."""
    if target is None:
        return f"{power.name} needs a target creature"
    reading = None if readings is None else readings.get(target)
    if reading is None:
        reading = target_reading(target)
        if readings is not None:
            readings[target] = reading
    if isinstance(reading, str):
        return reading
    team, t_square, t_z = reading
    if not of_kind(power.targets, seen.user, seen.team, target, team):  # (never "self": not a single target)
        return "the target must be an enemy" if power.targets in ("enemy", "enemies") else "the target must be an ally"
    reach = reach_ft(power, state.rules)
    gap = distance_3d_ft(seen.square, seen.z, t_square, t_z, state.rules)
    if gap > reach + SLACK_FT:
        return f"the target is {gap:.4g} ft away and {power.name} reaches {reach:g} ft"
    if target != seen.user and not seen_from(state, seen.sight, seen.square, (t_square,))[0]:
        return "it cannot see the target (no clear line, or no vision)"
    return None


def height_at(state: BattleState, entity: int, square: tuple[int, int]) -> float:
    """How high a creature's feet would be on ``square``: where it is, its height; elsewhere the
    ground there (a flier keeps its height if that is higher)."""
    return heights_at(state, entity, [square])[0]


def heights_at(state: BattleState, entity: int, squares: list[tuple[int, int]]) -> list[float]:
    """:func:`height_at` for each of ``squares``, the creature read once (a planner asks of a few squares a turn).

    The rule lives here, once: on its own square a creature keeps its height; elsewhere its feet are
    on the ground, and a flier keeps its height where that is above the ground.
    """
    position = esper.component_for_entity(entity, Position)
    here, z = (position.x, position.y), float(position.z)
    if len(squares) == 1 and squares[0] == here:  # (where it stands, as a threat on a whole side asks: no more read)
        return [z]
    flying = is_flying(esper.component_for_entity(entity, Movement), esper.component_for_entity(entity, Conditions))
    ground_at = state.terrain.ground_at
    found = []
    for square in squares:
        if square == here:  # (its square, read without the property's call)
            found.append(z)
        else:
            ground = ground_at(square)
            found.append(max(z, ground) if flying else ground)
    return found


def _point_problem(state: BattleState, power: Power, seen: Vantage, point: tuple[int, int] | None) -> str | None:
    """Why a power aimed at a square cannot be aimed at ``point`` from where ``seen`` stands, or None."""
    if point is None:
        return f"{power.name} needs a point to aim at"
    if not state.terrain.inside(*point):
        return f"point {point} is off the grid"
    assert power.range_ft is not None
    gap = distance_3d_ft(seen.square, seen.z, point, state.terrain.ground_at(point), state.rules)
    if gap > power.range_ft + SLACK_FT:
        return f"point {point} is {gap:.4g} ft away and {power.name} reaches {power.range_ft:g} ft"
    if not seen_from(state, seen.sight, seen.square, (point,))[0]:
        return f"it cannot see point {point}"
    return None


def _facing_problem(power: Power, point: tuple[int, int] | None, direction: tuple[int, int] | None,
                    here: tuple[int, int]) -> str | None:
    """Why a cone or line has no way to face, or None."""
    if power.needs_direction and facing(here, point, direction) is None:
        if power.range_ft is not None:
            return f"{power.name} is aimed at its user's own square: give it a direction"
        return f"{power.name} needs a direction (or a square to face)"
    return None


def _user_problem(state: BattleState, power: Power, user: int) -> str | None:
    """Why the user cannot use this power at all now (helpless, surprised, in the air with nothing
    under it, not its power), or None."""
    conditions = esper.component_for_entity(user, Conditions)
    if not can_act(conditions):
        # (not :func:`systems.vitals.helpless_problem`'s wording: this refusal is in recorded event
        # logs, whose golden hashes a new wording would change)
        return "it cannot act (downed, unconscious or dead)"
    if "surprised" in conditions.active:
        return "it is surprised and cannot use powers this round"
    if is_unsupported(state, user):
        return "it is falling"  # (as the turn refuses it: a fall longer than the round's goes on)
    known = _known(state, esper.component_for_entity(user, Abilities))
    if known and power.id not in known:
        return f"it does not have the power {power.id!r} (it has {', '.join(known_powers(state, user))})"
    return None


def use_problem(state: BattleState, power: Power, user: int, target: int | None, point: tuple[int, int] | None,
                user_square: tuple[int, int] | None = None, queued: Iterable[UsePower] = (),
                direction: tuple[int, int] | None = None, user_z: float | None = None) -> str | None:
    """Why this use is illegal now, in words a player can act on; None when it is legal.

    Args:
        user_square: where the user will stand when the use resolves (after its queued moves).
        queued: its uses already queued this turn (they spend its actions too).
        direction: where a cone or line faces (by default away from the user, toward the point).
        user_z: its height then (a flight's moves keep it aloft), when known.
    """
    return user_problem(state, power, user, queued) or aim_problem(state, power, user, target, point, user_square,
                                                                    direction, user_z=user_z)


def user_problem(state: BattleState, power: Power, user: int, queued: Iterable[UsePower] = ()) -> str | None:
    """The part of :func:`use_problem` that does not depend on the aim: why the user cannot use the
    power now whatever it aims at (helpless, surprised, not its power, its action spent), or None.
    A planner asking about many aims of one power asks this once."""
    return _user_problem(state, power, user) or _spent(state, power, user, queued)


def aim_problem(state: BattleState, power: Power, user: int, target: int | None, point: tuple[int, int] | None,
                user_square: tuple[int, int] | None = None, direction: tuple[int, int] | None = None,
                seen: Vantage | None = None, user_z: float | None = None,
                readings: dict[int, TargetReading] | None = None) -> str | None:
    """The rest of :func:`use_problem`: why this aim is illegal from ``user_square`` (reach with
    height, sight, the kind of target, a way to face, a square to land on), or None. ``seen``: the
    user on that square, read once by a caller asking about many aims from it; ``user_z``: its
    height there, when known (else :func:`height_at`'s); ``readings``: each target's
    :func:`target_reading`, kept (filled as asked) by a caller asking about the same targets from
    several squares while the battle stands still."""
    here = user_square or esper.component_for_entity(user, Position).square
    if seen is None or seen.square != here or seen.user != user:
        seen = vantage(state, user, here, user_z)
    if power.single_target:
        return _target_problem(state, power, seen, target, readings)
    if power.aims_at_point:
        problem = _point_problem(state, power, seen, point)
        if problem:
            return problem
    return _facing_problem(power, point, direction, here) or _landing_problem(state, power, user, point)


def _landing_problem(state: BattleState, power: Power, user: int, point: tuple[int, int] | None) -> str | None:
    """Why a teleport cannot land on ``point``, or None (and None for any other power)."""
    if not power.teleport:
        return None
    if point is None:
        return f"{power.name} needs a point to land on"
    if state.terrain.walls[point]:
        return f"point {point} is a wall"
    if blocked_for(state.terrain, False)[point]:
        return f"point {point} is blocked to movement"
    if state.taken(point, user):
        return f"point {point} is taken"
    return None


@dataclass(frozen=True, slots=True)
class AttackTerms:
    """What an attack roll is made on: d20 under ``mode`` + ``bonus`` against ``defense``."""

    mode: RollMode
    bonus: int
    defense: DefenseBreakdown

    def hits(self, roll: int) -> bool:
        """Whether a d20 showing ``roll`` hits (a critical failure never does)."""
        return self.mode.mode != "critical failure" and roll + self.bonus >= self.defense.value

    def hit_chance(self) -> float:
        """P(the roll hits): the faces :meth:`hits` accepts, read off a table of the d20's odds (a
        forecast asks it for every target it weighs; equal to ``chance(20, mode, self.hits)``)."""
        return hit_chance(self.mode.mode, self.bonus, self.defense.value)


def hit_chance(mode: str, bonus: int, defense: int) -> float:
    """P(a d20 under ``mode`` + ``bonus`` reaches ``defense``); a critical failure never hits."""
    if mode == "critical failure":
        return 0.0
    return chance_at_least(mode, defense - bonus)


def attack_chance(sight: int, at_target: int, fatigue: int, bonus: int, base: int, covered: bool,
                  flat_footed: bool, rules: Rules) -> float:
    """An attack's chance to hit from its parts: the roller's sight where it stands, the light on the
    target's square, its fatigue and bonus (the user's and the power's); the target's base Defense,
    its cover from the roller and whether it is flat-footed. The number ``attack_terms`` gives (its
    roll mode, its Defense and :func:`hit_chance`, without their explanations), for the forecasts that
    ask it of many squares."""
    return hit_chance(attack_mode(sight, at_target, fatigue, rules), bonus,
                      defense_value(base, covered, flat_footed, rules))


def attack_terms(state: BattleState, power: Power, user: int, target: int,
                 user_square: tuple[int, int] | None = None,
                 target_square: tuple[int, int] | None = None) -> AttackTerms:
    """The terms of ``user``'s attack with ``power`` on ``target``: from ``user_square`` and at
    ``target_square`` when given (where they would stand; their own squares otherwise)."""
    assert power.attack_bonus is not None
    t_square = target_square or esper.component_for_entity(target, Position).square
    mode = roll_mode(state, user, "attack", target_square=t_square, from_square=user_square)
    bonus = esper.component_for_entity(user, Defense).attack_bonus + power.attack_bonus
    return AttackTerms(mode, bonus, defense_against(state, target, user, attacker_square=user_square,
                                                    target_square=t_square))


def save_terms(state: BattleState, power: Power, target: int,
               target_square: tuple[int, int] | None = None) -> tuple[RollMode, int]:
    """The roll mode of ``target``'s save against ``power`` (standing on ``target_square`` if given),
    and the DC it must reach."""
    assert power.save_dc is not None
    return roll_mode(state, target, "save", from_square=target_square), power.save_dc


def halved(amount: int) -> int:
    """Damage after a successful save against a half-damage power (rounded down)."""
    return amount // 2
