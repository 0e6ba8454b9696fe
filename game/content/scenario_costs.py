"""What a round of a scenario's battle costs the computer player, bounded when the scenario loads.

docs/limits.md promises that every scenario inside the limits plays a round with the computer player
on every side in about 5 s. Besides the number of creatures and the map's size, two things a file sets
within their own ranges decide that cost, and each is held to a budget of squares, as the lights' and
areas' squares lit are (``MAX_LIT_SQUARES``): how far each creature walks in a turn (the player works
out where each creature and each enemy can go) and how far the areas of the powers each may use reach
(it forecasts each area at several points a turn). Each counts the box it spans, at most the map.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from components import Rules
from components.powers import Power
from game.content.scenario_model import CreatureSpec

__all__ = ["MAX_AREA_SQUARES", "MAX_LEAP_SQUARES", "MAX_WALK_SQUARES", "area_problem", "walk_problem"]

#: The squares the creatures' walks may reach together: 25 creatures of 5,000 ft on 1024x1024 took
#: 34 s a round, of 1,000 ft 6.3 s, of 500 ft (this budget) 4.7 s, as against 3.9 s at 30 ft.
MAX_WALK_SQUARES = 2**20
#: The squares the areas of the powers each creature may use reach together (a power counted once
#: per creature that may use it): 25 creatures with a burst and a line of 10,000 ft on 1024x1024 took
#: 20 s a round (52 million squares), of 1,000 ft 5.0 s (8 million), of 300 ft 2.5 s (0.7 million).
MAX_AREA_SQUARES = 2**22
#: The squares the teleports (blinks) each creature may use reach together: the computer player weighs
#: every square a blink could land on as a move, so 25 creatures with a blink of 300 ft on 1024x1024
#: took 10.8 s a round (4.3 s of 30 ft), and of 10,000 ft more than ten minutes.
MAX_LEAP_SQUARES = 2**16


def box(reach_ft: float, square_ft: int, width: int, height: int) -> int:
    """The squares of the box a reach spans from its square (that square and ``reach_ft`` each way),
    at most the whole map."""
    side = 2 * int(reach_ft // square_ft) + 1
    return min(width, side) * min(height, side)


def walk_problem(specs: Iterable[CreatureSpec], rules: Rules, width: int, height: int) -> str | None:
    """Why the creatures' walks reach too many squares together (``MAX_WALK_SQUARES``), or None."""
    speeds = [spec.speed if spec.speed is not None else rules.speed_ft for spec in specs]
    total = sum(box(speed, rules.square_ft, width, height) for speed in speeds)
    if total <= MAX_WALK_SQUARES:
        return None
    return (f"{len(speeds)} creatures walking up to {max(speeds) // rules.square_ft:,} squares a turn on a "
            f"{width}x{height} map reach {total:,} squares together (each counts the box its speed spans, at most "
            f"the whole map); expected 0..{MAX_WALK_SQUARES:,}: slower creatures, a bigger rules.square_ft, fewer "
            f"creatures or a smaller map")


def power_squares(power: Power, square_ft: int, width: int, height: int) -> int:
    """The squares the areas a power makes or catches reach: its burst, cone or line, its darkness or
    fog, its light (0 for a power with none)."""
    reaches = [max(power.area.radius_ft, power.area.length_ft)] if power.area is not None else []
    reaches += [made.radius_ft for made in (power.creates_area, power.creates_light) if made is not None]
    return sum(box(reach, square_ft, width, height) for reach in reaches)


def area_problem(specs: Sequence[CreatureSpec], powers: Mapping[str, Power], rules: Rules, width: int,
                 height: int) -> str | None:
    """Why the areas of the powers the creatures may use reach too many squares together
    (``MAX_AREA_SQUARES``), or their teleports (``MAX_LEAP_SQUARES``), or None. A creature that lists no
    powers may use every power of ``powers``."""
    budgets = (("areas", MAX_AREA_SQUARES, power_squares), ("teleports", MAX_LEAP_SQUARES, leap_squares))
    for what, most, reach in budgets:
        each = {power_id: reach(power, rules.square_ft, width, height) for power_id, power in powers.items()}
        total = sum(each.get(power_id, 0) for spec in specs for power_id in (spec.powers or powers))
        if total > most:
            largest = max(each, key=lambda power_id: (each[power_id], power_id))
            return (f"the {what} of the powers {len(specs)} creatures may use reach {total:,} squares together on a "
                    f"{width}x{height} map (each power counted for each creature that has it, by the box its reach "
                    f"spans, at most the whole map; the largest, {largest!r}, {each[largest]:,}); expected "
                    f"0..{most:,}: smaller {what}, fewer creatures with them, or a smaller map")
    return None


def leap_squares(power: Power, square_ft: int, width: int, height: int) -> int:
    """The squares a teleport may land on: the box its range spans (0 for a power that is none)."""
    return box(power.range_ft, square_ft, width, height) if power.teleport and power.range_ft is not None else 0


def scenario_area_problem(scenario: Any, powers: Mapping[str, Power]) -> str | None:
    """:func:`area_problem` of a scenario's creatures with another power table (a sweep's variant, a
    save's or replay's overrides): held to the budgets the file's own table is."""
    return area_problem(scenario.creatures, powers, scenario.rules, scenario.width, scenario.height)
