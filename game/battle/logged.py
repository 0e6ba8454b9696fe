"""A command's arguments as the command log keeps them: copies that the caller cannot change afterwards.

Why: the log, with the seed, is what a replay, a save and the window's rewind rebuild the battle
from. It kept the caller's own objects, so a list given to a command and changed after it (a kit of
powers reused for the next creature, a point reused for the next aim) changed what the log said the
battle had done, and a one-shot iterator (``powers=(p for p in kit)``, as ``Iterable[str]`` allows)
was logged spent: the replay's creature was given no powers, so every power of the battle.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from enum import Enum
from typing import Any

import numpy as np

from game.battle.copies import ATOMIC  # values that are never changed in place: kept as they are


def kept(value: Any) -> Any:
    """``value`` as the log keeps it: containers copied all the way down, values that never change in
    place as they are, anything else (a controller, a power) itself. A set is kept as a sorted list and
    an array as a list: a command that took one takes the list alike (the powers of ``spawn``, the
    ``blocks`` of ``set_terrain``, a point), and a save can write a list (a battle given a set of powers
    could not be saved: "set {'strike', 'shoot'} has no encoding")."""
    kind = type(value)
    if kind in ATOMIC or isinstance(value, (Enum, np.generic)):
        return value
    if isinstance(value, list):
        return [kept(v) for v in value]
    if isinstance(value, tuple):
        return tuple(kept(v) for v in value)
    if isinstance(value, Mapping):
        return {k: kept(v) for k, v in value.items()}
    if isinstance(value, AbstractSet):  # (a set, a frozenset, a dict's keys)
        return sorted((kept(v) for v in value), key=repr)
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, Iterable) and not isinstance(value, (str, bytes, Iterator)):  # a deque, dict values
        return [kept(v) for v in value]
    return value


def _plain(args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> bool:
    """Whether every argument is a value that never changes in place (the common call: ids and numbers)."""
    return all(type(v) in ATOMIC for v in args) and all(type(v) in ATOMIC for v in kwargs.values())


def logged_call(args: tuple[Any, ...], kwargs: dict[str, Any]
                ) -> tuple[tuple[Any, ...], dict[str, Any], tuple[Any, ...], dict[str, Any]]:
    """The arguments to call a command with, and the copies to log: ``(args, kwargs, log args, log kwargs)``.

    A one-shot iterator is read once here: the command gets an iterator over the same items (so it
    checks them exactly as it checked the iterator), and the log a list of them. Everything else is
    passed on as given and logged as :func:`kept` copies it now, before the command runs."""
    if _plain(args, kwargs):
        return args, kwargs, args, kwargs
    call_args, log_args = zip(*(_split(v) for v in args)) if args else ((), ())
    call_kwargs: dict[str, Any] = {}
    log_kwargs: dict[str, Any] = {}
    for key, value in kwargs.items():
        call_kwargs[key], log_kwargs[key] = _split(value)
    return tuple(call_args), call_kwargs, tuple(log_args), log_kwargs


def _split(value: Any) -> tuple[Any, Any]:
    """One argument: what the command is called with, and what the log keeps."""
    if isinstance(value, Iterator) and not isinstance(value, (str, bytes)):
        items = list(value)
        return iter(items), kept(items)
    return value, kept(value)
