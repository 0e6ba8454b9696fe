"""The level grid composed from counted, windowed masks equals the grid worked out whole.

The reference below is the plain definition (every light's field of view over the whole map, then
every area), so any drift of the windowed masks or the counts shows up as a differing square.
"""

from __future__ import annotations

import numpy as np
import pytest
import tcod.constants
import tcod.map
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from components import Area, Light, Rules, Terrain, Visibility
from components.powers import AreaShape, Power
from components.terrain import Blocks
from game import Battle, IllegalCommand
from systems.areas import area_squares
from systems.caches import MapCaches
from systems.geometry import within_radius
from systems.lighting import LevelCache
from systems.visibility import level_grid, lit_mask


def reference(terrain: Terrain, rules: Rules) -> np.ndarray:
    levels = np.full(terrain.walls.shape, int(terrain.ambient), dtype=np.int8)
    for light in terrain.lights.values():
        seen = tcod.map.compute_fov(~terrain.blocking(Blocks.LIGHT), (light.x, light.y),
                                    radius=int(light.radius_ft // rules.square_ft) + 1, light_walls=True,
                                    algorithm=tcod.constants.FOV_SYMMETRIC_SHADOWCAST)
        mask = seen & within_radius(terrain.walls.shape, (light.x, light.y), light.radius_ft, rules)
        np.maximum(levels, np.where(mask, np.int8(light.level), np.int8(0)), out=levels)
    for area in terrain.areas.values():
        mask = within_radius(terrain.walls.shape, (area.x, area.y), area.radius_ft, rules)
        np.minimum(levels, np.where(mask, np.int8(area.level), np.int8(Visibility.NORMAL)), out=levels)
    return levels


SIZE = st.integers(1, 24)
SOURCE = st.tuples(st.integers(0, 23), st.integers(0, 23), st.sampled_from([0.0, 5.0, 12.5, 30.0, 200.0]),
                   st.sampled_from(list(Visibility)), st.booleans())
STEP = st.one_of(st.tuples(st.just("add"), SOURCE), st.tuples(st.just("remove"), st.integers(0, 40)),
                 st.tuples(st.just("wall"), st.tuples(st.integers(0, 23), st.integers(0, 23))),
                 st.tuples(st.just("ambient"), st.sampled_from(list(Visibility))))


def _apply(terrain: Terrain, step: tuple[str, object]) -> None:
    kind, what = step
    if kind == "add":
        x, y, radius, level, is_light = what  # type: ignore[misc]
        x, y = x % terrain.width, y % terrain.height
        (terrain.add_light if is_light else terrain.add_area)(
            (Light if is_light else Area)(x, y, radius, level))  # type: ignore[operator]
    elif kind == "remove":
        held = [(terrain.lights, k) for k in terrain.lights] + [(terrain.areas, k) for k in terrain.areas]
        if held:
            table, key = held[int(what) % len(held)]  # type: ignore[call-overload]
            del table[key]
    elif kind == "wall":
        x, y = what  # type: ignore[misc]
        terrain.walls[x % terrain.width, y % terrain.height] ^= True
    else:
        terrain.ambient = what  # type: ignore[assignment]
    terrain.touch()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SIZE, SIZE, st.sampled_from(["one", "alternating"]), st.lists(STEP, max_size=25))
def test_counted_grid_is_the_whole_grid(width: int, height: int, diagonal: str, steps: list) -> None:
    rules = Rules(diagonal=diagonal)
    terrain = Terrain(width, height)
    cache = LevelCache(mask_bytes=256)  # small: masks are forgotten and worked out again
    for step in steps:
        _apply(terrain, step)
        assert np.array_equal(level_grid(terrain, rules, cache), reference(terrain, rules))


def test_one_cache_serves_two_maps_in_turn() -> None:
    """A simulation's battles share one owner: switching maps starts again, never mixes them."""
    rules, caches = Rules(), MapCaches()
    first, second = Terrain(12, 12), Terrain(12, 12)
    first.add_light(Light(2, 2, 20.0, Visibility.NORMAL))
    second.walls[5, :] = True
    second.ambient = Visibility.TERRIBLE
    second.add_light(Light(8, 8, 30.0, Visibility.POOR))
    for terrain in (first, second, first, second):
        terrain.touch()
        assert np.array_equal(level_grid(terrain, rules, caches.levels), reference(terrain, rules))
    caches.clear()
    assert not caches.levels.masks and caches.levels.lights is None


def test_lit_mask_is_the_whole_map_field_of_view() -> None:
    terrain = Terrain(40, 30)
    terrain.walls[10, 5:25] = True
    terrain.ambient = Visibility.NO_VISION
    terrain.add_light(Light(5, 15, 60.0, Visibility.NORMAL))
    expected = reference(terrain, Rules()) == Visibility.NORMAL
    mask = lit_mask(terrain, 5, 15, 60.0, Rules())
    assert mask.shape == (40, 30) and mask[5, 15] and not mask[20, 15]
    assert np.array_equal(mask, expected)


AREA = st.one_of(st.builds(lambda r: AreaShape("burst", radius_ft=r), st.sampled_from([5.0, 10.0, 22.5, 400.0])),
                 st.builds(lambda n: AreaShape("cone", length_ft=n), st.sampled_from([5.0, 15.0, 60.0])),
                 st.builds(lambda n, w: AreaShape("line", length_ft=n, width_ft=w),
                           st.sampled_from([10.0, 30.0, 100.0]), st.sampled_from([5.0, 10.0, 15.0])))


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 30), st.integers(3, 30), AREA, st.integers(0, 29), st.integers(0, 29), st.integers(0, 29),
       st.integers(0, 29), st.lists(st.tuples(st.integers(0, 29), st.integers(0, 29)), max_size=60))
def test_area_squares_are_those_the_whole_map_view_gives(width: int, height: int, area: AreaShape, ox: int, oy: int,
                                                         px: int, py: int, walls: list) -> None:
    """Squares worked out in the area's box are the squares of the open map's shape that the
    centre sees over the whole blocked map."""
    power = Power("p", "P", "", range_ft=1000.0, area=area)
    origin, point = (ox % width, oy % height), (px % width, py % height)
    with Battle(seed=1, width=width, height=height) as open_map, Battle(seed=1, width=width, height=height) as walled:
        shape = set(area_squares(open_map.state, power, origin, point))
        if area.shape == "burst":  # the box holds the whole radius
            whole = within_radius((width, height), point, area.radius_ft, Rules())
            assert shape == {(int(x), int(y)) for x, y in zip(*np.nonzero(whole))}
        for x, y in walls:
            if (x % width, y % height) != point:
                walled.add_wall(x % width, y % height)
        stops = walled.state.terrain.blocking(Blocks.AREAS)
        seen = tcod.map.compute_fov(~stops, point, radius=0, light_walls=False,
                                    algorithm=tcod.constants.FOV_SYMMETRIC_SHADOWCAST)
        expected = sorted(s for s in shape if seen[s] and not stops[s])
        assert area_squares(walled.state, power, origin, point) == expected


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 30), st.integers(1, 30), st.integers(-3, 32), st.integers(-3, 32),
       st.one_of(st.floats(-10, 400), st.sampled_from([0.0, 5.0, 7.5, 10.0, 14.999999, 15.0, 1e9])),
       st.integers(1, 100), st.sampled_from(["one", "alternating"]))
def test_within_radius_is_distance_times_square_size_at_most_the_radius(w: int, h: int, cx: int, cy: int,
                                                                        radius: float, square: int,
                                                                        diagonal: str) -> None:
    rules = Rules(square_ft=square, diagonal=diagonal, speed_ft=max(30, square))
    xs = np.abs(np.arange(w) - cx)[:, None]
    ys = np.abs(np.arange(h) - cy)[None, :]
    squares = np.maximum(xs, ys) + (np.minimum(xs, ys) // 2 if diagonal == "alternating" else 0)
    assert np.array_equal(within_radius((w, h), (cx, cy), radius, rules), squares * square <= radius)


@pytest.mark.parametrize(("power", "kind"), [("darkness", "area"), ("light", "light")])
def test_the_gm_cannot_take_off_a_light_or_area_a_power_made_only_one_it_placed(power: str, kind: str) -> None:
    """remove_light and remove_area take off what add_light and add_area made. A power's light or
    darkness goes when its effect ends (no one ends a power early unless it says so); taken off by
    hand, the effect went on listing it and ended it again later."""
    b = Battle(seed=1, width=12, height=6)
    mage = b.spawn("Mage", 1, 1, team="x", powers=[power])
    b.spawn("Orc", 8, 1, team="y")
    placed = b.add_light(5, 5, 5) if kind == "light" else b.add_area(5, 5, 5)
    b.use_power(mage, power, point=(6, 1))
    b.tick()
    held = b.terrain.lights if kind == "light" else b.terrain.areas
    [made] = [i for i in held if i != placed]
    remove = b.remove_light if kind == "light" else b.remove_area
    with pytest.raises(IllegalCommand, match=rf"{kind} {made} is part of effect \d+ \({power}, used by Mage"):
        remove(made)
    assert made in held and len(b.effects()) == 1  # nothing changed
    remove(placed)
    assert placed not in held
