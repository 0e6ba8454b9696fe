"""Areas: the squares a power's burst, cone or line covers, and the creatures inside them.

One function each, asked by the power system when a use resolves, by the forecasts before it, by
the computer player aiming and by the window drawing the preview, so all four see one area.
"""

from __future__ import annotations

import math

import esper
import numpy as np
import tcod.constants
import tcod.map

from components import Creature, Fatigue, Health, Position
from components.powers import Power
from systems.geometry import within_radius
from systems.state import BattleState
from systems.vitals import is_dead

_CONE_COS = 1 / math.sqrt(1.25)  # half-angle atan(1/2): the cone is as wide as it is far


def area_squares(state: BattleState, power: Power, origin: tuple[int, int], point: tuple[int, int] | None
                 ) -> list[tuple[int, int]]:
    """The squares a power's area covers, walls and what they shadow excluded.

    A burst is centred on ``point`` (or on the user at ``origin`` without a range); a cone or line
    starts at the user and points at ``point``.
    """
    assert power.area is not None
    terrain, rules = state.terrain, state.rules
    shape = terrain.walls.shape
    if power.area.shape == "burst":
        centre = point if (power.range_ft is not None and point is not None) else origin
        mask = within_radius(shape, centre, power.area.radius_ft, rules)
    else:
        if point is None or point == origin:
            return []
        centre = origin
        xs = (np.arange(shape[0]) - origin[0])[:, None].astype(float)
        ys = (np.arange(shape[1]) - origin[1])[None, :].astype(float)
        dx, dy = point[0] - origin[0], point[1] - origin[1]
        norm = math.hypot(dx, dy)
        ux, uy = dx / norm, dy / norm
        along = xs * ux + ys * uy
        length = power.area.length_ft / rules.square_ft
        if power.area.shape == "cone":
            dist = np.hypot(xs, ys)
            reach = within_radius(shape, origin, power.area.length_ft, rules)
            mask = reach & (along >= _CONE_COS * dist) & (dist > 0)
        else:
            across = np.abs(xs * uy - ys * ux)
            half_width = power.area.width_ft / rules.square_ft / 2
            mask = (along > 0) & (along <= length + 0.5) & (across < half_width + 1e-9)
    seen = tcod.map.compute_fov(~terrain.walls, centre, radius=0, light_walls=False,
                                algorithm=tcod.constants.FOV_SYMMETRIC_SHADOWCAST)
    mask = mask & seen & ~terrain.walls
    return [(int(x), int(y)) for x, y in zip(*np.nonzero(mask))]


def creatures_reached(state: BattleState, power: Power, user: int, target: int | None,
                      point: tuple[int, int] | None, origin: tuple[int, int] | None = None) -> list[int]:
    """The creatures a use reaches (before attack rolls and saves), in entity order.

    ``origin`` is the user's square (where it would stand, for a forecast); its own by default.
    """
    if power.targets == "self" and power.area is None:
        return [user]
    if power.area is None:
        return [] if target is None else [target]
    origin = origin or esper.component_for_entity(user, Position).square
    squares = set(area_squares(state, power, origin, point))
    team = esper.component_for_entity(user, Creature).team
    found = []
    for entity, (position, creature, health, fatigue) in sorted(
            esper.get_components(Position, Creature, Health, Fatigue)):
        if position.square not in squares or is_dead(health, fatigue):
            continue
        if power.targets in ("allies", "ally") and creature.team != team:
            continue
        if power.targets in ("enemies", "enemy") and creature.team == team:
            continue
        found.append(entity)
    return found
