"""In-process Starlark host: parse/freeze designer scripts once, call their entry points.

FOR TRUSTED SCRIPTS ONLY (the game's own ``assets/scripts``).  Starlark cannot do I/O,
but a script can still take this process down or stall it: one ``"x" * 2000000000``
makes the Rust allocator abort the whole Python process (no exception to catch) --
even at load, since constant expressions are folded when the script is compiled.
(Deep nesting, which overflows starlark's stack, is refused before it parses; work
inside one builtin or operator is paid for by its operands' size: see ``checked``.)
Scripts from scenario files written by strangers belong in :class:`WorkerHost`
(``game.scripting.worker``), which runs this same host in a child process under a
memory limit and a wall clock.

What this host *does* enforce, deterministically:

* the step budget (``Limits.max_steps``: loop iterations and function calls counted
  by starlark's cancellation hook, granularity 1000 -- see :data:`STEPS_PER_TICK`;
  this also stops exponential call fan-out),
* the call-stack depth (``Limits.max_callstack``),
* the number of bridge calls and of commands per call,
* that only plain data crosses the boundary in both directions,
* no ``load``, no ``while``, no I/O builtins (``print``/``breakpoint`` are not even
  provided), globals frozen after load.

How ``ctx`` is built: at load time the host evaluates the designer's file into a module,
then evaluates a small generated *trampoline* into the same module::

    sbx__M = {"health": sbx__m_health, "damage": sbx__m_damage, ...}   # built once
    def sbx__call__on_hit(sbx__fields, *sbx__args):
        return on_hit(sbx__struct(**(sbx__fields | sbx__M)), *sbx__args)

``sbx__m_<method>`` are Python callables registered with ``Module.add_callable``; they
forward to the bridge of the *current* call.  Per call only the small dict of plain
fields crosses into Starlark and one struct is built (about 1 us on top of the
~5 us a bare starlark-pyo3 call costs).  Identifiers starting with ``sbx__`` are
reserved; scripts using them are refused at load.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

import starlark as sl

from .calls import Abort, CallState, check_call
from .diagnose import DefSpans, def_spans, is_panic, translate_call, translate_parse
from .dialect import Environment
from .discover import PROBE, discover_functions, probe_source
from .errors import Limits, ScriptError, refuse_long_source
from .messages import result_too_large
from .nesting import MAX_NESTING, nesting_problem
from .rewrite import RewriteError
from .values import RESERVED_PREFIX, Bridge, clip, parse_host_methods, problem

__all__ = ["InProcessHost"]

_RESERVED_RE: Final = re.compile(r"(?<![A-Za-z0-9_])sbx__")
_HOST_FILE: Final = "<sbx>"
_TRAMPOLINE_PREFIX: Final = "sbx__call__"


@dataclass
class _Script:
    """A loaded, frozen script plus what is needed to explain its errors."""

    name: str
    source: str
    frozen: sl.FrozenModule
    functions: frozenset[str]
    def_lines: DefSpans  # (first, last line, name) of every top-level def


class InProcessHost:
    """Runs trusted Starlark scripts inside this process.

    Not thread-safe: one host per thread.  A bridge may call back into the same host
    (each call keeps its own counters), though the game should have no reason to.

    Args:
        methods: Names of the ``ctx`` methods scripts may call, or a mapping
            name -> exact positional arity (None = any).  Each forwards to the bridge.
        commands: Subset of ``methods`` that change game state; counted against
            ``Limits.max_commands``.
        limits: Resource limits (``wall_seconds``/``memory_bytes`` are ignored here).

    Attributes:
        last_steps: Steps (loop iterations, in units of ``STEPS_PER_TICK``) used by the
            most recent ``call`` or ``load``; deterministic for the same script and
            arguments.
        load_counts: How many times each script name was actually parsed and frozen.

    Raises:
        ValueError: a command that is not among the methods, or a method name that is not an
            identifier.
    """

    def __init__(
        self,
        methods: Iterable[str] | Mapping[str, int | None] = (),
        commands: Iterable[str] = frozenset(),
        limits: Limits = Limits(),
        *,
        counted_builtins: bool = True,
        checked_ops: bool = True,
    ) -> None:
        self._methods, self._commands = parse_host_methods(methods, commands)
        self._method_names = frozenset(self._methods)
        self.limits = limits
        self._env = Environment(counted_builtins, checked_ops)
        self._dialect = self._env.dialect
        self._globals = self._env.globals
        self._opts = sl.EvalOptions(check_cancelled=self._tick, max_callstack_size=limits.max_callstack + 1)
        # The host's probe of a script's names: its own work, bounded by the source's length, never charged.
        self._probe_opts = sl.EvalOptions(max_callstack_size=limits.max_callstack + 1)
        self._forwarders = {m: self._make_forwarder(m) for m in self._methods}
        # With the counted builtins, a ctx method's arguments are paid for before they are converted.
        wrap = 'lambda *a, **k: sbx__m_{0}(*sbx__args("{0}", a), **k)' if self._env.counted else "sbx__m_{0}"
        entries = ", ".join(f'"{m}": {wrap.format(m)}' for m in self._methods)
        self._method_dict_src = f"sbx__M = {{{entries}}}\n"
        self._scripts: dict[str, _Script] = {}
        self._state: CallState | None = None
        self._closed = False
        self.last_steps = 0
        self.load_counts: dict[str, int] = {}

    # ------------------------------------------------------------------ public API

    def load(self, name: str, source: str) -> None:
        """Parses, runs the top level of, and freezes a script, once.

        Loading the same name with the same source again is a no-op; a different
        source replaces the script (hot reload).

        Raises:
            ScriptError: syntax or lint error, reserved identifier, a top-level
                statement failing, the step budget exhausted at top level, or a source
                longer than ``MAX_SOURCE_BYTES`` (kind ``syntax``).
            RuntimeError: the host is closed.
        """
        self._check_open()
        old = self._scripts.get(name)
        if old is not None and old.source == source:
            return
        refuse_long_source(name, source)
        self._scripts[name] = self._compile(name, source)
        self.load_counts[name] = self.load_counts.get(name, 0) + 1

    def functions(self, name: str) -> frozenset[str]:
        """Top-level public functions (``def`` or assigned lambda) the script defines.

        Raises:
            KeyError: the script was never loaded successfully.
        """
        return self._scripts[name].functions

    def loaded(self) -> frozenset[str]:
        """Names of the scripts currently loaded."""
        return frozenset(self._scripts)

    def call(
        self,
        name: str,
        function: str,
        args: tuple[Any, ...] | list[Any] = (),
        bridge: Bridge | None = None,
        *,
        max_steps: int | None = None,
    ) -> Any:
        """Calls ``function(ctx, *args[1:])`` in script *name* and returns its plain result.

        ``args[0]`` must be a dict of plain fields; inside Starlark it becomes ``ctx``,
        a struct with those fields plus one method per bridge method name. Every ctx call costs
        ``Limits.ctx_call_steps``, plus what a :class:`Weighed` answer of the bridge says.

        Args:
            name: the script, as loaded.
            function: its entry point.
            args: the ctx fields, then the entry point's other arguments (plain values).
            bridge: answers the ctx methods.
            max_steps: a smaller step budget for this call (what is left of a round's), if any.

        Raises:
            ScriptError: anything the script does wrong or any bridge refusal; the
                caller must then discard the commands the bridge buffered in this call.
            TypeError/ValueError: the *caller* passed invalid arguments (a bug in the
                game, not in the script).
            RuntimeError: the host is closed.
        """
        self._check_open()
        script = self._scripts.get(name)
        check_call(name, function, None if script is None else script.functions, args, self._method_names)
        assert script is not None  # (check_call refused a script not loaded)
        cap = self.limits.max_steps if max_steps is None else max(0, min(self.limits.max_steps, int(max_steps)))
        state = CallState(bridge, cap)
        prev, self._state = self._state, state
        try:
            result = self._run(script, function, args, state)
        finally:
            self._state = prev
            self.last_steps = state.steps
        found = problem(result)
        if found is not None:
            raise ScriptError(name, f"returned a non-plain value ({found})", function=function, kind="result",
                              steps=self.last_steps)
        most = self.limits.max_message_bytes  # a worker could not send it back: refused here alike
        if result_too_large(result, self.last_steps, most):
            raise ScriptError(name, f"result too large (over {most} bytes)", function=function, kind="result",
                              steps=self.last_steps)
        return result

    def close(self) -> None:
        """Drops all scripts; further use raises RuntimeError."""
        self._scripts.clear()
        self._closed = True

    def __enter__(self) -> InProcessHost:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ internals

    def _run(self, script: _Script, function: str, args: tuple[Any, ...] | list[Any], state: CallState) -> Any:
        """One call of a trampoline, with starlark's failures mapped to ScriptError."""
        try:
            return script.frozen.call_with(self._opts, _TRAMPOLINE_PREFIX + function, *args).value
        except ValueError:
            # Converting the result failed: an int of more than 4300 digits (sys.int_max_str_digits).
            # The script's fault, not the caller's (whose arguments were checked before the call).
            raise ScriptError(script.name, "returned a non-plain value (an integer beyond 64 bits)",
                              function=function, kind="result", steps=state.steps) from None
        except sl.StarlarkError as exc:
            if isinstance(state.cause, BaseException) and not isinstance(state.cause, Exception):
                raise state.cause from None  # KeyboardInterrupt etc. inside the bridge
            raise self._translate(exc, script, function, state) from state.cause
        except BaseException as exc:
            if not is_panic(exc):
                raise
            raise ScriptError(script.name, clip(f"interpreter panic: {exc}"), function=function, kind="panic",
                              steps=state.steps) from None

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("script host is closed")

    def _tick(self) -> bool:
        """starlark's check_cancelled hook: one call per ~1000 loop iterations/calls."""
        state = self._state
        if state is None:
            return False
        state.ticks += 1
        return state.over()

    def _make_forwarder(self, method: str) -> Callable[..., Any]:
        """Builds the Python callable behind ``ctx.<method>``; created once per host."""

        arity, is_command = self._methods[method], method in self._commands  # (fixed for the host's life)

        def forward(*args: Any, **kwargs: Any) -> Any:
            state = self._state
            if state is None:  # only reachable if a script kept ctx past its call
                raise Abort(f"ctx.{method} used outside a call")
            state.admit(method, arity, is_command, self.limits, args, kwargs)
            return state.relay(method, args)

        forward.__name__ = f"ctx_{method}"
        return forward

    def _parse(self, name: str, source: str) -> sl.AstModule:
        """Parses and lints a script, then parses what will run (the instrumented source).

        Raises:
            ScriptError: (kind ``syntax``) a reserved identifier, a parse or lint error, nesting
                too deep, or a construct the instrumentation refuses.
        """
        if _RESERVED_RE.search(source):
            raise ScriptError(name, f"identifiers starting with {RESERVED_PREFIX} are reserved", kind="syntax")
        deep = nesting_problem(source)  # before any parser: see game.scripting.nesting
        if deep is not None:
            raise ScriptError(name, f"nested too deeply to parse: more than {MAX_NESTING} levels of brackets, "
                              f"operators and indentation in one statement (split it)", line=deep, kind="syntax")
        problem: RewriteError | None = None
        try:
            runs = self._env.instrumented(name, source)  # before starlark's parser: see Environment
        except RewriteError as exc:
            if exc.before_lint:
                raise ScriptError(name, clip(str(exc)), kind="syntax") from None
            runs, problem = source, exc
        ast = self._starlark_parse(name, source)  # a syntax error is said in Starlark's words first
        if problem is not None:  # refused whatever the lint says: the lint (quadratic in loops) is not run
            raise ScriptError(name, clip(str(problem)), kind="syntax")
        for lint in ast.lint():
            if lint.severity == sl.EvalSeverity.Error:
                raise ScriptError(
                    name, clip(lint.problem), line=lint.resolved_location.span.begin.line + 1, kind="syntax"
                )
        return ast if runs == source else self._starlark_parse(name, runs)

    def _starlark_parse(self, name: str, source: str) -> sl.AstModule:
        try:
            return sl.parse(name, source, self._dialect)
        except sl.StarlarkError as exc:
            raise translate_parse(str(exc), name, "syntax") from None

    def _compile(self, name: str, source: str) -> _Script:
        """Parse, lint, evaluate top level, discover functions, add trampolines, freeze."""
        ast = self._parse(name, source)
        def_lines = def_spans(source)
        module = sl.Module()
        state = CallState(None, self.limits.max_steps)
        prev, self._state = self._state, state
        try:
            self._evaluate(module, ast, name, def_lines, state)
            functions = self._discover_functions(module, source)
            frozen = self._finish(module, name, functions)
        finally:
            self._state = prev
            self.last_steps = state.steps
        return _Script(name, source, frozen, functions, def_lines)

    def _evaluate(self, module: sl.Module, ast: sl.AstModule, name: str, def_lines: DefSpans,
                  state: CallState) -> None:
        """Runs the host's prelude and then the script's top level into *module*."""
        try:
            self._env.prepare(module, self._opts)
            sl.eval_with(self._opts, module, ast, self._globals, self._env.loader)
        except sl.StarlarkError as exc:
            raise translate_call(str(exc), name, def_lines, None, state, self.limits.max_callstack) from None
        except BaseException as exc:
            if not is_panic(exc):
                raise
            raise ScriptError(name, clip(f"interpreter panic: {exc}"), kind="panic") from None

    def _finish(self, module: sl.Module, name: str, functions: frozenset[str]) -> sl.FrozenModule:
        """Adds the ctx forwarders and one trampoline per entry point, then freezes."""
        for method, fwd in self._forwarders.items():
            module.add_callable(f"sbx__m_{method}", fwd)
        tramp = [self._method_dict_src]
        wrap = "sbx__result" if self._env.counted else ""  # results are paid for before conversion
        for fn in sorted(functions):
            tramp.append(
                f"def {_TRAMPOLINE_PREFIX}{fn}(sbx__fields, *sbx__rest):\n"
                f"    return {wrap}({fn}(sbx__struct(**(sbx__fields | sbx__M)), *sbx__rest))\n"
            )
        sl.eval_with(self._opts, module, sl.parse(_HOST_FILE, "".join(tramp), self._dialect), self._globals)
        try:
            return module.freeze()
        except sl.StarlarkError as exc:
            raise ScriptError(name, clip(f"cannot freeze module: {exc}"), kind="runtime") from None

    def _discover_functions(self, module: sl.Module, source: str) -> frozenset[str]:
        """Public top-level functions of the evaluated *module* (see :mod:`game.scripting.discover`)."""

        def functions_among(names: list[str]) -> set[str] | None:
            probe = sl.parse(_HOST_FILE, probe_source(names), self._dialect)
            try:
                sl.eval_with(self._probe_opts, module, probe, self._globals)
            except sl.StarlarkError:
                return None  # one of them is no global
            named = module[PROBE]
            return {str(name) for name in (named if isinstance(named, list) else ())}

        return discover_functions(source, functions_among)

    def _translate(self, exc: sl.StarlarkError, script: _Script, function: str | None,
                   state: CallState) -> ScriptError:
        """A call's StarlarkError as a ScriptError (see :func:`diagnose.translate_call`)."""
        return translate_call(str(exc), script.name, script.def_lines, function, state, self.limits.max_callstack)
