"""A power's point is checked as every other square is: a pair (a tuple, list or array of two), and a
refusal says what was given.

``use_power`` and ``forecast`` refused a numpy pair that ``squares_in_area``, ``area_reached`` and
``made_squares`` took for the same point, and named a point of ``5`` as "(5, None)": a None the caller
never gave.
"""

from __future__ import annotations

import numpy as np
import pytest

from game import Battle, IllegalCommand


def _battle() -> tuple[Battle, int]:
    b = Battle(seed=1, width=10, height=4)
    mage = b.spawn("Mage", 0, 0, team="x", powers=["fireball"])
    b.spawn("Orc", 9, 3, team="y")
    b.start_combat()
    return b, mage


@pytest.mark.parametrize("point, said", [
    (5, r"point must be a square \(x, y\), not 5$"),
    ("a3", r"point must be a square \(x, y\), not 'a3'$"),
    ((1,), r"point must be a square \(x, y\), not \(1,\)$"),
    ((1, 2, 3), r"point must be a square \(x, y\), not \(1, 2, 3\)$"),
    ((20, 1), r"point \(20, 1\) is off the 10x4 grid"),
])
def test_a_bad_point_is_named_as_given(point: object, said: str) -> None:
    b, mage = _battle()
    for call in (lambda: b.use_power(mage, "fireball", point=point), lambda: b.forecast(mage, "fireball", point=point)):
        with pytest.raises(IllegalCommand, match=said):
            call()


def test_a_numpy_pair_is_a_point_to_every_call() -> None:
    b, mage = _battle()
    point = np.array([6, 2])
    assert b.squares_in_area("fireball", mage, point) == b.squares_in_area("fireball", mage, (6, 2))
    assert b.forecast(mage, "fireball", point=point) == b.forecast(mage, "fireball", point=(6, 2))
    b.use_power(mage, "fireball", point=point)
    assert b.command_log[-1] == ("use_power", (mage, "fireball"), {"point": [6, 2]})
