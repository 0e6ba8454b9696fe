"""What-ifs of scripts: their commands for an event or a use that has not happened, none applied.

Split from :mod:`game.battle.reactions` (which runs reactions for real). A what-if is asked often
(a planner weighs a few squares a turn), and a script call costs tens of microseconds in process and
a pipe round trip in a worker, so answers are remembered with the reads they rested on: a script is
hermetic, its reads are all it knows, so while every one of those reads answers the same, so does
the script, and it need not run again. Nothing here is charged to a battle's script budgets.

A power's script is foreseen with its dice read at fixed quantiles (:func:`quantiles`): in five
runs, one with every die at its 10th percentile, one at its 30th, and so on. The runs stand for
equal slices of the dice's odds, so their mean is a fair estimate of the mean, and the share of runs
in which a blow downs someone a fair estimate of that chance; and no die is rolled, so the answer is
a function of the reads alone and is remembered like a reaction's, and the battle's generator is
never touched.
"""

from __future__ import annotations

import copy
import functools
import math
from statistics import NormalDist
from typing import Any

from components.dice import Dice
from components.events import Event
from components.values import Bound
from game.battle.script_bridge import READS, ScriptBridge
from game.scripting import InProcessHost, WorkerHost
from systems.odds import dice_outcomes

#: What-if questions a battle remembers (one a creature and reaction, in practice), and answers
#: kept for each (a few squares the planner stands on)
MEMO_KEYS = 256
MEMO_ANSWERS = 4

#: The most runs a power's what-if may ask for (each is a call of the script).
MAX_RUNS = 9
#: How many runs ``Battle.foresee_script`` takes.
RUNS = Bound(1, MAX_RUNS)

#: Above this many faces in all (count x sides) a what-if reads dice off the normal curve of their
#: sum (mean and spread exact, the curve the law of large sums), not their exact odds: those of a
#: stranger's 1000d1000 take a second to work out, where a real roll of them takes 200 us.
EXACT_OUTCOMES = 4096

#: Commands whose check reads nothing but the creature and the amount or condition named: a what-if
#: that asked only these is remembered with its reads (a move's, a push's or a light's check reads the
#: map and who stands where, which no read records).
STABLE_COMMANDS = frozenset({"damage", "heal", "add_condition", "remove_condition"})


#: The types a read's answer may hold that no one can change (see ``_kept``).
_SCALARS = frozenset({int, float, str, bool, type(None)})


def quantiles(runs: int) -> tuple[float, ...]:
    """Where a power's what-if of ``runs`` runs reads every die it rolls, one run each: the middles of
    ``runs`` equal slices of the odds (five runs: 0.1, 0.3, 0.5, 0.7, 0.9; one: the median)."""
    return tuple((i + 0.5) / runs for i in range(runs))


#: One run's commands, ``(method, args)`` in the order asked.
Asked = tuple[tuple[str, tuple[Any, ...]], ...]


def quantile_roll(notation: object, quantile: float) -> int:
    """The least value of the dice ``notation`` names that they roll at or under with chance
    ``quantile`` (what a what-if reads for ``ctx.roll``).

    Raises:
        ValueError: notation that is not dice, as ``ctx.roll`` refuses it.
    """
    try:
        dice = Dice.parse(notation)
    except ValueError as err:
        raise ValueError(f"roll: {err}") from None
    if dice.count * dice.sides > EXACT_OUTCOMES:  # (a stranger's 1000d1000: its odds take a second)
        spread = math.sqrt(dice.count * (dice.sides * dice.sides - 1) / 12)
        value = round(NormalDist(dice.average(), spread or 1.0).inv_cdf(min(max(quantile, 1e-9), 1 - 1e-9)))
        low, high = dice.count + dice.bonus, dice.count * dice.sides + dice.bonus
        return max(0, min(max(value, low), high))
    values = sorted(dice_outcomes(dice).items())
    total = 0.0
    for value, p in values:
        total += p
        if total >= quantile - 1e-12:
            return value
    return values[-1][0]


def _kept(value: Any) -> Any:
    """A read's answer as a what-if's memo keeps it: a copy that nothing can change under it (a plain
    scalar is its own; a flat list of scalars, a position or the creatures in an area, a shallow copy,
    which is a deep one there; anything else a deep copy)."""
    kind = type(value)
    if kind is int or kind is str or kind is float or kind is bool:
        return value
    if kind is list:
        for item in value:
            if type(item) not in _SCALARS:
                return copy.deepcopy(value)
        return list(value)
    return copy.deepcopy(value)


def small_fields(event: Event) -> dict[str, Any]:
    """The few fields a reaction needs: passing a big dict into starlark costs microseconds per key."""
    data: dict[str, Any] = {"kind": event.kind, "round": event.round}
    for key in ("entity", "amount", "health", "distance_ft", "damage"):
        value = getattr(event, key, None)
        if value is not None:
            data[key] = value
    return data


def reaction_ctx(owner: int | None, event: Event) -> dict[str, Any]:
    """The ``ctx`` fields a reaction is called with: the same for a real call and a what-if, so a
    what-if answers as the real call would."""
    return {"me": -1 if owner is None else owner, "round": event.round, "power": "", "user": -1}


class Foreseer:
    """Runs reaction functions as what-ifs on one battle's host and bridge, and owns their memo."""

    def __init__(self, host: InProcessHost | WorkerHost, bridge: ScriptBridge) -> None:
        self.host = host
        self.bridge = bridge
        #: question -> answers with the reads they rested on (a reaction's commands, or a power's runs)
        self.memo: dict[tuple[Any, ...], list[tuple[tuple[Any, ...], Any]]] = {}
        #: scripts whose what-if failed once: not foreseen again in this battle
        self.failed: set[str] = set()
        #: (dice notation, quantile) -> the value read there: a planner asks the same few dice all battle
        self.quantiles: dict[tuple[str, float], int] = {}

    def call(self, name: str, function: str, owner: int | None, event: Event
             ) -> list[tuple[str, tuple[Any, ...]]]:
        """One reaction's commands for a what-if: remembered with the reads they rested on, and
        given again without running the script while every one of those reads answers the same
        (a script is hermetic: its reads are all it knows, so the same answers make the same
        commands). A what-if that rolled dice is never remembered."""
        fields = small_fields(event)
        key = (name, function, owner, tuple(sorted(fields.items())))
        kept = self.memo.get(key, [])
        for reads, commands in kept:
            if all(self.same_answer(method, args, value) for method, args, value in reads):
                return list(commands)
        asked: list[tuple[str, tuple[Any, ...]]] = []
        reads_seen: list[tuple[str, tuple[Any, ...], Any]] = []
        ctx = reaction_ctx(owner, event)
        self.bridge.ctx = ctx
        self.host.call(name, function, args=(ctx, fields),
                       bridge=lambda method, args: self.answer(method, args, asked, reads_seen),
                       max_steps=self.host.limits.max_steps)
        if not any(method == "roll" for method, _, _ in reads_seen):
            if len(self.memo) >= MEMO_KEYS and key not in self.memo:
                del self.memo[next(iter(self.memo))]  # the oldest question
            self.memo[key] = [(tuple(reads_seen), tuple(asked)), *kept][:MEMO_ANSWERS]
        return asked

    def power(self, name: str, function: str, ctx: dict[str, Any], args: tuple[Any, ...], runs: int = 5
              ) -> tuple[Asked, ...]:
        """A power script's commands for a use that has not happened, one run for each of
        :func:`quantiles` (its dice read there): remembered with the reads they rested on, as a
        reaction's are (the dice are no read: each run's are fixed by its quantile).

        Raises:
            ScriptError: the script failed in a run (a loop past its steps, a refused command).
        """
        key = ("power", name, function, tuple(sorted(ctx.items())), args, runs)
        kept = self.memo.get(key, [])
        for reads, answered in kept:
            if all(self.same_answer(method, call, value) for method, call, value in reads):
                return answered  # type: ignore[no-any-return]
        reads_seen: list[tuple[str, tuple[Any, ...], Any]] = []
        found = []
        self.bridge.ctx = ctx
        for quantile in quantiles(runs):
            asked: list[tuple[str, tuple[Any, ...]]] = []
            # (a partial, not a closure: the host calls it on every ctx call, and a partial adds no frame)
            answer = functools.partial(self.answer, asked=asked, reads=reads_seen, quantile=quantile)
            self.host.call(name, function, args=(ctx, *args), bridge=answer, max_steps=self.host.limits.max_steps)
            found.append(tuple(asked))
        if all(method in STABLE_COMMANDS for run in found for method, _ in run):
            if len(self.memo) >= MEMO_KEYS and key not in self.memo:
                del self.memo[next(iter(self.memo))]  # the oldest question
            self.memo[key] = [(tuple(reads_seen), tuple(found)), *kept][:MEMO_ANSWERS]
        return tuple(found)

    def _rolled(self, notation: Any, quantile: float) -> int:
        """What dice ``notation`` roll at ``quantile`` (kept by notation and quantile: a planner asks the
        same few dice all battle)."""
        dice = (notation, quantile) if isinstance(notation, str) else None
        value = self.quantiles.get(dice) if dice is not None else None
        if value is None:
            value = quantile_roll(notation, quantile)
            if dice is not None and len(self.quantiles) < MEMO_KEYS:
                self.quantiles[dice] = value
        return value

    def same_answer(self, method: str, args: tuple[Any, ...], value: Any) -> bool:
        """Whether a read remembered from an earlier what-if answers the same now."""
        try:
            return bool(self.bridge.read(method, args) == value)
        except (LookupError, ValueError):
            return False

    def answer(self, method: str, args: tuple[Any, ...], asked: list[tuple[str, tuple[Any, ...]]],
               reads: list[tuple[str, tuple[Any, ...], Any]], quantile: float | None = None) -> Any:
        """The host's bridge for a what-if: a read is answered and noted with its answer; a command
        is checked as the real one would be and noted, never buffered. In a power's run (``quantile``
        given) a roll is read at that quantile (:func:`quantile_roll`), and is no read to note: each
        run's dice are fixed by its quantile."""
        if method in READS:
            if quantile is not None and method == "roll":
                return self.bridge.weighed(self._rolled(args[0], quantile), method, args)
            value = self.bridge.read(method, args)
            reads.append((method, tuple(args), _kept(value)))
        else:  # (the host counts the commands against Limits.max_commands before it asks)
            self.bridge.command(method, args, len(asked))  # refused as the real one would be
            asked.append((method, tuple(args)))
            value = None
        return self.bridge.weighed(value, method, args)
