"""The small benchmarks' command lines: ``--help`` answers, and a count is checked where it is read."""

from __future__ import annotations

import argparse

from game.sim.flags import whole


def command_line(module: str, doc: str | None) -> argparse.ArgumentParser:
    """An argument parser named as the benchmark is run, described by its docstring's first line."""
    return argparse.ArgumentParser(prog=f"python -m bench.{module}", description=(doc or "").split("\n\n")[0])


def count(module: str, doc: str | None, name: str, default: int, what: str, argv: list[str] | None = None) -> int:
    """The benchmark's one optional count (``python -m bench.X [count]``), or its default."""
    args = command_line(module, doc)
    args.add_argument(name, nargs="?", type=whole(1, 10**9), default=default, help=f"{what} (default {default})")
    value: int = getattr(args.parse_args(argv), name)
    return value
