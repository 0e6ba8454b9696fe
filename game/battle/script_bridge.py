"""What a script's ``ctx`` can do: read plain values, and ask for commands that are checked at once.

A script never sees a component. Each ``ctx`` method lands here; a read answers at once, a command
is validated exactly like the Python API's and returned as a closure that applies it, which the hook
buffers and applies only if the whole call succeeds. A refusal raises ``ValueError`` or
``LookupError``, which fails the call.

Every ctx call costs the script ``Limits.ctx_call_steps``; the few whose work grows with the battle
cost more (:meth:`ScriptBridge.weight`), counted from their arguments and the battle, never timed:
a read that scans every creature, dice by the die, and a light or an area by the size of the map
whose sight it changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

import esper

from components import Conditions, Creature, Fatigue, Health, Position, Visibility
from components.commands import GrantCondition, Heal, Hit, Move, RevokeCondition
from components.dice import Dice
from components.effects import ActiveEffect
from components.powers import effect_source, script_source
from components.terrain import MAX_AREAS, MAX_LIGHTS, MAX_RADIUS_FT
from components.values import DURATION
from game.battle import orders, validate
from game.battle.errors import IllegalCommand
from game.scripting import Weighed
from systems.forces import push
from systems.geometry import SLACK_FT, distance_3d_ft
from systems.grants import grant_condition, revoke_condition
from systems.powers import make_veil
from systems.state import BattleState
from systems.visibility import can_see
from systems.vitals import is_dead

#: ctx methods and their exact number of arguments. Reads answer at once; commands are buffered.
READS: Mapping[str, int] = MappingProxyType({
    "health": 1, "max_health": 1, "fatigue": 1, "position": 1, "conditions": 1, "team": 1, "name": 1,
    "is_alive": 1, "distance": 2, "can_see": 2, "creatures_in_area": 3, "roll": 1,
})
COMMANDS: Mapping[str, int] = MappingProxyType({
    "damage": 2, "heal": 2, "add_condition": 2, "remove_condition": 2, "move": 3, "push": 3,
    "create_area": 5, "create_light": 5,
})

Apply = Callable[[], None]

#: Steps per creature a read that looks at every creature costs (~0.5 us of work each).
CREATURE_STEPS = 10
#: Steps per die rolled (1000 dice take ~200 us).
DIE_STEPS = 4
#: Squares of the map per step a new light or area costs (sight is computed again over the map:
#: ~24 ms on a 1024 x 1024 map).
SQUARES_PER_STEP = 4


def _every_creature(bridge: ScriptBridge, args: tuple[Any, ...]) -> int:
    return CREATURE_STEPS * len(bridge.creatures)


def _dice(bridge: ScriptBridge, args: tuple[Any, ...]) -> int:
    return DIE_STEPS * Dice.parse(args[0]).count


def _whole_map(bridge: ScriptBridge, args: tuple[Any, ...]) -> int:
    return bridge.state.terrain.width * bridge.state.terrain.height // SQUARES_PER_STEP


#: The ctx methods whose calls may weigh more than ``Limits.ctx_call_steps``, and what a call that
#: succeeded weighs on top (``ScriptBridge.weight``); every other method weighs 0. One table, so that
#: a weight cannot be written for a method the bridge then lets a script call for free.
WEIGHTS: Mapping[str, Callable[[ScriptBridge, tuple[Any, ...]], int]] = MappingProxyType({
    "creatures_in_area": _every_creature, "roll": _dice, "create_area": _whole_map, "create_light": _whole_map,
})
#: The methods of :data:`WEIGHTS` (what ``ScriptBridge.weighed`` asks first).
WEIGHTED = frozenset(WEIGHTS)


class ScriptBridge:
    """Answers one battle's script calls; ``ctx`` is the call's plain fields (user, power, effect)."""

    def __init__(self, state: BattleState, creatures: set[int]) -> None:
        self.state = state
        self.creatures = creatures
        self.ctx: dict[str, Any] = {}
        #: creatures read as standing elsewhere (a what-if): entity -> (x, y, z)
        self.moved: dict[int, tuple[int, int, float]] = {}

    def read(self, method: str, args: tuple[Any, ...]) -> Any:
        """Answer a read."""
        return getattr(self, f"read_{method}")(*args)

    def weight(self, method: str, args: tuple[Any, ...]) -> int:
        """Steps a ctx call that succeeded costs on top of ``Limits.ctx_call_steps`` (0 for all but
        :data:`WEIGHTS`)."""
        weigh = WEIGHTS.get(method)
        return 0 if weigh is None else weigh(self, args)

    def weighed(self, value: Any, method: str, args: tuple[Any, ...]) -> Any:
        """``value`` as a host takes a ctx call's answer: with the steps the call weighs (:meth:`weight`),
        if any. One place for the battle's calls and the what-ifs, so both cost a script the same."""
        if method not in WEIGHTED:  # (most calls: a script pays this on every one)
            return value
        weight = self.weight(method, args)
        return Weighed(value, weight) if weight else value

    def command(self, method: str, args: tuple[Any, ...], buffered: int) -> Apply:
        """Check a command; the closure that applies it. ``buffered``: commands already asked for."""
        if method in ("create_area", "create_light"):
            x, y, radius_ft, level, duration = args
            return self.made(method.removeprefix("create_"), x, y, radius_ft, level, duration, buffered=buffered)
        return getattr(self, f"cmd_{method}")(*args)  # type: ignore[no-any-return]

    # ------------------------------------------------------------------ reads

    def creature(self, entity: object) -> int:
        if type(entity) is int and entity in self.creatures:
            return entity  # (creature_id's common case written out: every read of a creature asks this)
        return validate.creature_id(entity, self.creatures)  # UnknownEntity: refused

    def read_health(self, e: object) -> int:
        return esper.component_for_entity(self.creature(e), Health).current

    def read_max_health(self, e: object) -> int:
        return esper.component_for_entity(self.creature(e), Health).maximum

    def read_fatigue(self, e: object) -> int:
        return esper.component_for_entity(self.creature(e), Fatigue).level

    def place(self, entity: int) -> tuple[tuple[int, int], float]:
        """Where a creature stands for the reads: its square and height (or where a what-if put it)."""
        moved = self.moved.get(entity)
        if moved is not None:
            return (moved[0], moved[1]), moved[2]
        p = esper.component_for_entity(entity, Position)
        return (p.x, p.y), p.z

    def read_position(self, e: object) -> list[Any]:
        (x, y), z = self.place(self.creature(e))
        return [x, y, z]

    def read_conditions(self, e: object) -> list[str]:
        return sorted(esper.component_for_entity(self.creature(e), Conditions).active)

    def read_team(self, e: object) -> str:
        return esper.component_for_entity(self.creature(e), Creature).team

    def read_name(self, e: object) -> str:
        return esper.component_for_entity(self.creature(e), Creature).name

    def read_is_alive(self, e: object) -> bool:
        entity = self.creature(e)
        return not is_dead(esper.component_for_entity(entity, Health), esper.component_for_entity(entity, Fatigue))

    def read_distance(self, a: object, b: object) -> int | float:
        """Feet between two creatures, heights counted (the rules' range distance)."""
        (sa, za), (sb, zb) = self.place(self.creature(a)), self.place(self.creature(b))
        gap = distance_3d_ft(sa, za, sb, zb, self.state.rules)
        return int(gap) if gap == int(gap) else round(gap, 2)

    def read_can_see(self, a: object, b: object) -> bool:
        """Whether ``a`` sees ``b``, each where the reads place it (a what-if's squares too, as the
        distances do: a foreseen reaction must not see from one square and measure from another)."""
        viewer, seen = self.creature(a), self.creature(b)
        return can_see(self.state, viewer, self.place(seen)[0], here=self.place(viewer)[0])

    def read_creatures_in_area(self, x: object, y: object, radius_ft: object) -> list[int]:
        """Every creature within ``radius_ft`` of the ground at (x, y), heights counted as a burst
        aimed there counts them (a flier 60 ft up is not beside the square below it); the fallen
        too (a script that wants the living asks ``is_alive``). A distance, not an area: a wall
        between does not stop it (a script that needs a clear line asks ``can_see``)."""
        centre = validate.square(self.state, x, y, "area centre")
        radius = feet(radius_ft, "radius")
        rules = self.state.rules  # one distance per creature, not a mask of the whole map
        ground = self.state.terrain.ground_at(centre)
        most, moved, found = radius + SLACK_FT, self.moved, []
        # (each creature placed from the component in hand, as ``place`` places it; the ones within
        # sorted by id afterwards, which is the order sorting all first and keeping those within gives)
        for entity, position in esper.get_component(Position):
            there = moved.get(entity) if moved else None
            if there is None:
                gap = distance_3d_ft((position.x, position.y), position.z, centre, ground, rules)
            else:
                gap = distance_3d_ft((there[0], there[1]), there[2], centre, ground, rules)
            if gap <= most:
                found.append(entity)
        found.sort()
        return found

    def read_roll(self, notation: object) -> int:
        try:
            return Dice.parse(notation).roll(self.state.rng)
        except ValueError as err:
            raise ValueError(f"roll: {err}") from None

    # ------------------------------------------------------------------ commands

    def source(self) -> str:
        """Whose grants these are: the call's ongoing effect, or the script itself."""
        effect = self.ctx.get("effect", -1)
        return effect_source(effect) if effect not in (-1, None) else self.script_source()

    def script_source(self) -> str:
        """Whose hits and heals these are, for the log: the power's script, or a reaction."""
        return script_source(self.ctx.get("power"))

    def cmd_damage(self, e: object, amount: object) -> Apply:
        entity, value, source = self.creature(e), validate.amount(amount, "damage"), self.script_source()
        return lambda: self.state.health_queue.append(Hit(entity, value, source))

    def cmd_heal(self, e: object, amount: object) -> Apply:
        entity, value, source = self.creature(e), validate.amount(amount, "healing"), self.script_source()
        return lambda: self.state.health_queue.append(Heal(entity, value, source))

    def cmd_add_condition(self, e: object, condition: object) -> Apply:
        effect = self.ctx.get("effect", -1)
        grant = GrantCondition(self.creature(e), validate.condition_name(condition), self.source(),
                               effect if effect in self.state.effects else None)
        return lambda: grant_condition(self.state, grant)

    def cmd_remove_condition(self, e: object, condition: object) -> Apply:
        # A script cures what it can: grants from the GM, falls, scripts and permanent powers. A live
        # effect's grant stays until the effect ends (an ongoing power cannot be cut short by someone
        # else's script), and the dead are not changed at all.
        revoke = RevokeCondition(self.creature(e), validate.condition_name(condition), spare_live_effects=True)
        return lambda: revoke_condition(self.state, revoke)

    def cmd_move(self, e: object, x: object, y: object) -> Apply:
        entity = self.creature(e)
        try:
            goal = orders.move_goal(self.state, entity, x, y)
        except IllegalCommand as err:
            raise ValueError(str(err)) from None
        return lambda: orders.queue(self.state, entity, Move(entity, *goal))

    def cmd_push(self, e: object, away_from: object, distance: object) -> Apply:
        entity, origin = self.creature(e), self.creature(away_from)
        pushed = feet(distance, "push distance")
        return lambda: push(self.state, origin, entity, pushed, away=True)

    def made(self, kind: str, x: object, y: object, radius_ft: object, level: object, duration: object,
             buffered: int = 0) -> Apply:
        """Check a light or an area a script asks for; the command that makes it."""
        centre = validate.square(self.state, x, y, "centre")
        radius = feet(radius_ft, "radius")
        parsed = Visibility.parse(level)  # type: ignore[arg-type]
        rounds = validate.within(duration, DURATION, "duration")  # (as a power file's)
        terrain = self.state.terrain
        held, most = (terrain.areas, MAX_AREAS) if kind == "area" else (terrain.lights, MAX_LIGHTS)
        if len(held) + buffered >= most:
            raise ValueError(f"the map already holds the most {kind}s it takes ({most})")
        user, power = int(self.ctx.get("user", -1)), str(self.ctx.get("power") or "script")
        return lambda: self.create(kind, centre, radius, parsed, rounds, user, power)

    def create(self, kind: str, centre: tuple[int, int], radius: float, level: Visibility, duration: int,
               user: int, power: str) -> None:
        """Make a script's light or area, as an effect of its own that ends after ``duration`` rounds."""
        state = self.state
        effect_id = state.new_effect_id()
        effect = ActiveEffect(effect_id, power, user, effect_source(effect_id), state.round + duration)
        make_veil(state, kind, centre, radius, level, effect.source, effect)
        state.effects[effect_id] = effect


def feet(value: object, what: str) -> float:
    """A number of feet a script passes: 0..``MAX_RADIUS_FT`` (10,000)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= MAX_RADIUS_FT:
        raise ValueError(f"{what} must be a number of feet in 0..{MAX_RADIUS_FT:.0f}, not {value!r}")
    return float(value)
