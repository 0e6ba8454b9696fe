"""``components.dice.die`` draws from a generator exactly as ``random.Random.randint(1, sides)`` does."""

from __future__ import annotations

import random

import pytest

from components.dice import Dice, die


@pytest.mark.parametrize("sides", [1, 2, 3, 4, 6, 7, 8, 10, 12, 20, 63, 64, 65, 100, 1000])
def test_a_die_is_randint_draw_for_draw(sides: int) -> None:
    for seed in range(20):
        ours, theirs = random.Random(seed), random.Random(seed)
        assert [die(ours, sides) for _ in range(200)] == [theirs.randint(1, sides) for _ in range(200)]
        assert ours.getstate() == theirs.getstate()


def test_another_kind_of_generator_is_asked_the_long_way() -> None:
    class Fixed(random.Random):
        def random(self) -> float:
            return 0.5

    assert die(Fixed(1), 20) == Fixed(1).randint(1, 20)
    with pytest.raises(ValueError, match="empty range"):
        die(random.Random(1), 0)


def test_dice_roll_as_they_did() -> None:
    for text in ("2d6+3", "d20", "1d4-1", "5", "50d6"):
        dice = Dice.parse(text)
        ours, theirs = random.Random(text), random.Random(text)
        expected = max(0, sum(theirs.randint(1, dice.sides) for _ in range(dice.count)) + dice.bonus)
        assert dice.roll(ours) == expected and ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("spelt", ["２d６", "1d٤", "٣"])
def test_dice_are_written_in_ascii_digits(spelt: str) -> None:
    """Other scripts' digits are digits to Python's regex; a die is one spelling only ("２d６" read as 2d6)."""
    with pytest.raises(ValueError, match="dice must be written like"):
        Dice.parse(spelt)
