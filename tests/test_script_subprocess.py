"""The script host started as a plain subprocess (what a daemonic Dask worker gets) keeps every limit."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from pathlib import Path

import pytest

from game.scripting import Limits, ScriptError, WorkerHost

ADD = "def f(ctx, x):\n    return ctx.add(x, 1) * 2\n"


def _bridge(method: str, args: tuple[int, ...]) -> int:
    assert method == "add"
    return args[0] + args[1]


def _address_limit(pid: int) -> int:
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max address space"):
            return int(line.split()[3])
    raise AssertionError("no address-space line")


def test_a_subprocess_worker_answers_keeps_its_limits_and_restarts_when_killed() -> None:
    with_limits = Limits(memory_bytes=256 * 2**20, wall_seconds=10.0)
    host = WorkerHost({"add": 2}, limits=with_limits, start_method="subprocess")
    try:
        host.load("s", ADD)
        assert host.call("s", "f", ({}, 3), _bridge) == 8
        first = host.pid
        assert first is not None and first not in {p.pid for p in multiprocessing.active_children()}
        assert _address_limit(first) == 256 * 2**20              # RLIMIT_AS applied in the subprocess too
        os.kill(first, signal.SIGKILL)
        time.sleep(0.05)
        try:  # a call racing with the death may report it; it must be a ScriptError
            result = host.call("s", "f", ({}, 5), _bridge)
        except ScriptError as err:
            assert err.kind == "died" and "killed by SIGKILL" in str(err)
            result = host.call("s", "f", ({}, 5), _bridge)
        assert result == 12 and host.pid not in (None, first)  # a fresh worker, the script loaded again
    finally:
        host.close()


def test_an_unknown_start_method_is_refused() -> None:
    with pytest.raises(ValueError, match="subprocess"):
        WorkerHost({"add": 2}, start_method="fork")
