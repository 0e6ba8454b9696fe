"""A forecast is asked from a square its user could stand on: one from inside a wall is refused with
an error saying so, as one off the grid is (it used to answer as if the user stood in the wall, so a
blow struck from the wall beside a target read as legal, where no move could ever put it)."""

from __future__ import annotations

import pytest

from game import Battle, IllegalCommand


def _walled() -> tuple[Battle, int, int]:
    b = Battle(seed=5, width=12, height=6)
    archer = b.spawn("Archer", 1, 1, team="x", powers=["strike", "shoot"], health=20)
    orc = b.spawn("Orc", 5, 1, team="y", health=20)
    b.add_wall(5, 2)  # beside the orc
    b.start_combat()
    return b, archer, orc


def test_a_forecast_from_a_wall_is_refused_naming_the_square():
    b, archer, orc = _walled()
    with pytest.raises(IllegalCommand, match=r"from_square \(5, 2\) is a wall: no creature stands there"):
        b.forecast(archer, "strike", target=orc, from_square=(5, 2))
    with pytest.raises(IllegalCommand, match=r"from_square \(5, 2\) is a wall"):
        b.forecast_many(archer, (5, 2), [("strike", {"target": orc})])
    with pytest.raises(IllegalCommand, match=r"from_square \(5, 2\) is a wall"):
        b.forecast_uses(archer, (5, 2))
    with pytest.raises(IllegalCommand, match=r"from_square \(5, 2\) is a wall"):
        b.outcomes_many(archer, (5, 2), [("strike", {"target": orc})])


def test_a_forecast_from_beside_the_wall_still_answers():
    b, archer, orc = _walled()
    forecast = b.forecast(archer, "strike", target=orc, from_square=(4, 1))
    assert forecast.legal and [t.target for t in forecast.targets] == [orc]
    assert b.outcomes_many(archer, (4, 1), [("strike", {"target": orc})])[0].legal
