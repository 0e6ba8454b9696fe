"""What would happen: the frozen values the rules' forecasts return.

A forecast is computed by the same functions that resolve a use or a move, so these values are the
odds the dice will have. They are plain data, safe to keep, compare and show.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple


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


@dataclass(frozen=True, slots=True)
class Distribution:
    """Chances of whole-number outcomes (damage, healing): ``(value, probability)`` pairs by value."""

    outcomes: tuple[tuple[int, float], ...] = ((0, 1.0),)
    #: the mean, once asked (a planner asks it of the same shared distribution thousands of times)
    _mean: float | None = field(default=None, init=False, compare=False, repr=False)

    @property
    def mean(self) -> float:
        found = self._mean
        if found is None:
            found = sum(v * p for v, p in self.outcomes)
            object.__setattr__(self, "_mean", found)  # a cache of a frozen value's own function
        return found

    @property
    def low(self) -> int:
        return min(v for v, p in self.outcomes if p > 0)

    @property
    def high(self) -> int:
        return max(v for v, p in self.outcomes if p > 0)

    def at_least(self, value: int) -> float:
        """P(outcome >= value)."""
        return sum(p for v, p in self.outcomes if v >= value)

    @classmethod
    def of(cls, chances: dict[int, float]) -> Distribution:
        """From a mapping of outcome to probability (zero-probability outcomes dropped)."""
        return cls(tuple(sorted((v, p) for v, p in chances.items() if p > 0)) or ((0, 1.0),))


@dataclass(frozen=True, slots=True)
class AttackOdds:
    """An attack roll: d20 under ``mode`` + ``bonus`` against ``defense``; ``chance`` that it hits."""

    mode: RollMode
    bonus: int
    defense: DefenseBreakdown
    chance: float


@dataclass(frozen=True, slots=True)
class SaveOdds:
    """A target's save: d20 under ``mode`` against ``dc``; ``chance`` that it succeeds."""

    mode: RollMode
    dc: int
    chance: float
    half_on_success: bool


@dataclass(frozen=True, slots=True)
class FallOdds:
    """A fall: how far, onto what, how many dice (of ``die_sides`` sides: a rules key) and the
    damage they do."""

    distance_ft: float
    soft: bool
    dice: int
    damage: Distribution
    die_sides: int


@dataclass(frozen=True, slots=True)
class TargetForecast:
    """What a use would do to one creature it reaches.

    ``affected`` is the chance that its effects apply in full (the attack hits, or the save fails);
    ``damage`` and ``healing`` count every outcome (misses as 0, saves halved); ``downs`` is the
    chance the damage (with a fall it causes) drops it to 0 Health; ``kills`` the chance it leaves
    it dead (at 0 Health with a full Fatigue track: each hit at 0 costs fatigue); ``revives`` the
    chance the healing brings a creature at 0 Health back above it (no longer downed, the battle's
    ``Revived``); ``stands`` the chance that leaves it able to act again (not when it is unconscious
    too: a heal does not wake it).
    """

    target: int
    ally: bool
    affected: float
    attack: AttackOdds | None = None
    save: SaveOdds | None = None
    damage: Distribution | None = None
    healing: Distribution | None = None
    conditions: tuple[str, ...] = ()
    pushed_to: tuple[int, int] | None = None
    fall: FallOdds | None = None
    downs: float = 0.0
    kills: float = 0.0
    revives: float = 0.0
    stands: float = 0.0


@dataclass(frozen=True, slots=True)
class ScriptEstimate:
    """What a power's script did over ``trials`` uses on a copy of the battle: an estimate, not odds.

    ``damage`` and ``healing`` are mean amounts requested per creature (entity -> points); ``failed``
    counts the trials in which the script failed.
    """

    trials: int
    damage: tuple[tuple[int, float], ...] = ()
    healing: tuple[tuple[int, float], ...] = ()
    failed: int = 0


@dataclass(frozen=True, slots=True)
class PowerForecast:
    """What using a power would do, from the rules themselves.

    ``problem`` says why the use is illegal (None when it is legal). ``squares`` is the area it
    would cover; ``targets`` the creatures it would reach, each with its odds. ``scripted`` says a
    script decides part of the outcome: ``estimate`` then holds what trials on a copy showed.
    """

    user: int
    power: str
    legal: bool
    problem: str | None
    from_square: tuple[int, int]
    target: int | None = None
    point: tuple[int, int] | None = None
    squares: tuple[tuple[int, int], ...] = ()
    targets: tuple[TargetForecast, ...] = ()
    scripted: bool = False
    estimate: ScriptEstimate | None = None

    @property
    def expected_damage(self) -> float:
        """Expected damage to enemies minus expected damage to allies (friendly fire counts)."""
        return sum((-1 if t.ally else 1) * t.damage.mean for t in self.targets if t.damage is not None)


class Outcome(NamedTuple):
    """A :class:`TargetForecast`'s numbers, without how the roll is made and why: what a planner
    weighs, many times a turn (``damage``, ``healing`` and ``fall`` are the means of the forecast's
    distributions, None where it has none)."""

    target: int
    ally: bool
    affected: float
    damage: float | None
    healing: float | None
    fall: float | None  # the mean damage of the fall a push causes
    conditions: tuple[str, ...]
    downs: float
    kills: float


class UseOutcome(NamedTuple):
    """A :class:`PowerForecast`'s numbers for a planner: whether the use is legal, whether a script
    decides part of it, and each creature's :class:`Outcome`."""

    power: str
    legal: bool
    scripted: bool
    targets: tuple[Outcome, ...]


@dataclass(frozen=True, slots=True)
class ScriptForesight:
    """What a power's script would ask for in a use not yet made (``Battle.foresee_script``): its
    ``on_hit`` when the use lands on ``target`` (the creature hit), or its ``on_use`` when ``target``
    is None.

    ``runs`` holds the commands asked in each run, ``(method, args)`` in order, one run for each
    quantile its dice were read at. ``outcomes`` are their numbers for each creature they touch, as
    a planner weighs a forecast's: the share of runs that hurt or heal it (``affected``), the mean
    damage and healing over all runs, the share that down it and that kill it; then one more for
    each condition granted, with the share of runs that grant it as ``affected``. Commands that move
    creatures or make lights and areas are in ``runs`` only. ``known`` is False when the script
    failed or is out: nothing is foreseen.
    """

    power: str
    target: int | None
    known: bool = True
    runs: tuple[tuple[tuple[str, tuple[object, ...]], ...], ...] = ()
    outcomes: tuple[Outcome, ...] = ()


class MoveForecast(NamedTuple):
    """What a move to a square would do.

    ``stops_at`` is where the creature would end up (a walk stops at the first square with nothing
    under it), ``path`` the squares it would cross, ``fall`` the fall that follows if any, ``z`` the
    height it is left at (a flier's flight, raised by higher ground; a walker's ground there, after
    the fall; None for a move it cannot make). ``cover``
    maps each living enemy to whether the walls would give cover from it there; ``visibility`` is
    the light at that square and ``vision`` the creature's own sight there.

    (A NamedTuple, as :class:`Threat` is: a planner asks for a few squares' moves every turn, and a frozen
    dataclass's ``__init__`` pays a setattr call for each of these twelve fields.)
    """

    entity: int
    square: tuple[int, int]
    legal: bool
    problem: str | None
    cost_ft: int | None = None
    path: tuple[tuple[int, int], ...] = ()
    stops_at: tuple[int, int] | None = None
    fall: FallOdds | None = None
    cover: tuple[tuple[int, bool], ...] = ()
    visibility: int = 3
    vision: int = 3
    z: float | None = None


class ThreatSource(NamedTuple):
    """One enemy's best blow at a creature standing on a square: its power, the chance the blow lands
    (hits, or the save fails) and the damage it would do on average, the chance included. A planner's
    numbers, as :class:`Outcome` is (a NamedTuple: a plan asks a few dozen a turn, and a frozen
    dataclass's ``__init__`` pays a setattr call per field)."""

    enemy: int
    power: str
    chance: float
    expected: float
    covered: bool


class Threat(NamedTuple):
    """What a creature standing on ``square`` could take before its next turn: each enemy that could
    reach or shoot the square this round (speed plus reach), with its best power there (a NamedTuple,
    as :class:`ThreatSource` is)."""

    entity: int
    square: tuple[int, int]
    expected: float = 0.0
    sources: tuple[ThreatSource, ...] = ()

    @property
    def covered_from(self) -> int:
        """How many of the threatening enemies the square gives cover from."""
        return sum(1 for s in self.sources if s.covered)


@dataclass(frozen=True, slots=True)
class ReactionForecast:
    """What the battle's reaction scripts would ask for on hearing one event now (a creature downed,
    say): each command checked but not applied, as ``(method, args)`` in the order asked.

    ``heard`` says some reaction script listens for the event at all (when none does, a planner
    need not ask again); ``known`` is False when a script failed or is out, so what it would do is
    not known. Python handlers (trusted code) are not foreseen. ``healed`` and ``hurt`` sum the heal
    and damage commands per creature (entity -> points).
    """

    event: str
    entity: int
    commands: tuple[tuple[str, tuple[object, ...]], ...] = ()
    known: bool = True
    heard: bool = False

    @property
    def healed(self) -> dict[int, int]:
        return self._summed("heal")

    @property
    def hurt(self) -> dict[int, int]:
        return self._summed("damage")

    def _summed(self, method: str) -> dict[int, int]:
        found: dict[int, int] = {}
        for name, args in self.commands:
            if name == method and len(args) == 2 and isinstance(args[0], int) and isinstance(args[1], int):
                found[args[0]] = found.get(args[0], 0) + args[1]
        return found
