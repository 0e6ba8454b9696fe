"""The facade's powers and rolls: using a power, ending one, and the rules' questions about them.

Every answer here is the systems' own function (``systems.power_checks``, ``systems.rolls``,
``systems.areas``, ``systems.visibility``), so what a caller is told is what a use would meet.
"""

from __future__ import annotations

from typing import Any

import esper
import numpy as np

from components import Conditions, Position
from components.commands import EndEffect, UsePower
from components.powers import Power, source_parts
from components.values import shown
from game.battle import orders, validate
from game.battle.errors import IllegalCommand
from game.battle.world import BattleCore, command, entry
from systems import rolls
from systems.areas import area_centre, area_squares, squares_reached
from systems.cover import has_cover
from systems.effects import runs_out
from systems.geometry import SLACK_FT, distances_3d_ft, within_radius
from systems.power_checks import reach_ft, use_problem, user_problem
from systems.state import check_stamp
from systems.visibility import can_see, lit_mask
from systems.vitals import helpless_problem


class PowerUses(BattleCore):
    """Using powers, and the rolls and sight they depend on."""

    def power(self, power_id: str) -> Power:
        """The power with this id.

        Raises:
            IllegalCommand: no power has this id (the message names the known ones).
        """
        try:
            return self.state.powers[power_id]
        except (KeyError, TypeError):
            known = ", ".join(sorted(self.state.powers))
            raise IllegalCommand(f"unknown power {shown(power_id)}; known: {known}") from None

    def aim_point(self, point: object) -> tuple[int, int]:
        """A point a power is aimed at, checked against the grid as every square a query takes (a pair: a
        tuple, list or array of two; ``use_power`` refused the array ``squares_in_area`` took, and named
        a point of 5 "(5, None)").

        Raises:
            IllegalCommand: the point is not a square ``(x, y)`` of whole numbers on the grid.
        """
        return validate.place(self.state, point, "point")

    @command
    def use_power(self, user: int, power_id: str, target: int | None = None,
                  point: tuple[int, int] | None = None, direction: str | tuple[int, int] | None = None) -> None:
        """Use a power on the user's turn: at a creature (``target``) or a square (``point``).

        With a range, an area is centred on ``point``; without one, on the user. A cone or line faces
        away from the user (toward ``point``) unless ``direction`` says otherwise (a compass point
        such as ``"ne"``, or a step ``(dx, dy)``); aimed at the user's own square it needs one.
        Checked now (range, sight, surprise, action already spent, unknown power, a queued move that
        leaves the user falling) and again when it resolves; every step of it comes out as events.
        An aim the power does not take (a target for a power used on its user, a point for one aimed
        at a creature) is left out of what it does, not refused, though ``PowerUsed`` records it as
        given: pass only what the power names (the README's table of aims).

        Raises:
            IllegalCommand: the use is not legal now, with the reason (an unknown power, a point off the
                grid, a bad direction, or another creature's turn under way among them).
            UnknownEntity: the user or the target is not a creature of this battle.
        """
        user = self.check(user)
        power = self.power(power_id)
        orders.own_turn(self.state, user, f"use {power.name}", self.recording)
        if target is not None:
            target = self.check(target)
        if point is not None:
            point = self.aim_point(point)
        facing = validate.direction(direction)
        state = self.state
        here, z = orders.next_place(state, user, f"use {power.name}")  # not after a move that leaves it falling
        queued = [c for c in state.actions.get(user, ()) if isinstance(c, UsePower)]
        problem = use_problem(state, power, user, target, point, here, queued, facing, z)
        if problem:
            raise IllegalCommand(f"{validate.label(user)} cannot use {power.name}: {problem}")
        orders.queue(self.state, user, UsePower(user, power.id, target, point, facing, check_stamp(self.state)))

    @entry
    def power_problem(self, user: int, power_id: str) -> str | None:
        """Why ``user`` cannot use the power now whatever it is aimed at (helpless, surprised,
        falling, not its power, that kind of action spent by a use made or queued), in
        ``use_power``'s words, or None: what a window says when the power is chosen, before any aim.

        Raises:
            IllegalCommand: an unknown power.
            UnknownEntity: the user is not a creature of this battle.
        """
        user = self.check(user)
        power = self.power(power_id)
        queued = [c for c in self.state.actions.get(user, ()) if isinstance(c, UsePower)]
        # the fall first, as use_power and forecast say it (use_power refuses in next_place before the rest)
        return orders.queue_end(self.state, user)[2] or user_problem(self.state, power, user, queued)

    @command
    def end_power(self, user: int, effect_id: int) -> None:
        """End an ongoing power early, when its data allows it (``end_early = true``).

        Raises:
            IllegalCommand: the id is not a whole number or not one of the user's ongoing effects, the
                power cannot be ended early, or the user is downed, unconscious or dead.
            UnknownEntity: the user is not a creature of this battle.
        """
        effect_id = validate.whole(effect_id, "an effect id (as effects() lists them)")
        user = self.check(user)
        effect = self.state.effects.get(effect_id)
        if effect is None or effect.user != user:
            raise IllegalCommand(f"{validate.label(user)} has no ongoing effect {shown(effect_id)}")
        if not effect.can_end_early:
            raise IllegalCommand(f"{self.power(effect.power).name} cannot be ended early")
        conditions = esper.component_for_entity(user, Conditions)
        helpless = helpless_problem(conditions, f"end {self.power(effect.power).name} early")
        if helpless is not None:  # ending it is the user's own choice, as using it was
            raise IllegalCommand(f"{validate.label(user)}: {helpless}; it runs its duration")
        self.state.gm_queue.append(EndEffect(effect_id, "ended early"))
        self._settle()

    @entry
    def effects(self) -> list[dict[str, Any]]:
        """Ongoing effects: id, power, user, last round, and whether this round's end ends it."""
        now = self.state.round
        return [{"id": e.id, "power": e.power, "user": e.user, "ends_after_round": e.ends_after_round,
                 "ends_this_round": runs_out(e, now)} for e in self.state.effects.values()]

    @entry
    def veil_makers(self) -> dict[tuple[str, int], tuple[int | None, tuple[int, int]]]:
        """The lights and areas on the map that a use of a power or a script made, each
        (``("light" | "area", map id)``) with who made it (the user of the effect that holds it; None
        for a power's use that holds none, whose user the map does not keep) and its centre. The map's
        own (the scenario's, the GM's) are left out: every side knows them. What a side's fog asks
        before it tells where an enemy it did not see made one."""
        makers: dict[tuple[str, int], int] = {}
        for effect in self.state.effects.values():
            makers.update({("light", made): effect.user for made in effect.lights})
            makers.update({("area", made): effect.user for made in effect.areas})
        terrain = self.state.terrain
        found: dict[tuple[str, int], tuple[int | None, tuple[int, int]]] = {}
        for kind, held in (("light", terrain.lights), ("area", terrain.areas)):
            for made_id, made in held.items():
                maker = makers.get((kind, made_id))
                if maker is not None or source_parts(made.source)[0] == "power":
                    found[kind, made_id] = (maker, (made.x, made.y))
        return found

    @entry
    def can_see(self, viewer: int, target: int | tuple[int, int]) -> bool:
        """A clear line between the squares and some vision (not NO_VISION) between them.

        Raises:
            IllegalCommand: a target square off the grid.
            UnknownEntity: the viewer, or a target creature, is not a creature of this battle.
        """
        viewer = self.check(viewer)
        return can_see(self.state, viewer, self.square_of(target))

    @entry
    def squares_in_area(self, power_id: str, user: int, point: tuple[int, int] | None = None,
                        direction: str | tuple[int, int] | None = None) -> list[tuple[int, int]]:
        """The squares a power's area would cover if ``user`` aimed it at ``point`` (for a UI), from
        where its queued orders leave it, as ``forecast`` and the use itself start it: after a queued
        move, a cone with no range spreads from the move's end, not from where the user stands now.

        Raises:
            IllegalCommand: an unknown power, a point off the grid, or a direction that is neither a
                compass point nor a step.
            UnknownEntity: the user (or a creature given as the point) is not a creature of this battle.
        """
        power = self.power(power_id)
        user = self.check(user)
        if power.area is None:
            return [] if point is None else [self.square_of(point)]
        origin = orders.projected(self.state, user)[0].square
        return area_squares(self.state, power, origin, None if point is None else self.square_of(point),
                            validate.direction(direction))

    @entry
    def reach_squares(self, power_id: str, user: int) -> np.ndarray:
        """Boolean ``[x, y]`` mask of the squares whose ground is within the power's reach of ``user``
        (for a UI's range overlay), from where its queued orders leave it and at the height they
        leave it: heights count as they count for a use (``use_problem``'s ``distance_3d_ft``), so
        from a 20 ft hill a point 30 ft away across the grid is out of a 30 ft range. The reach is
        the power's range; without one, a cone's or line's length, nothing but the user's own square
        for a burst, a veil around the user or a power on itself, and the next square (height
        counted) for a blow.
        A creature raised above its square's ground (a flier) may be farther than its square says.

        Raises:
            IllegalCommand: an unknown power.
            UnknownEntity: the user is not a creature of this battle.
        """
        power = self.power(power_id)
        user = self.check(user)
        position = orders.projected(self.state, user)[0]
        rules = self.state.rules
        if power.range_ft is not None:
            reach = float(power.range_ft)
        elif power.area is not None:
            reach = float(power.area.length_ft) if power.needs_direction else 0.0
        elif power.targets == "self" or power.has_area:  # on the user, or made around it
            reach = 0.0
        else:
            reach = reach_ft(power, rules)
        ground = self.state.terrain.ground
        found = np.zeros(ground.shape, dtype=bool)
        most = int((reach + SLACK_FT) // rules.square_ft)  # no square farther across the grid is in reach
        (x, y), (w, h) = position.square, ground.shape
        box = np.s_[max(x - most, 0):min(x + most + 1, w), max(y - most, 0):min(y + most + 1, h)]
        xs, ys = np.indices(ground.shape)[(slice(None), *box)]
        gaps = distances_3d_ft(xs.ravel(), ys.ravel(), ground[box].ravel(), position.square, position.z, rules)
        found[box] = (gaps <= reach + SLACK_FT).reshape(found[box].shape)
        return found

    @entry
    def made_squares(self, power_id: str, user: int, point: tuple[int, int] | None = None) -> np.ndarray:
        """Boolean ``[x, y]`` mask of the squares the light or the area (darkness, fog) a power makes
        would cover if ``user`` used it at ``point`` (around the user, from where its queued orders
        leave it, when the power has no range): a light's, those it lights around the walls; an
        area's, those within its radius; both, for a power that makes both. What a window draws
        under the mouse before the light or veil is made (a burst's own squares are
        :meth:`area_reached`'s); none for a power that makes neither.

        Raises:
            IllegalCommand: an unknown power, or a point off the grid.
            UnknownEntity: the user is not a creature of this battle.
        """
        power = self.power(power_id)
        user = self.check(user)
        state = self.state
        origin = orders.projected(state, user)[0].square
        x, y = area_centre(power, origin, None if point is None else self.square_of(point))
        shape = (state.terrain.width, state.terrain.height)
        found = np.zeros(shape, dtype=bool)
        if power.creates_area is not None:
            found |= within_radius(shape, (x, y), power.creates_area.radius_ft, state.rules)
        if power.creates_light is not None:
            found |= lit_mask(state.terrain, x, y, power.creates_light.radius_ft, state.rules)
        return found

    @entry
    def area_reached(self, power_id: str, user: int, point: tuple[int, int] | None = None,
                        direction: str | tuple[int, int] | None = None) -> list[tuple[int, int]]:
        """Of :meth:`squares_in_area`, those where a creature standing on the ground would be reached
        (heights count in an area: a burst aimed below a cliff covers squares on its top and reaches
        nobody standing there), from where the user's queued orders leave it. What a window draws as
        the area.

        Raises:
            IllegalCommand: as :meth:`squares_in_area`.
            UnknownEntity: as :meth:`squares_in_area`.
        """
        power = self.power(power_id)
        user = self.check(user)
        if power.area is None:
            return self.squares_in_area(power_id, user, point, direction)
        position = orders.projected(self.state, user)[0]
        return squares_reached(self.state, power, position.square, position.z,
                               None if point is None else self.square_of(point), validate.direction(direction))

    @entry
    def square_of(self, target: int | tuple[int, int]) -> tuple[int, int]:
        """A creature's square, or a square checked against the grid.

        Raises:
            IllegalCommand: a square off the grid, or not of whole numbers.
            UnknownEntity: a creature id this battle does not have.
        """
        if isinstance(target, (tuple, list, np.ndarray)):
            return validate.place(self.state, target, "target square")
        return esper.component_for_entity(self.check(target), Position).square

    # ------------------------------------------------------------------ rolls and defence

    @entry
    def defense_against(self, target: int, attacker: int) -> int:
        """The target's Defense against this attacker: base, +cover from it, -flat-footed.

        Raises:
            UnknownEntity: the target or the attacker is not a creature of this battle.
        """
        return rolls.defense_against(self.state, self.check(target), self.check(attacker)).value

    @entry
    def has_cover(self, target: int, attacker: int) -> bool:
        """Whether the target has cover from this attacker right now (either may be a square).

        Raises:
            IllegalCommand: a square off the grid.
            UnknownEntity: a creature id this battle does not have.
        """
        return has_cover(self.state, self.square_of(attacker), self.square_of(target))

    @entry
    def roll_mode(self, entity: int, kind: str, target: int | tuple[int, int] | None = None, sight: bool = True,
                  *, advantage: bool = False, disadvantage: bool = False) -> str:
        """How a roll is made: "normal", "advantage", "disadvantage" or "critical failure".

        See :func:`systems.rolls.roll_mode` (the reasons come with a forecast).

        Raises:
            IllegalCommand: an unknown kind of roll, or a target square off the grid.
            UnknownEntity: the creature, or a target creature, is not one of this battle's.
        """
        validate.roll_kind(kind, sight, advantage, disadvantage)
        entity = self.check(entity)
        square = None if target is None else self.square_of(target)
        try:
            return rolls.roll_mode(self.state, entity, kind, square, sight, advantage, disadvantage).mode
        except ValueError as err:
            raise IllegalCommand(str(err)) from None
