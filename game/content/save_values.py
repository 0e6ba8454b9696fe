"""Command arguments as JSON: the tagged encoding of saves and replays, and the numbers they may hold.

JSON cannot say a tuple, an enum or infinity, so those are tagged: ``{"$tuple": [x, y]}``,
``{"$visibility": "POOR"}``, ``{"$float": "inf"}``, ``{"$dict": {}}``. A save is a file a stranger
may hand over, so the numbers of its commands are bounded where they are read
(:func:`argument_problem`): whole numbers within +-:data:`MAX_ARGUMENT`, other numbers finite
within the same (or a tagged infinity, which the battle's own checks refuse where it matters).
"""

from __future__ import annotations

import enum
import math
from typing import Any

import numpy as np

from components import Visibility
from components.values import shown

__all__ = ["MAX_ARGUMENT", "MAX_DEPTH", "SaveError", "argument_problem", "decode_value", "encode_value"]

#: No command takes a number this large: squares are < 1024, Health < 100000, heights and radii
#: within 10000 ft. Past it a number only makes the rules' arithmetic overflow.
MAX_ARGUMENT = 1_000_000_000
MAX_DEPTH = 32  # no command argument the game writes is nested more than a few levels


class SaveError(ValueError):
    """A save or replay that cannot be written or used; the message names the file and the problem."""


def encode_value(value: Any, where: str = "value") -> Any:
    """A command argument as JSON data that :func:`decode_value` turns back into the same value.

    Raises:
        SaveError: a value of a type no command takes (better refused at save time than replayed wrong).
    """
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, Visibility):
        return {"$visibility": value.name}
    if isinstance(value, enum.Enum):
        raise SaveError(f"cannot save {where}: enum {shown(value)} has no encoding")
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        number = float(value)
        return number if math.isfinite(number) else {"$float": repr(number)}
    if isinstance(value, tuple):
        return {"$tuple": [encode_value(v, where) for v in value]}
    if isinstance(value, list):
        return [encode_value(v, where) for v in value]
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {"$dict": {k: encode_value(v, where) for k, v in value.items()}}
    raise SaveError(f"cannot save {where}: {type(value).__name__} {shown(value)} has no encoding")


def decode_value(data: Any, where: str = "value", _depth: int = 0) -> Any:
    """The inverse of :func:`encode_value`.

    Raises:
        SaveError: anything it could not have written (naming ``where``).
    """
    if _depth > MAX_DEPTH:
        raise SaveError(f"{where}: nested more than {MAX_DEPTH} levels deep; not something this game wrote")
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    if isinstance(data, list):
        return [decode_value(v, where, _depth + 1) for v in data]
    if isinstance(data, dict) and len(data) == 1:
        (tag, inner), = data.items()
        if tag == "$tuple" and isinstance(inner, list):
            return tuple(decode_value(v, where, _depth + 1) for v in inner)
        if tag == "$visibility" and isinstance(inner, str) and inner in Visibility.__members__:
            return Visibility[inner]
        if tag == "$float" and inner in ("inf", "-inf", "nan"):
            return float(inner)
        if tag == "$dict" and isinstance(inner, dict):
            return {k: decode_value(v, where, _depth + 1) for k, v in inner.items()}
    raise SaveError(f"{where}: {shown(data)} is not an encoded value")


def argument_problem(value: Any, _depth: int = 0) -> str | None:
    """Why a decoded command argument holds a number no command takes (None when it holds none).

    Whole numbers must be within +-:data:`MAX_ARGUMENT`, other numbers too unless they are an
    infinity or nan (which only a tag can carry, and which the battle refuses where it matters).
    """
    if isinstance(value, bool) or value is None or isinstance(value, (str, Visibility)) or _depth > MAX_DEPTH:
        return None
    if isinstance(value, (int, float)):
        if (isinstance(value, float) and not math.isfinite(value)) or -MAX_ARGUMENT <= value <= MAX_ARGUMENT:
            return None
        return f"expected numbers in -{MAX_ARGUMENT}..{MAX_ARGUMENT}, got {shown(value)}"
    items = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else ()
    for item in items:
        problem = argument_problem(item, _depth + 1)
        if problem:
            return problem
    return None
