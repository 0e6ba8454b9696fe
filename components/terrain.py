"""The map beside the ECS: numpy grids for ground, walls and soft squares, plus lights and areas.

Squares are indexed ``[x, y]``. These arrays are the hot data the visibility, cover, movement and
falling systems read in bulk; keeping them out of per-entity components is what makes a 64x64 map
with a thousand creatures cheap.
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np

from components.creature import Visibility
from components.values import Bound

#: Engine limits, not rules: past these a map (or a stranger's script) would only make every
#: change of light cost seconds. A torch lights tens of feet; a map holds a few dozen lights.
MAX_RADIUS_FT = 10_000.0
#: Ground heights and creatures' z, in feet either way of the datum: a fall from 10,000 ft is
#: already 20 rounds of falling; past this only the arithmetic that reads heights overflows.
MAX_HEIGHT_FT = 10_000.0
#: The most squares a grid has along each side (a 1024 x 1024 map is a million squares).
MAX_GRID_SIDE = 1024
#: That range, as a scenario file and ``Battle.set_ground`` / ``spawn`` check it.
HEIGHT = Bound(-MAX_HEIGHT_FT, MAX_HEIGHT_FT, whole=False, unit="ft")
MAX_LIGHTS = 512
MAX_AREAS = 512
#: The squares a map's lights and areas may reach together, each counted by :func:`reach_squares`.
#: Lighting costs a field of view over each light's squares: this is what builds in under 5 s on a
#: 2-core machine (512 lights of any radius on 512x512, 128 on 1024x1024, thousands of torches on
#: either; docs/limits.md has the figures).
MAX_LIT_SQUARES = 1 << 27


def reach_squares(width: int, height: int, radius_ft: float, square_ft: int) -> int:
    """The squares a light or area of ``radius_ft`` is counted as reaching on a ``width`` x ``height``
    map: the box its radius spans (a square and one more each way), at most the whole map, wherever it stands."""
    side = 2 * (int(radius_ft // square_ft) + 1) + 1
    return min(width, side) * min(height, side)


class Blocks(enum.IntFlag):
    """What a square of terrain stops, one flag each. A wall stops everything.

    An arrow slit stops movement, pushes and fliers but not sight or light; a battlement stops
    walkers and pushes but neither fliers nor sight. ``COVER``: it is a solid object that hides a
    creature behind it (see :mod:`systems.cover` for how see-through cover is counted).
    """

    MOVEMENT = 1
    SIGHT = 2
    LIGHT = 4
    AREAS = 8
    PUSHES = 16
    FLIERS = 32
    COVER = 64


#: The names a scenario uses for each flag (read-only: the loaders and the facade share one table).
BLOCK_NAMES: Mapping[str, Blocks] = MappingProxyType({
    "movement": Blocks.MOVEMENT, "sight": Blocks.SIGHT, "light": Blocks.LIGHT, "areas": Blocks.AREAS,
    "pushes": Blocks.PUSHES, "fliers": Blocks.FLIERS, "cover": Blocks.COVER,
})


@dataclass(frozen=True, slots=True)
class Light:
    """A light source: within ``radius_ft`` of its square, where it reaches, visibility is at least ``level``."""

    x: int
    y: int
    radius_ft: float
    level: Visibility
    source: str = "map"


@dataclass(frozen=True, slots=True)
class Area:
    """An obscuring area (fog, smoke, magical darkness): within ``radius_ft`` visibility is at most ``level``."""

    x: int
    y: int
    radius_ft: float
    level: Visibility
    source: str = "map"


@dataclass(slots=True)
class Terrain:
    """Ground heights (ft), walls, partial blockers and soft squares as ``[x, y]`` arrays, and lights.

    ``walls`` are solid (they stop everything); ``blockers`` holds the :class:`Blocks` flags of
    terrain that stops only some things (an arrow slit, a battlement). Systems ask
    :meth:`blocking` for the squares that stop what they care about. ``version`` grows on every
    change so that systems can cache what they derive from the map and recompute only when it
    really changed.
    """

    width: int
    height: int
    ground: np.ndarray = field(init=False)
    walls: np.ndarray = field(init=False)
    blockers: np.ndarray = field(init=False)
    soft: np.ndarray = field(init=False)
    ambient: Visibility = Visibility.NORMAL
    lights: dict[int, Light] = field(default_factory=dict)
    areas: dict[int, Area] = field(default_factory=dict)
    version: int = 0
    last_id: int = 0  # lights and areas share one sequence of ids
    _layout: tuple[int, tuple[tuple[int, int], bytes]] | None = field(default=None, init=False, repr=False)
    _blocking: dict[tuple[int, int], np.ndarray] = field(default_factory=dict, init=False, repr=False)
    _level: tuple[int, float | None] | None = field(default=None, init=False, repr=False)
    _heights: tuple[int, bytes, tuple[tuple[int, int], bytes]] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        for name, value in (("width", self.width), ("height", self.height)):
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_GRID_SIDE:
                raise ValueError(f"grid {name} must be a whole number of squares in 1..{MAX_GRID_SIDE}, not {value!r}")
        self.ground = np.zeros((self.width, self.height), dtype=np.float64)
        self.walls = np.zeros((self.width, self.height), dtype=bool)
        self.blockers = np.zeros((self.width, self.height), dtype=np.uint8)
        self.soft = np.zeros((self.width, self.height), dtype=bool)

    def inside(self, x: int, y: int) -> bool:
        """Whether (x, y) is a square of this grid."""
        return 0 <= x < self.width and 0 <= y < self.height

    def check_square(self, x: object, y: object, what: str = "square") -> tuple[int, int]:
        """Return (x, y) as ints or raise ValueError naming the bad square and the grid size."""
        if type(x) is int and type(y) is int and 0 <= x < self.width and 0 <= y < self.height:
            return x, y  # the common case, first
        if not (isinstance(x, (int, np.integer)) and isinstance(y, (int, np.integer))) or isinstance(x, bool) \
                or isinstance(y, bool):
            raise ValueError(f"{what} must be whole-square coordinates, not ({x!r}, {y!r})")
        xi, yi = int(x), int(y)
        if not self.inside(xi, yi):
            raise ValueError(f"{what} ({xi}, {yi}) is off the {self.width}x{self.height} grid")
        return xi, yi

    def touch(self) -> None:
        """Record that the map changed, invalidating every cache derived from it."""
        self.version += 1

    def layout_key(self) -> tuple[tuple[int, int], bytes]:
        """A key for the layout of walls, equal for equal layouts in any battle.

        Paths and cover depend on the walls alone and a simulation plays thousands of battles on
        one map, so what one battle works out can serve them all; the key is kept until the map
        changes.
        """
        if self._layout is None or self._layout[0] != self.version:
            packed = np.packbits(self.walls).tobytes()
            if self.blockers.any():
                packed += self.blockers.tobytes()
            self._layout = (self.version, (self.walls.shape, packed))
        return self._layout[1]

    def heights_key(self) -> tuple[tuple[int, int], bytes]:
        """A key for the ground's heights and soft squares, equal for equal maps in any battle: what a
        walk's way down ledges depends on besides the layout (see :meth:`layout_key`).

        A digest, not the heights themselves: a million squares' heights are 8 MB, which every
        lookup of a kept way would compare. Worked out again only when the heights changed, not
        on every change of the map (a light lit, a fog gone).
        """
        if self._heights is None or self._heights[0] != self.version:
            raw = self.ground.tobytes() + np.packbits(self.soft).tobytes()
            if self._heights is not None and self._heights[1] == raw:
                self._heights = (self.version, self._heights[1], self._heights[2])
            else:
                self._heights = (self.version, raw, (self.ground.shape, hashlib.blake2b(raw, digest_size=16).digest()))
        return self._heights[2]

    def forget_derived(self) -> None:
        """Forget the masks and the layout key worked out from the map (after it is put back as it
        was at an older version, whose number may now stand for another map)."""
        self._layout = None
        self._heights = None
        self._level = None
        self._blocking.clear()

    def has_blockers(self) -> bool:
        """Whether any square carries terrain flags (an arrow slit, a battlement): asked per cover
        line, so it is answered once per version of the map, not by scanning a million squares."""
        key = (self.version, -1)
        found = self._blocking.get(key)
        if found is None:
            if self._blocking and next(iter(self._blocking))[0] != self.version:
                self._blocking.clear()
            found = self._blocking[key] = np.array(bool(self.blockers.any()))
        return bool(found)

    def level_ground(self) -> float | None:
        """The ground's height when it is the same on every square (most maps), else None: asked for
        every move, answered once per version of the map."""
        known = self._level
        if known is None or known[0] != self.version:
            ground = self.ground
            signs = np.signbit(ground)  # 0.0 and -0.0 are equal, but a height keeps its sign
            level = float(ground.flat[0]) if ground.min() == ground.max() and (signs.all() or not signs.any()) \
                else None
            known = self._level = (self.version, level)
        return known[1]

    def ground_at(self, square: tuple[int, int]) -> float:
        """The ground's height on ``square`` (level ground answers without indexing the array)."""
        known = self._level
        if known is not None and known[0] == self.version and known[1] is not None:
            return known[1]
        level = self.level_ground()
        return float(self.ground[square]) if level is None else level

    def blocking(self, what: Blocks) -> np.ndarray:
        """Boolean ``[x, y]`` mask (read-only) of the squares that stop any of ``what``: walls, and
        terrain carrying one of those flags. Kept until the map changes."""
        key = (self.version, int(what))
        found = self._blocking.get(key)
        if found is None:
            if self._blocking and next(iter(self._blocking))[0] != self.version:
                self._blocking.clear()
            found = self.walls | ((self.blockers & np.uint8(int(what))) != 0) if self.blockers.any() \
                else self.walls.copy()
            found.flags.writeable = False
            self._blocking[key] = found
        return found

    def add_light(self, light: Light) -> int:
        """Put a light on the map and return its id; ValueError past the engine's limits."""
        self._check_source("light", light.radius_ft, self.lights, MAX_LIGHTS)
        self.last_id += 1
        self.lights[self.last_id] = light
        self.touch()
        return self.last_id

    def add_area(self, area: Area) -> int:
        """Put an obscuring area on the map and return its id; ValueError past the engine's limits."""
        self._check_source("area", area.radius_ft, self.areas, MAX_AREAS)
        self.last_id += 1
        self.areas[self.last_id] = area
        self.touch()
        return self.last_id

    def _check_source(self, what: str, radius_ft: float, held: dict[int, Light] | dict[int, Area], most: int) -> None:
        if not 0 <= radius_ft <= MAX_RADIUS_FT:
            raise ValueError(f"{what} radius must be a number of feet in 0..{MAX_RADIUS_FT:g}, not {radius_ft!r}")
        if len(held) >= most:
            raise ValueError(f"the map already has {len(held)} {what}s, the most it takes")
