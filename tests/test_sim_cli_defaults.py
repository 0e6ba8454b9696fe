"""``simulate``'s flags default to what ``SimConfig`` says, and its help says the same numbers: a
default changed in one place changes the command line, the Python API and the help together."""

from __future__ import annotations

import dataclasses

from game.sim.cli import build_parser
from game.sim.config import SimConfig

#: flag dest -> SimConfig field, where the names differ
RENAMED = {"out": "out_dir", "chunk": "chunk_size"}


def test_every_flag_left_out_is_the_configs_default() -> None:
    args = vars(build_parser().parse_args(["s.toml"]))
    defaults = {f.name: f.default for f in dataclasses.fields(SimConfig) if f.default is not dataclasses.MISSING}
    shared = {dest: value for dest, value in args.items() if RENAMED.get(dest, dest) in defaults}
    assert len(shared) >= 10
    for dest, value in shared.items():
        assert value == defaults[RENAMED.get(dest, dest)], dest


def test_the_help_says_the_configs_numbers() -> None:
    given = SimConfig(scenario="")
    text = " ".join(build_parser().format_help().split())
    assert f"(default {given.battles})" in text and f"(default {given.max_rounds})" in text
    assert f"(default {given.recycle};" in text and f"(default {given.battle_seconds:g})" in text
