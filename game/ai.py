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

import numpy as np

from components import Defense, Falling, Health, Position, Vision
from systems.actions import distance_map
from systems.geometry import distance_ft
from systems.visibility import clear_line as _clear_line

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
            from game.dice import Dice
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


class _View:
    """One consistent snapshot of the battle for a single plan, read once (the facade is not free)."""

    def __init__(self, battle: Any, entity: int, allowed: Sequence[str] | None = None) -> None:
        self.battle = battle
        self.allowed = allowed
        self.entity = entity
        self.rules = battle.rules
        self.terrain = battle.terrain
        self.team = battle.team(entity)
        self.position = battle.get(entity, Position)
        self.square = self.position.square
        self.conditions = battle.conditions(entity)
        self.enemies: list[int] = []
        self.squares: dict[int, tuple[int, int]] = {}
        for other in battle.creatures():
            if other == entity or not battle.is_alive(other):
                continue
            self.squares[other] = battle.get(other, Position).square
            if battle.team(other) != self.team:
                self.enemies.append(other)
        self.vision = battle.get(entity, Vision).level
        self._powers: list[PowerInfo] | None = None
        self._order: dict[int, int] | None = None
        self.has_powers = all(hasattr(battle, n) for n in ("use_power", "powers_of", "power"))

    def acts_before(self, other: int) -> bool:
        """Whether ``other`` takes its turn before this creature in the current round."""
        if self._order is None:
            self._order = {e: i for i, e in enumerate(self.battle.turn_order())}
        return self._order.get(other, 1 << 30) < self._order.get(self.entity, 1 << 30)

    def standing_enemies(self) -> list[int]:
        """Enemies worth attacking: not yet downed (a downed enemy is finished only when nothing else is)."""
        up = [e for e in self.enemies if not (self.battle.conditions(e) & _HELPLESS)]
        return up or list(self.enemies)

    def can_see(self, target: int | tuple[int, int]) -> bool:
        can_see = getattr(self.battle, "can_see", None)
        return True if can_see is None else bool(can_see(self.entity, target))

    def powers(self) -> list[PowerInfo]:
        """The creature's powers, read once per plan; none while surprised (the rules forbid them)."""
        if self._powers is None:
            if not self.has_powers or "surprised" in self.conditions:
                self._powers = []
            else:
                own = self.battle.powers_of(self.entity)
                if self.allowed is not None:
                    own = [p for p in own if p in self.allowed]
                self._powers = [power_info(self.battle, p) for p in own]
        return self._powers


def _can_act(view: _View) -> bool:
    if view.conditions & _HELPLESS:
        return False
    falling = view.battle.get(view.entity, Falling)
    return falling.start_z is None


def _can_move(view: _View) -> bool:
    return _can_act(view) and "restrained" not in view.conditions and "prone" not in view.conditions


def _hit_chance(battle: Any, attacker: int, target: int, mode: str) -> float:
    """Chance that d20 + attack bonus meets the target's Defense against this attacker."""
    bonus = battle.get(attacker, Defense).attack_bonus
    need = battle.defense_against(target, attacker) - bonus
    p = min(max((21 - need) / 20.0, 0.05), 0.95)
    if mode == "advantage":
        return 1 - (1 - p) ** 2
    if mode == "disadvantage":
        return p * p
    if mode == "critical failure":
        return 0.0
    return p


@dataclass(frozen=True, slots=True)
class _Option:
    """One legal use of a power from where the creature stands."""

    power: PowerInfo
    kwargs: dict[str, Any]
    victims: tuple[int, ...]
    expected: float


def _area_victims(view: _View, info: PowerInfo, point: tuple[int, int] | None) -> tuple[int, ...] | None:
    """Enemies caught by an area power aimed at ``point``; None if it would catch the user or a friend."""
    try:
        covered = set(map(tuple, view.battle.squares_in_area(info.id, view.entity, point)))
    except ValueError:
        return None
    if view.square in covered:
        return None
    hit = []
    for other, square in view.squares.items():
        if square in covered:
            if other not in view.enemies:
                return None  # never catch a friend in a blast
            hit.append(other)
    return tuple(hit)


def _sees_from(view: _View, here: tuple[int, int], square: tuple[int, int]) -> bool:
    """The battle's sight rule from a square the creature has not reached yet (for move-then-attack).

    Mirrors ``can_see``: some vision between the two squares and a clear line around the walls.
    """
    levels = view.battle.state.levels
    if min(int(view.vision), int(levels[square])) == 0:
        return False
    if square == here:
        return True
    return bool(_clear_line(view.terrain.walls, here, square))


def _options(view: _View, here: tuple[int, int] | None = None) -> list[_Option]:
    """Every harmful power use that is legal from ``here`` (default: where the creature stands).

    From another square (after a queued move) only single-target powers are considered, since the
    battle computes areas from where the creature stands now.
    """
    rules, options = view.rules, []
    moved = here is not None and here != view.square
    here = here or view.square
    targets = view.standing_enemies()
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
                    point = view.squares[t]
                    if point == here or distance_ft(here, point, rules) > info.range_ft:
                        continue
                    if shape == "burst" and not view.can_see(point):
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
        for target in targets:
            square = view.squares[target]
            if distance_ft(here, square, rules) > info.range_ft:
                continue
            if not (_sees_from(view, here, square) if moved else view.can_see(target)):
                continue
            options.append(_Option(info, {"target": target}, (target,), _value(view, info, target)))
    return options


def _value(view: _View, info: PowerInfo, target: int) -> float:
    """Expected damage of ``info`` on ``target``: average damage times the chance to hit."""
    if not info.attack:
        return info.expected * 0.5
    mode = view.battle.roll_mode(view.entity, "attack", target=target)
    return info.expected * _hit_chance(view.battle, view.entity, target, mode)


def _issue_power(view: _View, option: _Option) -> Command:
    return ("use_power", (view.entity, option.power.id), dict(option.kwargs))


def _distance_field(view: _View, goals: Iterable[tuple[int, int]]) -> np.ndarray:
    """Path distance (in steps, around walls) from every square to the nearest of ``goals``."""
    return distance_map(view.terrain, view.rules, goals)


def _chebyshev(shape: tuple[int, int], centre: tuple[int, int]) -> np.ndarray:
    xs = np.abs(np.arange(shape[0]) - centre[0])[:, None]
    ys = np.abs(np.arange(shape[1]) - centre[1])[None, :]
    return np.maximum(xs, ys)


def _move_goals(view: _View, reserved: set[tuple[int, int]], limit: int = 12) -> list[tuple[int, int]]:
    """Squares worth moving to, best first; the creature's own square ends the list (staying put).

    Best are squares from which an enemy is in reach of a power, behind cover from the nearest
    enemy when possible; then the reachable squares closest by path to the nearest enemy. Squares
    whose drop would hurt (a ledge) and squares others already claimed are left out.
    """
    battle, terrain, rules = view.battle, view.terrain, view.rules
    enemies = view.standing_enemies()
    if not enemies or not _can_move(view):
        return []
    mask = battle.reachable(view.entity).copy()
    for square in reserved:
        mask[square] = False
    mask &= (view.position.z - terrain.ground) < _HURTFUL_DROP_FT  # a creature keeps its height and falls
    mask[view.square] = False
    candidates = np.argwhere(mask)
    if len(candidates) == 0:
        return []
    field = _distance_field(view, (view.squares[e] for e in enemies))
    reach_sq = max((p.range_ft for p in view.powers() if not p.friendly and not p.self_only),
                   default=rules.square_ft) / rules.square_ft
    reach_sq = max(int(reach_sq), 1)
    base = field[candidates[:, 0], candidates[:, 1]].astype(np.float64)
    in_reach = np.zeros(len(candidates), dtype=bool)
    for enemy in enemies:
        cheb = _chebyshev(mask.shape, view.squares[enemy])
        in_reach |= cheb[candidates[:, 0], candidates[:, 1]] <= reach_sq
    value = base.copy()
    if in_reach.any():
        nearest = min(enemies, key=lambda e: distance_ft(view.square, view.squares[e], rules))
        covered = np.zeros(len(candidates), dtype=bool)
        if rules.cover_enabled:
            from systems.cover import blocked_lines_many  # the same rule the battle uses for Defense
            order = np.flatnonzero(in_reach)
            order = order[np.argsort(base[order], kind="stable")][: limit * 4]
            attackers = np.repeat(np.array([view.squares[nearest]], dtype=np.int64), len(order), axis=0)
            blocked = blocked_lines_many(terrain.walls, attackers, candidates[order].astype(np.int64))
            covered[order] = blocked >= rules.cover_lines_needed
        value[in_reach] = -1000.0 - covered[in_reach] * 100.0 + base[in_reach]
    here_value = float(field[view.square])
    if field[view.square] != np.iinfo(np.int32).max and not in_reach.any() and value.min() >= here_value:
        return []  # nothing gets it closer: stay
    ranked = np.argsort(value, kind="stable")[:limit]
    return [(int(candidates[i, 0]), int(candidates[i, 1])) for i in ranked]


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
            cover = view.battle.has_cover(target, view.entity)
            mode = view.battle.roll_mode(view.entity, "attack", target=target) if o.power.attack else "normal"
            health = view.battle.get(target, Health).current
            # a target that acts before us this round may have moved away by the time we act
            moves_first = view.acts_before(target)
            return (cover, mode == "disadvantage", -len(o.victims), moves_first, health, -o.expected,
                    o.power.id, target)
        return min(options, key=key)

    options = _options(view)
    if options:
        return [_issue_power(view, pick(options))]
    if "prone" in view.conditions and "restrained" not in view.conditions:
        return [("stand", (view.entity,), {})]
    return _move_then_attack(view, reserved, pick)


def _plan_greedy(view: _View, rng: random.Random, reserved: set[tuple[int, int]]) -> list[Command]:
    def pick(options: list[_Option]) -> _Option:
        return max(options, key=lambda o: (o.expected, -view.battle.get(o.victims[0], Health).current,
                                           o.power.id))

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
    return _value(view, power_info(view.battle, args[1]), kwargs["target"])


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
    if not battle.is_alive(entity):
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
