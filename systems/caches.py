"""Answers worked out from the layout of walls (and the lights on it), kept by an owner that battles share.

Paths and cover lines depend on the walls and nothing else, and a simulation plays thousands of
battles on one map: whoever builds those battles (a loaded scenario, a simulation worker) holds one
``MapCaches`` and hands it to each, so what one battle worked out serves the next. A battle built
alone gets its own. Nothing here is module state: two owners never see each other's answers, and
``clear()`` forgets everything (a test, a benchmark's cold run).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np

from systems.lighting import LevelCache

Layout = tuple[tuple[int, int], bytes]


class MapCaches:
    """Path distance maps, cover-line counts and light masks, keyed by the layout of walls.

    ``levels`` keeps each light's mask and the counts behind the last level grid (see
    :mod:`systems.lighting`).

    Args:
        paths_kept: how many distance maps to keep (least recently used go first).
        layouts_kept: how many wall layouts' cover answers to keep.
        pairs_per_layout: cover answers kept per layout before they are forgotten and relearnt.
    """

    def __init__(self, paths_kept: int = 1024, layouts_kept: int = 16, pairs_per_layout: int = 200_000) -> None:
        self.paths_kept = paths_kept
        self.layouts_kept = layouts_kept
        self.pairs_per_layout = pairs_per_layout
        self.distances: OrderedDict[tuple[Any, ...], np.ndarray] = OrderedDict()
        self.cover: dict[Layout, dict[tuple[int, int, int, int], int]] = {}
        self.levels = LevelCache()

    def distance_map(self, key: tuple[Any, ...]) -> np.ndarray | None:
        """A kept distance map (read-only), or None."""
        found = self.distances.get(key)
        if found is not None:
            self.distances.move_to_end(key)
        return found

    def keep_distance_map(self, key: tuple[Any, ...], distances: np.ndarray) -> None:
        distances.flags.writeable = False
        self.distances[key] = distances
        if len(self.distances) > self.paths_kept:
            self.distances.popitem(last=False)

    def cover_answers(self, layout: Layout) -> dict[tuple[int, int, int, int], int]:
        """The known corner-line counts of one layout of walls, (ax, ay, dx, dy) -> lines blocked."""
        answers = self.cover.get(layout)
        if answers is None or len(answers) > self.pairs_per_layout:
            if len(self.cover) >= self.layouts_kept:
                del self.cover[next(iter(self.cover))]
            answers = self.cover[layout] = {}
        return answers

    def clear(self) -> None:
        """Forget every answer."""
        self.distances.clear()
        self.cover.clear()
        self.levels.clear()
