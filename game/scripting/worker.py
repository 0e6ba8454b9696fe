"""Worker-process Starlark host for untrusted scripts.

Why a process: starlark-rust aborts the whole process when an allocation fails (a
single ``"x" * 2000000000`` is enough -- there is no exception to catch), and time spent
inside one builtin is not counted by the deterministic step budget.  So untrusted scripts
run in a child process (:mod:`game.scripting.child`) that

* lowers its own ``RLIMIT_AS`` (``Limits.memory_bytes``) and ``RLIMIT_CORE`` (no core
  dumps when it aborts), and asks the kernel to kill it if the parent dies;
* runs the very same :class:`~game.scripting.host.InProcessHost` (same dialect, step
  budget, call-stack limit, plain-data checks, error messages);
* forwards every ``ctx.<method>(...)`` to the parent over a pipe: the bridge always
  runs in the PARENT, next to the game state, and its answer (value or refusal) is
  sent back while the script waits.

The pipe itself (deadlines, size caps, JSON, never pickle) is :mod:`game.scripting.channel`.
When the worker dies or overruns, the call raises :class:`ScriptError` and the next call
transparently spawns a new worker and re-loads every script that had been loaded
(parse+freeze happens once per worker, not per call).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from multiprocessing import get_context
from typing import Any

from .calls import Weighed, check_call
from .channel import Channel
from .errors import Limits, ScriptError, refuse_long_source
from .values import Bridge, parse_host_methods, problem

__all__ = ["WorkerHost"]


class WorkerHost:
    """Same API as :class:`InProcessHost`, but scripts run in a killable child process.

    Not thread-safe: one host per thread.  The bridge runs in the calling (parent)
    thread while the worker waits; it must not call back into the same WorkerHost
    (RuntimeError) -- use a second host for nested script calls.

    Args:
        methods: Names of the ``ctx`` methods (or name -> exact arity mapping).
        commands: Subset of ``methods`` counted against ``Limits.max_commands``.
        limits: Resource limits; ``wall_seconds`` is the time the worker may spend on
            one call or load (bridge time excluded), ``memory_bytes`` its RLIMIT_AS.
        start_method: ``"spawn"`` (default), ``"forkserver"`` or ``"subprocess"`` (``python -m
            game.scripting.child_main``); never ``"fork"``. Inside a daemonic process (a Dask or
            pool worker, which multiprocessing forbids to have children) it is always a subprocess.

    Attributes:
        last_steps: Steps used by the last call (reported by the worker).

    Raises:
        ValueError: an unknown start method, a command not among the methods, or a bad method name.
    """

    def __init__(
        self,
        methods: Iterable[str] | Mapping[str, int | None] = (),
        commands: Iterable[str] = frozenset(),
        limits: Limits = Limits(),
        *,
        start_method: str = "spawn",
    ) -> None:
        if start_method not in ("spawn", "forkserver", "subprocess"):
            raise ValueError("start_method must be 'spawn', 'forkserver' or 'subprocess'")
        self.methods, self.command_names = parse_host_methods(methods, commands)
        self._method_names = frozenset(self.methods)
        self.limits = limits
        context = None if start_method == "subprocess" else get_context(start_method)
        self.channel = Channel(context, self.methods, sorted(self.command_names), limits)
        self._sources: dict[str, str] = {}
        self._functions: dict[str, frozenset[str]] = {}
        self._lost: dict[str, ScriptError] = {}
        self._closed = False
        self._busy = False
        self.last_steps = 0

    # ------------------------------------------------------------------ public API

    @property
    def pid(self) -> int | None:
        """Process id of the current worker, or None if none is running."""
        proc = self.channel.proc
        return proc.pid if proc is not None and proc.is_alive() else None

    @property
    def worker_starts(self) -> int:
        """How many worker processes this host has started."""
        return self.channel.starts

    def start(self) -> None:
        """Starts the worker now instead of on first use (e.g. behind a loading screen)."""
        self._ensure_worker()

    def load(self, name: str, source: str) -> None:
        """Parses and freezes a script in the worker, once (see InProcessHost.load).

        Raises:
            ScriptError: as for InProcessHost (a source longer than ``MAX_SOURCE_BYTES`` is
                refused here, without a worker), plus ``"timeout"``/``"died"`` when the
                top-level code overran or killed the worker.
            RuntimeError: the host is closed.
        """
        self._check_open()
        if self._sources.get(name) == source:
            return
        refuse_long_source(name, source)  # here, before a worker spends its clock on it
        self._ensure_worker()
        self._functions[name] = self._load_remote(name, source)
        self._sources[name] = source
        self._lost.pop(name, None)

    def functions(self, name: str) -> frozenset[str]:
        """Top-level public functions of a loaded script (KeyError if not loaded)."""
        return self._functions[name]

    def loaded(self) -> frozenset[str]:
        """Names of the scripts currently loaded."""
        return frozenset(self._sources)

    def call(
        self,
        name: str,
        function: str,
        args: tuple[Any, ...] | list[Any] = (),
        bridge: Bridge | None = None,
        *,
        max_steps: int | None = None,
    ) -> Any:
        """Calls a script function in the worker; the bridge runs here, in the parent.

        Arguments and step accounting as for :meth:`InProcessHost.call` (the worker counts).

        Raises:
            ScriptError: as for InProcessHost, plus ``"timeout"`` (worker killed after
                ``wall_seconds``) and ``"died"`` (worker crashed, e.g. out of memory).
                In every case: discard the commands buffered during this call.
            TypeError/ValueError: the caller passed invalid arguments.
            RuntimeError: the host is closed, or the bridge called back into this host.
        """
        self._check_open()
        self._check_call(name, function, args)
        if self._busy:
            raise RuntimeError("WorkerHost.call is not re-entrant (bridge called back into the host)")
        self._busy = True
        try:
            return self._call(name, function, args, bridge, max_steps)
        finally:
            self._busy = False

    def stats(self) -> dict[str, Any]:
        """Worker-side counters, e.g. ``{"pid": ..., "load_counts": {name: parses}}``.

        Used by tests to prove that scripts are parsed once per worker, not per call.
        """
        self._check_open()
        self._ensure_worker()
        self.channel.send(["stats"], "<stats>", None)
        msg = self.channel.recv(time.monotonic() + self.limits.wall_seconds, "<stats>", None, "stats")
        if msg[0] != "stats" or not isinstance(msg[1], dict):
            self.channel.kill()
            raise ScriptError("<stats>", "bad stats reply", kind="protocol")
        result = dict(msg[1])
        result["worker_starts"] = self.worker_starts
        return result

    def close(self) -> None:
        """Stops the worker (politely, then by force); further use raises RuntimeError."""
        if self._closed:
            return
        self._closed = True
        self.channel.close()

    def __enter__(self) -> WorkerHost:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ internals

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("script host is closed")

    def _check_call(self, name: str, function: str, args: tuple[Any, ...] | list[Any]) -> None:
        """The script and the arguments of a call, checked before anything is sent."""
        if name in self._lost:
            raise self._lost[name]
        check_call(name, function, self._functions[name] if name in self._sources else None, args,
                   self._method_names)

    def _call(self, name: str, function: str, args: tuple[Any, ...] | list[Any], bridge: Bridge | None,
              max_steps: int | None) -> Any:
        """The body of :meth:`call` once arguments are validated."""
        self._ensure_worker()
        if name in self._lost:  # re-load failed after a restart
            raise self._lost[name]
        cap = None if max_steps is None else int(max_steps)
        self.channel.send(["call", name, function, list(args), cap], name, function)
        try:
            return _Conversation(self, name, function, bridge).run()
        except (ScriptError, TypeError, ValueError):
            raise
        except BaseException:
            # KeyboardInterrupt etc. in the bridge or while waiting: the worker is now
            # mid-protocol, so it cannot be reused.
            self.channel.kill()
            raise

    def _ensure_worker(self) -> None:
        """Starts a worker if there is none (or it died) and re-loads every script."""
        if self.channel.alive:
            return
        self.channel.start()
        for name, source in list(self._sources.items()):
            try:
                self._functions[name] = self._load_remote(name, source)
            except ScriptError as exc:
                # Deterministic loads should not fail twice; if one does (e.g. its
                # top-level code is memory-hungry), forget it and report it on use.
                del self._sources[name]
                self._functions.pop(name, None)
                self._lost[name] = ScriptError(
                    name, f"could not be re-loaded after a worker restart: {exc.reason}",
                    line=exc.line, function=exc.function, kind="lost")
                if not self.channel.alive:
                    self._ensure_worker()  # fresh worker, loads the remaining scripts
                    return

    def _load_remote(self, name: str, source: str) -> frozenset[str]:
        channel = self.channel
        channel.send(["load", name, source], name, None)
        msg = channel.recv(time.monotonic() + self.limits.wall_seconds, name, None, "load")
        if msg[0] == "loaded" and isinstance(msg[1], list) and all(type(f) is str for f in msg[1]):
            return frozenset(msg[1])
        if msg[0] == "err" and isinstance(msg[1], dict):
            error = ScriptError.from_dict(msg[1])
            if error.kind == "panic":
                channel.kill()
            raise error
        if msg[0] == "caller":
            raise (TypeError if msg[1] == "TypeError" else ValueError)(str(msg[2]))
        channel.kill()
        raise ScriptError(name, "unexpected reply to load", kind="protocol")


class _Conversation:
    """One call's exchange with the worker: bridge requests answered until the result comes."""

    def __init__(self, host: WorkerHost, name: str, function: str, bridge: Bridge | None) -> None:
        self.host = host
        self.channel = host.channel
        self.limits = host.limits
        self.name = name
        self.function = function
        self.bridge = bridge
        self.deadline = time.monotonic() + host.limits.wall_seconds
        self.bridge_calls = 0
        self.commands = 0
        self.cause: BaseException | None = None

    def run(self) -> Any:
        """Serves bridge requests until the worker answers; the script's plain result."""
        while True:
            msg = self.channel.recv(self.deadline, self.name, self.function, "call")
            op = msg[0]
            if op == "bridge":
                self.answer(msg[1], msg[2])
            elif op == "ok":
                self.host.last_steps = msg[2] if type(msg[2]) is int else 0
                return msg[1]
            elif op == "err":
                raise self.error(msg[1]) from self.cause
            elif op == "caller":
                raise (TypeError if msg[1] == "TypeError" else ValueError)(str(msg[2]))
            else:
                self.channel.kill()
                raise ScriptError(self.name, f"unexpected message {str(op)[:40]!r} from worker",
                                  function=self.function, kind="protocol")

    def error(self, data: Any) -> ScriptError:
        """The worker's ScriptError, rebuilt (a panic kills the worker: restart it deterministically)."""
        error = ScriptError.from_dict(data if isinstance(data, dict) else {})
        self.host.last_steps = error.steps or 0
        if error.kind == "panic":
            self.channel.kill()
        return error

    def answer(self, method: Any, bargs: Any) -> None:
        """Runs the bridge for one request and sends the reply; bridge time is the game's, not the script's."""
        started = time.monotonic()
        # Backstop accounting: the worker enforces the same limits with better messages; the
        # parent only guards what it executes.
        self.bridge_calls += 1
        self.commands += method in self.host.command_names if type(method) is str else 0
        limits = self.limits
        if (type(method) is not str or method not in self.host.methods or type(bargs) is not list
                or self.bridge_calls > limits.max_bridge_calls or self.commands > limits.max_commands):
            self.channel.kill()
            raise ScriptError(self.name, "worker sent an invalid bridge request", function=self.function,
                              kind="protocol")
        reply, err = _run_bridge(self.bridge, method, tuple(bargs))
        if err is not None:
            self.cause = err
        self.channel.send(reply, self.name, self.function)
        self.deadline += time.monotonic() - started


def _run_bridge(bridge: Bridge | None, method: str, args: tuple[Any, ...]) -> tuple[list[Any], BaseException | None]:
    """Runs the bridge for the worker; returns the reply and any unexpected error."""
    if bridge is None:
        return ["err", "ValueError", "no bridge supplied to this call"], None
    try:
        value = bridge(method, args)
    except ValueError as exc:
        return ["err", "ValueError", str(exc)[:2000]], None
    except LookupError as exc:
        return ["err", "LookupError", str(exc)[:2000]], None
    except Exception as exc:  # a bug in the game's bridge: still must not crash the call
        text = str(exc)
        desc = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
        return ["err", "other", desc[:2000]], exc
    steps = None
    if isinstance(value, Weighed):
        steps = value.steps
        value = value.value
    if type(value) is tuple:
        value = list(value)
    found = problem(value)
    if found is not None:
        return ["err", "other", f"bridge returned non-plain {found}"], TypeError(
            f"bridge returned {found} for {method}")
    return (["ok", value] if steps is None else ["ok", value, steps]), None
