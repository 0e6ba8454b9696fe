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

import shlex
from collections.abc import Sequence
from typing import Any

from game.content.toml_values import toml_value
from game.sim.config import SimConfig

__all__ = ["battle_flags", "battle_settings", "rerun_line", "run_line"]


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
