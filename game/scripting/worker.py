"""Worker-process Starlark host for untrusted scripts.

Why a process: starlark-rust aborts the whole process when an allocation fails (a
single ``"x" * 2000000000`` is enough -- there is no exception to catch), and call
fan-out or a huge builtin operation is not counted by the deterministic step budget.
So untrusted scripts run in a child process that

* lowers its own ``RLIMIT_AS`` (``Limits.memory_bytes``) and ``RLIMIT_CORE`` (no core
  dumps when it aborts), and asks the kernel to kill it if the parent dies;
* runs the very same :class:`~game.scripting.host.InProcessHost` (same dialect, step
  budget, call-stack limit, plain-data checks, error messages);
* forwards every ``ctx.<method>(...)`` to the parent over a pipe: the bridge always
  runs in the PARENT, next to the game state, and its answer (value or refusal) is
  sent back while the script waits.

The parent never blocks without a deadline: every receive is a ``Connection.poll``
with the remaining wall time, messages are size-capped (``recv_bytes(maxlength)``)
and decoded with ``json`` (never ``pickle``: a compromised worker must not be able to
run code in the game).  When the worker dies or overruns, the call raises
:class:`ScriptError` and the next call transparently spawns a new worker and re-loads
every script that had been loaded (parse+freeze happens once per worker, not per
call).

The worker is started with the ``spawn`` context (never ``fork``: the game process may
hold SDL state and threads).  The child does NOT import the parent's ``__main__`` (see
:func:`_main_module_hidden`), but it does import the ``game`` package (to reach this
module), so ``game/__init__.py`` must stay import-safe and reasonably cheap.
"""

from __future__ import annotations

import json
import os
import select
import signal
import sys
import time
import types
import weakref
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from multiprocessing import get_context
from multiprocessing.connection import Connection
from typing import Any, Final

from .errors import Limits, ScriptError
from .host import Bridge, InProcessHost, RemoteBridgeError, _parse_methods, is_plain

__all__ = ["WorkerHost"]

_SLACK: Final = 4096  # envelope bytes allowed on top of Limits.max_message_bytes
# Busy-poll this long before sleeping in poll(2): on the machines measured, a sleeping
# poll() wakes ~60 us later than a blocking read(), which tripled the cost of a bridge
# round trip.  Most script calls answer well within the spin window.
_SPIN_SECONDS: Final = 0.0003
_JOIN_SECONDS: Final = 2.0


def _dumps(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":"), allow_nan=True).encode()


# ====================================================================== child side


class _ChildHost(InProcessHost):
    """The in-process host as run inside the worker: also notices an orphaned worker."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._parent_pid = os.getppid()

    def _tick(self) -> bool:
        if os.getppid() != self._parent_pid:  # parent gone: stop burning CPU
            os._exit(3)
        return super()._tick()


def _harden(limits: Limits) -> None:
    """Applies OS-level limits to the worker itself (Linux/Unix; best effort elsewhere)."""
    # An out-of-memory abort is expected here; spare the game's stderr a Rust backtrace.
    os.environ["RUST_BACKTRACE"] = "0"
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        want = limits.memory_bytes if hard == resource.RLIM_INFINITY else min(limits.memory_bytes, hard)
        resource.setrlimit(resource.RLIMIT_AS, (want, hard))
    except (ImportError, ValueError, OSError):
        pass
    try:  # die with the parent even if it is SIGKILLed (Linux only)
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    # Ctrl-C in the terminal hits the whole process group; the parent decides.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _worker_main(
    conn: Connection, methods: dict[str, int | None], commands: list[str], limits: Limits
) -> None:
    """Entry point of the worker process: serve load/call/stats requests until EOF."""
    _harden(limits)
    host = _ChildHost(methods, commands, limits)
    cap = limits.max_message_bytes

    def send(obj: Any) -> None:
        data = _dumps(obj)
        if len(data) > cap + _SLACK:
            raise OverflowError("message too large")
        conn.send_bytes(data)

    def recv() -> Any:
        try:
            return json.loads(conn.recv_bytes())
        except (EOFError, OSError):
            os._exit(0)  # parent went away

    def remote_bridge(method: str, args: tuple[Any, ...]) -> Any:
        data = _dumps(["bridge", method, list(args)])
        if len(data) > cap:
            raise ValueError(f"arguments too large ({len(data)} bytes)")
        conn.send_bytes(data)
        reply = recv()
        if reply[0] == "ok":
            return reply[1]
        if reply[1] == "ValueError":
            raise ValueError(reply[2])
        if reply[1] == "LookupError":
            raise LookupError(reply[2])
        raise RemoteBridgeError(reply[2])

    send(["ready", os.getpid()])
    while True:
        msg = recv()
        op = msg[0]
        try:
            if op == "load":
                _, name, source = msg
                host.load(name, source)
                send(["loaded", sorted(host.functions(name)), host.last_steps])
            elif op == "call":
                _, name, function, args = msg
                value = host.call(name, function, args, remote_bridge)
                try:
                    send(["ok", value, host.last_steps])
                except OverflowError:
                    send(["err", ScriptError(
                        name, f"result too large (over {cap} bytes)", function=function, kind="result",
                        steps=host.last_steps).to_dict()])
            elif op == "stats":
                send(["stats", {"pid": os.getpid(), "load_counts": host.load_counts,
                                "loaded": sorted(host.loaded())}])
            elif op == "close":
                conn.close()
                return
            else:
                send(["err", ScriptError("?", f"unknown request {op!r}", kind="protocol").to_dict()])
        except ScriptError as exc:
            send(["err", exc.to_dict()])
            if exc.kind == "panic":  # interpreter state after a Rust panic is not trusted
                conn.close()
                os._exit(4)
        except (TypeError, ValueError) as exc:  # caller bug detected by the host: relay as such
            send(["caller", type(exc).__name__, str(exc)])
        except MemoryError:
            send(["err", ScriptError(str(msg[1]) if len(msg) > 1 else "?", "out of memory",
                                     kind="panic").to_dict()])
            conn.close()
            os._exit(4)
        except Exception as exc:  # a bug in the host itself: report it, keep serving
            send(["err", ScriptError(str(msg[1]) if len(msg) > 1 else "?",
                                     f"script host error: {type(exc).__name__}: {exc}"[:500],
                                     kind="protocol").to_dict()])


# ===================================================================== parent side


@contextmanager
def _main_module_hidden() -> Iterator[None]:
    """Hides ``__main__`` from multiprocessing while a worker is being spawned.

    spawn normally re-imports the parent's main script in the child (so that pickled
    ``__main__`` objects resolve).  The worker needs nothing from it, and importing the
    game's launcher there would drag in pygame/SDL -- or, if the launcher lacks an
    ``if __name__ == "__main__"`` guard, start a second game.  Swapping in an empty
    module for the duration of ``Process.start()`` makes the child skip that step.
    """
    real = sys.modules.get("__main__")
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        if real is not None:
            sys.modules["__main__"] = real


def _kill(proc: Any) -> None:
    """Finalizer / helper: make sure a worker process is gone."""
    try:
        if proc.is_alive():
            proc.kill()
        proc.join(_JOIN_SECONDS)
    except (OSError, ValueError, AssertionError):
        pass


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
        start_method: ``"spawn"`` (default) or ``"forkserver"``; never ``"fork"``.

    Attributes:
        last_steps: Steps used by the last call (reported by the worker).
        worker_starts: How many worker processes this host has started.
    """

    def __init__(
        self,
        methods: Iterable[str] | Mapping[str, int | None] = (),
        commands: Iterable[str] = frozenset(),
        limits: Limits = Limits(),
        *,
        start_method: str = "spawn",
    ) -> None:
        if start_method not in ("spawn", "forkserver"):
            raise ValueError("start_method must be 'spawn' or 'forkserver'")
        self._methods = _parse_methods(methods)
        self._commands = frozenset(commands)
        unknown = self._commands - self._methods.keys()
        if unknown:
            raise ValueError(f"commands not among methods: {sorted(unknown)}")
        self._method_names = frozenset(self._methods)
        self.limits = limits
        self._ctx: Any = get_context(start_method)  # a SpawnContext or ForkServerContext
        self._proc: Any = None
        self._conn: Connection | None = None
        self._finalizer: weakref.finalize | None = None
        self._poller: Any = None
        self._sources: dict[str, str] = {}
        self._functions: dict[str, frozenset[str]] = {}
        self._lost: dict[str, ScriptError] = {}
        self._closed = False
        self._busy = False
        self.last_steps = 0
        self.worker_starts = 0

    # ------------------------------------------------------------------ public API

    @property
    def pid(self) -> int | None:
        """Process id of the current worker, or None if none is running."""
        return self._proc.pid if self._proc is not None and self._proc.is_alive() else None

    def start(self) -> None:
        """Starts the worker now instead of on first use (e.g. behind a loading screen)."""
        self._ensure_worker()

    def load(self, name: str, source: str) -> None:
        """Parses and freezes a script in the worker, once (see InProcessHost.load).

        Raises:
            ScriptError: as for InProcessHost, plus ``"timeout"``/``"died"`` when the
                top-level code overran or killed the worker.
        """
        self._check_open()
        if self._sources.get(name) == source:
            return
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
    ) -> Any:
        """Calls a script function in the worker; the bridge runs here, in the parent.

        Raises:
            ScriptError: as for InProcessHost, plus ``"timeout"`` (worker killed after
                ``wall_seconds``) and ``"died"`` (worker crashed, e.g. out of memory).
                In every case: discard the commands buffered during this call.
            TypeError/ValueError: the caller passed invalid arguments.
        """
        self._check_open()
        if name in self._lost:
            raise self._lost[name]
        if name not in self._sources:
            raise ScriptError(name, "script is not loaded", function=function, kind="missing")
        if function not in self._functions[name]:
            raise ScriptError(name, f"script defines no function {function!r}", function=function, kind="missing")
        if not args or type(args[0]) is not dict:
            raise TypeError("args[0] must be the ctx field dict")
        if not self._method_names.isdisjoint(args[0]):
            raise ValueError(f"ctx fields clash with bridge methods: {sorted(self._method_names & args[0].keys())}")
        if not is_plain(args):
            raise TypeError("script arguments must be plain values (None/bool/int/float/str/list/dict)")
        if self._busy:
            raise RuntimeError("WorkerHost.call is not re-entrant (bridge called back into the host)")
        self._busy = True
        try:
            return self._call(name, function, args, bridge)
        finally:
            self._busy = False

    def _call(self, name: str, function: str, args: tuple[Any, ...] | list[Any], bridge: Bridge | None) -> Any:
        """The body of :meth:`call` once arguments are validated."""
        self._ensure_worker()
        if name in self._lost:  # re-load failed after a restart
            raise self._lost[name]
        assert self._conn is not None
        self._send(["call", name, function, list(args)], name, function)
        deadline = time.monotonic() + self.limits.wall_seconds
        bridge_calls = commands = 0
        cause: BaseException | None = None
        try:
            while True:
                msg = self._recv(deadline, name, function, "call")
                op = msg[0]
                if op == "bridge":
                    method, bargs = msg[1], msg[2]
                    started = time.monotonic()
                    # Backstop accounting: the worker enforces the same limits with
                    # better messages; the parent only guards what it executes.
                    bridge_calls += 1
                    commands += method in self._commands
                    if (
                        type(method) is not str or method not in self._methods or type(bargs) is not list
                        or bridge_calls > self.limits.max_bridge_calls or commands > self.limits.max_commands
                    ):
                        self._kill_worker()
                        raise ScriptError(name, "worker sent an invalid bridge request", function=function,
                                          kind="protocol")
                    reply, err = self._run_bridge(bridge, method, tuple(bargs))
                    if err is not None:
                        cause = err
                    self._send(reply, name, function)
                    deadline += time.monotonic() - started  # bridge time is the game's, not the script's
                elif op == "ok":
                    self.last_steps = msg[2] if type(msg[2]) is int else 0
                    return msg[1]
                elif op == "err":
                    error = ScriptError.from_dict(msg[1] if isinstance(msg[1], dict) else {})
                    self.last_steps = error.steps or 0
                    if error.kind == "panic":
                        self._kill_worker()  # it exits by itself; make the restart deterministic
                    raise error from cause
                elif op == "caller":
                    raise (TypeError if msg[1] == "TypeError" else ValueError)(str(msg[2]))
                else:
                    self._kill_worker()
                    raise ScriptError(name, f"unexpected message {str(op)[:40]!r} from worker",
                                      function=function, kind="protocol")
        except ScriptError:
            raise
        except (TypeError, ValueError):
            raise
        except BaseException:
            # KeyboardInterrupt etc. in the bridge or while waiting: the worker is now
            # mid-protocol, so it cannot be reused.
            self._kill_worker()
            raise

    def stats(self) -> dict[str, Any]:
        """Worker-side counters, e.g. ``{"pid": ..., "load_counts": {name: parses}}``.

        Used by tests to prove that scripts are parsed once per worker, not per call.
        """
        self._check_open()
        self._ensure_worker()
        self._send(["stats"], "<stats>", None)
        msg = self._recv(time.monotonic() + self.limits.wall_seconds, "<stats>", None, "stats")
        if msg[0] != "stats" or not isinstance(msg[1], dict):
            self._kill_worker()
            raise ScriptError("<stats>", "bad stats reply", kind="protocol")
        result = dict(msg[1])
        result["worker_starts"] = self.worker_starts
        return result

    def close(self) -> None:
        """Stops the worker (politely, then by force); further use raises RuntimeError."""
        if self._closed:
            return
        self._closed = True
        if self._conn is not None and self._proc is not None and self._proc.is_alive():
            try:
                self._conn.send_bytes(_dumps(["close"]))
                self._proc.join(0.5)
            except (OSError, ValueError):
                pass
        self._kill_worker()

    def __enter__(self) -> WorkerHost:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ internals

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("script host is closed")

    def _run_bridge(
        self, bridge: Bridge | None, method: str, args: tuple[Any, ...]
    ) -> tuple[list[Any], BaseException | None]:
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
        if type(value) is tuple:
            value = list(value)
        if not is_plain(value):
            return ["err", "other", f"bridge returned non-plain {type(value).__name__}"], TypeError(
                f"bridge returned {type(value).__name__} for {method}")
        return ["ok", value], None

    def _ensure_worker(self) -> None:
        """Starts a worker if there is none (or it died) and re-loads every script."""
        if self._proc is not None and self._proc.is_alive() and self._conn is not None:
            return
        self._kill_worker()
        parent_conn, child_conn = self._ctx.Pipe(duplex=True)
        proc = self._ctx.Process(
            target=_worker_main,
            args=(child_conn, self._methods, sorted(self._commands), self.limits),
            name="starlark-worker",
            daemon=True,
        )
        with _main_module_hidden():
            proc.start()
        child_conn.close()
        self._proc, self._conn = proc, parent_conn
        if hasattr(select, "poll"):
            self._poller = select.poll()
            self._poller.register(parent_conn.fileno(), select.POLLIN | select.POLLERR | select.POLLHUP)
        self._finalizer = weakref.finalize(self, _kill, proc)
        self.worker_starts += 1
        msg = self._recv(time.monotonic() + self.limits.startup_seconds, "<worker>", None, "start")
        if msg[0] != "ready":
            self._kill_worker()
            raise ScriptError("<worker>", "worker failed to start", kind="died")
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
                    line=exc.line, function=exc.function, kind=exc.kind)
                if self._proc is None or not self._proc.is_alive():
                    self._ensure_worker()  # fresh worker, loads the remaining scripts
                    return

    def _load_remote(self, name: str, source: str) -> frozenset[str]:
        self._send(["load", name, source], name, None)
        msg = self._recv(time.monotonic() + self.limits.wall_seconds, name, None, "load")
        if msg[0] == "loaded" and isinstance(msg[1], list) and all(type(f) is str for f in msg[1]):
            return frozenset(msg[1])
        if msg[0] == "err" and isinstance(msg[1], dict):
            error = ScriptError.from_dict(msg[1])
            if error.kind == "panic":
                self._kill_worker()
            raise error
        if msg[0] == "caller":
            raise (TypeError if msg[1] == "TypeError" else ValueError)(str(msg[2]))
        self._kill_worker()
        raise ScriptError(name, "unexpected reply to load", kind="protocol")

    def _send(self, obj: Any, name: str, function: str | None) -> None:
        assert self._conn is not None
        try:
            self._conn.send_bytes(_dumps(obj))
        except (OSError, ValueError) as exc:
            reason = self._death_reason()
            self._kill_worker()
            raise ScriptError(name, reason, function=function, kind="died") from exc

    def _recv(self, deadline: float, name: str, function: str | None, what: str) -> list[Any]:
        """Waits for one message from the worker, never past *deadline*."""
        conn = self._conn
        assert conn is not None
        try:
            ready = self._wait_readable(conn, deadline)
        except (OSError, ValueError):
            ready = True  # let recv_bytes report the broken pipe
        if not ready:
            self._kill_worker()
            limit = self.limits.startup_seconds if what == "start" else self.limits.wall_seconds
            raise ScriptError(name, f"took longer than {limit} s (script host restarted)",
                              function=function, kind="timeout")
        try:
            data = conn.recv_bytes(self.limits.max_message_bytes + _SLACK)
        except (EOFError, OSError) as exc:
            oversized = isinstance(exc, OSError) and self._proc is not None and self._proc.is_alive()
            reason = "worker sent an oversized message" if oversized else self._death_reason()
            self._kill_worker()
            raise ScriptError(name, reason, function=function, kind="protocol" if oversized else "died") from None
        try:
            msg = json.loads(data)
        except (ValueError, RecursionError):
            msg = None
        if not isinstance(msg, list) or not msg:
            self._kill_worker()
            raise ScriptError(name, "undecodable message from worker", function=function, kind="protocol")
        if msg[0] in ("ok", "loaded") and len(msg) < 3 or msg[0] in ("bridge", "caller") and len(msg) < 3:
            self._kill_worker()
            raise ScriptError(name, "malformed message from worker", function=function, kind="protocol")
        return msg

    def _wait_readable(self, conn: Connection, deadline: float) -> bool:
        """True once the worker has sent something (or hung up), False at *deadline*."""
        poller = self._poller
        if poller is None:  # no poll(2) on this platform
            remaining = deadline - time.monotonic()
            return remaining > 0 and conn.poll(remaining)
        now = time.monotonic()
        spin_until = min(now + _SPIN_SECONDS, deadline)
        while True:
            if poller.poll(0):
                return True
            now = time.monotonic()
            if now >= spin_until:
                break
        remaining = deadline - now
        if remaining <= 0:
            return False
        # poll() takes milliseconds; round up so we never wake just before the deadline.
        return bool(poller.poll(int(remaining * 1000) + 1))

    def _death_reason(self) -> str:
        """Describes how the worker ended, e.g. ``script host died: killed by SIGABRT``."""
        proc = self._proc
        if proc is None:
            return "script host died"
        proc.join(_JOIN_SECONDS)
        code = proc.exitcode
        if code is None:
            return "script host died: connection lost"
        if code < 0:
            try:
                sig = signal.Signals(-code).name
            except ValueError:
                sig = f"signal {-code}"
            hint = " (out of memory?)" if sig == "SIGABRT" else ""
            return f"script host died: killed by {sig}{hint}"
        return f"script host died: exit code {code}"

    def _kill_worker(self) -> None:
        """Kills the current worker (if any); the next operation starts a fresh one."""
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        if self._proc is not None:
            _kill(self._proc)
            try:
                self._proc.close()
            except ValueError:
                pass
        if self._conn is not None:
            try:
                self._conn.close()
            except OSError:
                pass
        self._proc = None
        self._conn = None
        self._poller = None
