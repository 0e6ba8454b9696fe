"""The scripting hook: powers' and reactions' Starlark scripts, run all or nothing, and trusted Python.

A script reads and commands through its ``ctx`` (:mod:`game.battle.script_bridge`); each command is
validated at once, exactly like the Python API, and buffered. When the call returns the buffer is
applied in order; when it fails (a limit broken, a refusal, a crash of the worker) the buffer is
dropped, the generator is rewound, a ``ScriptFailed`` event is recorded and the battle is exactly as
it was before the call.

Budgets are counted, never timed, so a battle plays the same on every machine: each call may use
``Limits.max_steps`` steps (loop iterations and calls as the interpreter counts them, and
``Limits.ctx_call_steps`` for every ctx call plus what a costly answer weighs), and all the calls
of a round, and of the battle, share ``Limits.round_steps`` and ``Limits.battle_steps`` (each call
costing ``Limits.call_steps`` on top). The script whose call runs past the round's or the battle's
budget is out for the rest of the battle, with one ScriptFailed that says so.

A failure that no count decides (the worker's wall clock, its memory limit, a crash) is recorded in
the command log as ``script_out``: a replay marks the script out at that very call instead of
running it, so replays agree with the battle they replay wherever they run.

Trust comes in two levels. The designer's own scripts (``assets/scripts``) may run in-process, which
is fast; anything from a scenario written by a stranger runs in a worker process with a memory
limit and a wall clock. Hosts come from a :class:`~game.scripting.ScriptHosts` owner, so a script
is parsed and frozen once per host, never per use.
"""

from __future__ import annotations

import hashlib
import weakref
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from components.events import Damaged, Downed, Event, Fell, Landed, RoundEnded, ScriptFailed, TurnStarted
from game.battle.foresight import Foreseer, WhatIfs, reaction_ctx, small_fields
from game.battle.script_bridge import COMMANDS, READS, ScriptBridge
from game.battle.script_names import checked_name, failure_place, named_error
from game.content.files import UnreadableFile
from game.content.recorded import ScriptReads
from game.scripting import Limits, ScriptBudget, ScriptError, ScriptHosts, stable
from game.scripting.signatures import entry_problems
from systems.state import BattleState

if TYPE_CHECKING:
    from game.battle.facade import Battle

#: event class -> the reaction function a script defines for it
REACTIONS: Mapping[type[Event], str] = MappingProxyType({
    Damaged: "on_damaged", Downed: "on_downed", Fell: "on_fell", Landed: "on_landed",
    TurnStarted: "on_turn_start", RoundEnded: "on_round_end",
})

#: What the battle passes each reaction (``REACTIONS``) and each power entry point (systems/powers.py
#: calls on_use and on_hit, the effect's end calls on_end): a script is checked against these when
#: it loads (game.scripting.signatures), not when the event first happens.
REACTION_ARGS: tuple[str, ...] = ("ctx", "event")


def reaction_entries() -> dict[str, tuple[str, ...]]:
    """Each reaction function's name and the arguments the battle calls it with."""
    return {name: REACTION_ARGS for name in REACTIONS.values()}


#: Failures no count decides (a wall clock, a memory limit, a crash): recorded in the command log,
#: and the script is out for the rest of the battle (each would cost seconds again).
UNCOUNTED_KINDS = frozenset({"timeout", "died", "panic", "protocol", "lost"})

#: What a script call that failed for a reason no count decides is recorded as, in the command log.
SCRIPT_OUT = "script_out"

_OUT = "out for the rest of the battle"

Recorder = Callable[[str, tuple[Any, ...]], None]


def new_hosts() -> ScriptHosts:
    """Script hosts offering the battle's ctx methods (for an owner that plays many battles)."""
    return ScriptHosts({**READS, **COMMANDS}, COMMANDS)


class ScriptHook:
    """Runs a battle's scripts and applies what they ask for, all or nothing per call.

    Args:
        battle: the battle (trusted Python handlers are called with it).
        state: its state, which the bridge reads and the commands change.
        creatures: the ids of its creatures (the bridge refuses any other).
        hosts: where the script hosts come from.
        trusted: run scripts in-process; False runs them in a sandboxed worker.
        script_dir: where scripts are read from.
        limits: each call's budget, and the round's and the battle's.
        record: appends an entry to the battle's command log at once (a failure no count decides).
        files: script files already found inside the folder, by path (shared by the battles on a map).
        texts: the scripts' texts by file name, read instead of the folder (a save's or replay's).

    Attributes:
        calls: script calls asked for so far; a recorded failure names the call by this index.
        expected: failures a replayed log recorded, by call index: ``(script, function, reason)``.
        out: scripts out for the rest of the battle, and why.
    """

    def __init__(self, battle: Battle, state: BattleState, creatures: set[int], hosts: ScriptHosts,
                 trusted: bool, script_dir: Path | str, limits: Limits = Limits(),
                 record: Recorder | None = None, files: dict[str, tuple[int, int]] | None = None,
                 texts: Mapping[str, str] | None = None) -> None:
        self._battle = weakref.ref(battle)  # the battle owns its hook: see ``battle``
        self.state = state
        self.trusted = trusted
        self.script_dir = script_dir if isinstance(script_dir, Path) else Path(script_dir)  # Path(a Path) parses again
        self.host = hosts.host(trusted, limits)
        self.bridge = ScriptBridge(state, creatures)
        self.budget = ScriptBudget(limits)
        self.record = record
        # (a copy of the texts: the caller's mapping, changed after the battle was made, changed its scripts)
        self.reads = ScriptReads(None if texts is None else dict(texts), known={} if files is None else files)
        self.reactions: list[tuple[str, int | None]] = []  # (script, creature or None for the whole battle)
        self.python_handlers: dict[type[Event], list[Callable[[Battle, Event], None]]] = {}
        self.seen = 0  # events before this index have been heard
        self.calls = 0
        self.expected: dict[int, tuple[str, str, str]] = {}
        self.out: dict[str, str] = {}
        self._loaded: dict[str, frozenset[str]] = {}
        self._names: dict[str, str] = {}  # file name -> the name the host knows it by
        self._broken: dict[str, ScriptError] = {}  # scripts that do not load
        self._sources: dict[str, str] = {}  # the text of each loaded script
        self._buffer: list[Callable[[], None]] = []
        self.foreseer = Foreseer(self.host, self.bridge, hosts.kept(trusted, limits).setdefault("what-ifs", WhatIfs()))

    @property
    def battle(self) -> Battle:
        """The battle whose scripts these are (trusted Python handlers are called with it).

        Held weakly: the battle owns its hook, so a battle that is dropped is freed at once rather
        than by Python's cycle collector (a simulation drops thousands).
        """
        battle = self._battle()
        if battle is None:
            raise RuntimeError("the battle of this script hook is gone")
        return battle

    # ------------------------------------------------------------------ loading

    def load(self, script: str) -> frozenset[str]:
        """Load a script by file name (once); ScriptError names the file when it does not parse.

        The host knows the script by a name made of its file name and a digest of its text, never
        by where it is stored: errors and events then read the same on every machine and in every
        folder, and two folders' scripts of one name never share a parse unless their text is one.
        """
        if script in self._loaded:
            return self._loaded[script]
        if script in self._broken:
            raise self._broken[script]  # read and parsed once: a broken script stays broken this battle
        try:
            # the recorded text, or only a regular file inside the script folder (a symlink out of it
            # could read any file on the machine into an error message), and not a huge one
            source = self.reads.text(self.script_dir, checked_name(script))
        except UnreadableFile as err:
            self._broken[script] = ScriptError(script, stable(f"cannot read script: {err}"), kind="missing")
            raise self._broken[script] from None
        name = f"{script}#{hashlib.sha256(source.encode()).hexdigest()[:12]}"
        try:
            self.host.load(name, source)
        except ScriptError as err:
            named = named_error(err, name, script)
            if named.kind not in UNCOUNTED_KINDS:  # a load that may work next time is not cached
                self._broken[script] = named
            raise named from None
        self._names[script] = name
        self._loaded[script] = self.host.functions(name)
        self._sources[script] = source
        return self._loaded[script]

    def sources(self) -> dict[str, str]:
        """The text of every script this battle has loaded, by file name (saves record them)."""
        return dict(self._sources)

    def entry_problems(self, script: str, entries: Mapping[str, tuple[str, ...]],
                       others: Collection[str] = ()) -> list[str]:
        """Why the battle could not call a loaded script's ``entries`` as it will (see
        :func:`game.scripting.signatures.entry_problems`); loads it first.

        Raises:
            ScriptError: the script does not load.
        """
        functions = self.load(script)
        return entry_problems(script, self._sources[script], entries, others, functions)

    # ------------------------------------------------------------------ calls

    def run(self, script: str, function: str, ctx: dict[str, Any], *args: Any) -> bool:
        """Call ``function(ctx, *args)`` if the script defines it; True when it ran and was applied."""
        index, self.calls = self.calls, self.calls + 1
        if script in self.out:
            return False
        allowance = self.budget.allowance(self.state.round)
        forced = self.expected.pop(index, None)
        if forced is not None and forced[:2] == (script, function):
            self.budget.spend(allowance)
            self._put_out(script, function, forced[2])  # as recorded: the call is not run again
            return False
        functions = self._functions(index, script, function, allowance)
        if function not in functions:
            return False
        if allowance < 0:
            spent = self.budget.describe(self.budget.binding())
            self._put_out(script, function, f"{script}: {spent} is spent; {_OUT}")
            return False
        return self._call(index, script, function, allowance, (ctx, *args))

    def _functions(self, index: int, script: str, function: str, allowance: int) -> frozenset[str]:
        """The script's functions, or none when it does not load (and that is reported)."""
        try:
            return self.load(script)
        except ScriptError as err:
            if err.kind in UNCOUNTED_KINDS:
                self._uncounted(index, script, function, err, allowance)
            else:
                self.state.emit(ScriptFailed(self.state.round, err.file, function, stable(str(err))))
            return frozenset()

    def _call(self, index: int, script: str, function: str, allowance: int, args: tuple[Any, ...]) -> bool:
        """One call within ``allowance`` steps; its commands applied only if it succeeds."""
        state = self.state
        which = self.budget.binding()
        rng_state = state.rng.getstate()
        self._buffer, self.bridge.ctx = [], args[0]
        try:
            self.host.call(self._names[script], function, args=args, bridge=self._answer, max_steps=allowance)
        except ScriptError as failure:
            state.rng.setstate(rng_state)  # rolls made during the failed call never happened
            self._buffer = []
            self._failed(index, script, function, named_error(failure, self._names[script], script), allowance, which)
            return False
        self.budget.spend(self.host.last_steps)
        buffer, self._buffer = self._buffer, []
        for apply in buffer:
            apply()
        return True

    def _failed(self, index: int, script: str, function: str, err: ScriptError, allowance: int,
                which: str) -> None:
        """A failed call: charged, reported, and the script put out when it must be."""
        if err.kind in UNCOUNTED_KINDS:
            self._uncounted(index, script, function, err, allowance)
            return
        self.budget.spend(err.steps or 0)
        if err.kind == "budget" and allowance < self.host.limits.max_steps:
            self._put_out(script, function, f"{failure_place(err, script)}: {self.budget.describe(which)} ran out in "
                                            f"this call; {_OUT}")
            return
        self.state.emit(ScriptFailed(self.state.round, script, function, stable(str(err))))

    def _uncounted(self, index: int, script: str, function: str, err: ScriptError, allowance: int) -> None:
        """A failure no count decides: charged what the call was allowed, recorded, the script out.

        Its reason is one of two fixed sentences: how a worker died (SIGABRT or SIGKILL, a panic,
        a torn pipe) depends on the machine and the moment, and must not reach the event log.
        """
        if err.kind == "timeout":
            why = f"took longer than {self.host.limits.wall_seconds} s"
        else:
            why = "stopped the script host (out of memory, or a crash)"
        reason = f"{stable(failure_place(err, script))}: {why}; {_OUT}"
        self.budget.spend(allowance)
        if self.record is not None:
            self.record(SCRIPT_OUT, (index, script, function, reason))
        self._put_out(script, function, reason)

    def _put_out(self, script: str, function: str, reason: str) -> None:
        """The script runs no more in this battle; one ScriptFailed says why."""
        self.out[script] = reason
        self.state.emit(ScriptFailed(self.state.round, script, function, reason))

    def expect_failure(self, index: int, script: str, function: str, reason: str) -> None:
        """A replayed log's ``script_out``: call ``index`` fails with ``reason`` instead of running.

        Raises:
            ValueError: an entry no battle could have recorded (a call already made, odd values).
        """
        if isinstance(index, bool) or not isinstance(index, int) or index < self.calls:
            raise ValueError(f"script_out names call {index!r}, but {self.calls} calls were made already")
        if not all(isinstance(v, str) for v in (script, function, reason)):
            raise ValueError("script_out takes a call index, then the script, function and reason as text")
        self.expected[index] = (checked_name(script), function, reason)

    def _answer(self, method: str, args: tuple[Any, ...]) -> Any:
        """The host's bridge: a read answered, or a command checked and buffered (None), and its weight."""
        if method in READS:
            value = self.bridge.read(method, args)
        else:  # (the host counts the commands against Limits.max_commands before it asks)
            self._buffer.append(self.bridge.command(method, args, len(self._buffer)))
            value = None
        return self.bridge.weighed(value, method, args)

    def react(self) -> None:
        """Give reaction scripts and trusted Python handlers the events recorded since the last call."""
        events = self.state.events
        if not self.reactions and not self.python_handlers:
            self.seen = len(events)  # nobody listens: nothing to hand over (the common case, every turn)
            return
        while self.seen < len(events):
            event = events[self.seen]
            self.seen += 1
            for kind in type(event).__mro__:  # its own class's handlers, then each base's (Event: every event)
                for handler in self.python_handlers.get(kind, ()):
                    self.battle.recording.call_handler(handler, self.battle, event)
                    self.battle.make_current()  # the handler may have used another battle: come back
            function = REACTIONS.get(type(event))
            if function is None or not self.reactions:
                continue
            for script, owner in self._listeners(event):
                self.run(script, function, reaction_ctx(owner, event), small_fields(event))

    def _listeners(self, event: Event) -> list[tuple[str, int | None]]:
        """The reactions that hear ``event`` (a copy: a reaction may attach another while they run).

        A creature's reaction hears its own events and the round's, not another creature's.
        """
        subject = getattr(event, "entity", None)
        return [(script, owner) for script, owner in self.reactions
                if owner is None or subject is None or owner == subject]

    def _unusable(self, script: str) -> bool:
        """Whether a what-if of ``script`` cannot be known: it is out, does not load, or failed one."""
        return script in self.out or script in self._broken or script in self.foreseer.failed

    def _what_if_failed(self, script: str, err: ScriptError) -> None:
        """A what-if that failed is not asked again this battle (a planner asks every turn, and a
        loop past its steps or a worker's clock could cost seconds each time), unless the failure
        is a refused command (kind ``"bridge"``): a square taken now may be free at the next ask."""
        if err.kind != "bridge":
            self.foreseer.failed.add(script)

    def foresee(self, event: Event, moved: dict[int, tuple[int, int, float]] | None = None
                ) -> tuple[tuple[tuple[str, tuple[Any, ...]], ...], bool, bool]:
        """What the reaction scripts would ask for on hearing ``event`` now: their commands, each
        checked as a real one is but none applied, in order; whether that is known (False when a
        script fails, does not load or is out); and whether any script listens for the event.

        A what-if for the forecasts: nothing is charged to the battle's budgets, no call is counted
        (a replay, which foresees nothing, numbers its calls the same), no event is recorded and
        the generator is put back. ``moved`` has creatures read as standing elsewhere (entity ->
        x, y, z). Python handlers are trusted code and are not foreseen.
        """
        function = REACTIONS.get(type(event))
        asked: list[tuple[str, tuple[Any, ...]]] = []
        heard = False
        rng_state = self.state.rng.getstate()
        self.bridge.moved = dict(moved or {})
        try:
            for script, owner in self._listeners(event) if function is not None else ():
                if self._unusable(script):
                    return tuple(asked), False, True
                try:
                    if function not in self.load(script):
                        continue
                    heard = True
                    asked += self.foreseer.call(self._names[script], function, owner, event)
                except ScriptError as err:
                    self._what_if_failed(script, err)
                    return tuple(asked), False, True
        finally:
            self.bridge.moved = {}
            self.state.rng.setstate(rng_state)
        return tuple(asked), True, heard

    def foresee_power(self, script: str, function: str, ctx: dict[str, Any], args: tuple[Any, ...] = (),
                      runs: int = 5) -> tuple[tuple[tuple[tuple[str, tuple[Any, ...]], ...], ...], bool]:
        """What a power's ``function`` would ask for in a use that has not happened: its commands,
        checked and none applied, one run for each quantile its dice are read at
        (:func:`game.battle.foresight.quantiles`); and whether that is known (False when the script
        fails, does not load, is out, or failed a what-if before). No run when it does not define
        ``function``. Charged to no budget and counted as no call, like :meth:`foresee`.
        """
        if self._unusable(script):
            return (), False
        try:
            if function not in self.load(script):
                return (), True
            return self.foreseer.power(self._names[script], function, ctx, args, runs), True
        except ScriptError as err:
            self._what_if_failed(script, err)
            return (), False

    def listens(self, event: type[Event]) -> bool:
        """Whether a reaction script that loads defines the function for this kind of event."""
        function = REACTIONS.get(event)
        for script, _ in self.reactions if function is not None else ():
            try:
                if function in self.load(script):
                    return True
            except ScriptError:
                continue
        return False

    def skip_to_now(self) -> None:
        """Events before this point are not reactions' business (setting the battle up)."""
        self.seen = len(self.state.events)
