"""The worker process's side of :class:`~game.scripting.worker.WorkerHost`.

The child lowers its own limits, then serves ``load``/``call``/``stats`` requests with the very same
:class:`~game.scripting.host.InProcessHost` the game uses for trusted scripts, sending every
``ctx.<method>(...)`` back to the parent (the bridge always runs in the parent, next to the game
state). Messages are JSON, never pickle: a compromised worker must not be able to run code in the
game, and the parent must not be able to confuse it either.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from multiprocessing.connection import Connection
from typing import Any

from .calls import Weighed
from .errors import Limits, ScriptError
from .host import InProcessHost
from .messages import SLACK, dumps
from .values import RemoteBridgeError

__all__ = ["SLACK", "dumps", "worker_main"]

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


class _Server:
    """Serves one parent over one pipe until it says ``close`` or goes away."""

    def __init__(self, conn: Connection, host: _ChildHost, limits: Limits) -> None:
        self.conn = conn
        self.host = host
        self.cap = limits.max_message_bytes

    def send(self, obj: Any) -> None:
        data = dumps(obj)
        if len(data) > self.cap + SLACK:
            raise OverflowError("message too large")
        self.conn.send_bytes(data)

    def recv(self) -> Any:
        try:
            return json.loads(self.conn.recv_bytes())
        except (EOFError, OSError):
            os._exit(0)  # parent went away

    def remote_bridge(self, method: str, args: tuple[Any, ...]) -> Any:
        """The bridge as the child's host sees it: one round trip to the parent."""
        data = dumps(["bridge", method, list(args)])
        if len(data) > self.cap:  # the host's CallState.admit refused it already: the same rule, a backstop
            raise ValueError(f"arguments too large ({len(data)} bytes)")
        self.conn.send_bytes(data)
        reply = self.recv()
        if reply[0] == "ok":
            return Weighed(reply[1], reply[2]) if len(reply) > 2 and type(reply[2]) is int else reply[1]
        if reply[1] == "ValueError":
            raise ValueError(reply[2])
        if reply[1] == "LookupError":
            raise LookupError(reply[2])
        raise RemoteBridgeError(reply[2])

    def load(self, name: str, source: str) -> None:
        self.host.load(name, source)
        self.send(["loaded", sorted(self.host.functions(name)), self.host.last_steps])

    def call(self, name: str, function: str, args: list[Any], max_steps: Any) -> None:
        cap = max_steps if type(max_steps) is int else None
        value = self.host.call(name, function, args, self.remote_bridge, max_steps=cap)
        try:
            self.send(["ok", value, self.host.last_steps])
        except OverflowError:  # the host refused such a result already (messages.result_too_large): a backstop
            self.send(["err", ScriptError(name, f"result too large (over {self.cap} bytes)", function=function,
                                          kind="result", steps=self.host.last_steps).to_dict()])

    def stats(self) -> None:
        self.send(["stats", {"pid": os.getpid(), "load_counts": self.host.load_counts,
                             "loaded": sorted(self.host.loaded()),
                             "modules": sorted(sys.modules)}])

    def serve_one(self, msg: list[Any]) -> bool:
        """Answers one request; False once the parent said ``close``."""
        op = msg[0]
        if op == "load":
            self.load(msg[1], msg[2])
        elif op == "call":
            self.call(msg[1], msg[2], msg[3], msg[4] if len(msg) > 4 else None)
        elif op == "stats":
            self.stats()
        elif op == "close":
            return False
        else:
            self.send(["err", ScriptError("?", f"unknown request {op!r}", kind="protocol").to_dict()])
        return True

    def die(self, error: ScriptError) -> None:
        """Reports a failure after which this interpreter is not trusted, and exits."""
        self.send(["err", error.to_dict()])
        self.conn.close()
        os._exit(4)

    def serve(self) -> None:
        """The request loop; failures of a request are answered, never raised."""
        self.send(["ready", os.getpid()])
        while True:
            msg = self.recv()
            name = str(msg[1]) if len(msg) > 1 else "?"
            try:
                if not self.serve_one(msg):
                    self.conn.close()
                    return
            except ScriptError as exc:
                if exc.kind == "panic":  # interpreter state after a Rust panic is not trusted
                    self.die(exc)
                self.send(["err", exc.to_dict()])
            except (TypeError, ValueError) as exc:  # caller bug detected by the host: relay as such
                self.send(["caller", type(exc).__name__, str(exc)])
            except MemoryError:
                self.die(ScriptError(name, "out of memory", kind="panic"))
            except Exception as exc:  # a bug in the host itself: report it, keep serving
                self.send(["err", ScriptError(name, f"script host error: {type(exc).__name__}: {exc}"[:500],
                                              kind="protocol").to_dict()])


def worker_main(conn: Connection, methods: dict[str, int | None], commands: list[str], limits: Limits) -> None:
    """Entry point of the worker process: serve load/call/stats requests until EOF."""
    _harden(limits)
    _Server(conn, _ChildHost(methods, commands, limits), limits).serve()
