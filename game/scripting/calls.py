"""The accounting of one script call (or load): what it has used, and why it must stop.

One :class:`CallState` per call, so that a bridge that re-enters the host cannot corrupt the outer
call's counters. Nothing here imports the interpreter.
"""

from __future__ import annotations

from .values import Bridge

__all__ = ["Abort", "CallState"]


class Abort(Exception):
    """Raised from a bridge forwarder into Starlark to unwind the script.

    Starlark has no ``try``, so raising any Python exception aborts the whole call; the
    real cause is kept on the call state, not parsed back out of the message.
    """


class CallState:
    """Mutable counters for one ``call`` (or one ``load``).

    Attributes:
        bridge: where ``ctx`` methods go during this call.
        ticks: cancellation-hook calls so far (each stands for ``STEPS_PER_TICK`` steps).
        commands: bridge calls to command methods so far.
        bridge_calls: bridge calls of any kind so far.
        budget_hit: the step budget ran out (the reason is then the budget's).
        kind: why the call must stop, once it must (see ``ScriptError.kind``).
        reason: the human-readable cause, once the call must stop.
        cause: the Python exception behind a bridge refusal, for ``raise ... from``.
    """

    __slots__ = ("bridge", "ticks", "commands", "bridge_calls", "budget_hit", "kind", "reason", "cause")

    def __init__(self, bridge: Bridge | None) -> None:
        self.bridge = bridge
        self.ticks = 0
        self.commands = 0
        self.bridge_calls = 0
        self.budget_hit = False
        self.kind: str | None = None
        self.reason: str | None = None
        self.cause: BaseException | None = None

    def fail(self, kind: str, reason: str, cause: BaseException | None = None) -> Abort:
        """Records why the call must stop and returns the exception that unwinds Starlark."""
        self.kind = kind
        self.reason = reason
        self.cause = cause
        return Abort(reason)
