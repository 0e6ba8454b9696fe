"""Requests: what someone asked the battle to do, queued until a system applies it.

A command is validated when it is issued (so a person gets an error at once) and again when a system
applies it (the world may have changed in between); the second check reports a ``CommandRefused``
event instead of raising, because a tick must never fail halfway.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Hit:
    """One hit of damage; each is resolved on its own, in order (two hits at 0 health are two fatigue)."""

    target: int
    amount: int
    source: str = "gm"


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


ActorCommand = Move | Stand | UsePower
