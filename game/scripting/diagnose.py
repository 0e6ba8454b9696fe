"""Turning starlark's diagnostics into :class:`ScriptError`s that name the file, line and function.

starlark-pyo3 reports failures as text (a traceback, then ``error: ...`` and a ``-->`` span). Only
the *location* is parsed from it; the cause is taken from the host's own call state whenever it has
one (budget hit, bridge refusal, limits), so a message never depends on how the interpreter phrases
a failure it did not cause.
"""

from __future__ import annotations

import re
from typing import Final

from .calls import CallState
from .errors import ScriptError
from .values import clip

__all__ = ["def_spans", "enclosing_def", "error_line", "is_panic", "translate_call", "translate_parse"]

_FRAME_RE: Final = re.compile(r"^\s*\* (.+):(\d+), in (\S+)\s*$", re.M)
_SPAN_RE: Final = re.compile(r"^\s*--> (.+):(\d+):(\d+)\s*$", re.M)
#: A top-level ``def`` starts in column 0.
DEF_RE: Final = re.compile(r"^def[ \t]+([A-Za-z_][A-Za-z0-9_]*)", re.M)

DefSpans = list[tuple[int, int, str]]
_UNPACK_RE: Final = re.compile(r"^Error unpacking value for parameter `(\w+)` of type `")
_I32_RE: Final = re.compile(r"^Integer value is too big to fit in i32: (-?\d+)")
_TYPE_RE: Final = re.compile(r"^Type of parameter `(\w+)` doesn't match, expected `([^`]+)`, actual `(\w+)")
_CARETS_RE: Final = re.compile(r"^\s*\d+ \|(.*)\n\s*\|( *)(\^+)", re.M)
_CALLED_RE: Final = re.compile(r"([A-Za-z_][A-Za-z0-9_.]*)\s*\(")
_I32_RANGE: Final = "an integer from -2147483648 to 2147483647 (32 bits)"
#: The raw diagnostic kept for logs: starlark quotes values whole ("Dictionary key repeated for `<3 MB>`"),
#: and the worker ships the error through a pipe whose messages are capped.
_DETAIL_CHARS: Final = 65536
#: ``fail()`` messages of the prelude's checks, and the kind of failure each one is.
_MARKERS: Final = (("fail: sbx__result: ", "result"), ("fail: sbx__args: ", "bridge"))
#: What starlark says of a result it cannot turn into data ("Operation `serde::serialize` not supported
#: on type `function`"): the type is the part a script's author can act on.
_UNSERIALISABLE: Final = re.compile(r"not supported on type `(\w+)`")


def is_panic(exc: BaseException) -> bool:
    """True for pyo3's PanicException (a Rust panic, e.g. bumpalo out of memory).

    It derives from BaseException, not Exception, and its class is not importable by a
    stable name, hence the name check.
    """
    return type(exc).__name__ == "PanicException"


def error_line(text: str) -> str:
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


def def_spans(source: str) -> DefSpans:
    """``(first, last, name)`` line ranges of top-level ``def`` blocks.

    A block ends before the next line that starts in column 0 with code (not blank,
    not a comment).  Multi-line strings can fool this; it only feeds error messages.
    """
    spans: DefSpans = []
    current: tuple[int, str] | None = None
    last_body = 0
    for number, text in enumerate(source.splitlines(), start=1):
        if not text or text[0] in " \t#\r\f":
            if text.strip() and not text.lstrip().startswith("#"):
                last_body = number
            continue
        if current is not None:
            spans.append((current[0], max(last_body, current[0]), current[1]))
            current = None
        match = DEF_RE.match(text)
        if match:
            current = (number, match.group(1))
        last_body = number
    if current is not None:
        spans.append((current[0], max(last_body, current[0]), current[1]))
    return spans


def enclosing_def(spans: DefSpans, line: int) -> str | None:
    """Name of the top-level ``def`` whose block contains *line*, if any."""
    for first, last, fn in spans:
        if first <= line <= last:
            return fn
    return None


def translate_parse(text: str, name: str, kind: str) -> ScriptError:
    """Maps a parse-time error (no traceback, one span) to ScriptError."""
    line = None
    span = _SPAN_RE.search(text)
    if span and span.group(1) == name:
        line = int(span.group(2))
    return ScriptError(name, clip(error_line(text)), line=line, kind=kind, detail=text[:_DETAIL_CHARS])


def _location(text: str, name: str) -> tuple[int | None, str | None]:
    """The line and the innermost function of *name* that starlark's text points at."""
    line: int | None = None
    frame_fn: str | None = None
    err_at = 0 if text.startswith("error: ") else text.find("\nerror: ")
    if err_at >= 0:
        span = _SPAN_RE.search(text, err_at)
        if span and span.group(1) == name:
            line = int(span.group(2))
    frames = [f for f in _FRAME_RE.finditer(text[: err_at if err_at >= 0 else len(text)]) if f.group(1) == name]
    if frames:
        if line is None:
            line = int(frames[-1].group(2))
        frame_fn = frames[-1].group(3)
    return line, frame_fn


def _cause(text: str, state: CallState, max_callstack: int) -> tuple[str, str]:
    """``(kind, reason)`` of a failed call: the host's own record first, starlark's text last."""
    if state.budget_hit:
        return "budget", f"instruction budget of {state.cap} exhausted"
    if state.reason is not None:
        return state.kind or "bridge", state.reason
    if "call stack overflow" in text:
        return "callstack", f"call stack deeper than {max_callstack} (runaway recursion?)"
    if "\nerror: " not in text and not text.startswith("error: ") and "serialize" in text:
        found = _UNSERIALISABLE.search(text)
        if found is None:
            return "result", f"returned a non-plain value ({clip(text.strip())})"
        return "result", (f"returned a non-plain value (a value of type {found.group(1)}: a result holds no ctx, "
                          f"function or other such value; expected None, a bool, int, float, string, list or dict)")
    reason = clip(error_line(text))
    for marker, kind in _MARKERS:
        if reason.startswith(marker):  # the prelude's own checks of results and ctx arguments
            return kind, reason[len(marker):]
    if reason == "Immutable":
        reason = "Immutable: globals are frozen after load and cannot be mutated"
    return "runtime", _out_of_range(reason, text) or reason


def _called(text: str) -> str:
    """The builtin or method a failed call named, as the script wrote it (``range()``, ``.find()``).

    The innermost frame is the host's own stand-in when the script called a counted builtin or
    method (``enumerate``, ``sbx__m_find``); otherwise the span under the carets is the call itself.
    """
    err_at = max(0, text.find("\nerror: "))
    frames = list(_FRAME_RE.finditer(text[:err_at]))
    if frames and frames[-1].group(1) == "<sbx>":
        fn = frames[-1].group(3)
        if fn.startswith("sbx__m_"):
            return f".{fn[len('sbx__m_'):]}()"
        if not fn.startswith("sbx__"):
            return f"{fn}()"
    carets = _CARETS_RE.search(text, err_at)
    if carets is not None:
        code, start = carets.group(1), len(carets.group(2))
        called = _CALLED_RE.match(code[start:start + len(carets.group(3))])
        if called is not None and not called.group(1).startswith("sbx__"):
            return f"{called.group(1)}()"
    return "a builtin"


def _argument(param: str) -> str:
    """A builtin's parameter as the script knows it: ``a1`` (positional only) is its first argument."""
    return f"argument {param[1:]}" if re.fullmatch(r"a\d+", param) else f"argument `{param}`"


def _out_of_range(reason: str, text: str) -> str | None:
    """starlark's messages for an integer past 32 bits, in the script's terms (what, and the limit).

    starlark passes indexes, counts and sizes as 32-bit integers, and says so with its internal
    parameter names (``Error unpacking value for parameter `a1` of type `int``), cut short.
    """
    unpack = _UNPACK_RE.match(reason)
    if unpack is not None:
        return f"{_called(text)}: {_argument(unpack.group(1))} is out of range: it must be {_I32_RANGE}"
    wrong = _TYPE_RE.match(reason)
    if wrong is not None:
        return f"{_called(text)}: {_argument(wrong.group(1))} must be {wrong.group(2)}, not {wrong.group(3)}"
    too_big = _I32_RE.match(reason)
    if too_big is not None:
        return (f"{too_big.group(1)} is out of range as an index, count or size: it must be {_I32_RANGE}")
    return None


def translate_call(text: str, name: str, spans: DefSpans, function: str | None, state: CallState,
                   max_callstack: int) -> ScriptError:
    """Maps a StarlarkError's text from a call or load to a ScriptError with a useful location.

    Args:
        text: ``str()`` of the StarlarkError.
        name: the script's name (only frames in this file count).
        spans: the script's top-level ``def`` blocks (see :func:`def_spans`).
        function: the entry point that was called (None for a load).
        state: the call's accounting, which knows why the host stopped it.
        max_callstack: the host's call-stack limit, for the message.
    """
    line, frame_fn = _location(text, name)
    fn = enclosing_def(spans, line) if line is not None else None
    kind, reason = _cause(text, state, max_callstack)
    return ScriptError(name, reason, line=line, function=fn or frame_fn or function, kind=kind,
                       steps=state.steps, detail=text[:_DETAIL_CHARS])
