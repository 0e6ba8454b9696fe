"""What may cross the script boundary, and the small text helpers both hosts share.

Only plain data crosses between a script and the game, in both directions: ``None``, ``bool``,
``int`` (within 64 bits), ``float`` (finite), ``str``, lists and string-keyed dicts, nested at most
64 levels. Neither side can
smuggle an object with behaviour (or one that cannot be serialised for the worker's pipe) to the
other. Nothing here imports the interpreter.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final

__all__ = ["Bridge", "PlainValue", "RemoteBridgeError", "clip", "describe", "is_plain", "parse_methods", "problem",
           "stable"]

#: Values that may cross the script boundary: JSON-like data with string keys.
PlainValue = None | bool | int | float | str | list[Any] | dict[str, Any]

#: ``bridge(method, args) -> plain value``; may raise ValueError/LookupError to refuse.
Bridge = Callable[[str, tuple[Any, ...]], Any]

#: Prefix of the host's own Starlark names; scripts may not use it.
RESERVED_PREFIX: Final = "sbx__"

_IDENT_RE: Final = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_MAX_PLAIN_DEPTH: Final = 64
_MAX_REASON: Final = 500
_SCALARS: Final = frozenset({type(None), bool, str})
_INT_MIN: Final = -(2**63)
_INT_MAX: Final = 2**63 - 1


class RemoteBridgeError(Exception):
    """An unexpected (non ValueError/LookupError) bridge failure relayed from the parent.

    Only the worker process sees this: its message is already ``"TypeName: message"``.
    """


def is_plain(value: object) -> bool:
    """True if *value* is JSON-like data that may cross the boundary (see :func:`problem`)."""
    return problem(value) is None


def problem(value: object, _depth: int = 0) -> str | None:
    """Why *value* may not cross the script boundary, or None when it may.

    Plain data is None/bool/int/float/str, lists (tuples) and str-keyed dicts, nested at most
    64 levels, with every int within 64 bits (``-2**63 .. 2**63 - 1``) and every float finite:
    a number of thousands of digits, NaN or infinity is refused here, by one rule on every path,
    instead of surfacing as an error deep inside the game (or of JSON turning NaN into None).
    Written as explicit loops with a scalar fast path: it runs on every call.
    """
    tp = type(value)
    if tp is int:
        return None if _INT_MIN <= value <= _INT_MAX else "an integer beyond 64 bits"  # type: ignore[operator]
    if tp is float:
        return None if math.isfinite(value) else f"a float that is not finite ({value})"  # type: ignore[arg-type]
    if tp in _SCALARS:
        return None
    if _depth >= _MAX_PLAIN_DEPTH:
        return f"a value nested more than {_MAX_PLAIN_DEPTH} levels deep"
    if tp is list or tp is tuple or tp is dict:
        return _container_problem(value, _depth)
    return f"a value of type {tp.__name__}"


def _container_problem(value: Any, depth: int) -> str | None:
    """:func:`problem` for a list, tuple or dict: its keys and every item."""
    if type(value) is dict:
        for key in value:
            if type(key) is not str:
                return f"a dict key of type {type(key).__name__}"
        items = value.values()
    else:
        items = value
    for item in items:
        found = problem(item, depth + 1)
        if found is not None:
            return found
    return None


def parse_methods(methods: Iterable[str] | Mapping[str, int | None]) -> dict[str, int | None]:
    """Normalises ``methods`` to ``{name: arity or None}``.

    Accepting an optional arity lets a host reject ``ctx.damage(e)`` (missing amount) with a clear
    message before the bridge ever sees it.

    Raises:
        TypeError: ``methods`` is a single string.
        ValueError: a name that is not an identifier, or one in the host's reserved namespace.
    """
    if isinstance(methods, str):
        raise TypeError("methods must be an iterable of names, not a string")
    if isinstance(methods, Mapping):
        result = {str(k): (None if v is None else int(v)) for k, v in methods.items()}
    else:
        result = {str(m): None for m in methods}
    for name in result:
        if not _IDENT_RE.match(name) or name.startswith(RESERVED_PREFIX):
            raise ValueError(f"invalid bridge method name {name!r}")
    return result


def parse_host_methods(methods: Iterable[str] | Mapping[str, int | None], commands: Iterable[str]
                       ) -> tuple[dict[str, int | None], frozenset[str]]:
    """A host's methods (:func:`parse_methods`) and its commands: the subset of them a call may issue
    only ``Limits.max_commands`` of. Both hosts take them alike, so one check refuses the same mistakes.

    Raises:
        TypeError: ``methods`` is a single string.
        ValueError: a bad method name, or a command that is not among the methods.
    """
    parsed, names = parse_methods(methods), frozenset(commands)
    unknown = names - parsed.keys()
    if unknown:
        raise ValueError(f"commands not among methods: {sorted(unknown)}")
    return parsed, names


def describe(exc: BaseException) -> str:
    """``"TypeName: message"`` unless the exception already is a relayed description."""
    if isinstance(exc, RemoteBridgeError):
        return str(exc)
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


#: A folder of a path: a POSIX one's parts may hold the escapes ``readable`` spells (``\\udcff``, a byte of a
#: name that is not UTF-8), and only a drive's path (``C:\\``) is split at backslashes: a script's
#: ``fail("\\x1b[31mred\\u202e")``, escaped, read as a Windows path, lost all but "u202e".
_PATH_RE: Final = re.compile(r"(?<![\w.\-])(?:[A-Za-z]:(?:[\\/][^\s\\/:'\"<>|]+)+[\\/]"
                             r"|(?:/(?:[^\s\\/:'\"<>|]|\\(?:x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8}))+)+/)")
_ADDRESS_RE: Final = re.compile(r"0x[0-9a-fA-F]{6,}")


def stable(text: str) -> str:
    """*text* without what differs between machines and runs: folders (a path keeps only its file
    name) and memory addresses. Failure reasons go into event logs, which must read the same
    wherever a scenario is stored and whichever process ran it."""
    return _ADDRESS_RE.sub("0x?", _PATH_RE.sub("", text))


def clip(text: str) -> str:
    """A reason short enough for a log line."""
    return text if len(text) <= _MAX_REASON else text[: _MAX_REASON - 3] + "..."
