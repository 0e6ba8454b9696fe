"""Requests: what someone asked the battle to do, queued until a system applies it.

A command is validated when it is issued (so a person gets an error at once) and again when a system
applies it (the world may have changed in between); the second check reports a ``CommandRefused``
event instead of raising, because a tick must never fail halfway.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Hit:
    """One hit of damage; each is resolved on its own, in order (two hits at 0 health are two fatigue).

    ``landing`` marks a fall's own hit, which the GM phase resolves at once (a creature dropped there
    lands before the next command): a flag, not the source's name, so that damage a GM or a script
    calls "fall" waits its turn like any other.
    """

    target: int
    amount: int
    source: str = "gm"
    landing: bool = False


@dataclass(frozen=True, slots=True)
class Heal:
    target: int
    amount: int
    source: str = "gm"


@dataclass(frozen=True, slots=True)
class ChangeFatigue:
    """Gain (positive) or recover (negative) fatigue outside of damage: exhaustion, rest, powers."""

    target: int
    amount: int
    reason: str = "gm"


@dataclass(frozen=True, slots=True)
class Move:
    """A creature's own move to a square, along a path around walls, within its speed."""

    actor: int
    x: int
    y: int
    #: the battle's stamp when the move was found legal (``systems.state.check_stamp``): at
    #: resolution an unchanged stamp means the same answer, so the check is not made again
    checked: tuple[object, ...] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Stand:
    """A prone creature gets up, spending half its speed."""

    actor: int


HealthRequest = Hit | Heal


@dataclass(frozen=True, slots=True)
class UsePower:
    """A creature's use of a power on a creature or at a point, resolved on its turn."""

    actor: int
    power: str
    target: int | None = None
    point: tuple[int, int] | None = None
    direction: tuple[int, int] | None = None  # where a cone or line faces, as a step (dx, dy)
    #: what the battle looked like when the use was found legal (``systems.state.check_stamp``);
    #: at resolution an unchanged stamp means the same answer, so the check is not made again
    checked: tuple[object, ...] | None = field(default=None, compare=False, repr=False)


ActorCommand = Move | Stand | UsePower


@dataclass(frozen=True, slots=True)
class GrantCondition:
    """Grant a condition now, counted under ``source`` (the GM's, a script's or a power's)."""

    target: int
    condition: str
    source: str = "gm"
    effect: int | None = None  # the ongoing effect that holds the grant (it ends with the effect)


@dataclass(frozen=True, slots=True)
class RevokeCondition:
    """End a granted condition now: every grant of it, or only ``source``'s.

    ``spare_live_effects``: grants held by an ongoing effect stay (a script cures what it can, but
    cannot cut another's power short).
    """

    target: int
    condition: str
    source: str | None = None
    spare_live_effects: bool = False


@dataclass(frozen=True, slots=True)
class StartCombat:
    """Roll initiative and fix the turn order; the unprepared are surprised."""


@dataclass(frozen=True, slots=True)
class EndCombat:
    """Leave combat: no turn order, and what surprise is left ends."""


@dataclass(frozen=True, slots=True)
class EndEffect:
    """End an ongoing effect now (a power whose duration allows it to be ended early)."""

    effect: int
    reason: str = "ended early"


GmCommand = GrantCondition | RevokeCondition | StartCombat | EndCombat | EndEffect
