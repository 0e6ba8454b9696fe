"""Visibility: the level of every square, and how well each creature sees from its own.

A square's level is the ambient level, raised to the best light that reaches it (tcod's field of
view from the light, so walls cast shadows), then lowered to the worst area covering it. The grid
is a numpy array recomputed only when the map changes, and then only where a light or an area came
or went (:mod:`systems.lighting`); a creature's ``Vision`` is one lookup,
worsened by dazzled (at best terrible) and blinded (no vision).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

import esper
import numpy as np
import tcod.los

from components import Conditions, Position, Rules, Terrain, Visibility, Vision
from components.terrain import Blocks
from systems.lighting import LevelCache, lit_window
from systems.query import components_of
from systems.sight_field import LineSteps, sight_table
from systems.state import BattleState, Phase


def lit_mask(terrain: Terrain, x: int, y: int, radius_ft: float, rules: Rules) -> np.ndarray:
    """Squares a light at (x, y) reaches: within its radius and in view of it around the walls."""
    box, inside = lit_window(terrain.blocking(Blocks.LIGHT), x, y, radius_ft, rules)
    lit = np.zeros(terrain.walls.shape, dtype=bool)
    lit[box] = inside
    return lit


def sees(walls: np.ndarray | list[list[bool]], levels: np.ndarray | list[list[int]], viewer_level: int,
         here: tuple[int, int], square: tuple[int, int], steps: LineSteps | None = None) -> bool:
    """Whether a viewer on ``here`` with ``viewer_level`` sight sees ``square``: the rules' "you can see".

    It needs some vision of its own, a line with no wall between the squares, and no square on that
    line (both ends included) at no vision: darkness or dense smoke between two lit squares blocks
    sight as surely as a wall. Bresenham lines are not symmetric, so either direction of the line will
    do: whoever can see whom, the other can see back.
    ``steps``: the map's kept lines (``MapCaches.line_steps``), else each line is asked of tcod.
    The grids are read ``[x][y]``: arrays, or their plain-list copies (:func:`rows_of`).
    """
    if viewer_level == Visibility.NO_VISION:
        return False
    if here == square:
        return bool(levels[square[0]][square[1]] != Visibility.NO_VISION)
    for (x, y), (ex, ey) in ((here, square), (square, here)):
        # the line's steps from its start (tcod's Bresenham line, both ends included), read where they fall
        line = steps(ex - x, ey - y) if steps is not None else tcod.los.bresenham((0, 0), (ex - x, ey - y)).tolist()
        if any(walls[x + dx][y + dy] for dx, dy in line[1:-1]) or \
                any(levels[x + dx][y + dy] == _NO_VISION for dx, dy in line):
            continue
        return True
    return False


def rows_of(state: BattleState, name: str, grid: np.ndarray) -> list[list[Any]]:
    """``grid`` as plain lists (``[x][y]``), for reading square by square: a list's element costs a
    fraction of a numpy element's (a scalar made, then converted). Kept in ``state.rows`` under
    ``name`` with the very array it copies: the grids read so (the level grid, the walls that block
    sight) are replaced when they change, never written, so the same array stands for the same copy."""
    kept = state.rows.get(name)
    if kept is None or kept[0] is not grid:
        kept = state.rows[name] = (grid, grid.tolist())
    return kept[1]


def level_at(state: BattleState, square: tuple[int, int]) -> int:
    """The level of ``square`` (a ``Visibility`` value): ``int(state.levels[square])``, read off its copy."""
    levels, kept = state.levels, state.rows.get("levels")
    assert levels is not None
    if kept is None or kept[0] is not levels:  # (:func:`rows_of`, written out: asked a few hundred times a battle)
        kept = state.rows["levels"] = (levels, levels.tolist())
    return kept[1][square[0]][square[1]]  # type: ignore[no-any-return]


def sight_value(state: BattleState, entity: int, square: tuple[int, int] | None = None) -> int:
    """How well a creature sees standing where it stands now (or on ``square``), as a ``Visibility``
    value (what keys and comparisons need): that square's level worsened by its own conditions.
    Asked at the moment of a roll or a look, so a creature that just stepped out of the dark sees in
    the light at once."""
    assert state.levels is not None
    square = square or esper.component_for_entity(entity, Position).square
    return vision_value(level_at(state, square), esper.component_for_entity(entity, Conditions))


def can_see(state: BattleState, viewer: int, square: tuple[int, int], here: tuple[int, int] | None = None) -> bool:
    """The rules' "you can see", for a creature from its square (or from ``here``, where it would
    stand): see :func:`sees`, with the creature's own sight there (:func:`sight_value`).

    Sight depends on the walls and the level grid alone, and a use is checked when issued, when it
    resolves and by the forecasts: answers are kept in the caches for this layout and grid, so every
    battle on the map (a simulation's, a scenario's) shares them.
    """
    return visible(state, viewer, (square,), here)[0]


def visible(state: BattleState, viewer: int, squares: Iterable[tuple[int, int]],
            here: tuple[int, int] | None = None) -> list[bool]:
    """:func:`can_see` for each of ``squares`` from one place, the viewer's sight there read once
    (a planner asks which enemies it would see from a square)."""
    here = here or esper.component_for_entity(viewer, Position).square
    return seen_from(state, sight_value(state, viewer, here), here, squares)


def seen_from(state: BattleState, level: int, here: tuple[int, int], squares: Iterable[tuple[int, int]]
              ) -> list[bool]:
    """:func:`visible` for a viewer on ``here`` whose own sight there is ``level`` (its
    :func:`sight_value`, read once by a caller asking from one square about many)."""
    assert state.levels is not None
    if state.sight is None or state.sight[0] != state.levels_version:
        # only a square at no vision on the line can block what the walls let through (see ``sees``)
        dark = state.levels if bool((state.levels == _NO_VISION).any()) else None
        caches, layout, sighted = state.caches, state.terrain.layout_key(), state.terrain.blocking(Blocks.SIGHT)
        answers = caches.sight_answers(layout, dark)
        table = None if dark is not None else caches.sight_table(layout,
                                                                 lambda: sight_table(sighted, caches.line_steps))
        state.sight = (state.levels_version, answers, table)
    if level == _NO_VISION:  # no vision of its own: it sees nothing (``sees`` asks this first)
        return [False for _ in squares]
    if state.sight[2] is not None:  # a small map without darkness: every answer is known
        row = state.sight[2][here[0]][here[1]]
        return [row[x][y] for x, y in squares]
    # past that, ``sees`` reads no more of the viewer's level, and a line is clear both ways or neither:
    # one answer serves every viewer on either end
    answers = state.sight[1]
    found = []
    for square in squares:
        key = (here, square) if here <= square else (square, here)
        seen = answers.get(key)
        if seen is None:
            seen = answers[key] = sees(rows_of(state, "sight walls", state.terrain.blocking(Blocks.SIGHT)),
                                       rows_of(state, "levels", state.levels), level, here, square,
                                       state.caches.line_steps)
        found.append(seen)
    return found


def level_grid(terrain: Terrain, rules: Rules, cache: LevelCache | None = None) -> np.ndarray:
    """The visibility level of every square as a ``[x, y]`` int8 array of ``Visibility`` values.

    ``cache`` (a battle's ``caches.levels``) keeps the masks and counts that let the next grid
    cost only what changed; without one the grid is worked out whole.
    """
    return (cache if cache is not None else LevelCache()).level_grid(terrain, rules)


_NO_VISION, _TERRIBLE = int(Visibility.NO_VISION), int(Visibility.TERRIBLE)

#: The levels by their values (``level_of``'s table).
_BY_VALUE: Mapping[int, Visibility] = MappingProxyType({int(level): level for level in Visibility})


def level_of(value: int) -> Visibility:
    """``Visibility(value)``, looked up (an enum call costs a function call or two)."""
    found = _BY_VALUE.get(value)
    return found if found is not None else Visibility(value)


def vision_level(square_level: int, conditions: Conditions) -> Visibility:
    """A creature's own sight: its square's level worsened by dazzled and blinded."""
    return level_of(vision_value(square_level, conditions))


#: The granted conditions a creature's own vision reads (:func:`vision_value`: blinded leaves it no
#: vision, dazzled at best terrible), and no other: what keys or watches a creature's sight by its
#: conditions (a menace's key, the window's count of what may change a team's sight) reads this, never
#: a list of its own, so a condition the rule comes to read is read there too (a test holds the two alike).
VISION_CONDITIONS = frozenset({"blinded", "dazzled"})


def vision_value(square_level: int, conditions: Conditions) -> int:
    """:func:`vision_level` as a plain number (what keys and comparisons need); it reads only
    :data:`VISION_CONDITIONS` of the creature's conditions."""
    granted = conditions.granted
    if "blinded" in granted:
        return _NO_VISION
    if "dazzled" in granted:
        return min(square_level, _TERRIBLE)
    return square_level


class VisibilitySystem(esper.Processor):
    """Keeps ``state``'s level grid and every creature's ``Vision`` current."""

    PHASES = frozenset({Phase.START, Phase.TURN, Phase.END, Phase.GM})  # the only phases it runs in

    def __init__(self, state: BattleState) -> None:
        self.state = state
        if state.levels is None:
            state.levels = level_grid(state.terrain, state.rules, state.caches.levels)
            state.levels_of_map = state.terrain.version

    def process(self, phase: Phase, actor: int | None = None) -> None:
        if phase is Phase.REFRESH:
            return
        state = self.state
        everyone = state.terrain.version != state.levels_of_map
        if everyone:
            state.levels_of_map = state.terrain.version
            state.levels = level_grid(state.terrain, state.rules, state.caches.levels)
            state.levels_version += 1
            state.sight = None
        elif not state.dirty and not state.looked:
            return
        levels = state.levels
        assert levels is not None
        changed = state.dirty | state.looked
        state.looked = set()
        for entity, (position, vision, conditions) in components_of(None if everyone else changed,
                                                                  Position, Vision, Conditions):
            if "dead" not in conditions.active:
                look(state, entity, levels, position, vision, conditions)


def look(state: BattleState, entity: int, levels: np.ndarray, position: Position, vision: Vision,
         conditions: Conditions) -> None:
    """A creature's own sight on its square, as the visibility system settles it: a change marks it
    for the conditions (flat-footed). The one step, for the system and for a what-if that settles a
    grant in place (``Battle.supposing``)."""
    value = vision_value(int(levels[position.x, position.y]), conditions)
    if value != vision.level:
        vision.level = level_of(value)
        state.dirty.add(entity)

