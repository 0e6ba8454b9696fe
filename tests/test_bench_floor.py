"""The floor's side is built from the bench's roster and the shipped powers (it copied their numbers):
the same numbers it always rolled, so its printed figures stay comparable."""

from __future__ import annotations

from bench.floor import SIDE


def test_the_floor_rolls_the_numbers_it_always_did() -> None:
    assert SIDE == (
        ("fighter", 16, 15, 5, 2, 1, 8, 2, 0),   # strike 1d8+2
        ("archer", 10, 12, 4, 1, 1, 6, 1, 2),    # shoot 1d6+1
        ("mage", 9, 11, 3, 1, 2, 6, 0, 1),       # chain lightning's bolt, 2d6 at +1
        ("priest", 12, 13, 3, 2, 1, 8, 2, 0),    # strike 1d8+2
    )
