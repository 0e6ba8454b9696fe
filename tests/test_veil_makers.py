"""``Battle.veil_makers``: the lights and areas uses of powers made, with their makers and centres, the
one answer a side's fog reads (the window read the battle's effects and the map's lists itself)."""

from __future__ import annotations

from components import Visibility
from game import Battle


def test_the_lights_and_areas_powers_made_with_their_makers_not_the_maps_own() -> None:
    b = Battle(seed=3, width=12, height=6)
    mage = b.spawn("Mage", 1, 2, team="blue", powers=["darkness"], initiative_bonus=50)
    priest = b.spawn("Priest", 9, 3, team="red", powers=["sanctuary-light"])
    b.add_light(5, 5, 10, Visibility.NORMAL)  # the GM's: every side knows it
    b.start_combat()
    b.begin_round()
    b.use_power(mage, "darkness", point=(8, 1))
    b.end_turn()
    b.use_power(priest, "sanctuary-light")
    b.end_turn()
    made = b.veil_makers()
    assert sorted(made.values()) == [(mage, (8, 1)), (priest, (9, 3))]
    assert {kind for kind, _ in made} == {"area", "light"}
    assert all(b.terrain.lights[i].source == "map" for i in b.terrain.lights if ("light", i) not in made)
