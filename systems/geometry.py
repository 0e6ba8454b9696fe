"""Grid distances under the rules' diagonal rule, for one pair or for a whole grid at once."""

from __future__ import annotations

import math

import numpy as np

from components import Rules


def distance_squares(dx: int, dy: int, rules: Rules) -> int:
    """Squares between two squares ``dx``, ``dy`` apart: a diagonal is one square, or 5-10-5."""
    ax, ay = abs(dx), abs(dy)
    if rules.diagonal == "one":
        return max(ax, ay)
    return max(ax, ay) + min(ax, ay) // 2


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
    across = distance_ft(a, b, rules)
    up = abs(float(a_z) - float(b_z))
    if up == 0:
        return float(across)
    if rules.height_distance == "larger":
        return max(float(across), up)
    return math.hypot(across, up)


def within_radius(shape: tuple[int, int], centre: tuple[int, int], radius_ft: float, rules: Rules) -> np.ndarray:
    """Boolean ``[x, y]`` mask of the squares within ``radius_ft`` of ``centre``."""
    most = _most_squares(radius_ft, rules.square_ft)
    xs = np.abs(np.arange(shape[0], dtype=np.int32) - centre[0])
    ys = np.abs(np.arange(shape[1], dtype=np.int32) - centre[1])
    if rules.diagonal == "one":  # max(dx, dy) <= most: within along both axes at once
        inside: np.ndarray = np.logical_and.outer(xs <= most, ys <= most)
        return inside
    squares = np.maximum(xs[:, None], ys[None, :]) + np.minimum(xs[:, None], ys[None, :]) // 2
    within: np.ndarray = squares <= most
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
