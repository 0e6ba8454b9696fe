"""The baseline players: "greedy" (the most expected damage now) and "random" (a legal action drawn by lot among
doing nothing, a use that harms an enemy, standing up and a move).

Kept unchanged as the yardstick: the tactical player (:mod:`game.ai.tactical`) is measured against
them, so a change here would move every comparison. Both plan from a :class:`game.ai.board.View`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from types import MappingProxyType

import numpy as np

from game.ai.board import (
    Command,
    Option,
    View,
    can_act,
    can_move,
    expected_value,
    harmful_options,
    issue_power,
)
from systems.drops import least_hurtful_drop_ft
from systems.geometry import distance_ft
from systems.paths import UNREACHABLE


def move_goals(view: View, reserved: set[tuple[int, int]], limit: int = 12) -> list[tuple[int, int]]:
    """Squares worth moving to, best first; the creature's own square ends the list (staying put).

    Best are squares from which an enemy is in reach of a power, behind cover from the nearest
    enemy when possible; then the reachable squares closest by path to the nearest enemy. Squares
    whose drop would hurt (a ledge) and squares others already claimed are left out. Every square
    is scored at once with numpy; path distances and cover come from the map's cached answers.
    """
    battle, terrain, rules = view.battle, view.terrain, view.rules
    enemies = view.standing_enemies()
    if not enemies or not can_move(view):
        return []
    # a creature keeps its height and falls: leave out squares whose drop would hurt
    mask = battle.reachable(view.entity) & ((view.position.z - terrain.ground) < least_hurtful_drop_ft(rules))
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
    if here_value != UNREACHABLE and not any_in_reach and base.min() >= here_value:
        return []  # nothing gets it closer: stay
    best = flat[np.argsort(value, kind="stable")[:limit]]
    xs, ys = np.divmod(best, mask.shape[1])
    return list(zip(xs.tolist(), ys.tolist()))


def move_then_attack(view: View, reserved: set[tuple[int, int]], pick: Callable[[list[Option]], Option]
                      ) -> list[Command]:
    """Move to the first good square from which ``pick`` finds an attack, and attack; else just close in."""
    goals = move_goals(view, reserved)
    for goal in goals:
        options = harmful_options(view, goal)
        if options:
            return [("move", (view.entity, *goal), {}), issue_power(view, pick(options))]
    return [("move", (view.entity, *goals[0]), {})] if goals else []


def plan_greedy(view: View, rng: random.Random, reserved: set[tuple[int, int]]) -> list[Command]:
    def pick(options: list[Option]) -> Option:
        return max(options, key=lambda o: (o.expected, -view.health(o.victims[0]), o.power.id))

    here = harmful_options(view)
    moved = [] if "prone" in view.conditions else move_then_attack(view, reserved, pick)
    if here and (len(moved) < 2 or pick(here).expected >= expected_of(view, moved[-1])):
        return [issue_power(view, pick(here))]
    if not moved and "prone" in view.conditions and "restrained" not in view.conditions:
        return [("stand", (view.entity,), {})]
    return moved


def expected_of(view: View, command: Command) -> float:
    """Expected damage of a planned single-target power command (0 for anything else)."""
    name, args, kwargs = command
    if name != "use_power" or "target" not in kwargs:
        return 0.0
    return expected_value(view, view.caches.power_info(view.battle, args[1]), kwargs["target"])


def plan_random(view: View, rng: random.Random, reserved: set[tuple[int, int]]) -> list[Command]:
    choices: list[list[Command]] = [[]]
    for option in harmful_options(view):
        choices.append([issue_power(view, option)])
    if "prone" in view.conditions and can_act(view) and "restrained" not in view.conditions:
        choices.append([("stand", (view.entity,), {})])
    if can_move(view):
        mask = view.battle.reachable(view.entity).copy()
        for square in reserved:
            mask[square] = False
        mask[view.square] = False
        squares = np.argwhere(mask)
        if len(squares):
            x, y = squares[rng.randrange(len(squares))]
            choices.append([("move", (view.entity, int(x), int(y)), {})])
    return choices[rng.randrange(len(choices))]




#: The baseline planners by policy name.
PLANNERS: Mapping[str, Callable[[View, random.Random, set[tuple[int, int]]], list[Command]]] = MappingProxyType({
    "greedy": plan_greedy,
    "random": plan_random,
})
