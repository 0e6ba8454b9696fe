"""A scenario's map drawn into a battle through the battle's own commands (so the command log holds
the build, and saves and replays can rebuild it and check it)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping

from components import Visibility
from game.battle.facade import Battle
from game.content.scenario_model import LegendEntry, LightSpec

__all__ = ["draw_map"]


def _squares(rows: tuple[str, ...], legend: Mapping[str, LegendEntry], which: Callable[[LegendEntry], bool]
             ) -> Iterator[tuple[int, int, LegendEntry]]:
    """The squares whose legend entry ``which`` picks, row by row: a 1024 x 1024 map of open
    ground is a million squares, so each row is searched for the picked characters in C."""
    picked = [char for char, entry in legend.items() if which(entry)]
    if not picked:
        return
    pattern = re.compile("[" + "".join(re.escape(char) for char in picked) + "]")
    for y, row in enumerate(rows):
        for found in pattern.finditer(row):
            yield found.start(), y, legend[found.group()]


def draw_map(battle: Battle, rows: tuple[str, ...], legend: Mapping[str, LegendEntry], ambient: Visibility,
             lights: tuple[LightSpec, ...], areas: tuple[LightSpec, ...]) -> None:
    """Ground, walls and terrain, the ambient level, then lights and areas: walls go in before
    lights so that the level grid is not recomputed with every light for every wall."""
    for x, y, entry in _squares(rows, legend, lambda e: not e.wall and (e.ground != 0 or e.soft)):
        battle.set_ground(x, y, entry.ground, entry.soft)
    for x, y, entry in _squares(rows, legend, lambda e: bool(e.wall or e.blocks or e.cover)):
        if entry.wall:
            battle.add_wall(x, y)
        elif entry.blocks or entry.cover:
            battle.set_terrain(x, y, entry.blocks, entry.cover)
    if ambient != Visibility.NORMAL:
        battle.set_ambient(ambient)
    for light in lights:
        battle.add_light(light.x, light.y, light.radius_ft, light.level)
    for area in areas:
        battle.add_area(area.x, area.y, area.radius_ft, area.level)
