"""The accounting of one script call (or load): what it has used, and why it must stop.

One :class:`CallState` per call, so that a bridge that re-enters the host cannot corrupt the outer
call's counters. Nothing here imports the interpreter.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from .errors import STEPS_PER_TICK, Limits, ScriptError
from .messages import arguments_too_large, plain_and_small
from .values import Bridge, clip, describe, problem

__all__ = ["Abort", "CallState", "Weighed", "check_call"]


def check_call(name: str, function: str, functions: Collection[str] | None, args: Sequence[Any],
               method_names: frozenset[str]) -> None:
    """A call's script and arguments, checked before it runs (and, for a worker, before anything is
    sent): the one check of both hosts. ``functions`` are the loaded script's (None: not loaded);
    ``method_names`` the bridge's, which ctx fields must not shadow.

    Raises:
        ScriptError: (kind ``missing``) the script is not loaded, or defines no such function.
        TypeError/ValueError: the *caller* passed invalid arguments (a bug in the game, not in the
            script): no ctx field dict first, a field named as a bridge method, or a value that is
            not plain data.
    """
    if functions is None:
        raise ScriptError(name, "script is not loaded", function=function, kind="missing")
    if function not in functions:
        raise ScriptError(name, f"script defines no function {function!r}", function=function, kind="missing")
    if not args or type(args[0]) is not dict:
        raise TypeError("args[0] must be the ctx field dict")
    if not method_names.isdisjoint(args[0]):
        raise ValueError(f"ctx fields clash with bridge methods: {sorted(method_names & args[0].keys())}")
    found = problem(args)
    if found is not None:
        raise TypeError(f"script arguments must be plain values (None/bool/int/float/str/list/dict), not {found}")


class Weighed:
    """A bridge's answer that costs more steps than a plain ctx call (a big read, many dice).

    A bridge returns ``Weighed(value, steps)`` instead of ``value``: the script gets ``value`` and
    the call is charged ``steps`` on top of ``Limits.ctx_call_steps``, against the same budget
    as its loops, so the game side's work is bounded by the count too.

    Attributes:
        value: the plain answer the script sees.
        steps: the extra steps it costs (not negative).
    """

    __slots__ = ("value", "steps")

    def __init__(self, value: object, steps: int) -> None:
        self.value = value
        self.steps = max(0, int(steps))


class Abort(Exception):
    """Raised from a bridge forwarder into Starlark to unwind the script.

    Starlark has no ``try``, so raising any Python exception aborts the whole call; the
    real cause is kept on the call state, not parsed back out of the message.
    """


class CallState:
    """Mutable counters for one ``call`` (or one ``load``).

    Attributes:
        bridge: where ``ctx`` methods go during this call.
        cap: the call's step budget.
        ticks: cancellation-hook calls so far (each stands for ``STEPS_PER_TICK`` steps).
        extra: steps charged for ctx calls (their flat weight and any :class:`Weighed` answers).
        commands: bridge calls to command methods so far.
        bridge_calls: bridge calls of any kind so far.
        budget_hit: the step budget ran out (the reason is then the budget's).
        kind: why the call must stop, once it must (see ``ScriptError.kind``).
        reason: the human-readable cause, once the call must stop.
        cause: the Python exception behind a bridge refusal, for ``raise ... from``.
    """

    __slots__ = ("bridge", "cap", "ticks", "extra", "commands", "bridge_calls", "budget_hit", "kind", "reason",
                 "cause")

    def __init__(self, bridge: Bridge | None, cap: int) -> None:
        self.bridge = bridge
        self.cap = cap
        self.ticks = 0
        self.extra = 0
        self.commands = 0
        self.bridge_calls = 0
        self.budget_hit = False
        self.kind: str | None = None
        self.reason: str | None = None
        self.cause: BaseException | None = None

    @property
    def steps(self) -> int:
        """Steps used so far: the interpreter's ticks plus what ctx calls were charged."""
        return self.ticks * STEPS_PER_TICK + self.extra

    def over(self) -> bool:
        """True (and remembered) once the steps used pass the call's budget."""
        if self.ticks * STEPS_PER_TICK + self.extra > self.cap:
            self.budget_hit = True
        return self.budget_hit

    def fail(self, kind: str, reason: str, cause: BaseException | None = None) -> Abort:
        """Records why the call must stop and returns the exception that unwinds Starlark."""
        self.kind = kind
        self.reason = reason
        self.cause = cause
        return Abort(reason)

    def admit(self, method: str, arity: int | None, is_command: bool, limits: Limits, args: tuple[Any, ...],
              kwargs: dict[str, Any]) -> None:
        """Counts a ctx call against the call's limits; raises Abort past one.

        Raises:
            Abort: wrong arguments, too many ctx calls or commands, no bridge, an argument that
                may not leave the script, the step budget used up by this call's weight, or arguments
                over ``Limits.max_message_bytes`` as JSON.
        """
        if kwargs:
            raise self.fail("bridge", f"ctx.{method}() takes no keyword arguments")
        if arity is not None and len(args) != arity:
            raise self.fail("bridge", f"ctx.{method}() takes {arity} arguments ({len(args)} given)")
        self.bridge_calls += 1
        if self.bridge_calls > limits.max_bridge_calls:
            raise self.fail("bridge_calls", f"more than {limits.max_bridge_calls} bridge calls in one call")
        if is_command:
            self.commands += 1
            if self.commands > limits.max_commands:
                raise self.fail("commands", f"more than {limits.max_commands} commands in one call")
        if self.bridge is None:
            raise self.fail("bridge", f"ctx.{method}: no bridge supplied to this call")
        if plain_and_small(args, limits.max_message_bytes):  # (nearly every call: neither check below can fail)
            self.charge(limits.ctx_call_steps)
            return
        found = problem(args)
        if found is not None:
            raise self.fail("bridge", f"ctx.{method}: an argument is {found}")
        self.charge(limits.ctx_call_steps)
        # The worker's pipe takes no bigger request; the in-process host refuses it alike, so that the
        # two hosts record the same failure (see game.scripting.messages).
        large = arguments_too_large(method, args, limits.max_message_bytes)
        if large is not None:
            raise self.fail("bridge", f"ctx.{method}: {large}")

    def charge(self, steps: int) -> None:
        """Adds steps a ctx call costs; raises Abort when they take the call past its budget."""
        self.extra += steps
        # (``over`` written out: a script pays this on every ctx call)
        if self.ticks * STEPS_PER_TICK + self.extra > self.cap:
            self.budget_hit = True
        if self.budget_hit:
            raise self.fail("budget", f"instruction budget of {self.cap} exhausted")

    def relay(self, method: str, args: tuple[Any, ...]) -> Any:
        """Runs the bridge for one ctx call; a refusal or a non-plain answer stops the script.

        Raises:
            Abort: the bridge refused (ValueError/LookupError) or failed, its answer is not plain
                data, or what it charged takes the call past its budget.
        """
        assert self.bridge is not None
        try:
            result = self.bridge(method, args)
        except (ValueError, LookupError) as exc:
            raise self.fail("bridge", clip(f"ctx.{method}: {exc}"), exc) from None
        except Exception as exc:
            raise self.fail("bridge", clip(f"ctx.{method}: bridge failed: {describe(exc)}"), exc) from None
        except BaseException as exc:
            raise self.fail("bridge", f"ctx.{method}: interrupted", exc) from None
        if type(result) is Weighed:
            self.charge(result.steps)
            result = result.value
        kind = type(result)
        if kind is str or kind is bool or result is None:  # (always plain: nothing to walk)
            return result
        if kind is tuple:
            result = list(result)
        found = problem(result)
        if found is not None:
            raise self.fail("bridge", f"ctx.{method}: bridge returned non-plain {found}",
                            TypeError(f"bridge returned {found} for {method}"))
        return result
