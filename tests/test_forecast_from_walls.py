"""A forecast is asked from a square its user could stand on: one from inside a wall, or from terrain that
blocks it as a move there would (a portcullis for a walker; a flier is stopped only by what blocks
fliers), is refused with an error saying so, as one off the grid is (it used to answer as if the user
stood in the wall, so a blow struck from the wall beside a target read as legal, where no move could
ever put it)."""

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


def test_a_forecast_from_terrain_that_blocks_its_walking_user_is_refused_as_spawn_and_moves_are():
    """A portcullis (``blocks=["movement"]``) beside the orc: spawn and every move refuse it, and a strike
    forecast from it read as legal."""
    b = Battle(seed=5, width=12, height=6)
    archer = b.spawn("Archer", 1, 1, team="x", powers=["strike"], health=20)
    bat = b.spawn("Bat", 1, 3, team="x", powers=["strike"], health=20, flying=True)
    orc = b.spawn("Orc", 5, 1, team="y", health=20)
    b.set_terrain(5, 2, blocks=["movement"])
    b.set_terrain(6, 2, blocks=["fliers"])
    b.start_combat()
    assert not b.forecast_move(archer, (5, 2)).legal
    with pytest.raises(IllegalCommand, match=r"from_square \(5, 2\) is terrain that blocks its user"):
        b.forecast(archer, "strike", target=orc, from_square=(5, 2))
    with pytest.raises(IllegalCommand, match=r"from_square \(5, 2\) is terrain that blocks its user"):
        b.forecast_many(archer, (5, 2), [("strike", {"target": orc})])
    with pytest.raises(IllegalCommand, match=r"from_square \(5, 2\) is terrain that blocks its user"):
        b.outcomes_many(archer, (5, 2), [("strike", {"target": orc})])
    # a flier goes over the portcullis, as its moves do, but not where fliers are stopped
    assert b.forecast_move(bat, (5, 2)).legal and not b.forecast_move(bat, (6, 2)).legal
    assert b.forecast(bat, "strike", target=orc, from_square=(5, 2)).legal
    assert b.outcomes_many(bat, (5, 2), [("strike", {"target": orc})])[0].legal
    with pytest.raises(IllegalCommand, match=r"from_square \(6, 2\) is terrain that blocks its user"):
        b.forecast(bat, "strike", target=orc, from_square=(6, 2))
    with pytest.raises(IllegalCommand, match=r"from_square \(6, 2\) is terrain that blocks its user"):
        b.forecast_uses(bat, (6, 2))


def test_the_square_its_user_stands_on_is_still_forecast_from_whatever_came_to_block_it():
    """Terrain that stops fliers may be set under a flier hovering there (only movement is refused on
    a creature's square): its own square is still one it stands on, so a planner's ask answers."""
    b = Battle(seed=5, width=12, height=6)
    bat = b.spawn("Bat", 4, 1, team="x", powers=["strike"], health=20, flying=True)
    orc = b.spawn("Orc", 5, 1, team="y", health=20)
    b.set_terrain(4, 1, blocks=["fliers"])
    b.start_combat()
    assert [f.target for f in b.forecast_uses(bat)] == [orc]
    assert b.forecast(bat, "strike", target=orc, from_square=(4, 1)).legal
