"""What happened, as immutable records: the only way systems report to logs, replays, tests and scripts.

Each event is a fact in the past tense, stamped with the round it happened in. They are frozen slots
dataclasses rather than esper's string events so that they can be compared, stored and replayed.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

#: The fields of an event that hold one creature's id (``CombatStarted.order`` holds several): what
#: a log shows as names and a fog of war reads to drop events about creatures a team does not see.
CREATURE_FIELDS = ("entity", "target", "by")


def _snake_case(name: str) -> str:
    """``FellOff`` -> ``fell_off``: an event class's name as logs and scripts spell its kind."""
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event: the round (0 before combat) it happened in."""

    round: int

    #: The class's kind, worked out once when the class is made: every event's ``kind`` is read
    #: by the log, the reactions and saves, far more often than a class is made.
    _KIND: ClassVar[str] = "event"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Each event class names its own kind (also the copy ``dataclass(slots=True)`` makes of it).

        ``super`` is named explicitly: the zero-argument form points at the class before the
        slots copy replaced it, of which the subclasses are not subclasses.
        """
        super(Event, cls).__init_subclass__(**kwargs)
        cls._KIND = _snake_case(cls.__name__)

    @property
    def kind(self) -> str:
        """Snake-case name used by logs and script reactions (``Damaged`` -> ``damaged``)."""
        return self._KIND

    def as_dict(self) -> dict[str, Any]:
        """Plain values with the kind, for saves, replays and scripts."""
        data: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            value = getattr(self, f.name)
            data[f.name] = list(value) if isinstance(value, tuple) else value
        return data


@dataclass(frozen=True, slots=True)
class Spawned(Event):
    entity: int
    name: str
    team: str
    x: int
    y: int
    z: float


@dataclass(frozen=True, slots=True)
class CombatStarted(Event):
    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class InitiativeRolled(Event):
    entity: int
    roll: int
    total: int


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    pass


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    entity: int


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    pass


@dataclass(frozen=True, slots=True)
class Moved(Event):
    entity: int
    from_square: tuple[int, int]
    to_square: tuple[int, int]
    cost_ft: int
    z: float


@dataclass(frozen=True, slots=True)
class StoodUp(Event):
    entity: int


@dataclass(frozen=True, slots=True)
class CommandRefused(Event):
    entity: int
    command: str
    reason: str


@dataclass(frozen=True, slots=True)
class Fell(Event):
    """One round's stretch of a fall: from ``from_z`` down to ``to_z`` (feet)."""

    entity: int
    from_z: float
    to_z: float


@dataclass(frozen=True, slots=True)
class Landed(Event):
    """The end of a fall: its whole distance, the dice it cost and the damage rolled."""

    entity: int
    distance_ft: float
    dice: int
    damage: int
    soft: bool


@dataclass(frozen=True, slots=True)
class Damaged(Event):
    entity: int
    amount: int
    health: int
    source: str


@dataclass(frozen=True, slots=True)
class Healed(Event):
    entity: int
    amount: int
    health: int
    source: str


@dataclass(frozen=True, slots=True)
class Downed(Event):
    entity: int


@dataclass(frozen=True, slots=True)
class Revived(Event):
    """Healed above 0 health: no longer downed."""

    entity: int


@dataclass(frozen=True, slots=True)
class FatigueChanged(Event):
    entity: int
    amount: int
    level: int
    reason: str


@dataclass(frozen=True, slots=True)
class Unconscious(Event):
    entity: int


@dataclass(frozen=True, slots=True)
class Died(Event):
    entity: int


@dataclass(frozen=True, slots=True)
class ConditionGained(Event):
    entity: int
    condition: str
    source: str


@dataclass(frozen=True, slots=True)
class ConditionLost(Event):
    entity: int
    condition: str
    source: str


@dataclass(frozen=True, slots=True)
class MapChanged(Event):
    """The GM changed the map mid-battle (ground, walls, light, areas)."""

    what: str
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class PowerUsed(Event):
    entity: int
    power: str
    target: int | None
    point: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class AttackRolled(Event):
    """An attack roll: ``defense`` is the target's against this attacker, ``cover`` whether walls added to it."""

    entity: int
    target: int
    power: str
    roll: int
    mode: str
    total: int
    defense: int
    hit: bool
    cover: bool = False


@dataclass(frozen=True, slots=True)
class SaveRolled(Event):
    entity: int
    power: str
    roll: int
    mode: str
    total: int
    dc: int
    success: bool


@dataclass(frozen=True, slots=True)
class Pushed(Event):
    entity: int
    from_square: tuple[int, int]
    to_square: tuple[int, int]
    by: int


@dataclass(frozen=True, slots=True)
class Teleported(Event):
    entity: int
    from_square: tuple[int, int]
    to_square: tuple[int, int]


@dataclass(frozen=True, slots=True)
class AreaCreated(Event):
    """A power made an area (fog, smoke, darkness) or a light; ``what`` says which."""

    effect: int
    what: str
    x: int
    y: int
    radius_ft: float
    level: str


@dataclass(frozen=True, slots=True)
class EffectEnded(Event):
    effect: int
    power: str
    entity: int
    reason: str


@dataclass(frozen=True, slots=True)
class ScriptFailed(Event):
    """A script broke a limit or failed: its commands were dropped and the battle is as it was."""

    script: str
    function: str
    reason: str
