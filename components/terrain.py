"""The map beside the ECS: numpy grids for ground, walls and soft squares, plus lights and areas.

Squares are indexed ``[x, y]``. These arrays are the hot data the visibility, cover, movement and
falling systems read in bulk; keeping them out of per-entity components is what makes a 64x64 map
with a thousand creatures cheap.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from components.creature import Visibility

_terrain_ids = itertools.count(1)

#: Engine limits, not rules: past these a map (or a stranger's script) would only make every
#: change of light cost seconds. A torch lights tens of feet; a map holds a few dozen lights.
MAX_RADIUS_FT = 10_000.0
#: Ground heights and creatures' z, in feet either way of the datum: a fall from 10,000 ft is
#: already 20 rounds of falling; past this only the arithmetic that reads heights overflows.
MAX_HEIGHT_FT = 10_000.0
MAX_LIGHTS = 512
MAX_AREAS = 512


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
    """Ground heights (ft), walls and soft squares as ``[x, y]`` arrays, and the light sources.

    ``version`` grows on every change so that systems can cache what they derive from it (the level
    grid, lit masks) and recompute only when the map really changed.
    """

    width: int
    height: int
    ground: np.ndarray = field(init=False)
    walls: np.ndarray = field(init=False)
    soft: np.ndarray = field(init=False)
    ambient: Visibility = Visibility.NORMAL
    lights: dict[int, Light] = field(default_factory=dict)
    areas: dict[int, Area] = field(default_factory=dict)
    version: int = 0
    uid: int = field(init=False, default_factory=lambda: next(_terrain_ids))  # process-unique, for caches

    def __post_init__(self) -> None:
        for name, value in (("width", self.width), ("height", self.height)):
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 1024:
                raise ValueError(f"grid {name} must be a whole number of squares in 1..1024, not {value!r}")
        self.ground = np.zeros((self.width, self.height), dtype=np.float64)
        self.walls = np.zeros((self.width, self.height), dtype=bool)
        self.soft = np.zeros((self.width, self.height), dtype=bool)

    def inside(self, x: int, y: int) -> bool:
        """Whether (x, y) is a square of this grid."""
        return 0 <= x < self.width and 0 <= y < self.height

    def check_square(self, x: object, y: object, what: str = "square") -> tuple[int, int]:
        """Return (x, y) as ints or raise ValueError naming the bad square and the grid size."""
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
