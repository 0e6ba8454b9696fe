"""The worker script host's life: a killed or memory-bombed worker is restarted with its scripts
loaded, a call past its wall clock is stopped and the worker restarted, time spent in the bridge is
not the script's, and a closed host refuses work.
"""

from __future__ import annotations

import os
import signal
import time
from typing import Any

import pytest

from game.scripting import InProcessHost, Limits, ScriptError, WorkerHost
from tests.script_steps import (
    COMMANDS,
    HOG_SRC,
    LIMITS,
    METHODS,
    ORDINARY,
    ORDINARY_SRC,
    UNBOUNDED,
    ordinary_call,
)

# --------------------------------------------------------------------------- worker life cycle


def test_worker_killed_is_restarted_with_scripts_loaded() -> None:
    with WorkerHost(methods=METHODS, commands=COMMANDS, limits=LIMITS) as host:
        host.load(ORDINARY, ORDINARY_SRC)
        host.load("other.star", "def f(ctx):\n    return ctx.user + 1\n")
        ordinary_call(host)
        first_pid = host.pid
        assert first_pid is not None
        os.kill(first_pid, signal.SIGKILL)
        time.sleep(0.05)
        try:  # a call racing with the death may report it; it must be a ScriptError
            ordinary_call(host)
        except ScriptError as err:
            assert err.kind == "died" and "script host died" in str(err)
            ordinary_call(host)
        assert host.pid not in (None, first_pid)
        assert host.call("other.star", "f", ({"user": 41},)) == 42
        stats = host.stats()
        assert stats["worker_starts"] == 2
        assert stats["load_counts"] == {ORDINARY: 1, "other.star": 1}  # re-loaded once, not per call
        assert host.functions("other.star") == frozenset({"f"})


def test_worker_memory_bomb_mid_call_then_restart() -> None:
    """A step budget no script reaches: the worker's memory limit has to act, and only the worker dies."""
    with WorkerHost(methods=METHODS, commands=COMMANDS, limits=UNBOUNDED) as host:
        host.load(ORDINARY, ORDINARY_SRC)
        host.load("bomb.star", 'def f(ctx, n):\n    return len("x" * n)\n')
        old = host.pid
        with pytest.raises(ScriptError, match="script host died"):
            host.call("bomb.star", "f", ({}, 2000000000))
        ordinary_call(host)
        assert host.pid != old
        assert host.call("bomb.star", "f", ({}, 10)) == 10  # the bomb script itself was re-loaded
        assert host.stats()["load_counts"] == {ORDINARY: 1, "bomb.star": 1}


def test_worker_timeout_kills_and_restarts() -> None:
    # 2**40 leaves to compare: counted, but within steps no script reaches (only the wall clock stops it).
    limits = Limits(wall_seconds=0.5, max_steps=10**12, round_steps=10**13, battle_steps=10**14)
    with WorkerHost(methods=METHODS, commands=COMMANDS, limits=limits) as host:
        host.load(ORDINARY, ORDINARY_SRC)
        host.load("slow.star", HOG_SRC)
        with pytest.raises(ScriptError, match=r"slow.star in f: took longer than 0.5 s"):
            host.call("slow.star", "f", ({},))
        ordinary_call(host)
        assert host.stats()["worker_starts"] == 2


def test_worker_wall_clock_excludes_bridge_time() -> None:
    limits = Limits(wall_seconds=0.3)

    def slow_bridge(method: str, args: tuple[Any, ...]) -> Any:
        time.sleep(0.1)
        return 1

    with WorkerHost(methods=METHODS, commands=COMMANDS, limits=limits) as host:
        host.load("b.star", "def f(ctx):\n    return len([ctx.health(1) for i in range(5)])\n")
        assert host.call("b.star", "f", ({},), slow_bridge) == 5  # 0.5 s in the bridge, fine


def test_closed_hosts_refuse_work() -> None:
    for host in (InProcessHost(), WorkerHost()):
        host.close()
        with pytest.raises(RuntimeError, match="script host is closed"):
            host.load("x.star", "def f(ctx):\n    return 1\n")
