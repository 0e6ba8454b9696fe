"""Values as ``--set`` and a scenario's overrides spell them: TOML, read and written back.

A user types ``rules.cover_enabled=false``; everything that shows that value again (an error about
it, a re-run line, a table's header) writes ``false``, not Python's ``False``, which ``--set`` would
read as the string "False".
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Iterable, Iterator
from typing import Any

from components.values import shown, unprintable

__all__ = ["nesting", "parse_value", "split_values", "toml_shown", "toml_value"]


def parse_value(text: str) -> Any:
    """A --set value as TOML would read it (30 -> int, 0.5 -> float, true -> bool, 4d6 -> string)."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text.strip()


def split_values(text: str) -> list[str]:
    """``V1,V2,...`` cut at the commas outside quotes, brackets and braces, so that a value printed
    by :func:`toml_value` (``["strike", "shoot"]``, ``"a,b"``) reads back as one value."""
    parts, start = [], 0
    for i, char, depth in _outside_quotes(text):
        if char == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return [*parts, text[start:]]


def nesting(text: str) -> int:
    """How deep arrays and tables nest in a TOML value's text (``[[1]]`` is 2), counted before it is
    parsed: tomllib, and everything that walks a parsed value, recurses once per level, so a value
    nested a few hundred deep would end in a RecursionError instead of an error naming the value."""
    return max((depth for _, char, depth in _outside_quotes(text) if char in "[{"), default=0)


def _outside_quotes(text: str) -> Iterator[tuple[int, str, int]]:
    """Each character outside quoted strings, with its index and the depth of brackets and braces it
    is at (an opening one counts itself)."""
    depth, quote, start, i = 0, "", 0, 0
    while i < len(text):
        char = text[i]
        if quote:
            if char == "\\" and quote == '"':
                i += 1  # an escaped character, whatever it is
            elif char == quote:
                quote = ""
        elif char in "\"'" and (depth > 0 or not text[start:i].strip()):  # a string opens a value
            quote = char
        else:
            if char in "[{":
                depth += 1
            yield i, char, depth
            if char in "]}":
                depth = max(depth - 1, 0)
            elif char == "," and depth == 0:
                start = i + 1
        i += 1


def _quoted(value: Any) -> str:
    """A value inside a TOML array or table: strings always quoted (JSON's escapes are TOML's)."""
    return json.dumps(value) if isinstance(value, str) else toml_value(value)


def toml_value(value: Any) -> str:
    """``value`` as ``--set`` (TOML) writes it, so that :func:`parse_value` reads it back equal:
    ``true``, ``2.5``, ``inf``, ``4d6`` (a string that reads back as itself stays bare), ``"true"``
    (a string that would not), ``["strike"]``, ``{ bonus = 2 }``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        # never bare with a line break or a bidirectional control in it: a message or a table row would be
        # broken in two or turned around by it (JSON's escapes, \n and \u202e, are TOML's)
        bare = value and not any(c in value for c in ",\"'") and value == value.strip() \
            and unprintable(value) is None and parse_value(value) == value
        return value if bare else json.dumps(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_quoted(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{json.dumps(str(k))} = {_quoted(v)}" for k, v in value.items()) + " }"
    return json.dumps(str(value))


def toml_shown(value: Any) -> str:
    """:func:`toml_value` for a message: a value that cannot be written back short (a whole number of
    thousands of digits, a long list) is described by :func:`~components.values.shown` instead."""
    try:
        text = toml_value(value)
    except (ValueError, RecursionError):
        return shown(value)
    return text if len(text) <= 60 else shown(value)


def with_overrides(overrides: Iterable[tuple[str, Any]]) -> str:
    """How a message names the overrides a file was read with: ``(with overrides seed=3, rules.x=1)``
    (a scenario's problems, a sweep's or a save's power table over its budgets)."""
    return f"(with overrides {', '.join(f'{key}={toml_shown(value)}' for key, value in overrides)})"
