"""A computer player: plans a creature's turn as a list of Battle commands, then issues them.

Plans are plain ``(method_name, args, kwargs)`` triples, the same shape as ``Battle.command_log``,
so a caller can inspect, log or replay them before (or instead of) issuing them. Every plan is
checked against what the battle itself reports (``reachable``, ``can_see``, ranges), so issuing it
never raises: the simulation runner calls this thousands of times and must not need try/except.

No pygame and no global ``random`` here: the runner is headless, and a battle replays only if every
random choice comes from a generator the caller seeded.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import esper
import numpy as np

from components import Conditions, Creature, Defense, Falling, Fatigue, Health, Position, Visibility, Vision
from game.ai.maps import SightTable, answers_for, area_key
from systems.geometry import distance_3d_ft, distance_ft
from systems.paths import UNREACHABLE as _UNREACHABLE
from systems.vitals import is_dead

Command = tuple[str, tuple[Any, ...], dict[str, Any]]

POLICIES = ("tactical", "greedy", "random")

#: Conditions under which a creature does nothing at all on its turn.
_HELPLESS = frozenset({"downed", "unconscious", "dead"})

#: A landing from at least this high hurts (one die per 10 ft): tactical movers avoid such drops.
_HURTFUL_DROP_FT = 10


@dataclass(frozen=True, slots=True)
class PowerInfo:
    """What the AI needs to know about one power, read defensively from ``battle.power(id)``.

    The powers API is young, so every field has a default: a power the AI does not understand is
    treated as a single-target attack, which is what most powers are.
    """

    id: str
    range_ft: float          # reach in feet for targeting (melee reach when the power gives none)
    self_only: bool          # centred on / aimed at the user only
    area: Any | None         # the power's area object, or None
    friendly: bool           # helps its targets (heal, buff): never aimed at enemies
    expected: float          # average damage on a hit (1.0 when the power does not say)
    attack: bool             # rolls against Defense (so cover and disadvantage matter)


def _average(value: Any) -> float | None:
    """The average of a damage value: a Dice-like object, "2d6+1", or a number."""
    if value is None:
        return None
    average = getattr(value, "average", None)
    if callable(average):
        return float(average())
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        try:
            from components.dice import Dice
            return Dice.parse(value).average()
        except (ImportError, ValueError):
            return None
    return None


def power_info(battle: Any, power_id: str) -> PowerInfo:
    """Read a power into a :class:`PowerInfo`, defensively: fields the powers API lacks get defaults.

    A power with neither damage nor conditions (light, fly, blink) is worth nothing to an attacker;
    one that only inflicts conditions (dazzle, blind) is worth a little, so it is used when nothing
    better is in reach.
    """
    reach = float(battle.rules.square_ft)
    power = battle.power(power_id) if hasattr(battle, "power") else None
    range_ft = getattr(power, "range_ft", None)
    targets = str(getattr(power, "targets", "") or "").lower()
    area = getattr(power, "area", None)
    self_only = targets in ("self", "user", "you") or (
        range_ft is None and area is not None and getattr(area, "shape", "burst") == "burst")
    friendly = targets in ("ally", "allies", "self", "user", "you") or bool(getattr(power, "healing", None))
    expected = _average(getattr(power, "damage", None))
    if expected is None:
        if getattr(power, "conditions", ()):
            expected = 0.5
        elif getattr(power, "script", None) and getattr(power, "attack_bonus", None) is not None:
            expected = 1.0
        else:
            expected = 0.0
    if getattr(power, "teleport", False) or getattr(power, "flight", False):
        friendly = True
    attack = getattr(power, "save_dc", None) is None
    if range_ft is None and area is not None and not self_only:
        range_ft = getattr(area, "length_ft", None) or reach  # a cone or line reaches its length
    return PowerInfo(
        id=power_id,
        range_ft=float(range_ft) if range_ft is not None else (0.0 if self_only else reach),
        self_only=self_only,
        area=area,
        friendly=friendly or expected <= 0,
        expected=expected,
        attack=attack,
    )


#: power_info answers by (power id, the Power object's identity, square size); the object is kept in
#: the value, so its id cannot be reused while the entry lives.
_INFO_CACHE: dict[tuple[str, int, float], tuple[Any, PowerInfo]] = {}


def _cached_power_info(battle: Any, power_id: str) -> PowerInfo:
    """:func:`power_info`, read once per Power object: a simulation asks it for every power of
    every creature on every turn, and a power does not change during a battle."""
    if not hasattr(battle, "power"):
        return power_info(battle, power_id)
    power = battle.power(power_id)
    key = (power_id, id(power), battle.rules.square_ft)
    found = _INFO_CACHE.get(key)
    if found is not None and found[0] is power:
        return found[1]
    info = power_info(battle, power_id)
    if len(_INFO_CACHE) >= 1024:
        _INFO_CACHE.clear()
    _INFO_CACHE[key] = (power, info)
    return info


#: Whether a battle class has the powers API (asked once per class, not once per plan).
_HAS_POWERS: dict[type, bool] = {}


class _View:
    """One consistent snapshot of the battle for a single plan, read once (the facade is not free).

    Components are read straight from the battle's esper world: ``plan_turn`` has just made it the
    current one through a facade call (``is_alive``), and nothing in a plan switches worlds. Every
    per-target number an attack needs (cover, disadvantage, chance to hit) is worked out once, on
    first use, with the same rules the facade applies (``defense_against``, ``roll_mode``).
    """

    def __init__(self, battle: Any, entity: int, allowed: Sequence[str] | None = None) -> None:
        component = esper.component_for_entity
        state = battle.state
        self.battle = battle
        self.allowed = allowed
        self.entity = entity
        self.rules = state.rules
        self.terrain = state.terrain
        self.levels = state.levels
        self.maps = answers_for(self.terrain)
        self.team = component(entity, Creature).team
        self.position = component(entity, Position)
        self.square = self.position.square
        self.conditions: set[str] | frozenset[str] = component(entity, Conditions).active  # read, never changed
        self.vision = int(component(entity, Vision).level)
        self.enemies: list[int] = []
        self.squares: dict[int, tuple[int, int]] = {}
        self.heights: dict[int, float] = {}
        self.active: dict[int, set[str] | frozenset[str]] = {}
        # one query (esper keeps its answer until components come or go), walked in spawn order
        parts = dict(esper.get_components(Creature, Position, Health, Fatigue))
        for other in battle.creatures():
            if other == entity or other not in parts:
                continue
            creature, position, health, fatigue = parts[other]
            if is_dead(health, fatigue):
                continue
            self.squares[other] = position.square
            self.heights[other] = float(position.z)
            self.active[other] = component(other, Conditions).active
            if creature.team != self.team:
                self.enemies.append(other)
        self.enemy_set = frozenset(self.enemies)
        self._powers: list[PowerInfo] | None = None
        self._ranged: dict[str, bool] = {}
        self._order: dict[int, int] | None = None
        self._standing: list[int] | None = None
        self._numbers: dict[int, tuple[bool, bool, float]] = {}
        self._sight: SightTable | None = None
        kind = type(battle)
        has_powers = _HAS_POWERS.get(kind)
        if has_powers is None:
            has_powers = _HAS_POWERS[kind] = all(hasattr(battle, n) for n in ("use_power", "powers_of", "power"))
        self.has_powers = has_powers

    def acts_before(self, other: int) -> bool:
        """Whether ``other`` takes its turn before this creature in the current round."""
        if self._order is None:
            self._order = {e: i for i, e in enumerate(self.battle.turn_order())}
        return self._order.get(other, 1 << 30) < self._order.get(self.entity, 1 << 30)

    def standing_enemies(self) -> list[int]:
        """Enemies worth attacking: not yet downed (a downed enemy is finished only when nothing else is)."""
        if self._standing is None:
            up = [e for e in self.enemies if not (self.active[e] & _HELPLESS)]
            self._standing = up or list(self.enemies)
        return self._standing

    def health(self, other: int) -> int:
        return int(esper.component_for_entity(other, Health).current)

    def sees(self, here: tuple[int, int], square: tuple[int, int]) -> bool:
        """The battle's sight rule (``can_see``) from ``here``, which may be a square not reached yet
        (a power queued after a move is checked from where the move ends); answers are shared by
        every battle with the same walls and light."""
        if self._sight is None:
            self._sight = self.maps.sight(self.levels)
        return self._sight.sees(self.vision, here, square)

    def numbers(self, target: int) -> tuple[bool, bool, float]:
        """``(cover, disadvantage, chance to hit)`` of an attack on ``target`` from where the creature stands.

        The facade's ``defense_against`` (base, cover bonus, flat-footed) and ``roll_mode`` for an
        attack (fatigue at the threshold; the worse of the creature's vision and the target
        square's level terrible or worse), without a facade entry and a cover search per option.
        """
        found = self._numbers.get(target)
        if found is None:
            component, rules = esper.component_for_entity, self.rules
            square = self.squares[target]
            cover = self.maps.has_cover(rules, self.square, square)
            level = min(self.vision, int(self.levels[square]))
            disadvantage = (component(self.entity, Fatigue).level >= rules.disadvantage_at_fatigue
                            or level <= Visibility.TERRIBLE)
            defense = component(target, Defense).base
            if cover:
                defense += rules.cover_bonus
            if "flat-footed" in self.active[target]:
                defense -= rules.flat_footed_penalty
            need = defense - component(self.entity, Defense).attack_bonus
            p = min(max((21 - need) / 20.0, 0.05), 0.95)
            found = self._numbers[target] = (cover, disadvantage, p * p if disadvantage else p)
        return found

    def powers(self) -> list[PowerInfo]:
        """The creature's powers, read once per plan; none while surprised (the rules forbid them)."""
        if self._powers is None:
            if not self.has_powers or "surprised" in self.conditions:
                self._powers = []
            else:
                own = self.battle.powers_of(self.entity)
                if self.allowed is not None:
                    own = [p for p in own if p in self.allowed]
                self._powers = [_cached_power_info(self.battle, p) for p in own]
        return self._powers

    def ranged(self, power_id: str) -> bool:
        """Whether the power itself has a range (an area centred on a point rather than on the user)."""
        found = self._ranged.get(power_id)
        if found is None:
            found = self._ranged[power_id] = getattr(self.battle.power(power_id), "range_ft", None) is not None
        return found


def _can_act(view: _View) -> bool:
    if view.conditions & _HELPLESS:
        return False
    return esper.component_for_entity(view.entity, Falling).start_z is None


def _can_move(view: _View) -> bool:
    return _can_act(view) and "restrained" not in view.conditions and "prone" not in view.conditions


@dataclass(frozen=True, slots=True)
class _Option:
    """One legal use of a power from where the creature stands."""

    power: PowerInfo
    kwargs: dict[str, Any]
    victims: tuple[int, ...]
    expected: float


def _area_victims(view: _View, info: PowerInfo, point: tuple[int, int] | None) -> tuple[int, ...] | None:
    """Enemies caught by an area power aimed at ``point``; None if it would catch the user or a friend.

    The squares come from the battle (``squares_in_area``), once per shape, user square and point
    on a wall layout: the same fireball is weighed at the same squares turn after turn.
    """
    battle, entity = view.battle, view.entity

    def compute() -> frozenset[tuple[int, int]] | None:
        try:
            return frozenset(map(tuple, battle.squares_in_area(info.id, entity, point)))
        except ValueError:
            return None

    covered = view.maps.area(area_key(info.area, view.ranged(info.id), view.square, point, view.rules), compute)
    if covered is None or view.square in covered:
        return None
    hit = []
    for other, square in view.squares.items():
        if square in covered:
            if other not in view.enemy_set:
                return None  # never catch a friend in a blast
            hit.append(other)
    return tuple(hit)


def _options(view: _View, here: tuple[int, int] | None = None) -> list[_Option]:
    """Every harmful power use that is legal from ``here`` (default: where the creature stands).

    From another square (after a queued move) only single-target powers are considered, since the
    battle computes areas from where the creature stands now.
    """
    rules, options = view.rules, []
    moved = here is not None and here != view.square
    here = here or view.square
    targets = view.standing_enemies()
    squares = view.squares
    distances: list[tuple[int, tuple[int, int], float]] | None = None
    z = float(view.position.z) if here == view.square else float(view.terrain.ground[here])
    for info in view.powers():
        if info.friendly:
            continue
        if info.area is not None:
            if moved:
                continue
            shape = getattr(info.area, "shape", "burst")
            if info.self_only:
                points: list[tuple[int, int] | None] = [None]
            else:
                points = []
                for t in targets:
                    point = squares[t]
                    if point == here or distance_ft(here, point, rules) > info.range_ft:
                        continue
                    if shape == "burst" and not view.sees(here, point):
                        continue
                    points.append(point)
            for point in points:  # type: ignore[assignment]
                victims = _area_victims(view, info, point)
                if not victims:
                    continue
                kwargs = {} if point is None else {"point": point}
                value = sum(_value(view, info, v) for v in victims)
                options.append(_Option(info, kwargs, victims, value))
            continue
        if info.self_only:
            continue
        if distances is None:  # once per square, not once per power
            distances = [(t, squares[t], distance_3d_ft(here, z, squares[t], view.heights[t], rules))
                         for t in targets]
        for target, square, feet in distances:
            if feet > info.range_ft or not view.sees(here, square):
                continue
            options.append(_Option(info, {"target": target}, (target,), _value(view, info, target)))
    return options


def _value(view: _View, info: PowerInfo, target: int) -> float:
    """Expected damage of ``info`` on ``target``: average damage times the chance to hit."""
    if not info.attack:
        return info.expected * 0.5
    return info.expected * view.numbers(target)[2]


def _issue_power(view: _View, option: _Option) -> Command:
    return ("use_power", (view.entity, option.power.id), dict(option.kwargs))


def _move_goals(view: _View, reserved: set[tuple[int, int]], limit: int = 12) -> list[tuple[int, int]]:
    """Squares worth moving to, best first; the creature's own square ends the list (staying put).

    Best are squares from which an enemy is in reach of a power, behind cover from the nearest
    enemy when possible; then the reachable squares closest by path to the nearest enemy. Squares
    whose drop would hurt (a ledge) and squares others already claimed are left out. Every square
    is scored at once with numpy; path distances and cover come from the map's cached answers.
    """
    battle, terrain, rules = view.battle, view.terrain, view.rules
    enemies = view.standing_enemies()
    if not enemies or not _can_move(view):
        return []
    # a creature keeps its height and falls: leave out squares whose drop would hurt
    mask = battle.reachable(view.entity) & ((view.position.z - terrain.ground) < _HURTFUL_DROP_FT)
    for square in reserved:
        mask[square] = False
    mask[view.square] = False
    flat = np.flatnonzero(mask)  # candidate squares as flat [x, y] indices, in np.argwhere's order
    if len(flat) == 0:
        return []
    enemy_squares = [view.squares[e] for e in enemies]
    field = view.maps.nearest_field(terrain, rules, enemy_squares)
    reach_sq = max((p.range_ft for p in view.powers() if not p.friendly and not p.self_only),
                   default=rules.square_ft) / rules.square_ft
    reach_sq = max(int(reach_sq), 1)
    base = field.ravel()[flat].astype(np.int64)
    near = np.zeros(mask.shape, dtype=bool)  # within reach_sq squares (Chebyshev) of an enemy
    for x, y in enemy_squares:
        near[max(x - reach_sq, 0):x + reach_sq + 1, max(y - reach_sq, 0):y + reach_sq + 1] = True
    in_reach = near.ravel()[flat]
    any_in_reach = bool(in_reach.any())
    value = base
    if any_in_reach:
        # in reach beats any distance, and cover from the nearest enemy beats no cover; whole numbers
        # keep every score exact, so ties rank in square order as they always have
        value = base.copy()
        value[in_reach] -= 1000
        if rules.cover_enabled:  # the same rule the battle uses for Defense
            nearest = min(enemies, key=lambda e: distance_ft(view.square, view.squares[e], rules))
            order = np.flatnonzero(in_reach)
            order = order[np.argsort(base[order], kind="stable")][: limit * 4]
            blocked = view.maps.blocked_flat(view.squares[nearest], flat[order])
            value[order[blocked >= rules.cover_lines_needed]] -= 100
    here_value = field[view.square]
    if here_value != _UNREACHABLE and not any_in_reach and base.min() >= here_value:
        return []  # nothing gets it closer: stay
    best = flat[np.argsort(value, kind="stable")[:limit]]
    xs, ys = np.divmod(best, mask.shape[1])
    return list(zip(xs.tolist(), ys.tolist()))


def _move_then_attack(view: _View, reserved: set[tuple[int, int]], pick: Callable[[list[_Option]], _Option]
                      ) -> list[Command]:
    """Move to the first good square from which ``pick`` finds an attack, and attack; else just close in."""
    goals = _move_goals(view, reserved)
    for goal in goals:
        options = _options(view, goal)
        if options:
            return [("move", (view.entity, *goal), {}), _issue_power(view, pick(options))]
    return [("move", (view.entity, *goals[0]), {})] if goals else []


def _plan_tactical(view: _View, rng: random.Random, reserved: set[tuple[int, int]]) -> list[Command]:
    def pick(options: list[_Option]) -> _Option:
        def key(o: _Option) -> tuple[Any, ...]:
            target = o.victims[0]
            cover, disadvantage, _ = view.numbers(target)
            # a target that acts before us this round may have moved away by the time we act
            return (cover, disadvantage and o.power.attack, -len(o.victims), view.acts_before(target),
                    view.health(target), -o.expected, o.power.id, target)
        return min(options, key=key)

    options = _options(view)
    if options:
        return [_issue_power(view, pick(options))]
    if "prone" in view.conditions and "restrained" not in view.conditions:
        return [("stand", (view.entity,), {})]
    return _move_then_attack(view, reserved, pick)


def _plan_greedy(view: _View, rng: random.Random, reserved: set[tuple[int, int]]) -> list[Command]:
    def pick(options: list[_Option]) -> _Option:
        return max(options, key=lambda o: (o.expected, -view.health(o.victims[0]), o.power.id))

    here = _options(view)
    moved = [] if "prone" in view.conditions else _move_then_attack(view, reserved, pick)
    if here and (len(moved) < 2 or pick(here).expected >= _expected_of(view, moved[-1])):
        return [_issue_power(view, pick(here))]
    if not moved and "prone" in view.conditions and "restrained" not in view.conditions:
        return [("stand", (view.entity,), {})]
    return moved


def _expected_of(view: _View, command: Command) -> float:
    """Expected damage of a planned single-target power command (0 for anything else)."""
    name, args, kwargs = command
    if name != "use_power" or "target" not in kwargs:
        return 0.0
    return _value(view, _cached_power_info(view.battle, args[1]), kwargs["target"])


def _plan_random(view: _View, rng: random.Random, reserved: set[tuple[int, int]]) -> list[Command]:
    choices: list[list[Command]] = [[]]
    for option in _options(view):
        choices.append([_issue_power(view, option)])
    if "prone" in view.conditions and _can_act(view) and "restrained" not in view.conditions:
        choices.append([("stand", (view.entity,), {})])
    if _can_move(view):
        mask = view.battle.reachable(view.entity).copy()
        for square in reserved:
            mask[square] = False
        mask[view.square] = False
        squares = np.argwhere(mask)
        if len(squares):
            x, y = squares[rng.randrange(len(squares))]
            choices.append([("move", (view.entity, int(x), int(y)), {})])
    return choices[rng.randrange(len(choices))]


_PLANNERS: dict[str, Callable[[_View, random.Random, set[tuple[int, int]]], list[Command]]] = {
    "tactical": _plan_tactical,
    "greedy": _plan_greedy,
    "random": _plan_random,
}


def plan_turn(battle: Any, entity: int, policy: str = "tactical", rng: random.Random | None = None,
              reserved: set[tuple[int, int]] | None = None,
              powers: Mapping[int, Sequence[str]] | None = None) -> list[Command]:
    """Plan one creature's turn without changing the battle.

    Args:
        battle: the battle.
        entity: the creature to plan for.
        policy: "tactical" (attack the weakest enemy in reach, else close in behind cover),
            "greedy" (most expected damage now) or "random" (any legal action).
        rng: the caller's seeded generator (only "random" draws from it); a fixed seed if None, so
            a plan never depends on hidden global state.
        reserved: squares other creatures already plan to move into this round (kept free).
        powers: entity -> the power ids it may use (a scenario's ``powers_by_entity``); by default
            whatever ``battle.powers_of`` allows.

    Returns:
        ``(method_name, args, kwargs)`` commands, empty when the creature cannot or need not act.
    """
    if policy not in _PLANNERS:
        raise ValueError(f"unknown AI policy {policy!r}: expected one of {', '.join(POLICIES)}")
    rng = rng if rng is not None else random.Random(0)
    if not battle.is_alive(entity):  # a facade entry: checks the id and makes this battle's world current
        return []
    view = _View(battle, entity, None if powers is None else powers.get(entity))
    if not _can_act(view) or not view.enemies:
        return []
    return _PLANNERS[policy](view, rng, reserved if reserved is not None else set())


def issue(battle: Any, commands: Iterable[Command]) -> list[Command]:
    """Issue planned commands on the battle, in order; returns them."""
    issued = []
    for name, args, kwargs in commands:
        getattr(battle, name)(*args, **kwargs)
        issued.append((name, args, kwargs))
    return issued


def act(battle: Any, entity: int, policy: str = "tactical", rng: random.Random | None = None,
        reserved: set[tuple[int, int]] | None = None,
        powers: Mapping[int, Sequence[str]] | None = None) -> list[Command]:
    """Plan and issue one creature's turn (see :func:`plan_turn`); returns what was issued."""
    return issue(battle, plan_turn(battle, entity, policy, rng, reserved, powers))


def controller(policy: str = "tactical", rng: random.Random | None = None,
               powers: Mapping[int, Sequence[str]] | None = None,
               controls: Callable[[int], bool] | None = None) -> Callable[[Any, int], None]:
    """A turn controller for ``Battle.tick(controller=...)``: plans each creature's turn when it comes.

    Deciding at the creature's own turn means it sees the board as it is then (who moved, who fell),
    so its attacks aim at where their targets really are.

    Args:
        controls: which creatures this player runs (default: all of them).
    """
    rng = rng if rng is not None else random.Random(0)

    def take_turn(battle: Any, entity: int) -> None:
        if controls is None or controls(entity):
            act(battle, entity, policy, rng, None, powers)

    return take_turn


def act_for(battle: Any, entities: Iterable[int], policy: str = "tactical", rng: random.Random | None = None,
            powers: Mapping[int, Sequence[str]] | None = None) -> list[Command]:
    """Plan and issue a round for several creatures, in turn order, never two into one square.

    Squares a creature plans to leave are not freed for others: the battle resolves moves in turn
    order, so a later creature could otherwise be refused; staying safe costs a step, not a turn.
    """
    rng = rng if rng is not None else random.Random(0)
    wanted = set(entities)
    order = [e for e in battle.turn_order() if e in wanted] + [e for e in wanted if e not in battle.turn_order()]
    reserved: set[tuple[int, int]] = set()
    issued: list[Command] = []
    for entity in order:
        commands = plan_turn(battle, entity, policy, rng, reserved, powers)
        for name, args, _ in commands:
            if name == "move":
                reserved.add((args[1], args[2]))
        issued += issue(battle, commands)
    return issued
