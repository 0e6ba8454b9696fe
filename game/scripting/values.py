"""What may cross the script boundary, and the small text helpers both hosts share.

Only plain data crosses between a script and the game, in both directions: ``None``, ``bool``,
``int``, ``float``, ``str``, lists and string-keyed dicts, nested at most 64 levels. Neither side can
smuggle an object with behaviour (or one that cannot be serialised for the worker's pipe) to the
other. Nothing here imports the interpreter.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final

__all__ = ["Bridge", "PlainValue", "RemoteBridgeError", "clip", "describe", "is_plain", "parse_methods"]

#: Values that may cross the script boundary: JSON-like data with string keys.
PlainValue = None | bool | int | float | str | list[Any] | dict[str, Any]

#: ``bridge(method, args) -> plain value``; may raise ValueError/LookupError to refuse.
Bridge = Callable[[str, tuple[Any, ...]], Any]

#: Prefix of the host's own Starlark names; scripts may not use it.
RESERVED_PREFIX: Final = "sbx__"

_IDENT_RE: Final = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_MAX_PLAIN_DEPTH: Final = 64
_MAX_REASON: Final = 500
_SCALARS: Final = frozenset({type(None), bool, int, float, str})


class RemoteBridgeError(Exception):
    """An unexpected (non ValueError/LookupError) bridge failure relayed from the parent.

    Only the worker process sees this: its message is already ``"TypeName: message"``.
    """


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


def describe(exc: BaseException) -> str:
    """``"TypeName: message"`` unless the exception already is a relayed description."""
    if isinstance(exc, RemoteBridgeError):
        return str(exc)
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def clip(text: str) -> str:
    """A reason short enough for a log line."""
    return text if len(text) <= _MAX_REASON else text[: _MAX_REASON - 3] + "..."
