"""A value nested deeper than 1,000 levels fails as a script error wherever a native would read it
level by level (``str``, ``repr``, ``hash``, ``%``, ``format``, f-strings, ``fail``, a result, a ctx
argument, and a native whose error writes the value: a dict's missing key, ``pop``, ``index``,
``remove``, ``int``, ``join``). Those natives recurse once a level with no limit of their own: a tuple
nested 60,000 deep (a loop well within the step budget) overflowed the stack, a segmentation fault of
the process running the script (the game's own, in-process). Both hosts fail it alike, at the same step."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from game.scripting import InProcessHost, Limits, ScriptError, WorkerHost

READS = ["len(str(t))", "len(repr(t))", "hash(tuple([t]))", "len('%s' % (t,))", "len('{}'.format(t))",
         "len(f'{t}')", "fail(t)", "t",
         # natives that write the value into their error: a key not found, an item not in a list, int(), join
         "{}[t]", "{'a': 1}.pop(t)", "[1].index(t)", "[1].remove(t)", "int(t)", "'x'.join([t])"]
SAID = (r"deep\.star(:\d+)? in f: fail: a value nested more than 1000 levels deep; expected at most 1000 \(deeper "
        r"ones overflow the interpreter's stack\)")


def _source(depth: int, read: str) -> str:
    last = read if read == "fail(t)" else f"return {read}"
    return f"def f(ctx):\n    t = ()\n    for i in range({depth}):\n        t = (t,)\n    {last}\n"


@pytest.fixture(scope="module")
def worker() -> Iterator[WorkerHost]:
    with WorkerHost(limits=Limits()) as host:
        yield host


@pytest.mark.parametrize("read", READS)
def test_a_value_60000_deep_is_a_script_error_not_a_dead_process(worker: WorkerHost, read: str) -> None:
    worker.load("deep.star", _source(60000, read))
    with pytest.raises(ScriptError, match=SAID) as info:
        worker.call("deep.star", "f", ({},))
    assert info.value.kind == "runtime"


@pytest.mark.parametrize("read", READS)
def test_both_hosts_refuse_one_level_past_the_limit_alike(worker: WorkerHost, read: str) -> None:
    host = InProcessHost(limits=Limits())
    host.load("deep.star", _source(1001, read))
    with pytest.raises(ScriptError, match=SAID) as here:
        host.call("deep.star", "f", ({},))
    worker.load("deep.star", _source(1001, read))
    with pytest.raises(ScriptError) as there:
        worker.call("deep.star", "f", ({},))
    assert (str(here.value), here.value.steps) == (str(there.value), there.value.steps)


def test_a_value_at_the_limit_is_still_read() -> None:
    host = InProcessHost(limits=Limits())
    host.load("ok.star", _source(999, "len(str(t)) + len(repr([t])) + len('%s' % (t,))"))
    assert host.call("ok.star", "f", ({},)) == 3 * 2999 + 2
