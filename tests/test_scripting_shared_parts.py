"""A value built of shared parts (``[[[0] * 1000] * 1000] * 1000``: three small lists, a billion
places) read by a native (``str``, ``repr``, ``hash``, ``%``, ``==``, a result, a ctx argument) is paid
for each place before the native runs, and the step budget stops it. The walk that pays paid one step
to queue a whole list: it queued a billion places before its visits used the budget up, 14 s and
3.6 GB in the game's own process, and in the worker an out-of-memory that put the script out of the
battle where the in-process host only failed the call: the two hosts played the battle differently."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from game.scripting import Limits, ScriptError, WorkerHost

SHARED = "    s = [[0] * 1000] * 1000\n    t = [s] * 1000\n"
READS = ["str(t)", "repr(t)", "hash(t)", "'%s' % (t,)", "t == [s] * 1000", "t"]


@pytest.fixture(scope="module")
def worker() -> Iterator[WorkerHost]:
    with WorkerHost(limits=Limits()) as host:
        yield host


@pytest.mark.parametrize("read", READS)
def test_a_billion_shared_places_exhaust_the_budget_in_the_worker(worker: WorkerHost, read: str) -> None:
    worker.load("shared.star", f"def f(ctx):\n{SHARED}    return {read}\n")
    said = r"shared\.star(:\d+)? in f: instruction budget of 200000 exhausted"
    with pytest.raises(ScriptError, match=said) as info:
        worker.call("shared.star", "f", ({},))
    assert info.value.kind == "budget"
    worker.load("small.star", "def f(ctx):\n    return len(str([[0] * 10] * 10))\n")
    assert worker.call("small.star", "f", ({},)) == 320  # the same worker, still alive
