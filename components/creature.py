"""Components a creature carries.

Hot values that change every tick (health, position, fatigue) are mutable slots dataclasses
mutated in place: replacing them through esper would rebuild its query cache on every hit.
Values that are replaced whole or never change (identity, readiness) are frozen.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from components.values import unprintable


class Visibility(enum.IntEnum):
    """How well a creature can see, ordered so that ``NORMAL > POOR > TERRIBLE > NO_VISION``.

    An IntEnum so that "the worse of two levels" is ``min`` and grids of levels fit in numpy.
    """

    NO_VISION = 0
    TERRIBLE = 1
    POOR = 2
    NORMAL = 3

    @classmethod
    def parse(cls, value: Visibility | str | int) -> Visibility:
        """Accept an enum, its name in any case (``"no vision"``, ``"NO_VISION"``) or its number.

        Scenario files and scripts name levels as strings; one parser keeps their errors alike.
        """
        if isinstance(value, Visibility):
            return value
        if isinstance(value, bool):
            raise ValueError(f"visibility level must be a name or 0-3, not {value!r}")
        if isinstance(value, int):
            try:
                return cls(value)
            except ValueError:
                raise ValueError(f"visibility level must be 0-3, not {value}") from None
        if isinstance(value, str):
            key = value.strip().upper().replace(" ", "_").replace("-", "_")
            if key in cls.__members__:
                return cls[key]
        raise ValueError(f"unknown visibility level {value!r}: expected one of {level_words()}")

    @property
    def word(self) -> str:
        """The level as files, scripts and people spell it: ``"no vision"`` for ``NO_VISION``."""
        return self.name.lower().replace("_", " ")


def level_words() -> str:
    """Every level's word, best first: what an error lists when a file names no level it knows."""
    return ", ".join(level.word for level in sorted(Visibility, reverse=True))


def _require(ok: bool, message: str) -> None:
    if not ok:
        raise ValueError(message)


@dataclass(slots=True)
class Health:
    """The Health pool: ``current`` points out of ``maximum``, never below 0 nor above the maximum."""

    current: int
    maximum: int

    def __post_init__(self) -> None:
        _require(isinstance(self.maximum, int) and self.maximum > 0,
                 f"Health.maximum must be a positive integer, not {self.maximum!r}")
        _require(isinstance(self.current, int) and 0 <= self.current <= self.maximum,
                 f"Health.current must be an integer in 0..{self.maximum}, not {self.current!r}")


@dataclass(slots=True)
class Fatigue:
    """The Fatigue track: ``level`` points, 0 up to ``maximum`` (5 unless the rules say otherwise)."""

    level: int = 0
    maximum: int = 5

    def __post_init__(self) -> None:
        _require(isinstance(self.maximum, int) and self.maximum > 0,
                 f"Fatigue.maximum must be a positive integer, not {self.maximum!r}")
        _require(isinstance(self.level, int) and 0 <= self.level <= self.maximum,
                 f"Fatigue.level must be an integer in 0..{self.maximum}, not {self.level!r}")


@dataclass(slots=True)
class Position:
    """Where a creature is: ``x``, ``y`` in squares, ``z`` (its feet) in feet above the datum."""

    x: int
    y: int
    z: float = 0

    def __post_init__(self) -> None:
        _require(isinstance(self.x, int) and isinstance(self.y, int),
                 f"Position x and y must be whole squares, not ({self.x!r}, {self.y!r})")

    @property
    def square(self) -> tuple[int, int]:
        """The square as a tuple, the key every grid lookup uses."""
        return (self.x, self.y)


@dataclass(slots=True)
class Vision:
    """How well the creature sees this tick: its square's level worsened by its own conditions."""

    level: Visibility = Visibility.NORMAL


@dataclass(slots=True)
class Cover:
    """What the cover system found this tick against the creature's nearest enemy.

    ``against`` is that enemy (None when there is none), ``blocked`` how many of the four corner lines
    a solid square cut, and ``covered`` whether that reaches the rules' threshold.
    """

    against: int | None = None
    blocked: int = 0
    covered: bool = False


@dataclass(frozen=True, slots=True)
class Creature:
    """Who the creature is: a display name and the team it fights for."""

    name: str
    team: str

    def __post_init__(self) -> None:
        _require(isinstance(self.name, str) and self.name.strip() != "",
                 f"a creature needs a non-empty name, not {self.name!r}")
        _require(isinstance(self.team, str) and self.team != "", f"team must be a non-empty string, not {self.team!r}")
        for what, text in (("name", self.name), ("team", self.team)):  # both are drawn and logged
            _require(unprintable(text) is None, f"a creature's {what} may not hold control characters, not {text!r}")


@dataclass(slots=True)
class Defense:
    """Base Defense and attack bonus; cover and flat-footed are applied per attack, never stored here."""

    base: int = 10
    attack_bonus: int = 0

    def __post_init__(self) -> None:
        _require(isinstance(self.base, int), f"defense must be an integer, not {self.base!r}")
        _require(isinstance(self.attack_bonus, int), f"attack bonus must be an integer, not {self.attack_bonus!r}")


@dataclass(slots=True)
class Movement:
    """Speed per round in feet, how much of it this round has used, and whether the creature flies."""

    speed_ft: int = 30
    used_ft: int = 0
    flying: bool = False

    def __post_init__(self) -> None:
        _require(isinstance(self.speed_ft, int) and self.speed_ft >= 0,
                 f"speed must be a non-negative number of feet, not {self.speed_ft!r}")


@dataclass(slots=True)
class Falling:
    """A fall in progress: where it started (None when standing) and how far it went this round.

    A field rather than a marker component, so starting and ending a fall never rebuilds esper's cache.
    """

    start_z: float | None = None
    fallen_this_round: float = 0


@dataclass(frozen=True, slots=True)
class Readiness:
    """Whether the creature expects a fight when combat starts, and its initiative bonus."""

    prepared: bool = True
    initiative_bonus: int = 0


@dataclass(slots=True)
class Conditions:
    """Conditions granted by sources, counted, and the full set derived from them each tick.

    ``granted`` maps a condition to the sources that grant it (a source key to a count): a condition
    stays while any source still grants it, so two overlapping powers never cancel each other.
    ``active`` is what the conditions system derived: the granted ones plus downed, slowed, ...
    """

    granted: dict[str, dict[str, int]] = field(default_factory=dict)
    active: frozenset[str] = frozenset()

    def grant(self, condition: str, source: str) -> bool:
        """Add one grant; True when the condition was not granted before (so it was just gained)."""
        sources = self.granted.setdefault(condition, {})
        sources[source] = sources.get(source, 0) + 1
        return sum(sources.values()) == 1

    def revoke(self, condition: str, source: str | None = None, every: bool = False) -> bool:
        """Drop one grant by ``source`` (all of its grants with ``every``; every source's when None).

        Returns True when the condition is now gone.
        """
        sources = self.granted.get(condition)
        if not sources:
            return False
        if source is None:
            sources.clear()
        elif source in sources:
            sources[source] = 0 if every else sources[source] - 1
            if sources[source] <= 0:
                del sources[source]
        else:
            return False
        if not sources:
            del self.granted[condition]
            return True
        return False

    def has_granted(self, condition: str) -> bool:
        """Whether any source grants ``condition`` (derived conditions are not counted here)."""
        return condition in self.granted


@dataclass(frozen=True, slots=True)
class Abilities:
    """The ids of the powers a creature can use; empty means any power of the battle (GM creatures)."""

    powers: tuple[str, ...] = ()
