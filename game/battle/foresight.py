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

The answers are kept beside the script host (:meth:`game.scripting.ScriptHosts.kept`), not the battle:
the battles a worker plays one after another share a scenario, so the same question (the same script,
entry point and fields) comes again in a later battle, often with the same reads: nearly half of the
bench's what-ifs after a hundred battles. A kept answer rests on nothing of the battle that asked it
first: every read is asked again of the battle asking now, and every command checked again by its
rules and weighed again (a light costs by the map's size), so it is given only where running the
script would give it too (a battle plays the same whichever battles its worker played before).
"""

from __future__ import annotations

import functools
import math
from statistics import NormalDist
from typing import Any

from components.dice import Dice
from components.events import Event
from components.values import Bound
from game.battle.script_bridge import READS, WEIGHTED, ScriptBridge
from game.scripting import InProcessHost, WorkerHost
from systems.odds import dice_outcomes

#: How much each generation of kept what-ifs may hold (``WhatIfs``), in plain values read and answered (a
#: list counts each item, a command its name and each argument; about 150 bytes each): a worker may play
#: 100,000 battles; the bench's 4v4 keeps some 7,000 in its first hundred, then fewer and fewer new ones.
MEMO_SIZE = 8192
#: The dice read at a quantile a battle remembers (a planner asks the same few all battle).
MEMO_KEYS = 256

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


#: A read a script made: the method, its arguments and what it was told (``answered``).
Read = tuple[str, tuple[Any, ...], Any]

#: What no kept answer is taken for (an answer of a type ``_frozen`` does not know).
_UNKEPT = object()


def _frozen(value: Any) -> Any:
    """A read's answer as a key that tells apart every two answers a script could tell apart (1, 1.0
    and True are one key to a dict); ``_UNKEPT`` for what it does not know."""
    kind = type(value)
    if kind is int or kind is str or value is None:
        return value
    if kind is list:
        items = tuple(map(_frozen, value))
        return _UNKEPT if _UNKEPT in items else (list, items)
    if kind is bool:
        return (bool, value)
    if kind is float:
        return (float, repr(value))  # (-0.0 is 0.0 to a dict, not to str())
    return _UNKEPT


def _question(fields: dict[str, Any], *parts: Any) -> tuple[Any, ...] | None:
    """A what-if's question as the memo keys it: ``parts`` (script, entry point, arguments) and the ctx
    fields, each value frozen as a read's answer is (a field of 1.0 is not one of 1); None when one is
    of a kind not kept (the question is then asked of the script every time)."""
    flat = [*parts, len(fields)]
    for name in sorted(fields):
        flat += (name, fields[name])
    frozen = tuple(map(_frozen, flat))
    return None if _UNKEPT in frozen else frozen


class _Ask:
    """One read of a question's kept runs: every run that gave the same answers up to here makes it
    next (a script is deterministic), and ``then`` leads on by its answer to the next read or the end."""

    __slots__ = ("method", "args", "then")

    def __init__(self, method: str, args: tuple[Any, ...]) -> None:
        self.method, self.args = method, args
        self.then: dict[Any, _Ask | _End] = {}


class _End:
    """Where a question's reads lead when every one answered as kept: its answer."""

    __slots__ = ("answer",)

    def __init__(self, answer: Any) -> None:
        self.answer = answer


class WhatIfs:
    """Kept what-if answers: for each question (script, entry point, fields) a tree of the reads its
    runs made, in order, branching at each answer, ending in the commands asked. A script is
    deterministic: its first read is fixed by the question, each next one by the answers before, so
    asking the reads again in order, each of the battle asking now, finds the answer a run would give
    now, or the first read that answers otherwise (then the script is run).

    Bounded in two generations of :data:`MEMO_SIZE` values read and answered each: when the young one is full it
    becomes the old one (the one before is forgotten), and an answer found in the old one is kept in
    the young one again, so what a worker's battles still ask outlives what they stopped asking."""

    def __init__(self) -> None:
        self.trees: dict[tuple[Any, ...], _Ask | _End] = {}
        self.older: dict[tuple[Any, ...], _Ask | _End] = {}
        self.size = 0

    def find(self, question: tuple[Any, ...] | None, bridge: ScriptBridge) -> _End | None:
        """The kept end the reads lead to, each asked of ``bridge`` now; None at the first read that
        answers as none kept did (or is refused), or for no question."""
        if question is None:
            return None
        found = _walk(self.trees.get(question), bridge, None)
        if found is None and question in self.older:
            reads: list[Read] = []
            found = _walk(self.older[question], bridge, reads)
            if found is not None:
                self.keep(question, reads, found.answer)
        return found

    def keep(self, question: tuple[Any, ...] | None, reads: list[Read], answer: Any) -> None:
        """Keep ``answer`` at the end of ``reads`` (as asked, in order); nothing for no question, when an
        answer is of a kind not kept, or where the reads part from a kept run's as a script could not."""
        edges = [told for _, _, told in reads]
        cost = 1 + _size(answer) + sum(map(_size, edges))  # (an answer of 64 commands a run is no one value)
        if question is None or _UNKEPT in edges or cost > MEMO_SIZE:
            return
        if self.size + cost > MEMO_SIZE:
            self.older, self.trees, self.size = self.trees, {}, 0  # the generation before is forgotten
        node, put = self.trees.get(question), functools.partial(self.trees.__setitem__, question)
        for method, args, edge in reads:
            if node is None:
                node = _Ask(method, args)
                put(node)
            if type(node) is not _Ask or node.method != method or node.args != args:
                return
            put, node = functools.partial(node.then.__setitem__, edge), node.then.get(edge)
        if node is None:
            put(_End(answer))
            self.size += cost


def _walk(node: _Ask | _End | None, bridge: ScriptBridge, reads: list[Read] | None) -> _End | None:
    """Where a tree's reads lead, each asked of ``bridge`` (and noted in ``reads``, if given)."""
    while type(node) is _Ask:
        try:
            value = bridge.read(node.method, node.args)
        except (LookupError, ValueError):
            return None
        told = answered(bridge, node.method, node.args, value)
        if reads is not None:
            reads.append((node.method, node.args, told))
        node = node.then.get(told)
    return node  # type: ignore[return-value]


def _size(told: Any) -> int:
    """What a read's kept answer, or a kept what-if's, counts toward :data:`MEMO_SIZE`: one for each
    plain value in it."""
    return sum(map(_size, told)) if type(told) is tuple else 1


def answered(bridge: ScriptBridge, method: str, args: tuple[Any, ...], value: Any) -> Any:
    """What a script was told by a read: its answer, and the steps it weighed where it weighs any (a
    scan of every creature costs by their number, which another battle may not share)."""
    return (_frozen(value), bridge.weight(method, args)) if method in WEIGHTED else _frozen(value)


class Foreseer:
    """Runs reaction functions as what-ifs on one battle's host and bridge, with kept answers."""

    def __init__(self, host: InProcessHost | WorkerHost, bridge: ScriptBridge, memo: WhatIfs | None = None
                 ) -> None:
        self.host = host
        self.bridge = bridge
        #: question -> the answers kept with the reads they rested on (shared by the host's battles)
        self.memo = WhatIfs() if memo is None else memo
        #: scripts whose what-if failed once: not foreseen again in this battle
        self.failed: set[str] = set()
        #: (dice notation, quantile) -> the value read there: a planner asks the same few dice all battle
        self.quantiles: dict[tuple[str, float], int] = {}

    def call(self, name: str, function: str, owner: int | None, event: Event
             ) -> list[tuple[str, tuple[Any, ...]]]:
        """One reaction's commands for a what-if: kept with the reads they rested on, and given
        again without running the script while every one of those reads answers the same and every
        command passes its check again (a script is hermetic: its reads are all it knows, so the
        same answers make the same commands). A what-if that rolled dice is never kept."""
        fields = small_fields(event)
        key = _question(fields, name, function, owner)
        ctx = reaction_ctx(owner, event)
        self.bridge.ctx = ctx
        kept = self.memo.find(key, self.bridge)
        if kept is not None and self._allowed(*kept.answer):
            return list(kept.answer[0][0])
        asked: list[tuple[str, tuple[Any, ...]]] = []
        reads_seen: list[Read] = []
        self.host.call(name, function, args=(ctx, fields),
                       bridge=lambda method, args: self.answer(method, args, asked, reads_seen),
                       max_steps=self.host.limits.max_steps)
        if not any(method == "roll" for method, _, _ in reads_seen):
            asked_in = (tuple(asked),)
            self.memo.keep(key, reads_seen, (asked_in, self._weights(asked_in)))
        return asked

    def power(self, name: str, function: str, ctx: dict[str, Any], args: tuple[Any, ...], runs: int = 5
              ) -> tuple[Asked, ...]:
        """A power script's commands for a use that has not happened, one run for each of
        :func:`quantiles` (its dice read there): kept with the reads they rested on, as a
        reaction's are (the dice are no read: each run's are fixed by its quantile).

        Raises:
            ScriptError: the script failed in a run (a loop past its steps, a refused command).
        """
        key = _question(ctx, "power", name, function, runs, len(args), *args)
        self.bridge.ctx = ctx
        kept = self.memo.find(key, self.bridge)
        if kept is not None and self._allowed(*kept.answer):
            return kept.answer[0]  # type: ignore[no-any-return]
        reads_seen: list[Read] = []
        found = []
        for quantile in quantiles(runs):
            asked: list[tuple[str, tuple[Any, ...]]] = []
            # (a partial, not a closure: the host calls it on every ctx call, and a partial adds no frame)
            answer = functools.partial(self.answer, asked=asked, reads=reads_seen, quantile=quantile)
            self.host.call(name, function, args=(ctx, *args), bridge=answer, max_steps=self.host.limits.max_steps)
            found.append(tuple(asked))
        if all(method in STABLE_COMMANDS for run in found for method, _ in run):
            asked_in = tuple(found)
            self.memo.keep(key, reads_seen, (asked_in, self._weights(asked_in)))
        return tuple(found)

    def _weights(self, runs: tuple[Asked, ...]) -> tuple[int, ...]:
        """The steps the weighed commands of ``runs`` cost the script now (a light or an area costs by
        the size of the map, which no read tells and another battle may not share)."""
        return tuple(self.bridge.weight(method, args) for run in runs for method, args in run if method in WEIGHTED)

    def _allowed(self, runs: tuple[Asked, ...], weights: tuple[int, ...]) -> bool:
        """Whether every command of kept runs passes its check now, as each did when it ran (another
        battle may not have the creature a command names), and weighs what it did (on a larger map the
        run may pass its steps): a run whose command is refused, or over its steps, fails."""
        if self._weights(runs) != weights:
            return False
        try:
            for run in runs:
                for index, (method, args) in enumerate(run):
                    self.bridge.command(method, args, index)
        except Exception:  # (any refusal: the script is run, and fails as it then does)
            return False
        return True

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
            reads.append((method, tuple(args), answered(self.bridge, method, args, value)))
        else:  # (the host counts the commands against Limits.max_commands before it asks)
            self.bridge.command(method, args, len(asked))  # refused as the real one would be
            asked.append((method, tuple(args)))
            value = None
        return self.bridge.weighed(value, method, args)
