"""A file's dice and a developer's hand-made ``Dice`` are held to one range.

``Dice.parse`` reads a file's notation; ``Dice(...)`` built in Python never passes through it, and the
battle checks a hand-made power's dice with ``Dice.range_problem``. The two once spelt the range each
their own way and disagreed at "0d0" (refused in a file, taken by hand as "no dice").
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from components.dice import MAX_BONUS, MAX_DICE, MAX_SIDES, Dice
from components.powers import Power
from game.battle.power_fields import field_problem

NEAR_EDGES = st.sampled_from([0, 1, 2, 999, 1000, 1001, 5000])


@given(count=NEAR_EDGES, sides=NEAR_EDGES, bonus=st.integers(-MAX_BONUS - 2, MAX_BONUS + 2))
def test_a_notation_parses_exactly_when_its_dice_are_in_range(count: int, sides: int, bonus: int) -> None:
    notation = f"{count}d{sides}{bonus:+d}"
    try:
        parsed = Dice.parse(notation)
    except ValueError:
        parsed = None
    in_range = Dice(count, sides, bonus).range_problem() is None
    assert (parsed is not None) == in_range, notation
    if parsed is not None:
        assert parsed == Dice(count, sides, bonus)


@given(count=NEAR_EDGES, sides=NEAR_EDGES)
def test_a_hand_made_power_takes_the_dice_a_file_may_hold(count: int, sides: int) -> None:
    dice = Dice(count, sides, 3)  # a bonus of 3, so every in-range roll can roll more than 0
    problem = field_problem(Power("nova", "Nova", "A burst.", damage=dice))
    try:
        Dice.parse(f"{count}d{sides}+3")
    except ValueError as refused:
        assert problem is not None and "1..1000 sides" in problem, refused
    else:
        assert problem is None


@pytest.mark.parametrize("dice", [Dice(1.5, 6), Dice(True, 6), Dice(1, 6, "2")])  # type: ignore[arg-type]
def test_dice_of_other_than_whole_numbers_are_out_of_range(dice: Dice) -> None:
    assert dice.range_problem() == (f"at most {MAX_DICE} dice of 1..{MAX_SIDES} sides and a bonus "
                                    f"within ±{MAX_BONUS}")
