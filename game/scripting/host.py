"""In-process Starlark host: parse/freeze designer scripts once, call their entry points.

FOR TRUSTED SCRIPTS ONLY (the game's own ``assets/scripts``).  Starlark cannot do I/O,
but a script can still take this process down or stall it: one ``"x" * 2000000000``
makes the Rust allocator abort the whole Python process (no exception to catch) --
even at load, since constant expressions are folded when the script is compiled --
a deeply nested literal overflows the parser's stack (SIGSEGV), and time spent inside
a single builtin (``s.count`` on a 50 MB string) is not counted by the step budget.
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

from .errors import STEPS_PER_TICK, Limits, ScriptError

__all__ = ["InProcessHost", "Bridge", "PlainValue", "is_plain"]

#: Values that may cross the script boundary: JSON-like data with string keys.
PlainValue = None | bool | int | float | str | list[Any] | dict[str, Any]

#: ``bridge(method, args) -> plain value``; may raise ValueError/LookupError to refuse.
Bridge = Callable[[str, tuple[Any, ...]], Any]

_RESERVED_PREFIX: Final = "sbx__"
_RESERVED_RE: Final = re.compile(r"(?<![A-Za-z0-9_])sbx__")
_HOST_FILE: Final = "<sbx>"
_TRAMPOLINE_PREFIX: Final = "sbx__call__"
_IDENT_RE: Final = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# Candidate top-level names: a top-level statement always starts in column 0.
_DEF_RE: Final = re.compile(r"^def[ \t]+([A-Za-z_][A-Za-z0-9_]*)", re.M)
_ASSIGN_RE: Final = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)[ \t]*=(?!=)", re.M)
_FRAME_RE: Final = re.compile(r"^\s*\* (.+):(\d+), in (\S+)\s*$", re.M)
_SPAN_RE: Final = re.compile(r"^\s*--> (.+):(\d+):(\d+)\s*$", re.M)
_MAX_PLAIN_DEPTH: Final = 64
_MAX_REASON: Final = 500


def _make_dialect() -> sl.Dialect:
    """Standard Starlark minus ``load``, plus f-strings and top-level ``if``/``for``.

    ``while`` and recursion-free guarantees come from the standard dialect (``while``
    is a reserved word there); top-level loops are allowed because load-time code runs
    under the same step budget as calls.
    """
    dialect = sl.Dialect.standard()
    dialect.enable_load = False
    dialect.enable_f_strings = True
    dialect.enable_top_level_stmt = True
    return dialect


def _make_globals() -> sl.Globals:
    """Builtins offered to scripts: the standard set plus pure helpers.

    Deliberately absent: ``print``/``pprint`` (unbounded output to the game's stderr),
    ``breakpoint`` (reads stdin), ``debug``, ``call_stack``.
    """
    ext = sl.LibraryExtension
    return sl.Globals.extended_by([ext.StructType, ext.Json, ext.Map, ext.Filter, ext.Partial])


def _refuse_load(path: str) -> sl.FrozenModule:
    """FileLoader callback: scripts may not load anything (defence in depth; the
    dialect already rejects ``load`` at parse time)."""
    raise PermissionError(f"load({path!r}) is not allowed in game scripts")


_SCALARS: Final = frozenset({type(None), bool, int, float, str})


def is_plain(value: object, _depth: int = 0) -> bool:
    """True if *value* is JSON-like data (None/bool/int/float/str, lists, str-keyed dicts).

    Used on everything crossing the boundary so that neither side can smuggle an
    object with behaviour (or an unpicklable/unserialisable one) to the other.
    Written as explicit loops with a scalar fast path: it runs on every call.
    """
    tp = type(value)
    if tp in _SCALARS:
        return True
    if _depth >= _MAX_PLAIN_DEPTH:
        return False
    if tp is list or tp is tuple:
        for item in value:  # type: ignore[attr-defined]
            if type(item) not in _SCALARS and not is_plain(item, _depth + 1):
                return False
        return True
    if tp is dict:
        for key, item in value.items():  # type: ignore[attr-defined]
            if type(key) is not str:
                return False
            if type(item) not in _SCALARS and not is_plain(item, _depth + 1):
                return False
        return True
    return False


def _describe(exc: BaseException) -> str:
    """``"TypeName: message"`` unless the exception already is a relayed description."""
    if isinstance(exc, RemoteBridgeError):
        return str(exc)
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _is_panic(exc: BaseException) -> bool:
    """True for pyo3's PanicException (a Rust panic, e.g. bumpalo out of memory).

    It derives from BaseException, not Exception, and its class is not importable by a
    stable name, hence the name check.
    """
    return type(exc).__name__ == "PanicException"


def _clip(text: str) -> str:
    return text if len(text) <= _MAX_REASON else text[: _MAX_REASON - 3] + "..."


class RemoteBridgeError(Exception):
    """An unexpected (non ValueError/LookupError) bridge failure relayed from the parent.

    Only the worker process sees this: its message is already ``"TypeName: message"``.
    """


class _Abort(Exception):
    """Raised from a bridge forwarder into Starlark to unwind the script.

    Starlark has no ``try``, so raising any Python exception aborts the whole call; the
    real cause is kept on the call state, not parsed back out of the message.
    """


@dataclass
class _Script:
    """A loaded, frozen script plus what is needed to explain its errors."""

    name: str
    source: str
    frozen: sl.FrozenModule
    functions: frozenset[str]
    def_lines: list[tuple[int, int, str]]  # (first, last line, name) of every top-level def


class _CallState:
    """Mutable counters for one ``call`` (or one ``load``); one object per call so that
    a bridge that re-enters the host cannot corrupt the outer call's accounting."""

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

    def fail(self, kind: str, reason: str, cause: BaseException | None = None) -> _Abort:
        """Records why the call must stop and returns the exception that unwinds Starlark."""
        self.kind = kind
        self.reason = reason
        self.cause = cause
        return _Abort(reason)


def _parse_methods(methods: Iterable[str] | Mapping[str, int | None]) -> dict[str, int | None]:
    """Normalises ``methods`` to ``{name: arity or None}``.

    Accepting an optional arity lets the host reject ``ctx.damage(e)`` (missing amount)
    with a clear message before the bridge ever sees it.
    """
    if isinstance(methods, str):
        raise TypeError("methods must be an iterable of names, not a string")
    if isinstance(methods, Mapping):
        result = {str(k): (None if v is None else int(v)) for k, v in methods.items()}
    else:
        result = {str(m): None for m in methods}
    for name in result:
        if not _IDENT_RE.match(name) or name.startswith(_RESERVED_PREFIX):
            raise ValueError(f"invalid bridge method name {name!r}")
    return result


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
    """

    def __init__(
        self,
        methods: Iterable[str] | Mapping[str, int | None] = (),
        commands: Iterable[str] = frozenset(),
        limits: Limits = Limits(),
    ) -> None:
        self._methods = _parse_methods(methods)
        self._commands = frozenset(commands)
        unknown = self._commands - self._methods.keys()
        if unknown:
            raise ValueError(f"commands not among methods: {sorted(unknown)}")
        self._method_names = frozenset(self._methods)
        self.limits = limits
        self._dialect = _make_dialect()
        self._globals = _make_globals()
        self._loader = sl.FileLoader(_refuse_load)
        self._opts = sl.EvalOptions(check_cancelled=self._tick, max_callstack_size=limits.max_callstack + 1)
        self._prelude = sl.parse(_HOST_FILE, "sbx__struct = struct\nsbx__type = type\n", self._dialect)
        self._forwarders = {m: self._make_forwarder(m) for m in self._methods}
        entries = ", ".join(f'"{m}": sbx__m_{m}' for m in self._methods)
        self._method_dict_src = f"sbx__M = {{{entries}}}\n"
        self._scripts: dict[str, _Script] = {}
        self._state: _CallState | None = None
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
                statement failing, or the step budget exhausted at top level.
        """
        self._check_open()
        old = self._scripts.get(name)
        if old is not None and old.source == source:
            return
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
    ) -> Any:
        """Calls ``function(ctx, *args[1:])`` in script *name* and returns its plain result.

        ``args[0]`` must be a dict of plain fields; inside Starlark it becomes ``ctx``,
        a struct with those fields plus one method per bridge method name.

        Raises:
            ScriptError: anything the script does wrong or any bridge refusal; the
                caller must then discard the commands the bridge buffered in this call.
            TypeError/ValueError: the *caller* passed invalid arguments (a bug in the
                game, not in the script).
        """
        self._check_open()
        script = self._scripts.get(name)
        if script is None:
            raise ScriptError(name, "script is not loaded", function=function, kind="missing")
        if function not in script.functions:
            raise ScriptError(name, f"script defines no function {function!r}", function=function, kind="missing")
        self._check_args(args)
        state = _CallState(bridge)
        prev, self._state = self._state, state
        try:
            try:
                result = script.frozen.call_with(self._opts, _TRAMPOLINE_PREFIX + function, *args).value
            except sl.StarlarkError as exc:
                if isinstance(state.cause, BaseException) and not isinstance(state.cause, Exception):
                    raise state.cause from None  # KeyboardInterrupt etc. inside the bridge
                raise self._translate(exc, script, function, state) from state.cause
            except BaseException as exc:
                if not _is_panic(exc):
                    raise
                raise ScriptError(name, _clip(f"interpreter panic: {exc}"), function=function, kind="panic",
                                  steps=state.ticks * STEPS_PER_TICK) from None
        finally:
            self._state = prev
            self.last_steps = state.ticks * STEPS_PER_TICK
        if not is_plain(result):
            raise ScriptError(
                name, f"returned a non-plain value of type {type(result).__name__}", function=function,
                kind="result", steps=self.last_steps,
            )
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

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("script host is closed")

    def _check_args(self, args: tuple[Any, ...] | list[Any]) -> None:
        """Rejects caller bugs early with Python exceptions, not ScriptError."""
        if not args or type(args[0]) is not dict:
            raise TypeError("args[0] must be the ctx field dict")
        fields = args[0]
        if not self._method_names.isdisjoint(fields):
            raise ValueError(f"ctx fields clash with bridge methods: {sorted(self._method_names & fields.keys())}")
        if not is_plain(args):
            raise TypeError("script arguments must be plain values (None/bool/int/float/str/list/dict)")

    def _tick(self) -> bool:
        """starlark's check_cancelled hook: one call per ~1000 loop iterations/calls."""
        state = self._state
        if state is None:
            return False
        state.ticks += 1
        if state.ticks * STEPS_PER_TICK > self.limits.max_steps:
            state.budget_hit = True
            return True
        return False

    def _make_forwarder(self, method: str) -> Callable[..., Any]:
        """Builds the Python callable behind ``ctx.<method>``; created once per host."""
        arity = self._methods[method]
        is_command = method in self._commands
        limits = self.limits

        def forward(*args: Any, **kwargs: Any) -> Any:
            state = self._state
            if state is None:  # only reachable if a script kept ctx past its call
                raise _Abort(f"ctx.{method} used outside a call")
            if kwargs:
                raise state.fail("bridge", f"ctx.{method}() takes no keyword arguments")
            if arity is not None and len(args) != arity:
                raise state.fail("bridge", f"ctx.{method}() takes {arity} arguments ({len(args)} given)")
            state.bridge_calls += 1
            if state.bridge_calls > limits.max_bridge_calls:
                raise state.fail("bridge_calls", f"more than {limits.max_bridge_calls} bridge calls in one call")
            if is_command:
                state.commands += 1
                if state.commands > limits.max_commands:
                    raise state.fail("commands", f"more than {limits.max_commands} commands in one call")
            if state.bridge is None:
                raise state.fail("bridge", f"ctx.{method}: no bridge supplied to this call")
            try:
                result = state.bridge(method, args)
            except (ValueError, LookupError) as exc:
                raise state.fail("bridge", _clip(f"ctx.{method}: {exc}"), exc) from None
            except Exception as exc:
                raise state.fail("bridge", _clip(f"ctx.{method}: bridge failed: {_describe(exc)}"), exc) from None
            except BaseException as exc:
                raise state.fail("bridge", f"ctx.{method}: interrupted", exc) from None
            if type(result) is tuple:
                result = list(result)
            if not is_plain(result):
                raise state.fail(
                    "bridge", f"ctx.{method}: bridge returned non-plain {type(result).__name__}",
                    TypeError(f"bridge returned {type(result).__name__} for {method}"),
                )
            return result

        forward.__name__ = f"ctx_{method}"
        return forward

    def _compile(self, name: str, source: str) -> _Script:
        """Parse, lint, evaluate top level, discover functions, add trampolines, freeze."""
        if _RESERVED_RE.search(source):
            raise ScriptError(name, f"identifiers starting with {_RESERVED_PREFIX} are reserved", kind="syntax")
        try:
            ast = sl.parse(name, source, self._dialect)
        except sl.StarlarkError as exc:
            raise self._translate_plain(exc, name, "syntax") from None
        for lint in ast.lint():
            if lint.severity == sl.EvalSeverity.Error:
                raise ScriptError(
                    name, _clip(lint.problem), line=lint.resolved_location.span.begin.line + 1, kind="syntax"
                )
        def_lines = _def_spans(source)
        module = sl.Module()
        state = _CallState(None)
        prev, self._state = self._state, state
        try:
            try:
                sl.eval_with(self._opts, module, self._prelude, self._globals)
                sl.eval_with(self._opts, module, ast, self._globals, self._loader)
            except sl.StarlarkError as exc:
                tmp = _Script(name, source, None, frozenset(), def_lines)  # type: ignore[arg-type]
                raise self._translate(exc, tmp, None, state) from None
            except BaseException as exc:
                if not _is_panic(exc):
                    raise
                raise ScriptError(name, _clip(f"interpreter panic: {exc}"), kind="panic") from None
            functions = self._discover_functions(module, source)
            for method, fwd in self._forwarders.items():
                module.add_callable(f"sbx__m_{method}", fwd)
            tramp = [self._method_dict_src]
            for fn in sorted(functions):
                tramp.append(
                    f"def {_TRAMPOLINE_PREFIX}{fn}(sbx__fields, *sbx__args):\n"
                    f"    return {fn}(sbx__struct(**(sbx__fields | sbx__M)), *sbx__args)\n"
                )
            sl.eval_with(self._opts, module, sl.parse(_HOST_FILE, "".join(tramp), self._dialect), self._globals)
            try:
                frozen = module.freeze()
            except sl.StarlarkError as exc:
                raise ScriptError(name, _clip(f"cannot freeze module: {exc}"), kind="runtime") from None
        finally:
            self._state = prev
            self.last_steps = state.ticks * STEPS_PER_TICK
        return _Script(name, source, frozen, functions, def_lines)

    def _discover_functions(self, module: sl.Module, source: str) -> frozenset[str]:
        """Finds public top-level functions without an AST API.

        Every top-level statement starts in column 0, so ``def NAME`` / ``NAME =`` at
        the start of a line yields a superset of the top-level names (strings may add
        false candidates).  Each candidate is then checked in the module itself.
        """
        candidates = {m.group(1) for m in _DEF_RE.finditer(source)}
        candidates |= {m.group(1) for m in _ASSIGN_RE.finditer(source)}
        found: set[str] = set()
        for cand in sorted(candidates):
            if cand.startswith("_"):
                continue  # private helpers are not entry points (and are not exported)
            try:
                probe = sl.parse(_HOST_FILE, f"sbx__probe = sbx__type({cand}) == 'function'\n", self._dialect)
                sl.eval_with(self._opts, module, probe, self._globals)
            except sl.StarlarkError:
                continue  # not actually a global (came from inside a string)
            if module["sbx__probe"] is True:
                found.add(cand)
        return frozenset(found)

    # ------------------------------------------------------------------ error mapping

    def _translate_plain(self, exc: sl.StarlarkError, name: str, kind: str) -> ScriptError:
        """Maps a parse-time error (no traceback, one span) to ScriptError."""
        text = str(exc)
        line = None
        span = _SPAN_RE.search(text)
        if span and span.group(1) == name:
            line = int(span.group(2))
        return ScriptError(name, _clip(_error_line(text)), line=line, kind=kind, detail=text)

    def _translate(
        self, exc: sl.StarlarkError, script: _Script, function: str | None, state: _CallState
    ) -> ScriptError:
        """Maps a StarlarkError from a call/load to a ScriptError with a useful location.

        The cause is taken from Python-side state whenever we have it (budget hit,
        bridge refusal, limits): only the location is parsed from starlark's text.
        """
        text = str(exc)
        name = script.name
        steps = state.ticks * STEPS_PER_TICK
        line: int | None = None
        frame_fn: str | None = None
        err_at = text.find("\nerror: ")
        err_at = 0 if text.startswith("error: ") else err_at
        if err_at >= 0:
            span = _SPAN_RE.search(text, err_at)
            if span and span.group(1) == name:
                line = int(span.group(2))
        frames = [f for f in _FRAME_RE.finditer(text[: err_at if err_at >= 0 else len(text)]) if f.group(1) == name]
        if frames:
            if line is None:
                line = int(frames[-1].group(2))
            frame_fn = frames[-1].group(3)
        fn = _enclosing_def(script.def_lines, line) if line is not None else None
        fn = fn or frame_fn or function
        if state.budget_hit:
            kind, reason = "budget", f"instruction budget of {self.limits.max_steps} exhausted"
        elif state.reason is not None:
            kind, reason = state.kind or "bridge", state.reason
        elif "call stack overflow" in text:
            kind, reason = "callstack", f"call stack deeper than {self.limits.max_callstack} (runaway recursion?)"
        elif err_at < 0 and "serialize" in text:
            kind, reason = "result", f"returned a non-plain value ({_clip(text.strip())})"
        else:
            kind, reason = "runtime", _clip(_error_line(text))
            if reason == "Immutable":
                reason = "Immutable: globals are frozen after load and cannot be mutated"
        return ScriptError(name, reason, line=line, function=fn, kind=kind, steps=steps, detail=text)


def _error_line(text: str) -> str:
    """Extracts starlark's ``error: ...`` message (up to the ``-->`` span line)."""
    if text.startswith("error: "):
        start = 0
    else:
        found = text.find("\nerror: ")
        if found < 0:
            stripped = text.strip()
            return stripped.splitlines()[0] if stripped else "unknown error"
        start = found + 1
    body = text[start + len("error: "):]
    span = _SPAN_RE.search(body)
    if span:
        body = body[: span.start()]
    return " ".join(body.split()) or "unknown error"


def _def_spans(source: str) -> list[tuple[int, int, str]]:
    """``(first, last, name)`` line ranges of top-level ``def`` blocks.

    A block ends before the next line that starts in column 0 with code (not blank,
    not a comment).  Multi-line strings can fool this; it only feeds error messages.
    """
    lines = source.splitlines()
    spans: list[tuple[int, int, str]] = []
    current: tuple[int, str] | None = None
    last_body = 0
    for number, text in enumerate(lines, start=1):
        if not text or text[0] in " \t#\r\f":
            if text.strip() and not text.lstrip().startswith("#"):
                last_body = number
            continue
        if current is not None:
            spans.append((current[0], max(last_body, current[0]), current[1]))
            current = None
        match = _DEF_RE.match(text)
        if match:
            current = (number, match.group(1))
        last_body = number
    if current is not None:
        spans.append((current[0], max(last_body, current[0]), current[1]))
    return spans


def _enclosing_def(def_spans: list[tuple[int, int, str]], line: int) -> str | None:
    """Name of the top-level ``def`` whose block contains *line*, if any."""
    for first, last, fn in def_spans:
        if first <= line <= last:
            return fn
    return None
