"""The documented limits of a scenario: the loader takes one at each limit and refuses one just past,
with one line naming the file, the key and the allowed range (docs/limits.md has what they cost).
"""

from __future__ import annotations

import pytest

from components.terrain import MAX_LIGHTS, MAX_LIT_SQUARES, MAX_RADIUS_FT, reach_squares
from game.content.scenario import ScenarioError, load_scenario_text
from game.content.scenario_parse import MAX_CREATURES, MAX_MAP_SIDE


def scenario(side: int, lights: int = 0, areas: int = 0, radius_ft: float = MAX_RADIUS_FT, creatures: int = 2,
             rules: str = "") -> str:
    """A ``side`` x ``side`` open map with lights and areas on its diagonal and creatures in its first rows."""
    out = ['name = "limits"', "[map]", "rows = ["] + [f'  "{"." * side}",' for _ in range(side)]
    out += ["]", "[map.legend]", '"." = { ground = 0 }', "[teams.red]", "[teams.blue]"]
    if rules:
        out += ["[rules]", rules]
    for section, count in (("lights", lights), ("areas", areas)):
        for i in range(count):
            out += [f"[[{section}]]", f"x = {i % side}", f"y = {i % side}", f"radius_ft = {radius_ft}"]
    for i in range(creatures):
        out += ["[[creatures]]", f'key = "c{i}"', f'team = "{"red" if i % 2 else "blue"}"',
                f"x = {i % side}", f"y = {i // side}"]
    return "\n".join(out) + "\n"


def refusal(text: str) -> str:
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(text, "big.toml")
    message = str(caught.value)
    assert message.startswith("big.toml: ") and "\n" not in message
    return message


def test_reach_squares_is_the_box_a_radius_spans_at_most_the_map() -> None:
    assert reach_squares(100, 100, 0.0, 5) == 9  # its square and one more each way
    assert reach_squares(100, 100, 20.0, 5) == 11 * 11
    assert reach_squares(100, 40, 20.0, 5) == 11 * 11
    assert reach_squares(8, 100, 20.0, 5) == 8 * 11
    assert reach_squares(1024, 1024, MAX_RADIUS_FT, 5) == 1024 * 1024
    assert reach_squares(1024, 1024, MAX_RADIUS_FT, 100) == 203 * 203


def test_the_most_creatures_load_and_one_more_is_refused() -> None:
    assert len(load_scenario_text(scenario(32, creatures=MAX_CREATURES), "big.toml").creatures) == MAX_CREATURES
    message = refusal(scenario(32, creatures=MAX_CREATURES + 1))
    assert f"creatures: {MAX_CREATURES + 1} entries; expected 2..{MAX_CREATURES} creatures" in message


def test_the_largest_map_with_as_many_full_lights_as_the_budget_takes_loads_and_one_more_is_refused() -> None:
    side = MAX_MAP_SIDE
    most = MAX_LIT_SQUARES // (side * side)
    loaded = load_scenario_text(scenario(side, lights=most), "big.toml")
    assert (loaded.width, len(loaded.lights)) == (side, most)
    message = refusal(scenario(side, lights=most + 1))
    assert f"lights: {most + 1} lights and 0 areas on a {side}x{side} map reach" in message
    assert f"expected 0..{MAX_LIT_SQUARES:,}" in message


def test_the_most_lights_of_the_largest_radius_load_on_the_largest_map_the_budget_allows() -> None:
    side = 512
    assert MAX_LIGHTS * side * side == MAX_LIT_SQUARES
    assert len(load_scenario_text(scenario(side, lights=MAX_LIGHTS), "big.toml").lights) == MAX_LIGHTS
    message = refusal(scenario(side, lights=MAX_LIGHTS, areas=1, radius_ft=MAX_RADIUS_FT))
    assert "lights, areas: 512 lights and 1 areas on a 512x512 map reach" in message


def test_the_budget_counts_squares_of_the_scenarios_own_size() -> None:
    """Big squares (rules.square_ft) make a radius of feet fewer squares: the same lights fit."""
    side, most = MAX_MAP_SIDE, MAX_LIT_SQUARES // (MAX_MAP_SIDE * MAX_MAP_SIDE)
    refusal(scenario(side, areas=most + 1))
    loaded = load_scenario_text(scenario(side, areas=most + 1, rules="square_ft = 100\nspeed_ft = 100"), "big.toml")
    assert len(loaded.areas) == most + 1


def test_torches_by_the_hundred_fit_the_largest_map() -> None:
    loaded = load_scenario_text(scenario(MAX_MAP_SIDE, lights=MAX_LIGHTS, areas=MAX_LIGHTS, radius_ft=30.0),
                                "big.toml")
    assert len(loaded.lights) == len(loaded.areas) == MAX_LIGHTS


def test_a_large_map_takes_fewer_creatures() -> None:
    from game.content.scenario_parse import MAX_CREATURES_LARGE

    assert len(load_scenario_text(scenario(600, creatures=MAX_CREATURES_LARGE), "big.toml").creatures) == 25
    message = refusal(scenario(600, creatures=MAX_CREATURES_LARGE + 1))
    assert f"expected 2..{MAX_CREATURES_LARGE} creatures on a 600x600 map" in message
