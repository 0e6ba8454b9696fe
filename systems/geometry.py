"""Grid distances under the rules' diagonal rule, for one pair or for a whole grid at once."""

from __future__ import annotations

import math

import numpy as np

from components import Rules

#: How far past a reach, radius, size or width a distance with height may come out and still be within
#: it: a square root's float error, never a real foot. Every such comparison of the rules' adds this one
#: slack, so a square in a power's reach for the window is in it for the use, the forecast, the area and
#: the threats (``game.battle.tactics``) alike. (The computer player's own guesses at who could reach
#: whom, before it asks those forecasts, compare without it.)
SLACK_FT = 1e-9


def distance_squares(dx: int, dy: int, rules: Rules) -> int:
    """Squares between two squares ``dx``, ``dy`` apart: a diagonal is one square, or 5-10-5."""
    ax, ay = abs(dx), abs(dy)
    if ax < ay:  # (the larger first, without max and min: CPython 3.11's builtins cost a call each)
        ax, ay = ay, ax
    if rules.diagonal == "one":
        return ax
    return ax + ay // 2


def grid_squares(ax: np.ndarray, ay: np.ndarray, rules: Rules) -> np.ndarray:
    """:func:`distance_squares` for arrays of absolute offsets ``ax``, ``ay`` at once (any shape)."""
    found: np.ndarray = np.maximum(ax, ay) if rules.diagonal == "one" else np.maximum(ax, ay) + np.minimum(ax, ay) // 2
    return found


def distance_ft(a: tuple[int, int], b: tuple[int, int], rules: Rules) -> int:
    """Feet between the squares ``a`` and ``b``."""
    return distance_squares(a[0] - b[0], a[1] - b[1], rules) * rules.square_ft


def distance_3d_ft(a: tuple[int, int], a_z: float, b: tuple[int, int], b_z: float, rules: Rules) -> float:
    """Feet between two points in three dimensions: the rules' distance for ranges, reach and areas.

    The horizontal part is the grid distance under the diagonal rule; the vertical part the
    difference in height. By default the two combine as a straight line (a flier 60 ft straight up
    is 60 ft away); with ``rules.height_distance = "larger"`` the larger of the two counts. Cover
    and sight stay on the grid's plane.
    """
    # distance_ft's arithmetic written out: a planner asks this some two thousand times a battle
    ax, ay = abs(a[0] - b[0]), abs(a[1] - b[1])
    if ax < ay:
        ax, ay = ay, ax
    across = (ax if rules.diagonal == "one" else ax + ay // 2) * rules.square_ft
    if a_z == b_z:  # the same height (on level ground, nearly every ask): no conversions
        return float(across)
    up = abs(float(a_z) - float(b_z))
    if rules.height_distance == "larger":
        return max(float(across), up)
    return math.hypot(across, up)


def distances_3d_ft(xs: np.ndarray, ys: np.ndarray, zs: np.ndarray, b: tuple[int, int], b_z: float,
                    rules: Rules) -> np.ndarray:
    """:func:`distance_3d_ft` from each of the points (``xs[i]``, ``ys[i]``, ``zs[i]``) to ``b`` at
    ``b_z``, as one array: a planner ranks every square it could reach by it.

    The same arithmetic as the one-pair form, element by element (integer grid feet, the absolute
    height difference, then the larger of the two or the straight line), so the two agree exactly.
    """
    ax, ay = np.abs(xs - b[0]), np.abs(ys - b[1])
    squares = grid_squares(ax, ay, rules)
    across = (squares * rules.square_ft).astype(np.float64)
    up = np.abs(zs.astype(np.float64) - float(b_z))
    if rules.height_distance == "larger":
        larger: np.ndarray = np.maximum(across, up)
        return larger
    found: np.ndarray = across.copy()
    raised = np.nonzero(up != 0)[0]
    if len(raised):  # math.hypot, not numpy's: the two may differ in the last bit
        found[raised] = [math.hypot(a, u) for a, u in zip(across[raised].tolist(), up[raised].tolist())]
    return found


def distances_3d_ft_to(xs: np.ndarray, ys: np.ndarray, zs: np.ndarray, targets: list[tuple[tuple[int, int], float]],
                       rules: Rules) -> np.ndarray:
    """:func:`distances_3d_ft` from each point to each of ``targets`` (``(square, z)`` pairs) as one
    ``(len(targets), len(xs))`` array, in one pass over all of them: row ``j`` is exactly
    ``distances_3d_ft(xs, ys, zs, *targets[j], rules)`` (the same arithmetic, element by element)."""
    bx = np.array([t[0][0] for t in targets], dtype=np.int64)[:, None]
    by = np.array([t[0][1] for t in targets], dtype=np.int64)[:, None]
    ax, ay = np.abs(xs[None, :] - bx), np.abs(ys[None, :] - by)
    squares = grid_squares(ax, ay, rules)
    across = (squares * rules.square_ft).astype(np.float64)
    up = np.abs(zs.astype(np.float64)[None, :] - np.array([float(t[1]) for t in targets])[:, None])
    if rules.height_distance == "larger":
        larger: np.ndarray = np.maximum(across, up)
        return larger
    found: np.ndarray = across  # (its own array: astype made it)
    if up.any():  # (on level ground nothing is raised: one cheap call rather than a search)
        raised = up.nonzero()  # math.hypot, not numpy's: the two may differ in the last bit
        found[raised] = [math.hypot(a, u) for a, u in zip(across[raised].tolist(), up[raised].tolist())]
    return found


def within_radius(shape: tuple[int, int], centre: tuple[int, int], radius_ft: float, rules: Rules) -> np.ndarray:
    """Boolean ``[x, y]`` mask of the squares within ``radius_ft`` of ``centre``."""
    most = _most_squares(radius_ft, rules.square_ft)
    xs = np.abs(np.arange(shape[0], dtype=np.int32) - centre[0])
    ys = np.abs(np.arange(shape[1], dtype=np.int32) - centre[1])
    if rules.diagonal == "one":  # max(dx, dy) <= most: within along both axes at once
        inside: np.ndarray = np.logical_and.outer(xs <= most, ys <= most)
        return inside
    within: np.ndarray = grid_squares(xs[:, None], ys[None, :], rules) <= most
    return within


def _most_squares(radius_ft: float, square_ft: int) -> int:
    """The most squares ``n`` with ``n * square_ft <= radius_ft`` (-1: none, for a negative radius),
    found with the very comparison a square's distance is held to."""
    if not radius_ft >= 0:  # negative or NaN: no square is that close
        return -1
    if radius_ft > 1e15:  # past any grid
        return 1 << 50
    most = int(radius_ft // square_ft)
    while (most + 1) * square_ft <= radius_ft:
        most += 1
    while most >= 0 and most * square_ft > radius_ft:
        most -= 1
    return most
