"""Areas: where a power's area is centred, the squares it covers, and the creatures it reaches.

The rules: with a range, the area is centred on a point the user sees within range; without one it
is centred on the user. A cone or line starts at that centre and faces away from the user, or where
the command says. A power that lists its targets (itself, allies, enemies) reaches only those inside
the area; one that does not reaches every creature in it. Heights count: a burst catches a flier
only within its radius in three dimensions.

One function each, asked by the power system when a use resolves, by the forecasts before it, by
the computer player aiming and by the window drawing the preview, so all four see one area.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from types import MappingProxyType

import esper
import numpy as np
import tcod.constants
import tcod.map

from components import Creature, Fatigue, Health, Position
from components.powers import Power
from components.terrain import Blocks
from systems.geometry import SLACK_FT, distance_3d_ft, within_radius
from systems.lighting import reach_box
from systems.state import BattleState
from systems.vitals import is_dead

_CONE_COS = 1 / math.sqrt(1.25)  # half-angle atan(1/2): the cone is as wide as it is far

#: The largest box of squares (side * side) an area may reach for its squares to be kept with the map's
#: caches; a bigger area is worked out each time (a planner's bursts and cones are far smaller).
_KEPT_BOX = 4096

#: Compass names a command may give for a direction, as steps on the grid (y grows southward).
COMPASS: Mapping[str, tuple[int, int]] = MappingProxyType({
    "n": (0, -1), "ne": (1, -1), "e": (1, 0), "se": (1, 1), "s": (0, 1), "sw": (-1, 1), "w": (-1, 0), "nw": (-1, -1)})


def area_centre(power: Power, origin: tuple[int, int], point: tuple[int, int] | None) -> tuple[int, int]:
    """Where the area is centred: the point aimed at when the power has a range, else the user."""
    return point if (power.range_ft is not None and point is not None) else origin


def facing(origin: tuple[int, int], point: tuple[int, int] | None,
           direction: tuple[int, int] | None) -> tuple[int, int] | None:
    """Where a cone or line faces: the direction given, else away from the user toward the point.

    None when there is no way to tell (aimed at the user's own square with no direction).
    """
    if direction is not None and direction != (0, 0):
        return direction
    if point is None or point == origin:
        return None
    return (point[0] - origin[0], point[1] - origin[1])


def _shape_mask(power: Power, shape: tuple[int, int], centre: tuple[int, int], face: tuple[int, int],
                apex: bool, square_ft: int, state: BattleState) -> np.ndarray:
    """The squares of a cone or line from ``centre`` facing ``face`` (``apex``: its own square too).

    Both reach as far as their length by the rules' distance (:func:`within_radius`, the measure
    of every range and burst): a 30 ft line covers six squares east, and six diagonally when a
    diagonal step counts one square. The direction only decides which of those squares are in.
    """
    assert power.area is not None
    rules = state.rules
    xs = (np.arange(shape[0]) - centre[0])[:, None].astype(float)
    ys = (np.arange(shape[1]) - centre[1])[None, :].astype(float)
    norm = math.hypot(*face)
    ux, uy = face[0] / norm, face[1] / norm
    along = xs * ux + ys * uy
    reach = within_radius(shape, centre, power.area.length_ft, rules)
    if power.area.shape == "cone":
        dist = np.hypot(xs, ys)
        mask: np.ndarray = reach & (along >= _CONE_COS * dist) & (dist > 0)
    else:
        across = np.abs(xs * uy - ys * ux)
        half_width = power.area.width_ft / square_ft / 2
        mask = reach & (along > 0) & (across < half_width + SLACK_FT)
    if apex:
        mask[centre] = True
    return mask


def area_squares(state: BattleState, power: Power, origin: tuple[int, int], point: tuple[int, int] | None,
                 direction: tuple[int, int] | None = None) -> list[tuple[int, int]]:
    """The squares a power's area covers, what blocks areas (and what it shadows) excluded.

    ``origin`` is the user's square. A burst covers its radius around the centre; a cone or line
    starts at the centre (the user's square is never in its own cone) and faces as :func:`facing`
    says; with no way to face it covers nothing. Worked out in the box the area can reach, not over
    the whole map: shadowcasting from the centre decides a square only from squares nearer it.
    """
    assert power.area is not None
    terrain, rules = state.terrain, state.rules
    centre = area_centre(power, origin, point)
    if power.area.shape == "burst":
        face, apex = None, False
    else:
        face, apex = facing(origin, point, direction), centre != origin
        if face is None:
            return []
    # A fact of the walls, the rules' distances and the shape: kept, as the forecasts ask it for
    # every point they weigh and the use asks it again when it resolves.
    if (2 * _reach(power, rules.square_ft) + 1) ** 2 > _KEPT_BOX:  # a huge area: worked out, not kept
        return list(_covered(state, power, centre, face, apex))
    key = (terrain.layout_key(), rules.square_ft, rules.diagonal, power.area, centre, face, apex)
    known = state.caches.areas.get(key)
    if known is None:
        known = _covered(state, power, centre, face, apex)
        state.caches.keep_area(key, known)
    return list(known)


def _covered(state: BattleState, power: Power, centre: tuple[int, int], face: tuple[int, int] | None,
             apex: bool) -> tuple[tuple[int, int], ...]:
    """:func:`area_squares`, worked out in the box the area can reach (``face`` None: a burst)."""
    assert power.area is not None
    terrain, rules = state.terrain, state.rules
    box = reach_box(terrain.walls.shape, centre, _reach(power, rules.square_ft))
    shape = (box[0].stop - box[0].start, box[1].stop - box[1].start)
    here = (centre[0] - box[0].start, centre[1] - box[1].start)
    if face is None:
        mask = within_radius(shape, here, power.area.radius_ft, rules)
    else:
        mask = _shape_mask(power, shape, here, face, apex, rules.square_ft, state)
    stops = terrain.blocking(Blocks.AREAS)[box]
    seen = tcod.map.compute_fov(~stops, here, radius=0, light_walls=False,
                                algorithm=tcod.constants.FOV_SYMMETRIC_SHADOWCAST)
    mask = mask & seen & ~stops
    return tuple((int(x) + box[0].start, int(y) + box[1].start) for x, y in zip(*np.nonzero(mask)))


def _reach(power: Power, square_ft: int) -> int:
    """Squares an area can reach from its centre along each axis: its squares (each within its
    radius or length by the rules' distance), and every square between them and the centre that
    could block it, lie that close."""
    assert power.area is not None
    if power.area.shape == "burst":
        return int(power.area.radius_ft // square_ft) + 1
    return int(power.area.length_ft // square_ft) + 1  # a cone or line: its length by the rules' distance


def of_kind(targets: str | None, user: int, user_team: str, entity: int, team: str) -> bool:
    """Whether ``entity`` (of ``team``) is of the kind a power's ``targets`` lists, for ``user`` (of
    ``user_team``): itself for "self", its side for allies, the other sides for enemies, anyone for
    none. Whom an area catches and which creature a single-target power may take both ask it."""
    if targets == "self":
        return entity == user
    if targets in ("allies", "ally"):
        return team == user_team
    if targets in ("enemies", "enemy"):
        return team != user_team
    return True


def creatures_reached(state: BattleState, power: Power, user: int, target: int | None,
                      point: tuple[int, int] | None, origin: tuple[int, int] | None = None,
                      direction: tuple[int, int] | None = None, origin_z: float | None = None,
                      squares: Iterable[tuple[int, int]] | None = None) -> list[int]:
    """The creatures a use reaches (before attack rolls and saves), in entity order.

    ``origin`` and ``origin_z`` are where the user stands (where it would stand, for a forecast);
    its own square and height by default. ``squares`` are the area's squares when the caller has
    already asked :func:`area_squares` the same question (a forecast shows them too).
    """
    if power.area is None:
        if power.targets == "self":
            return [user]
        return [target] if (power.single_target and target is not None) else []
    here = esper.component_for_entity(user, Position)
    origin = origin or here.square
    z = here.z if origin_z is None else origin_z
    covered = set(area_squares(state, power, origin, point, direction) if squares is None else squares)
    centre, centre_z, size = area_extent(state, power, origin, z, point)
    team = esper.component_for_entity(user, Creature).team
    found = []
    for entity, (position, creature, health, fatigue) in sorted(
            esper.get_components(Position, Creature, Health, Fatigue)):
        # the user stands where it would use the power from (a forecast asks from other squares)
        square, height = (origin, z) if entity == user else ((position.x, position.y), position.z)
        if square not in covered or is_dead(health, fatigue):
            continue
        if not of_kind(power.targets, user, team, entity, creature.team):
            continue
        if distance_3d_ft(centre, centre_z, square, height, state.rules) > size + SLACK_FT:
            continue  # above or below the area
        found.append(entity)
    return found


def area_extent(state: BattleState, power: Power, origin: tuple[int, int], z: float,
                point: tuple[int, int] | None) -> tuple[tuple[int, int], float, float]:
    """An area's centre, the centre's height and the area's size in feet (a burst's radius, a cone's
    or line's length), for a user on ``origin`` at height ``z``: a creature in the area's squares is
    reached only within that size of the centre in three dimensions."""
    assert power.area is not None
    centre = area_centre(power, origin, point)
    centre_z = z if centre == origin else state.terrain.ground_at(centre)
    return centre, centre_z, power.area.radius_ft if power.area.shape == "burst" else power.area.length_ft


def squares_reached(state: BattleState, power: Power, origin: tuple[int, int], z: float,
                    point: tuple[int, int] | None, direction: tuple[int, int] | None = None
                    ) -> list[tuple[int, int]]:
    """The area's squares on which a creature standing on the ground (the user at ``z`` on its own
    square ``origin``) would be reached, by :func:`creatures_reached`'s height test: a burst aimed at
    the foot of a cliff covers squares on its top, but reaches nobody standing there. What a person
    is shown as the area; a flier above a square is reached or not by its own height."""
    centre, centre_z, size = area_extent(state, power, origin, z, point)
    ground_at, rules = state.terrain.ground_at, state.rules
    return [square for square in area_squares(state, power, origin, point, direction)
            if distance_3d_ft(centre, centre_z, square, z if square == origin else ground_at(square), rules)
            <= size + SLACK_FT]


def flies_its_user(state: BattleState, power: Power, user: int, target: int | None, point: tuple[int, int] | None,
                   direction: tuple[int, int] | None = None, origin: tuple[int, int] | None = None,
                   origin_z: float | None = None) -> bool:
    """Whether a use that lands makes its own user fly: "flying" among what it grants (a flight, or
    the condition itself), and the user among those it reaches (on itself, aimed at itself, or in its
    area from ``origin``, where it will stand). Orders given after such a use are checked as a
    flier's; a teleport is the other use that moves its user."""
    return "flying" in power.grants and user in creatures_reached(state, power, user, target, point, origin,
                                                                   direction, origin_z)
