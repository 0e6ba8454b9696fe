"""Where the tactical player could end its turn: the few squares it weighs in full.

Split from :mod:`game.ai.tactical` (which scores them by the battle's forecasts): only a guess at
which squares are worth a forecast is made here, by distances and the battle's path searches,
cover and open shots; what ending on each would cost or gain is the forecasts' to say. So is the way
there: where the battle's own way drops off a ledge and only a longer one goes round,
:func:`ways_round` finds one in two legs. The walk to the enemies that squares are ranked by (and the
plan closes in by) is :func:`approach_field`'s.
"""

from __future__ import annotations

from typing import cast

import numpy as np

from components.forecasts import MoveForecast
from game.ai.tactical_turn import Turn
from systems.drops import fall_dice_many, least_hurtful_drop_ft
from systems.geometry import distances_3d_ft_to
from systems.paths import UNREACHABLE
from systems.power_checks import AT_HAND_SQUARES


def shortlist(turn: Turn, reserved: set[tuple[int, int]], field: np.ndarray) -> list[tuple[int, int]]:
    """The squares worth weighing in full: those from which an enemy is in reach, nearest first and
    with cover from the most enemies; for each enemy still standing whose two nearest squares in
    reach are neither chosen, the better of those two (a target behind its friends is weighed too);
    the one farthest from them (to fall back to); and the nearest out of every standing enemy's
    reach this round (to step back to and still strike next turn, see :func:`_edge`).

    Every reachable square is ranked at once with numpy; on a hundred squares each numpy call costs
    about what the arithmetic does, so the calls are few: methods rather than ``np.`` functions, and
    one pass for all the enemies where a pass per enemy gave the same answer.
    """
    battle, w = turn.battle, turn.weights
    mask = battle.reachable(turn.me).copy()
    for square in reserved:
        mask[square] = False
    mask[turn.here] = False
    xs, ys = mask.nonzero()  # x-major: the order ties go by
    if not len(xs):
        return []
    terrain = battle.state.terrain
    reach = turn.reach()
    enemies = turn.enemies
    targets = [(turn.square[e], turn.z[e]) for e in enemies]
    # every square at once: whether an enemy is in reach from it, and how far the way round is
    zs = terrain.ground[xs, ys].astype(np.float64, copy=False)
    apart = distances_3d_ft_to(xs, ys, zs, targets, turn.rules)
    in_reach: np.ndarray = apart <= reach
    out_of_reach = cast(np.ndarray, ~in_reach.any(axis=0))  # (an array: the stubs say it may be a bool)
    paths = field[xs, ys].astype(np.float64)
    # (on most turns no square is cut off and no drop hurts: then the way round is the path, and the
    # arrays that would add nothing to it are not made; 0.0 times anything, plus a way, is the way.
    # Whether any is, is asked of the extreme alone: a rounded subtraction keeps the order of its operands)
    ways = paths
    if paths.max() >= UNREACHABLE:  # no way round to some (a wall, a ravine): how far as the arrow flies
        ways = np.where(paths >= UNREACHABLE, UNREACHABLE + apart.min(axis=0), paths)
    far_by, z, rules = ways, turn.z[turn.me], turn.rules
    if z - zs.min() >= least_hurtful_drop_ft(rules):
        # a drop that hurts ranks as farther by the feet of fall its dice are for, by the rules' own dice
        # (fall_dice_many: one a full 10 ft, capped, halved on soft ground: 10 ft onto hay rolls none)
        far_by = fall_dice_many(z - zs, terrain.soft[xs, ys], rules) * float(rules.fall_ft_per_die) + ways
    # in reach first, then the shortest way; equals in x-major order (a stable sort, as ``sorted`` is)
    first = np.lexsort((far_by, out_of_reach))[: 2 * w.shortlist].tolist()
    # and for each enemy still standing, the two nearest ways into reach of it
    able = [j for j, enemy in enumerate(enemies) if enemy in turn.able]
    everyone = len(able) == len(enemies)  # (then their rows are the arrays themselves, not copies)
    by_enemy = _two_nearest(in_reach if everyone else in_reach[able], far_by) if able else []
    for near_it in by_enemy:
        first.extend(i for i in near_it if i not in first)
    xl, yl = xs.tolist(), ys.tolist()
    rank: dict[tuple[int, int], tuple[int, float]] = {  # (two lists read, not a numpy scalar a square)
        (xl[i], yl[i]): (int(o), f) for i, o, f in zip(first, out_of_reach[first].tolist(), far_by[first].tolist())}
    ranked = list(rank)
    nearest = sorted(enemies, key=lambda e: float(field[turn.square[e]]))[:3]
    cover = battle.cover_map(nearest, ranked)
    ranged = reach > AT_HAND_SQUARES * turn.rules.square_ft
    shots = battle.open_shots(turn.me, ranked, enemies) if ranged else dict.fromkeys(ranked, 0)
    ranked.sort(key=lambda s: (rank[s][0], -(cover[s] + shots[s]), rank[s][1]))
    chosen = ranked[: w.shortlist]
    for near_it in by_enemy:
        mine = [(xl[i], yl[i]) for i in near_it]
        if mine and not any(s in chosen for s in mine):
            chosen.append(min(mine, key=ranked.index))
    # the way round, less twice what a drop or a detour adds: the first of equals (lowest x, then y)
    away = int((paths if far_by is paths else paths - 2 * (far_by - paths)).argmax())
    farthest = (xl[away], yl[away])
    if farthest not in chosen:
        chosen.append(farthest)
    edge = _edge(turn, apart if everyone else apart[able], [enemies[j] for j in able], far_by) if able else None
    if edge is not None and (square := (xl[edge], yl[edge])) not in chosen:
        chosen.append(square)
    return chosen


def approach_field(turn: Turn) -> np.ndarray:
    """The walk from each square to the nearest enemy weighed (those standing, else all), which the plan
    closes in by. Ways are searched only as far as the farthest of them, and a turn's walk beyond, in 50
    ft steps, so that turn after turn the same searches are found again (the battle keeps them).

    A limit that spans the whole map from any square is asked as none: a search's answer is its
    window's, and this one is the whole map's, so it is kept once for every such limit and for the
    battle's other questions of the whole map (where a creature can walk, an enemy's walk)."""
    foes = turn.standing or turn.enemies
    apart = turn.apart(turn.here, turn.z[turn.me])  # (the foes are enemies weighed)
    far = max((apart[e] for e in foes), default=0.0)
    limit = 50.0 * (1 + int((2 * far + turn.speed) // 50))
    whole = int(limit // turn.rules.square_ft) >= max(turn.battle.state.terrain.walls.shape)
    return turn.battle.approach_map(turn.me, foes, limit_ft=None if whole else limit)


def _two_nearest(in_reach: np.ndarray, far_by: np.ndarray) -> list[list[int]]:
    """For each row of ``in_reach`` (an enemy's squares in reach), the indices of the two of them
    ``far_by`` ranks nearest, equals in index order (fewer when fewer are in reach): what a stable
    sort of each row's squares in reach by ``far_by`` puts first, found by two ``argmin`` over all
    rows at once (``argmin`` gives the first of equals; ``far_by`` is finite, so the infinity that
    masks a square out of reach never ties one in reach)."""
    rows = np.arange(len(in_reach))
    masked = np.where(in_reach, far_by, np.inf)
    one = masked.argmin(axis=1)
    one_in = in_reach[rows, one]
    masked[rows, one] = np.inf
    two = masked.argmin(axis=1)
    two_in = masked[rows, two] < np.inf  # (the first is masked out now: never found twice)
    found = []
    for a, a_in, b, b_in in zip(one.tolist(), one_in.tolist(), two.tolist(), two_in.tolist()):
        found.append(([a, b] if b_in else [a]) if a_in else [])
    return found


def _edge(turn: Turn, apart: np.ndarray, standing: list[int], far_by: np.ndarray) -> int | None:
    """Of the squares ``far_by`` ranks (``apart``: their distances to each of the enemies still
    ``standing``, a row each), the index of the nearest the enemies that is out of every standing
    enemy's reach this round (its walk plus its longest reach, as the arrow flies); None when there
    is none (the first of equals, by one ``argmin`` over the squares masked to the safe ones).

    Why: the farthest square gives up next turn's blow, and the squares in reach are in theirs; a
    blow and a step just out of reach keeps both (the ledge's ogre strikes and drops onto the hay,
    where the knight must jump down after it into the goblin's shots).
    """
    theirs = np.array([turn.round_reach(enemy) for enemy in standing])
    safe = cast(np.ndarray, (apart > theirs[:, None]).all(axis=0))
    found = int(np.where(safe, far_by, np.inf).argmin())
    return found if safe[found] else None


def ways_round(turn: Turn, moves: list[MoveForecast], reserved: set[tuple[int, int]]
               ) -> list[tuple[tuple[int, int], MoveForecast]]:
    """For each of ``moves`` whose way drops off a ledge before its goal, a way round in two legs: a
    square beside the goal it reaches without a fall, and the battle's forecast of the move on from
    there (``forecast_moves_to(..., after=)``: from the height the first leg leaves it at; its cost
    and path are the second leg's alone); none for a goal with no such square.

    Why: a move goes the battle's cheapest way (of equals, one that steps off no ledge that hurts),
    and a walker steps off the first ledge on it (the rules' walk), though a way a step longer may go
    round. Where the cheapest way to every square beside a target runs through a pit, each move ends
    in it and no blow is forecast at its end, while staying still counts as a blow next turn (the
    walk to the target is short): the creature stays to be shot. Two legs, each checked by the
    battle's forecasts, take it there dry.
    """
    battle, me = turn.battle, turn.me
    dropping = [m for m in moves if m.stops_at != m.square and m.fall is not None]
    if not dropping:
        return []
    mask = battle.reachable(me)
    width, height = mask.shape
    beside: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for move in dropping:
        gx, gy = move.square
        beside[move.square] = [(x, y) for x in (gx - 1, gx, gx + 1) for y in (gy - 1, gy, gy + 1)
                               if 0 <= x < width and 0 <= y < height and (x, y) not in (move.square, turn.here)
                               and mask[x, y] and (x, y) not in reserved]
    asked = sorted({square for squares in beside.values() for square in squares})
    dry = {f.square: f for f in battle.forecast_moves_to(me, asked, cover=False, way=False)
           if f.legal and f.stops_at == f.square and f.fall is None}
    found = []
    for goal, squares in beside.items():
        # the cheapest first leg first: it leaves the most of the walk for the second
        for via in sorted((s for s in squares if s in dry), key=lambda s: (dry[s].cost_ft or 0, s)):
            then = battle.forecast_moves_to(me, [goal], cover=False, after=via, way=False)[0]
            if then.legal and then.stops_at == goal and then.fall is None:
                found.append((via, then))
                break
    return found
