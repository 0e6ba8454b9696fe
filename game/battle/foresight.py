"""What-ifs of reaction scripts: their commands for an event that has not happened, none applied.

Split from :mod:`game.battle.reactions` (which runs reactions for real). A what-if is asked often
(a planner weighs a few squares a turn), and a script call costs tens of microseconds in process and
a pipe round trip in a worker, so answers are remembered with the reads they rested on: a script is
hermetic, its reads are all it knows, so while every one of those reads answers the same, so does
the script, and it need not run again. Nothing here is charged to a battle's script budgets.
"""

from __future__ import annotations

import copy
from typing import Any

from components.events import Event
from game.battle.script_bridge import READS, ScriptBridge
from game.scripting import InProcessHost, Weighed, WorkerHost

#: What-if questions a battle remembers (one a creature and reaction, in practice), and answers
#: kept for each (a few squares the planner stands on)
MEMO_KEYS = 256
MEMO_ANSWERS = 4


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
        self.memo: dict[tuple[Any, ...], list[tuple[tuple[Any, ...], tuple[Any, ...]]]] = {}
        #: scripts whose what-if failed once: not foreseen again in this battle
        self.failed: set[str] = set()

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

    def same_answer(self, method: str, args: tuple[Any, ...], value: Any) -> bool:
        """Whether a read remembered from an earlier what-if answers the same now."""
        try:
            return bool(self.bridge.read(method, args) == value)
        except (LookupError, ValueError):
            return False

    def answer(self, method: str, args: tuple[Any, ...], asked: list[tuple[str, tuple[Any, ...]]],
               reads: list[tuple[str, tuple[Any, ...], Any]]) -> Any:
        """The host's bridge for a what-if: a read is answered and noted with its answer; a command
        is checked as the real one would be and noted, never buffered."""
        if method in READS:
            value = self.bridge.read(method, args)
            reads.append((method, tuple(args), copy.deepcopy(value)))
        else:
            if len(asked) >= self.host.limits.max_commands:
                raise ValueError("too many commands in one call")
            self.bridge.command(method, args, len(asked))  # refused as the real one would be
            asked.append((method, tuple(args)))
            value = None
        weight = self.bridge.weight(method, args)
        return Weighed(value, weight) if weight else value
