"""Exact odds of the rules' dice: a d20 under a roll mode, and the sum of a handful of dice.

The forecasts enumerate with these the very rolls the systems make with ``roll_die`` and
``Dice.roll``, so a hit chance or a damage distribution is exact, never sampled.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from types import MappingProxyType

import numpy as np

from components.dice import Dice

#: Above this many outcomes a sum of dice is worked out by FFT rather than by direct convolution.
_DIRECT_LIMIT = 4096


def face_chances(sides: int, mode: str) -> np.ndarray:
    """P(the die shows face f) for f = 1..sides under ``mode`` (index 0 is face 1).

    With advantage the higher of two rolls counts, with disadvantage the lower; normal and critical
    failure roll once (a critical failure is decided by the mode, not by the face).
    """
    faces = np.arange(1, sides + 1, dtype=np.float64)
    if mode == "advantage":
        return (faces**2 - (faces - 1) ** 2) / sides**2
    if mode == "disadvantage":
        return ((sides - faces + 1) ** 2 - (sides - faces) ** 2) / sides**2
    return np.full(sides, 1.0 / sides)


#: The d20's face chances under each mode, worked out once: a forecast asks for them for every target
#: it weighs (an immutable table, the same floats ``face_chances`` gives, in face order).
_D20: Mapping[str, tuple[float, ...]] = MappingProxyType({
    mode: tuple(float(p) for p in face_chances(20, mode))
    for mode in ("normal", "advantage", "disadvantage", "critical failure")
})


def _tails(chances: tuple[float, ...]) -> tuple[float, ...]:
    """P(face >= k) for k = 0..sides+1, each summed over the faces in rising order, as :func:`chance`
    sums them (so the two give the very same float), a sum past 1 by rounding held at 1."""
    found = []
    for k in range(len(chances) + 2):
        total = 0.0
        for face, p in enumerate(chances, start=1):
            if face >= k:
                total += p
        found.append(total if total < 1.0 else 1.0)
    return tuple(found)


#: The d20's P(face >= k) under each mode, k = 0..21: an attack hits on one threshold.
_D20_TAILS: Mapping[str, tuple[float, ...]] = MappingProxyType({mode: _tails(t) for mode, t in _D20.items()})


#: The last index of every table of ``_D20_TAILS`` (P(face >= 21), which is 0).
_LAST_FACE_PAST = len(_D20_TAILS["normal"]) - 1


def chance_at_least(mode: str, needed: int) -> float:
    """P(a d20 under ``mode`` shows ``needed`` or more): exactly ``chance(20, mode, lambda f: f >= needed)``."""
    tails = _D20_TAILS[mode]
    # clamped to the table (0..21) by comparisons: CPython 3.11's min and max cost about a thousand
    # instructions a call, and the planner asks this a few hundred times a battle
    return tails[needed if 0 <= needed <= _LAST_FACE_PAST else 0 if needed < 0 else _LAST_FACE_PAST]


def chance(sides: int, mode: str, succeeds: Callable[[int], bool]) -> float:
    """P(a roll of one die under ``mode`` succeeds), ``succeeds(face)`` being the rule's own test."""
    table = _D20.get(mode) if sides == 20 else None
    chances = table if table is not None else tuple(float(p) for p in face_chances(sides, mode))
    total = 0.0
    for face, p in enumerate(chances, start=1):
        if succeeds(face):
            total += p
    return total if total < 1.0 else 1.0  # twenty 0.05s add up to 1.0000000000000002


def sum_of_dice(count: int, sides: int) -> np.ndarray:
    """P(total = t) for t = 0..count*sides of ``count`` dice of ``sides`` sides (exact up to rounding)."""
    if count <= 0 or sides <= 0:
        return np.array([1.0])
    die = np.zeros(sides + 1)
    die[1:] = 1.0 / sides
    size = count * sides + 1
    if size <= _DIRECT_LIMIT:
        total = np.array([1.0])
        for _ in range(count):
            total = np.convolve(total, die)
        return total
    length = 1 << (size - 1).bit_length()
    spectrum = np.fft.rfft(die, length) ** count
    clipped: np.ndarray = np.clip(np.fft.irfft(spectrum, length)[:size], 0.0, None)
    normalised: np.ndarray = clipped / clipped.sum()
    return normalised


def dice_outcomes(dice: Dice) -> dict[int, float]:
    """P(``dice.roll`` = v) for every value v it can give, the floor at 0 included."""
    sums = sum_of_dice(dice.count, dice.sides)
    found: dict[int, float] = {}
    for total, p in enumerate(sums):
        if p > 0:
            value = max(0, total + dice.bonus)
            found[value] = found.get(value, 0.0) + float(p)
    return found


def mixture(branches: list[tuple[float, dict[int, float]]]) -> dict[int, float]:
    """A mixture of outcome distributions, each branch with its weight (a branch of weight 0 adds none)."""
    total: dict[int, float] = defaultdict(float)
    for weight, outcomes in branches:
        if weight > 0:
            for value, p in outcomes.items():
                total[value] += weight * p
    return dict(total)


def sum_of(a: dict[int, float], b: dict[int, float]) -> dict[int, float]:
    """The distribution of the sum of two independent outcomes (a hit's damage and its landing's)."""
    total: dict[int, float] = defaultdict(float)
    for va, pa in a.items():
        for vb, pb in b.items():
            total[va + vb] += pa * pb
    return dict(total)
