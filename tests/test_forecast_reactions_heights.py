"""``forecast_reactions(e, moved=...)`` reads a moved creature at the height a move there leaves it.

A flier 30 ft up was read on the ground of its square: moved to the very square it hovers over, the
rally (heals within 15 ft of the fallen, heights counted) was foreseen healing it, though the real rally
did not. A walker still stands on the ground of its new square.
"""

from __future__ import annotations

from components.events import Healed
from game import Battle


def _rally() -> tuple[Battle, int, int, int]:
    b = Battle(seed=2, width=8, height=8)
    b.attach_reaction("rally.star")
    fallen = b.spawn("Fallen", 3, 3, team="a", health=5)
    flier = b.spawn("Flier", 4, 3, z=30, team="a", health=10, flying=True)
    walker = b.spawn("Walker", 7, 4, team="a", health=10)
    b.spawn("Foe", 7, 7, team="b")
    b.damage(flier, 5)
    b.damage(walker, 5)
    b.start_combat()
    b.tick()
    return b, fallen, flier, walker


def test_a_flier_moved_to_its_own_square_is_foreseen_as_where_it_is() -> None:
    b, fallen, flier, _ = _rally()
    assert flier not in b.forecast_reactions(fallen).healed
    assert flier not in b.forecast_reactions(fallen, moved={flier: (4, 3)}).healed
    assert flier not in b.forecast_reactions(fallen, moved={flier: (3, 4)}).healed  # 30 ft up there too
    assert b.forecast_move(flier, (3, 4)).z == 30.0
    b.damage(fallen, 10)
    b.tick()
    assert not any(isinstance(e, Healed) and e.entity == flier for e in b.events)


def test_a_walker_moved_within_the_rally_is_foreseen_healed() -> None:
    b, fallen, _, walker = _rally()
    assert walker not in b.forecast_reactions(fallen).healed  # (7, 4): 20 ft away
    assert b.forecast_reactions(fallen, moved={walker: (3, 4)}).healed == {walker: 2}
