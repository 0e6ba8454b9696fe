"""The scripting hook: powers' and reactions' Starlark scripts, run all or nothing, and trusted Python.

A script reads and commands through its ``ctx`` (:mod:`game.battle.script_bridge`); each command is
validated at once, exactly like the Python API, and buffered. When the call returns the buffer is
applied in order; when it fails (a limit broken, a refusal, a crash of the worker) the buffer is
dropped, the generator is rewound, a ``ScriptFailed`` event is recorded and the battle is exactly as
it was before the call.

Trust comes in two levels. The designer's own scripts (``assets/scripts``) may run in-process, which
is fast; anything from a scenario written by a stranger runs in a worker process with a memory
limit and a wall clock, because one huge string in Starlark aborts the process that runs it. Hosts
come from a :class:`~game.scripting.ScriptHosts` owner, so a script is parsed and frozen once per
host, never per use.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from components.events import Damaged, Downed, Event, Fell, Landed, RoundEnded, ScriptFailed, TurnStarted
from game.battle.script_bridge import COMMANDS, READS, ScriptBridge
from game.content.files import MEGABYTE, UnreadableFile, read_bounded
from game.scripting import Limits, ScriptError, ScriptHosts
from systems.state import BattleState

if TYPE_CHECKING:
    from game.battle.facade import Battle

#: event class -> the reaction function a script defines for it
REACTIONS: dict[type[Event], str] = {
    Damaged: "on_damaged", Downed: "on_downed", Fell: "on_fell", Landed: "on_landed",
    TurnStarted: "on_turn_start", RoundEnded: "on_round_end",
}

#: Failures that would happen again on every call, each costing seconds: the script is out.
_FATAL_KINDS = frozenset({"timeout", "died", "panic"})


def new_hosts() -> ScriptHosts:
    """Script hosts offering the battle's ctx methods (for an owner that plays many battles)."""
    return ScriptHosts({**READS, **COMMANDS}, COMMANDS)


def _small(event: Event) -> dict[str, Any]:
    """The few fields a reaction needs: passing a big dict into starlark costs microseconds per key."""
    data: dict[str, Any] = {"kind": event.kind, "round": event.round}
    for key in ("entity", "amount", "health", "distance_ft", "damage"):
        value = getattr(event, key, None)
        if value is not None:
            data[key] = value
    return data


def _named(err: ScriptError, host_name: str, script: str) -> ScriptError:
    """The same error, told by the script's file name instead of the host's name for it."""
    return ScriptError(script, err.reason.replace(host_name, script), line=err.line, function=err.function,
                       kind=err.kind, steps=err.steps, detail=err.detail.replace(host_name, script))


def _checked_name(script: object) -> str:
    """A script is named by a plain file name ending in .star, inside the script folder."""
    if not (isinstance(script, str) and script.endswith(".star") and "/" not in script
            and "\\" not in script and ".." not in script and "\0" not in script):
        raise ScriptError(repr(script), "a script is a plain file name ending in .star, in the script folder",
                          kind="missing")
    return script


class ScriptHook:
    """Runs a battle's scripts and applies what they ask for, all or nothing per call.

    Args:
        battle: the battle (trusted Python handlers are called with it).
        state: its state, which the bridge reads and the commands change.
        creatures: the ids of its creatures (the bridge refuses any other).
        hosts: where the script hosts come from.
        trusted: run scripts in-process; False runs them in a sandboxed worker.
        script_dir: where scripts are read from.
        limits: each call's budget.
    """

    def __init__(self, battle: Battle, state: BattleState, creatures: set[int], hosts: ScriptHosts,
                 trusted: bool, script_dir: Path | str, limits: Limits = Limits()) -> None:
        self.battle = battle
        self.state = state
        self.trusted = trusted
        self.script_dir = Path(script_dir)
        self.host = hosts.host(trusted, limits)
        self.bridge = ScriptBridge(state, creatures)
        self.reactions: list[tuple[str, int | None]] = []  # (script, creature or None for the whole battle)
        self.python_handlers: dict[type[Event], list[Callable[[Battle, Event], None]]] = {}
        self.seen = 0  # events before this index have been heard
        self.out: dict[str, ScriptError] = {}  # scripts that ran out of time or memory once
        self._loaded: dict[str, frozenset[str]] = {}
        self._names: dict[str, str] = {}  # file name -> the name the host knows it by
        self._broken: dict[str, ScriptError] = {}  # scripts that do not load
        self._buffer: list[Callable[[], None]] = []

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
        path = self.script_dir / _checked_name(script)
        try:
            # Only a regular file inside the script folder (a symlink out of it could read any file
            # on the machine into an error message), and not a huge one.
            if not path.resolve().is_relative_to(self.script_dir.resolve()):
                raise UnreadableFile("it leads outside the script folder")
            source = read_bounded(path, MEGABYTE).decode("utf-8")
        except (UnreadableFile, UnicodeDecodeError) as err:
            reason = str(err) if isinstance(err, UnreadableFile) else "not UTF-8 text"
            self._broken[script] = ScriptError(script, f"cannot read script: {reason}", kind="missing")
            raise self._broken[script] from None
        name = f"{script}#{hashlib.sha256(source.encode()).hexdigest()[:12]}"
        try:
            self.host.load(name, source)
        except ScriptError as err:
            self._broken[script] = _named(err, name, script)
            raise self._broken[script] from None
        self._names[script] = name
        self._loaded[script] = self.host.functions(name)
        return self._loaded[script]

    # ------------------------------------------------------------------ calls

    def run(self, script: str, function: str, ctx: dict[str, Any], *args: Any) -> bool:
        """Call ``function(ctx, *args)`` if the script defines it; True when it ran and was applied."""
        state = self.state
        try:
            functions = self.load(script)
        except ScriptError as err:
            state.emit(ScriptFailed(state.round, script, function, str(err)))
            return False
        if function not in functions:
            return False
        if script in self.out:
            state.emit(ScriptFailed(state.round, script, function, str(self.out[script])))
            return False
        rng_state = state.rng.getstate()
        self._buffer, self.bridge.ctx = [], ctx
        try:
            self.host.call(self._names[script], function, args=(ctx, *args), bridge=self._answer)
        except ScriptError as failure:
            err = _named(failure, self._names[script], script)
            state.rng.setstate(rng_state)  # rolls made during the failed call never happened
            self._buffer = []
            state.emit(ScriptFailed(state.round, script, function, str(err)))
            if err.kind in _FATAL_KINDS:
                self.out[script] = err
            return False
        buffer, self._buffer = self._buffer, []
        for apply in buffer:
            apply()
        return True

    def _answer(self, method: str, args: tuple[Any, ...]) -> Any:
        """The host's bridge: a read answered, or a command checked and buffered (None)."""
        if method in READS:
            return self.bridge.read(method, args)
        if len(self._buffer) >= self.host.limits.max_commands:
            raise ValueError("too many commands in one call")
        self._buffer.append(self.bridge.command(method, args, len(self._buffer)))
        return None

    def react(self) -> None:
        """Give reaction scripts and trusted Python handlers the events recorded since the last call."""
        events = self.state.events
        while self.seen < len(events):
            event = events[self.seen]
            self.seen += 1
            for handler in self.python_handlers.get(type(event), ()):
                handler(self.battle, event)
                self.battle.make_current()  # the handler may have used another battle: come back
            function = REACTIONS.get(type(event))
            if function is None or not self.reactions:
                continue
            subject = getattr(event, "entity", None)
            for script, owner in list(self.reactions):
                if owner is not None and subject is not None and owner != subject:
                    continue  # a creature's reaction hears its own events and the round's
                ctx = {"me": -1 if owner is None else owner, "round": event.round, "power": "", "user": -1}
                self.run(script, function, ctx, _small(event))

    def skip_to_now(self) -> None:
        """Events before this point are not reactions' business (setting the battle up)."""
        self.seen = len(self.state.events)
