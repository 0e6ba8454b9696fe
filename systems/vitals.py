"""Small predicates over Health and Fatigue that several systems read the same way."""

from __future__ import annotations

from collections.abc import Set

from components import Conditions, Falling, Fatigue, Health, Movement

#: The conditions under which a creature carries out no command of its own, worst first.
HELPLESS = ("dead", "unconscious", "downed")
_HELPLESS = frozenset(HELPLESS)


def dead_at(health: int, fatigue: int, most: int) -> bool:
    """Dead means 0 Health and a full Fatigue track (``most`` points), and nothing changes the
    creature after that: the rule on plain numbers, for a forecast of what a hit would leave."""
    return health == 0 and fatigue >= most


def is_dead(health: Health, fatigue: Fatigue) -> bool:
    """:func:`dead_at` of a creature's components (its test written out: every check of a target asks
    it, and a call costs more than the test)."""
    return health.current == 0 and fatigue.level >= fatigue.maximum


def can_act(conditions: Conditions) -> bool:
    """Whether a creature can carry out its own commands: not downed, unconscious or dead."""
    return conditions.active.isdisjoint(_HELPLESS)


def takes_its_turn(active: Set[str], falling: Falling) -> bool:
    """Whether a creature with these ``active`` conditions can play a turn now: not dead, unconscious
    or downed, and not still falling from an earlier round (a faller does nothing until it lands).
    What the computer players and the threat forecast ask of each creature, mine or an enemy."""
    return active.isdisjoint(_HELPLESS) and falling.start_z is None


def stands_if_healed(active: Set[str]) -> bool:
    """Whether healing a downed creature with these ``active`` conditions above 0 Health leaves it
    able to act: a heal takes away only ``downed``, so not when it is unconscious (its Fatigue) or
    dead too. The heal's forecast and the computer player's worth of a heal both ask it."""
    return "unconscious" not in active and "dead" not in active


def helpless_state(conditions: Conditions) -> str | None:
    """The worst of :data:`HELPLESS` the creature is in (what a refusal tells), or None when it can act."""
    return next((c for c in HELPLESS if c in conditions.active), None)


def helpless_problem(conditions: Conditions, doing: str = "act") -> str | None:
    """Why a helpless creature cannot ``doing`` ("it is downed and cannot act"), or None when it can
    act: the one wording of every refusal of a helpless creature's own order (a use, a move, a stand,
    ending its effect early), naming the worst state it is in."""
    state = helpless_state(conditions)
    return None if state is None else f"it is {state} and cannot {doing}"


def is_flying(movement: Movement, conditions: Conditions) -> bool:
    """Whether something other than the ground holds the creature up: a power (or the GM) granted it
    flight, or it flies by nature and is conscious to do it (an unconscious bird falls: "if there is
    nothing supporting your character, you fall"). The one test falls, moves, pushes, forecasts and
    the window use."""
    if "flying" in conditions.granted:  # (``has_granted``, without its call)
        return True
    return movement.flying and "unconscious" not in conditions.active
