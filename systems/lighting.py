"""The level grid built from its parts: each light's and area's squares worked out once, counted.

A square's level is the ambient level raised to the best light reaching it, then lowered to the
worst area covering it (:mod:`systems.visibility`). Worked out from scratch, every light lit (a
scenario's build lights them one by one, a power lights one mid-battle) costs every light's field
of view over the whole map again. Here instead:

* a light's field of view is computed in the box its radius reaches, not over the whole map
  (shadowcasting outward from the light never looks past the radius), and kept per (layout of
  walls, rules, square, radius) by :class:`LevelCache`, so a light put out and lit again, or the
  same map in the next battle of a simulation, costs nothing;
* for each level, a count of how many lights (and areas) of that level cover each square is kept,
  so lighting or putting out one light adds or subtracts its own squares and re-derives the levels
  inside its box only.

Max and min do not care about order, so the grid is exactly the one the full recomputation gives.
The owner is a battle's :class:`~systems.caches.MapCaches` (shared by the battles a simulation
builds on one map); nothing here is module state.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import tcod.constants
import tcod.map

from components import Area, Light, Rules, Terrain, Visibility
from components.terrain import Blocks
from systems.geometry import within_radius

_FOV = tcod.constants.FOV_SYMMETRIC_SHADOWCAST
_LEVELS = len(Visibility)

#: A light or an area as the grid sees it: (x, y, radius_ft, level).
Source = tuple[int, int, float, int]
Box = tuple[slice, slice]


def reach_box(shape: tuple[int, int], centre: tuple[int, int], reach: int) -> Box:
    """The squares at most ``reach`` squares from ``centre`` along each axis, clipped to the map."""
    x, y = centre
    return (slice(max(0, x - reach), min(shape[0], x + reach + 1)),
            slice(max(0, y - reach), min(shape[1], y + reach + 1)))


def lit_window(light_stops: np.ndarray, x: int, y: int, radius_ft: float, rules: Rules) -> tuple[Box, np.ndarray]:
    """A light's squares inside the box its radius reaches: within the radius and in its view.

    The same squares as a field of view over the whole map: every square within the radius is
    inside the box, and shadowcasting decides a square only from the squares nearer the light.
    """
    radius_squares = int(radius_ft // rules.square_ft) + 1
    box = reach_box(light_stops.shape, (x, y), radius_squares)
    centre = (x - box[0].start, y - box[1].start)
    clear = ~light_stops[box]
    seen: np.ndarray = tcod.map.compute_fov(clear, centre, radius=radius_squares, light_walls=True, algorithm=_FOV)
    return box, seen & within_radius(clear.shape, centre, radius_ft, rules)


def area_window(shape: tuple[int, int], x: int, y: int, radius_ft: float, rules: Rules) -> tuple[Box, np.ndarray]:
    """An area's squares (within its radius; walls do not stop fog) inside the box it reaches."""
    box = reach_box(shape, (x, y), int(radius_ft // rules.square_ft) + 1)
    size = (box[0].stop - box[0].start, box[1].stop - box[1].start)
    return box, within_radius(size, (x - box[0].start, y - box[1].start), radius_ft, rules)


@dataclass
class _Layer:
    """Per level, how many sources cover each square; and the level they make, square by square."""

    key: tuple[Any, ...]
    counts: np.ndarray
    made: np.ndarray
    held: Counter[Source] = field(default_factory=Counter)
    generation: int = 0


class LevelCache:
    """Light masks kept per layout, and the counts behind the last level grid it composed.

    Args:
        mask_bytes: how many bytes of light masks to keep (least recently used go first).
    """

    def __init__(self, mask_bytes: int = 64 << 20) -> None:
        self.mask_bytes = mask_bytes
        self.masks: OrderedDict[tuple[Any, ...], tuple[Box, np.ndarray]] = OrderedDict()
        self.kept_bytes = 0
        self.lights: _Layer | None = None
        self.areas: _Layer | None = None
        self.made: tuple[tuple[int, int], np.ndarray] | None = None
        self.generations = 0  # numbers each state of a layer, so that a grid is never mistaken for another's

    def clear(self) -> None:
        """Forget every mask and count."""
        self.masks.clear()
        self.kept_bytes = 0
        self.lights = self.areas = None
        self.made = None

    def light_mask(self, terrain: Terrain, rules: Rules, source: Source) -> tuple[Box, np.ndarray]:
        """The squares one light reaches (its box and the mask inside it), kept per layout."""
        key = (terrain.layout_key(), rules.square_ft, rules.diagonal, *source[:3])
        found = self.masks.get(key)
        if found is not None:
            self.masks.move_to_end(key)
            return found
        found = lit_window(terrain.blocking(Blocks.LIGHT), source[0], source[1], source[2], rules)
        found[1].flags.writeable = False
        self.masks[key] = found
        self.kept_bytes += found[1].nbytes
        while self.kept_bytes > self.mask_bytes and len(self.masks) > 1:
            self.kept_bytes -= self.masks.popitem(last=False)[1][1].nbytes
        return found

    def level_grid(self, terrain: Terrain, rules: Rules) -> np.ndarray:
        """The level of every square (``[x, y]`` int8 of ``Visibility``, read-only), the same as working
        it out whole.

        Only the lights and areas that came or went since the last grid it composed are counted in
        or out, and only their boxes re-derived; a change of rules, map size or ambient level (or of
        the walls, while lights are lit) starts again. When nothing that decides the grid changed
        (a wall put down on an unlit map, ground raised) the last grid is handed back as it is.
        """
        shape = terrain.walls.shape
        rules_key = (shape, rules.square_ft, rules.diagonal)
        lights: Counter[Source] = _sources(terrain.lights.values())
        areas: Counter[Source] = _sources(terrain.areas.values())
        lit = lights or (self.lights is not None and self.lights.held)
        light_key = (*rules_key, int(terrain.ambient), terrain.layout_key() if lit else None)
        self.lights = self._update(self.lights, light_key, lights, int(terrain.ambient), True,
                                   lambda s: self.light_mask(terrain, rules, s))
        self.areas = self._update(self.areas, rules_key, areas, int(Visibility.NORMAL), False,
                                  lambda s: area_window(shape, s[0], s[1], s[2], rules))
        made_from = (self.lights.generation, self.areas.generation)
        if self.made is None or self.made[0] != made_from:
            levels = np.minimum(self.lights.made, self.areas.made)
            levels.flags.writeable = False
            self.made = (made_from, levels)
        return self.made[1]

    def _update(self, layer: _Layer | None, key: tuple[Any, ...], wanted: Counter[Source], base: int, best: bool,
                mask_of: Any) -> _Layer:
        """The layer for ``wanted`` sources: the old one with the difference counted, or a new one."""
        if layer is None or layer.key != key:
            shape = key[0]
            layer = _Layer(key, np.zeros((_LEVELS, *shape), dtype=np.uint16), np.full(shape, base, dtype=np.int8))
            layer.generation = self._generation()
        elif not wanted and not layer.held:
            return layer
        changes = [(s, n) for s, n in (wanted - layer.held).items()] + \
                  [(s, -n) for s, n in (layer.held - wanted).items()]
        for source, times in changes:
            box, mask = mask_of(source)
            counts = layer.counts[source[3]][box]
            if times > 0:
                np.add(counts, mask, out=counts, casting="unsafe") if times == 1 else \
                    np.add(counts, mask * np.uint16(times), out=counts, casting="unsafe")
                level = np.where(mask, np.int8(source[3]), np.int8(base))  # one more source: it only adds
                (np.maximum if best else np.minimum)(layer.made[box], level, out=layer.made[box])
            else:
                np.subtract(counts, mask * np.uint16(-times), out=counts, casting="unsafe")
                layer.made[box] = _compose(layer.counts[(slice(None), *box)], base, best)
        if changes:
            layer.held = Counter(wanted)
            layer.generation = self._generation()
        return layer

    def _generation(self) -> int:
        self.generations += 1
        return self.generations


def _sources(held: Iterable[Light | Area]) -> Counter[Source]:
    return Counter((s.x, s.y, s.radius_ft, int(s.level)) for s in held)


def _compose(counts: np.ndarray, base: int, best: bool) -> np.ndarray:
    """The level each square's counts make: the best (lights) or worst (areas) level covering it,
    starting from ``base``."""
    made = np.full(counts.shape[1:], base, dtype=np.int8)
    for level in range(_LEVELS):
        covered = counts[level] > 0
        if best:
            np.maximum(made, np.where(covered, np.int8(level), np.int8(base)), out=made)
        else:
            np.minimum(made, np.where(covered, np.int8(level), np.int8(base)), out=made)
    return made
