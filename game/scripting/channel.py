"""The parent's end of one worker process: start it, talk to it with deadlines, kill it.

The parent never blocks without a deadline: every receive waits with ``poll`` for at most the time
left, messages are size-capped (``recv_bytes(maxlength)``) and decoded with ``json``. Whatever goes
wrong on the pipe (the worker died, overran, sent junk) is a :class:`ScriptError` and the worker is
killed, so the next operation starts a fresh one.

The worker is started with the ``spawn`` context (never ``fork``: the game process may hold SDL
state and threads), or, where multiprocessing may not start children (inside a daemonic process such
as a Dask worker), as ``python -m game.scripting.child_main`` over a socket pair, with the same
limits applied by the same child code. The child does NOT import the parent's ``__main__`` (see
:func:`_main_module_hidden`), but it does import the ``game`` package (to reach
:mod:`game.scripting.child`), so ``game/__init__.py`` must stay import-safe and reasonably cheap.
"""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import os
import select
import signal
import socket
import subprocess
import sys
import time
import types
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Final

from .child import SLACK, dumps, worker_main
from .errors import Limits, ScriptError

__all__ = ["Channel"]

# Busy-poll this long before sleeping in poll(2): on the machines measured, a sleeping
# poll() wakes ~60 us later than a blocking read(), which tripled the cost of a bridge
# round trip.  Most script calls answer well within the spin window.
_SPIN_SECONDS: Final = 0.0003
_JOIN_SECONDS: Final = 2.0


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


class _Subprocess:
    """A ``subprocess.Popen`` worker behind the ``multiprocessing.Process`` methods the channel uses."""

    def __init__(self, popen: subprocess.Popen[bytes]) -> None:
        self.popen = popen
        self.pid = popen.pid

    def is_alive(self) -> bool:
        return self.popen.poll() is None

    def kill(self) -> None:
        self.popen.kill()

    def join(self, timeout: float | None = None) -> None:
        try:
            self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            pass

    @property
    def exitcode(self) -> int | None:
        return self.popen.poll()

    def close(self) -> None:
        """Nothing to free beyond the reaped process."""


def _package_root() -> str:
    """The directory holding the ``game`` package, so that the subprocess imports this very copy."""
    return str(Path(__file__).resolve().parent.parent.parent)


def in_daemon() -> bool:
    """Whether this process is daemonic (multiprocessing may not start children here)."""
    return bool(multiprocessing.current_process().daemon)


def _kill(proc: Any) -> None:
    """Finalizer / helper: make sure a worker process is gone."""
    try:
        if proc.is_alive():
            proc.kill()
        proc.join(_JOIN_SECONDS)
    except (OSError, ValueError, AssertionError):
        pass


class Channel:
    """One worker process and the pipe to it (at most one at a time; started on demand).

    Args:
        ctx: a multiprocessing context (spawn or forkserver), or None to start the worker as a
            subprocess (always done inside a daemonic process, whatever ``ctx`` says).
        methods: the ctx methods and their arities, handed to the child.
        commands: the methods that are commands.
        limits: the limits the child applies; ``wall_seconds`` and ``max_message_bytes`` here.
    """

    def __init__(self, ctx: Any, methods: dict[str, int | None], commands: list[str], limits: Limits) -> None:
        self._ctx = ctx
        self._args = (methods, commands, limits)
        self.limits = limits
        self.proc: Any = None
        self._conn: Connection | None = None
        self._finalizer: weakref.finalize | None = None
        self._poller: Any = None
        self.starts = 0

    @property
    def alive(self) -> bool:
        """A worker is running and connected."""
        return self.proc is not None and self.proc.is_alive() and self._conn is not None

    def start(self) -> None:
        """Starts a fresh worker and waits for it to report ready.

        Raises:
            ScriptError: the worker did not start (kind ``died`` or ``timeout``).
        """
        self.kill()
        proc, parent_conn = self._spawn() if self._ctx is not None and not in_daemon() else self._subprocess()
        self.proc, self._conn = proc, parent_conn
        if hasattr(select, "poll"):
            self._poller = select.poll()
            self._poller.register(parent_conn.fileno(), select.POLLIN | select.POLLERR | select.POLLHUP)
        self._finalizer = weakref.finalize(self, _kill, proc)
        self.starts += 1
        msg = self.recv(time.monotonic() + self.limits.startup_seconds, "<worker>", None, "start")
        if msg[0] != "ready":
            self.kill()
            raise ScriptError("<worker>", "worker failed to start", kind="died")

    def _spawn(self) -> tuple[Any, Connection]:
        parent_conn, child_conn = self._ctx.Pipe(duplex=True)
        proc = self._ctx.Process(target=worker_main, args=(child_conn, *self._args), name="starlark-worker",
                                 daemon=True)
        with _main_module_hidden():
            proc.start()
        child_conn.close()
        return proc, parent_conn

    def _subprocess(self) -> tuple[Any, Connection]:
        """``python -m game.scripting.child_main FD`` on one end of a socket pair; the set-up goes first."""
        ours, theirs = socket.socketpair()
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (_package_root(), env.get("PYTHONPATH", "")) if p)
        try:
            popen = subprocess.Popen([sys.executable, "-m", "game.scripting.child_main", str(theirs.fileno())],
                                     pass_fds=(theirs.fileno(),), env=env, stdin=subprocess.DEVNULL)
        finally:
            theirs.close()
        conn = Connection(ours.detach())
        methods, commands, limits = self._args
        conn.send_bytes(dumps([methods, commands, dataclasses.asdict(limits)]))
        return _Subprocess(popen), conn

    def send(self, obj: Any, name: str, function: str | None) -> None:
        """Sends one message; ScriptError (kind ``died``) when the worker is gone."""
        assert self._conn is not None
        try:
            self._conn.send_bytes(dumps(obj))
        except (OSError, ValueError) as exc:
            reason = self.death_reason()
            self.kill()
            raise ScriptError(name, reason, function=function, kind="died") from exc

    def recv(self, deadline: float, name: str, function: str | None, what: str) -> list[Any]:
        """Waits for one message from the worker, never past *deadline*.

        Raises:
            ScriptError: ``timeout`` at the deadline, ``died`` when the pipe broke, ``protocol``
                for an oversized, undecodable or malformed message (the worker is killed).
        """
        conn = self._conn
        assert conn is not None
        try:
            ready = self._wait_readable(conn, deadline)
        except (OSError, ValueError):
            ready = True  # let recv_bytes report the broken pipe
        if not ready:
            self.kill()
            limit = self.limits.startup_seconds if what == "start" else self.limits.wall_seconds
            raise ScriptError(name, f"took longer than {limit} s (script host restarted)",
                              function=function, kind="timeout")
        return self._decode(self._read(conn, name, function), name, function)

    def _read(self, conn: Connection, name: str, function: str | None) -> bytes:
        try:
            return conn.recv_bytes(self.limits.max_message_bytes + SLACK)
        except (EOFError, OSError) as exc:
            # recv_bytes refuses a long message with a plain OSError; a reset pipe is a death, even
            # before the dead worker has been reaped (is_alive still True for a moment after SIGKILL).
            oversized = type(exc) is OSError and self.proc is not None and self.proc.is_alive()
            reason = "worker sent an oversized message" if oversized else self.death_reason()
            self.kill()
            raise ScriptError(name, reason, function=function, kind="protocol" if oversized else "died") from None

    def _decode(self, data: bytes, name: str, function: str | None) -> list[Any]:
        try:
            msg = json.loads(data)
        except (ValueError, RecursionError):
            msg = None
        if not isinstance(msg, list) or not msg:
            self.kill()
            raise ScriptError(name, "undecodable message from worker", function=function, kind="protocol")
        if msg[0] in ("ok", "loaded", "bridge", "caller") and len(msg) < 3:
            self.kill()
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

    def death_reason(self) -> str:
        """Describes how the worker ended, e.g. ``script host died: killed by SIGABRT``."""
        proc = self.proc
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

    def close(self) -> None:
        """Asks the worker to stop, then makes sure it has."""
        if self._conn is not None and self.alive:
            try:
                self._conn.send_bytes(dumps(["close"]))
                self.proc.join(0.5)
            except (OSError, ValueError):
                pass
        self.kill()

    def kill(self) -> None:
        """Kills the current worker (if any); the next operation starts a fresh one."""
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        if self.proc is not None:
            _kill(self.proc)
            try:
                self.proc.close()
            except ValueError:
                pass
        if self._conn is not None:
            try:
                self._conn.close()
            except OSError:
                pass
        self.proc = None
        self._conn = None
        self._poller = None
