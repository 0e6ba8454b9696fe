"""How much a drop hurts: the dice of a fall and their odds, for one drop and for a whole map's steps.

Apart from :mod:`systems.falling` (the processor that drops and lands creatures) because the walk,
the path search and the planners ask it too, and the path search sits below the battle's state.
"""

from __future__ import annotations

import math

import numpy as np

from components import Rules
from components.forecasts import Distribution, FallOdds
from systems.odds import sum_of_dice


def fall_dice(distance_ft: float, soft: bool, rules: Rules) -> int:
    """Dice for a fall: one per full ``fall_ft_per_die`` (10 ft), capped, then halved on a soft landing.

    The cap comes first and the halving after, so 1,200 ft into water is 50 dice halved to 25.
    """
    dice = min(int(distance_ft // rules.fall_ft_per_die), rules.fall_max_dice)
    if soft:
        dice //= rules.soft_landing_divisor
    return dice


def steps_off(drop_ft: float, soft: bool, room_ft: float, rules: Rules) -> bool:
    """Whether a walker stepping down ``drop_ft`` onto a square steps off a ledge there (and falls)
    rather than walking on: a drop past the fall the round has left it (``room_ft``), or one whose
    fall would roll a die (onto ``soft`` ground, halved). The walk's rule, and what a search for the
    squares a walk reaches asks of it."""
    return drop_ft > 0 and (drop_ft > room_ft or fall_dice(drop_ft, soft, rules) > 0)


def steps_off_from_ft(room_ft: float, rules: Rules) -> float:
    """A drop shorter than this never steps off (:func:`steps_off` says False: no die on hard ground,
    none softer, and within ``room_ft``): what a planner holds a drop against before asking it."""
    return min(least_hurtful_drop_ft(rules), room_ft)


def least_hurtful_drop_ft(rules: Rules) -> float:
    """The shortest fall that deals any damage on hard ground (infinite when no fall does): what a
    planner holds a drop against before it asks for the fall's odds."""
    return float(rules.fall_ft_per_die) if rules.fall_max_dice > 0 else math.inf


def fall_dice_many(drops_ft: np.ndarray, soft: np.ndarray, rules: Rules) -> np.ndarray:
    """:func:`fall_dice` for every square at once: ``drops_ft`` and ``soft`` are same-shaped arrays
    (a rise is a negative drop: no dice)."""
    dice = np.clip(drops_ft // rules.fall_ft_per_die, 0, rules.fall_max_dice)  # (a rise's floor is below 0)
    halved: np.ndarray = np.where(soft, dice // rules.soft_landing_divisor, dice)
    return halved


def fall_odds(distance_ft: float, soft: bool, rules: Rules) -> FallOdds:
    """The damage a fall of ``distance_ft`` would do, exactly: what ``FallingSystem`` rolls."""
    dice = fall_dice(distance_ft, soft, rules)
    chances = sum_of_dice(dice, rules.fall_die_sides)
    return FallOdds(distance_ft, soft, dice, Distribution.of({t: float(p) for t, p in enumerate(chances)}),
                    rules.fall_die_sides)
