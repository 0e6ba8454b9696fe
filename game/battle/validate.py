"""Checks of what a caller passes in, shared by the facade and the script bridge.

Each raises :class:`~game.battle.errors.IllegalCommand` (or ``UnknownEntity``) with a message a
person can act on, before anything changes; a script's bridge turns those into a refused call.
"""

from __future__ import annotations

from collections.abc import Mapping

import esper
import numpy as np

from components import Abilities, Creature
from components.powers import Power
from components.rules import DERIVED_CONDITIONS, GRANTABLE_CONDITIONS
from components.values import shown
from game.battle.errors import IllegalCommand, UnknownEntity
from systems.areas import COMPASS
from systems.state import BattleState


def creature_id(state: BattleState, entity: object, known: set[int]) -> int:
    """``entity`` as an int if it is a creature of this battle (``known`` holds their ids)."""
    if type(entity) is int and entity in known:
        return entity  # the common case, first: this is on every query's path
    if isinstance(entity, bool) or not isinstance(entity, (int, np.integer)) \
            or int(entity) not in known or not esper.has_component(int(entity), Creature):
        raise UnknownEntity(f"no creature with id {entity!r} in this battle")
    return int(entity)


def label(entity: int) -> str:
    """A creature as a message names it: "Orc (#3)"."""
    return f"{esper.component_for_entity(entity, Creature).name} (#{entity})"


def square(state: BattleState, x: object, y: object, what: str = "square") -> tuple[int, int]:
    """(x, y) as ints on this battle's grid."""
    try:
        return state.terrain.check_square(x, y, what)
    except ValueError as err:
        raise IllegalCommand(str(err)) from None


def amount(value: object, what: str) -> int:
    """A whole, non-negative number (damage, healing, fatigue, speed)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise IllegalCommand(f"{what} must be a whole number, not {value!r}")
    if value < 0:
        raise IllegalCommand(f"{what} must not be negative, not {value}")
    return int(value)


def condition_name(condition: object) -> str:
    """A condition that can be granted or removed (derived ones follow from Health and Fatigue)."""
    if not isinstance(condition, str):
        raise IllegalCommand(f"a condition is a name, not {condition!r}")
    name = condition.strip().lower()
    if name in DERIVED_CONDITIONS:
        raise IllegalCommand(f"{name!r} follows from Health and Fatigue and cannot be granted or removed")
    if name not in GRANTABLE_CONDITIONS:
        known = ", ".join(sorted(GRANTABLE_CONDITIONS))
        raise IllegalCommand(f"unknown condition {condition!r}: expected one of {known}")
    return name


def direction(value: object) -> tuple[int, int] | None:
    """Where a cone or line faces: a compass name ("n", "se", ...) or a step (dx, dy), not (0, 0)."""
    if value is None:
        return None
    if isinstance(value, str) and value.strip().lower() in COMPASS:
        return COMPASS[value.strip().lower()]
    if isinstance(value, (tuple, list)) and len(value) == 2 and all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) and -1024 <= v <= 1024 for v in value) \
            and tuple(value) != (0, 0):
        return int(value[0]), int(value[1])
    raise IllegalCommand(f"a direction is a compass point ({', '.join(COMPASS)}) or a step (dx, dy) of whole "
                         f"numbers in -1024..1024, not both 0; not {value!r}")



# ------------------------------------------------------------------ the power table


def power_table(table: object) -> dict[str, Power]:
    """A battle's power table, copied: a mapping of power ids to :class:`Power`, each under its own id.
    Why checked whole, at once: a wrong entry would fail deep inside the first forecast that reads it."""
    if not isinstance(table, Mapping):
        raise IllegalCommand(f"the power table must be a mapping of power ids to powers, not {shown(table)}")
    for key, power in table.items():
        if not isinstance(power, Power):
            raise IllegalCommand(f"the power table's {shown(key)} must be a components.powers.Power, "
                                 f"not {shown(power)}")
        if key != power.id:
            raise IllegalCommand(f"the power table holds power {power.id!r} under {shown(key)}: "
                                 "each power goes under its own id")
    return dict(table)


def powers_kept(state: BattleState, table: Mapping[str, Power]) -> None:
    """Every power a creature of the battle has is in ``table`` (a new table must not take one away:
    its forecasts and turns would meet an id the battle no longer knows)."""
    for entity in state.creatures:
        for power_id in esper.component_for_entity(entity, Abilities).powers:
            if power_id not in table:
                raise IllegalCommand(f"the new power table lacks {power_id!r}, which {label(entity)} has")


# ------------------------------------------------------------------ rounds and snapshots
