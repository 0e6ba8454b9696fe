"""What the baseline computer players (greedy, random) read of the battle for one plan.

These players are the fixed yardstick the tactical player is measured against, so this code is
kept as it was when they were written: it reads components straight from the battle's world and
weighs attacks by its own rough count of the rules' numbers (a hit's chance held within 5-95%, cover
from walls alone, not from arrow slits or battlements: the README's policy table says so), never
the battle's forecasts.
Their answers about the map are kept by an owner (:class:`BaselineCaches`) that the battle's
``MapCaches`` holds, never at module level.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import esper

from components import Conditions, Creature, Defense, Falling, Fatigue, Health, Position, Visibility, Vision
from game.ai.info import BaselineCaches, PowerInfo
from game.ai.maps import SightTable, area_key
from systems.geometry import distance_3d_ft, distance_ft
from systems.vitals import HELPLESS as RULES_HELPLESS
from systems.vitals import is_dead, takes_its_turn

Command = tuple[str, tuple[Any, ...], dict[str, Any]]

#: Conditions under which a creature does nothing at all on its turn (the rules' own list).
HELPLESS = frozenset(RULES_HELPLESS)

class View:
    """One consistent snapshot of the battle for a single plan, read once (the facade is not free).

    Components are read straight from the battle's esper world: ``plan_turn`` has just made it the
    current one through a facade call (``is_alive``), and nothing in a plan switches worlds. Every
    per-target number an attack needs (cover, disadvantage, chance to hit) is worked out once, on
    first use, by the baseline's own rough count (see :meth:`numbers`).
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
        self._standing: list[int] | None = None
        self._numbers: dict[int, tuple[bool, bool, float]] = {}
        self._sight: SightTable | None = None
        self.caches: BaselineCaches = state.caches.owned("ai.baseline", BaselineCaches)
        self.maps = self.caches.answers_for(self.terrain)

    def standing_enemies(self) -> list[int]:
        """Enemies worth attacking: not yet downed (a downed enemy is finished only when nothing else is)."""
        if self._standing is None:
            up = [e for e in self.enemies if not (self.active[e] & HELPLESS)]
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

        A rough count of what the facade's ``defense_against`` and ``roll_mode`` say: base Defense,
        the cover bonus where walls alone hide the target, flat-footed; disadvantage at the fatigue
        threshold or in light terrible or worse; the chance held within 5-95%. Kept rough on purpose:
        the baseline must not change as the rules' own numbers grow.
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
            if "surprised" in self.conditions:
                self._powers = []
            else:
                own = self.battle.powers_of(self.entity)
                if self.allowed is not None:
                    own = [p for p in own if p in self.allowed]
                self._powers = [self.caches.power_info(self.battle, p) for p in own]
        return self._powers

    def ranged(self, power_id: str) -> bool:
        """Whether the power itself has a range (an area centred on a point rather than on the user)."""
        found = self._ranged.get(power_id)
        if found is None:
            found = self._ranged[power_id] = getattr(self.battle.power(power_id), "range_ft", None) is not None
        return found


def can_act(view: View) -> bool:
    """Whether the creature can play this turn (``systems.vitals.takes_its_turn``)."""
    return takes_its_turn(view.conditions, esper.component_for_entity(view.entity, Falling))


def can_move(view: View) -> bool:
    return can_act(view) and "restrained" not in view.conditions and "prone" not in view.conditions


@dataclass(frozen=True, slots=True)
class Option:
    """One legal use of a power from where the creature stands."""

    power: PowerInfo
    kwargs: dict[str, Any]
    victims: tuple[int, ...]
    expected: float


def area_victims(view: View, info: PowerInfo, point: tuple[int, int] | None) -> tuple[int, ...] | None:
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


def _area_options(view: View, info: PowerInfo, here: tuple[int, int], targets: list[int]) -> list[Option]:
    """The uses of an area power from ``here``: around the user, or at each enemy's square it can aim at."""
    rules, squares = view.rules, view.squares
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
    found = []
    for aim in points:
        victims = area_victims(view, info, aim)
        if not victims:
            continue
        kwargs = {} if aim is None else {"point": aim}
        found.append(Option(info, kwargs, victims, area_expected(view, info, victims)))
    return found


def harmful_options(view: View, here: tuple[int, int] | None = None) -> list[Option]:
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
        if info.friendly or (info.area is not None and moved):
            continue
        if info.area is not None:
            options += _area_options(view, info, here, targets)
            continue
        if info.self_only:
            continue
        if distances is None:  # once per square, not once per power
            distances = [(t, squares[t], distance_3d_ft(here, z, squares[t], view.heights[t], rules))
                         for t in targets]
        for target, square, feet in distances:
            if feet > info.range_ft or not view.sees(here, square):
                continue
            options.append(Option(info, {"target": target}, (target,), expected_value(view, info, target)))
    return options


def area_expected(view: View, info: PowerInfo, victims: tuple[int, ...]) -> float:
    """Expected damage of an area use: :func:`expected_value` summed over the enemies it catches."""
    return sum(expected_value(view, info, v) for v in victims)


def expected_value(view: View, info: PowerInfo, target: int) -> float:
    """Expected damage of ``info`` on ``target``: average damage times the chance to hit."""
    if not info.attack:
        return info.expected * 0.5
    return info.expected * view.numbers(target)[2]


def issue_power(view: View, option: Option) -> Command:
    return ("use_power", (view.entity, option.power.id), dict(option.kwargs))
