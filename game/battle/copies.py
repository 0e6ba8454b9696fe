"""Copies made many times over from one value: a plan worked out once, then a fresh copy per call.

A battle template hands every battle of a simulation its own copy of the built battle: creatures'
components, the state, the command log. ``copy.deepcopy`` looks every value's type up again on
each copy, and pickling copies what nothing may change; a plan (:func:`copier`) knows which parts
of the value can change and copies only those, containers in C (``list.copy``, ``dict.copy``) and
dataclass instances without their ``__init__`` (their values were checked when first made).

What nothing can change is shared by every copy: plain values, enum members, read-only arrays that
own their data, and tuples, frozensets and frozen dataclasses of them (events, lights, a creature's
name). Everything else a copy holds is its own.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any

import numpy as np

#: Makes one fresh copy of the value it was planned for.
Maker = Callable[[], Any]

#: Values that are never changed in place: the one list, for plans (here), snapshots and the log.
ATOMIC = frozenset({int, float, bool, str, bytes, type(None)})


class Uncopyable(ValueError):
    """A value a plan cannot copy exactly: a kind it does not know, or a container reached twice."""


def immutable(value: Any) -> bool:
    """Whether nothing can change ``value``, so that copies may share it (see the module's docstring)."""
    kind = type(value)
    if kind in ATOMIC or isinstance(value, Enum):
        return True
    if kind is tuple or kind is frozenset:
        return all(immutable(v) for v in value)
    if kind is np.ndarray:
        return not value.flags.writeable and value.base is None
    params = getattr(kind, "__dataclass_params__", None)
    return (params is not None and params.frozen and is_dataclass(value)
            and all(immutable(getattr(value, f.name)) for f in fields(value)))


def copier(value: Any) -> Maker:
    """A function that makes a fresh copy of ``value`` as it is now, each time it is called.

    Later changes to ``value`` do not reach the copies: the plan keeps copies of its own.

    Raises:
        Uncopyable: ``value`` holds something other than plain values, lists, dicts, sets, deques,
            tuples, arrays and dataclass instances, or holds one container in two places (copies
            would no longer share it).
    """
    made = _maker(value, set())
    return (lambda: value) if made is None else made


def _maker(value: Any, seen: set[int]) -> Maker | None:
    """The plan for one value (None: share it as it is)."""
    if immutable(value):
        return None
    if id(value) in seen:
        raise Uncopyable(f"a {type(value).__name__} is held in two places")
    seen.add(id(value))
    kind = type(value)
    if kind is np.ndarray:
        return value.copy().copy  # type: ignore[no-any-return]  # a private copy, copied again each time
    if kind is list or kind is dict or kind is deque:
        return _container(value, seen)
    if kind is set:
        if not all(immutable(item) for item in value):
            raise Uncopyable("a set holds changeable values")
        return set(value).copy
    if kind is tuple:
        return _tuple(value, seen)
    if is_dataclass(value) and not isinstance(value, type):
        return _instance(value, seen)
    raise Uncopyable(f"a template cannot copy a {kind.__name__}")


def _parts(items: Iterable[tuple[Any, Any]], seen: set[int]) -> list[tuple[Any, Maker]]:
    """The ``(key, maker)`` of each item that needs copying (the others are shared as they are)."""
    return [(key, made) for key, value in items if (made := _maker(value, seen)) is not None]


def _container(value: list[Any] | dict[Any, Any] | deque[Any], seen: set[int]) -> Maker:
    """A list, dict or deque: copied whole, then its changeable items made again."""
    private: Any = value.copy()
    if isinstance(value, dict):
        if not all(immutable(key) for key in value):
            raise Uncopyable("a dict has changeable keys")
        inner = _parts(value.items(), seen)
    else:
        inner = _parts(enumerate(value), seen)
    if not inner:
        return private.copy  # type: ignore[no-any-return]

    def make() -> Any:
        made = private.copy()
        for key, part in inner:
            made[key] = part()
        return made

    return make


def _tuple(value: tuple[Any, ...], seen: set[int]) -> Maker:
    """A tuple holding changeable items: its items listed, those made again, then made a tuple."""
    private = list(value)
    inner = _parts(enumerate(value), seen)

    def make() -> Any:
        made = private.copy()
        for index, part in inner:
            made[index] = part()
        return tuple(made)

    return make


def _instance(value: Any, seen: set[int]) -> Maker:
    """A dataclass instance, made without its ``__init__``: its fields set as they are now."""
    kind = type(value)
    names = [f.name for f in fields(value)]
    held = set(vars(value)) if hasattr(value, "__dict__") else set(getattr(kind, "__slots__", ()))
    if held != set(names):
        raise Uncopyable(f"a {kind.__name__} holds values that are not its fields")
    inner = _parts(((name, getattr(value, name)) for name in names), seen)
    again = {name for name, _ in inner}
    shared = [(name, getattr(value, name)) for name in names if name not in again]
    new = object.__new__
    put = object.__setattr__ if kind.__dataclass_params__.frozen else setattr  # setattr: faster

    def make() -> Any:
        made = new(kind)
        for name, item in shared:
            put(made, name, item)
        for name, part in inner:
            put(made, name, part())
        return made

    return make
