"""Both script hosts fail a call whose result or ctx arguments are too big for the worker's pipe alike.

A script worker sends its answers as JSON messages of at most ``Limits.max_message_bytes``. A
reaction that returned a 1.1 MB string failed there ("result too large") and succeeded in-process,
and a ctx call with a 2 MB argument failed with another reason in each host. A simulation's pool
worker runs a stranger's scripts in-process, a replay and the Dask engine through a worker: the
replay ``simulate --only-seed`` wrote of such a battle did not replay (a MISMATCH at the first
call), and ``--engine dask`` counted other battles than the pool. Both hosts now apply the rule.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from components.events import ScriptFailed
from game import Battle
from game.scripting import InProcessHost, Limits, ScriptError, WorkerHost

RESULTS = {
    "a long string": 'return "x" * 1100000',
    "a dict holding one": 'return {"a": "x" * 1100000}',
    "a list of two halves": 'return ["x" * 600000, "y" * 600000]',
    "text JSON escapes": 'return "\u00e9" * 200000',
}


def _reason(host: InProcessHost | WorkerHost, body: str, bridge: object = None) -> str:
    host.load("big.star", f"def f(ctx):\n    {body}\n")
    with pytest.raises(ScriptError) as info:
        host.call("big.star", "f", ({},), bridge)  # type: ignore[arg-type]
    return str(info.value)


@pytest.mark.parametrize("body", RESULTS.values(), ids=RESULTS.keys())
def test_a_result_too_big_for_the_pipe_fails_in_process_as_in_the_worker(body: str) -> None:
    in_process = _reason(InProcessHost(), body)
    assert in_process == f"big.star in f: result too large (over {Limits().max_message_bytes} bytes)"
    with WorkerHost() as worker:
        assert _reason(worker, body) == in_process


def test_a_result_within_the_pipe_is_returned_by_both() -> None:
    source = 'def f(ctx):\n    return "x" * 1000000\n'
    in_process = InProcessHost()
    in_process.load("ok.star", source)
    with WorkerHost() as worker:
        worker.load("ok.star", source)
        assert len(in_process.call("ok.star", "f", ({},))) == len(worker.call("ok.star", "f", ({},))) == 1000000


def test_ctx_arguments_too_big_for_the_pipe_fail_alike() -> None:
    def bridge(method: str, args: tuple[object, ...]) -> object:
        raise LookupError(f"no creature with id {args[0]!r}")  # what the battle says to a string id

    body = 'ctx.name("y" * 2000000)'
    in_process = InProcessHost(["name"])
    reason = _reason(in_process, body, bridge)
    assert reason == "big.star:2 in f: ctx.name: arguments too large (2000022 bytes)"
    with WorkerHost(["name"]) as worker:
        assert _reason(worker, body, bridge) == reason


@pytest.mark.parametrize("trusted", [True, False])
def test_a_battle_records_the_same_failure_in_either_host(tmp_path: Path, trusted: bool) -> None:
    (tmp_path / "big.star").write_text('def on_turn_start(ctx, event):\n    return "x" * 1100000\n')
    with Battle(seed=1, width=6, height=3, script_dir=tmp_path, trusted_scripts=trusted) as b:
        b.spawn("A", 0, 0, team="a")
        b.spawn("B", 4, 0, team="b")
        b.attach_reaction("big.star")
        b.start_combat()
        b.tick()
        reasons = {e.reason for e in b.events if isinstance(e, ScriptFailed)}
    assert reasons == {"big.star in on_turn_start: result too large (over 1048576 bytes)"}


def test_a_smaller_message_cap_is_the_same_rule_in_both_hosts() -> None:
    """Under a ``max_message_bytes`` of 2,000 a 1,000-character argument of escapes is over the cap in
    both hosts: the in-process host once took it for certainly small (a shortcut fit for the
    default cap alone)."""
    limits = Limits(max_message_bytes=2000)
    body = 'return ctx.name("\\u00e9" * 1000)'
    reason = "big.star:2 in f: ctx.name: arguments too large (6022 bytes)"
    assert _reason(InProcessHost(["name"], limits=limits), body, lambda method, args: "ok") == reason
    with WorkerHost(["name"], limits=limits) as worker:
        assert _reason(worker, body, lambda method, args: "ok") == reason
