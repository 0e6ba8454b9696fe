"""The size of what crosses the script boundary, measured the one way both hosts measure it.

A script worker talks to the game through a pipe of JSON messages, each at most
``Limits.max_message_bytes``; a ctx call whose arguments, or a call whose result, would be a bigger
message fails the call. The in-process host has no pipe, but it applies the very same rule: a
stranger's scenario runs in-process in a simulation's pool worker and through a script worker in a
window, a replay or a Dask worker, and a script that returned two megabytes used to succeed in the
one and fail in the other, so that a replay written by ``simulate`` did not replay. Nothing here
imports the interpreter.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any, Final

__all__ = ["SLACK", "arguments_too_large", "dumps", "plain_and_small", "result_too_large"]

#: Envelope bytes allowed on top of ``Limits.max_message_bytes`` for a reply (result) message.
SLACK: Final = 4096

#: Arguments this few, each a number of at most 19 digits, None, a bool or a string this short,
#: make a message of at most ``_SMALL_MOST`` bytes (12 bytes of JSON a character at worst): under a
#: cap at least that big, the common ctx call is not encoded just to be measured.
_FEW_ARGUMENTS: Final = 16
_SHORT_TEXT: Final = 1024
_SMALL_MOST: Final = _FEW_ARGUMENTS * (12 * _SHORT_TEXT + 32) + 256


def dumps(obj: Any) -> bytes:
    """One message, as compact JSON bytes (the worker's wire format)."""
    return json.dumps(obj, separators=(",", ":"), allow_nan=True).encode()


#: The ints that may cross (``game.scripting.values.problem``: within 64 bits).
_INT_MIN: Final = -(2**63)
_INT_MAX: Final = 2**63 - 1


def plain_and_small(values: Sequence[Any], cap: int) -> bool:
    """Whether ``values`` (a ctx call's arguments) are certainly plain data and certainly a message
    under ``cap``: few of them, each None, a bool, an int within 64 bits, a finite float or a short
    string. Then ``values.problem`` finds nothing in them and :func:`arguments_too_large` says None,
    so a ctx call asks this one question where it would ask both (every ctx call a script makes
    asks it: a chain lightning's what-if makes a dozen). False says only "not certainly": ask both.
    The one scan of "certainly small": :func:`arguments_too_large` and :func:`result_too_large` ask
    it too before measuring (for the plain values they are given, "plain" adds nothing).
    """
    if len(values) > _FEW_ARGUMENTS or cap < _SMALL_MOST:
        return False
    for value in values:
        kind = type(value)
        if kind is int:
            if not _INT_MIN <= value <= _INT_MAX:
                return False
        elif kind is str:
            if len(value) > _SHORT_TEXT:
                return False
        elif kind is float:
            if not math.isfinite(value):
                return False
        elif value is not None and kind is not bool:
            return False
    return True


def arguments_too_large(method: str, args: Sequence[Any], cap: int) -> str | None:
    """Why a ctx call's (plain) arguments may not cross, ``"arguments too large (N bytes)"``, or None.

    Measured as the worker's bridge request ``["bridge", method, args]``, against ``cap`` bytes,
    unless :func:`plain_and_small` already says they are certainly under it.
    """
    if plain_and_small(args, cap):
        return None
    size = len(dumps(["bridge", method, list(args)]))
    return f"arguments too large ({size} bytes)" if size > cap else None


def result_too_large(value: Any, steps: int, cap: int) -> bool:
    """Whether a call's (plain) result is too big to cross: the worker's reply ``["ok", value, steps]``
    is over ``cap`` bytes and the envelope's :data:`SLACK`."""
    if plain_and_small((value,), cap):
        return False
    return len(dumps(["ok", value, steps])) > cap + SLACK
