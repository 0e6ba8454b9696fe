"""Ongoing effects of powers: what each one changed, so that it can be undone exactly when it ends."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class ActiveEffect:
    """A power's lasting effect and the grants it holds.

    The effect never stores "what the world was": it holds counted grants (conditions, lights,
    areas, flight) under its own ``source`` key, so ending it removes exactly its own grants and
    anything another live source still grants stays.
    """

    id: int
    power: str
    user: int
    source: str
    ends_after_round: int
    can_end_early: bool = False
    script: str | None = None
    conditions: list[tuple[int, str]] = field(default_factory=list)
    lights: list[int] = field(default_factory=list)
    areas: list[int] = field(default_factory=list)
    ended: bool = False
