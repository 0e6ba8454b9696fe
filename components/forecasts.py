"""What would happen: the frozen values the rules' forecasts return.

A forecast is computed by the same functions that resolve a use or a move, so these values are the
odds the dice will have. They are plain data, safe to keep, compare and show.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RollMode:
    """How a roll is made ("normal", "advantage", "disadvantage", "critical failure") and why."""

    mode: str
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Modifier:
    """One term added to a number, with what it is and why it applies."""

    name: str
    amount: int
    reason: str


@dataclass(frozen=True, slots=True)
class DefenseBreakdown:
    """A Defense against one attacker: the total, the base and each modifier; ``cover`` whether walls
    counted."""

    value: int
    base: int
    modifiers: tuple[Modifier, ...] = ()
    cover: bool = False
