"""A run's settings written back as the command line that makes them: values in TOML spelling, as
``--set`` reads them, and the flags that change what a battle does.

The re-run line printed under a failure, the table's header and ``summary.json`` all come from here,
so what they say is what the parser reads: ``rules.cover_enabled=false`` (not Python's ``False``,
which ``--set`` would read as the string "False"), ``creatures.archer.powers=["strike"]``, and every
flag that changes a battle (``--max-rounds``, ``--battle-seconds``, ``--strict-scripts``, ``--hook``,
``--policy``). Flags that only decide where or how fast battles run (``--out``, ``--workers``,
``--engine``, ``--chunk``, ``--recycle``) change no battle and are left out.
"""

from __future__ import annotations

import json
import math
import shlex
import tomllib
from collections.abc import Sequence
from typing import Any

from game.sim.config import SimConfig

__all__ = ["battle_flags", "battle_settings", "parse_value", "rerun_line", "run_line", "split_values", "toml_value"]


def parse_value(text: str) -> Any:
    """A --set value as TOML would read it (30 -> int, 0.5 -> float, true -> bool, 4d6 -> string)."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text.strip()


def split_values(text: str) -> list[str]:
    """``V1,V2,...`` cut at the commas outside quotes, brackets and braces, so that a value printed
    by :func:`toml_value` (``["strike", "shoot"]``, ``"a,b"``) reads back as one value."""
    parts, depth, quote, start, i = [], 0, "", 0, 0
    while i < len(text):
        char = text[i]
        if quote:
            if char == "\\" and quote == '"':
                i += 1  # an escaped character, whatever it is
            elif char == quote:
                quote = ""
        elif char in "\"'" and (depth > 0 or not text[start:i].strip()):  # a string opens a value
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth = max(depth - 1, 0)
        elif char == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
        i += 1
    return [*parts, text[start:]]


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
        bare = value and not any(c in value for c in ",\"'") and value == value.strip() and parse_value(value) == value
        return value if bare else json.dumps(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_quoted(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{json.dumps(str(k))} = {_quoted(v)}" for k, v in value.items()) + " }"
    return json.dumps(str(value))


def battle_flags(config: SimConfig) -> list[str]:
    """The flags (as argv) that change what a battle does, each spelt as the parser reads it."""
    flags = ["--policy", config.policy, "--max-rounds", str(config.max_rounds),
             "--battle-seconds", repr(float(config.battle_seconds))]
    if config.strict_scripts:
        flags.append("--strict-scripts")
    if config.hook:
        flags += ["--hook", config.hook]
    return flags


def battle_settings(config: SimConfig) -> dict[str, Any]:
    """The same settings as data, for ``summary.json``: with the table's own figures, what made them."""
    return {"command": run_line(config), "policy": config.policy, "max_rounds": config.max_rounds,
            "battle_seconds": config.battle_seconds, "strict_scripts": config.strict_scripts, "hook": config.hook,
            "sets": [[key, list(values)] for key, values in config.sets],
            "only_seeds": config.only_seeds}


def rerun_line(config: SimConfig, seed: int, overrides: Sequence[tuple[str, Any]]) -> str:
    """The command that plays one battle again (its seed, its variant's values, every flag that
    changes it), quoted for a POSIX shell: its words parse back to the same battle settings."""
    words = ["python", "-m", "game", "simulate", str(config.scenario), "--only-seed", str(seed)]
    for key, value in overrides:
        words += ["--set", f"{key}={toml_value(value)}"]
    return shlex.join(words + battle_flags(config))


def run_line(config: SimConfig) -> str:
    """The command that makes this run's table again (its battles or seeds, master seed, sweep and
    every flag that changes a battle), quoted for a POSIX shell."""
    words = ["python", "-m", "game", "simulate", str(config.scenario)]
    if config.only_seeds is not None:
        for seed in config.only_seeds:
            words += ["--only-seed", str(seed)]
    else:
        words += ["--battles", str(config.battles), "--seed", str(config.seed)]
    for key, values in config.sets:
        words += ["--set", f"{key}={','.join(toml_value(v) for v in values)}"]
    return shlex.join(words + battle_flags(config))
