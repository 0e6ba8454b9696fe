"""``json.encode`` of a deeply nested value fails as a script error, in both hosts alike. The native
encoder recursed once per level with no limit, so a list nested 40,000 deep (a loop of 40,000 steps,
well within the budget) overflowed the stack: in-process (the designer's scripts, a pool worker) it
killed the process with a segmentation fault. It stops where ``json.decode`` does, at 128 levels."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from game.scripting import InProcessHost, Limits, ScriptError, WorkerHost


def _source(depth: int) -> str:
    return (f"def f(ctx):\n    x = []\n    for i in range({depth}):\n        x = [x]\n"
            "    return len(json.encode(x)) + len(json.encode({'a': [x]})) * 0\n")


@pytest.fixture(scope="module")
def worker() -> Iterator[WorkerHost]:
    with WorkerHost(limits=Limits()) as host:
        yield host


def test_a_deep_value_is_refused_by_json_encode_in_a_worker(worker: WorkerHost) -> None:
    worker.load("deep.star", _source(40000))
    said = (r"deep\.star:\d+ in f: fail: json\.encode: a value nested more than 128 levels deep; expected at most "
            r"128, the most json\.decode reads back")
    with pytest.raises(ScriptError, match=said) as info:
        worker.call("deep.star", "f", ({},))
    assert info.value.kind == "runtime"


def test_both_hosts_refuse_it_alike(worker: WorkerHost) -> None:
    host = InProcessHost(limits=Limits())
    host.load("deep.star", _source(40000))
    with pytest.raises(ScriptError) as here:
        host.call("deep.star", "f", ({},))
    worker.load("deep.star", _source(40000))
    with pytest.raises(ScriptError) as there:
        worker.call("deep.star", "f", ({},))
    assert (str(here.value), here.value.steps) == (str(there.value), there.value.steps)


@pytest.mark.parametrize("depth", [0, 1, 126])
def test_a_value_json_decode_reads_back_is_still_written(depth: int) -> None:
    host = InProcessHost(limits=Limits())
    host.load("ok.star", f"def f(ctx):\n    x = 'leaf'\n    for i in range({depth}):\n        x = [x]\n"
                         "    return json.decode(json.encode({'k': x})) == {'k': x}\n")
    assert host.call("ok.star", "f", ({},)) is True
