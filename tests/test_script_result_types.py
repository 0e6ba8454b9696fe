"""A script that returns what cannot cross the boundary (ctx, a function) is told the type it
returned and what a result may be, in both hosts, instead of starlark's serde text."""

from __future__ import annotations

import pytest

from game.scripting import InProcessHost, Limits, ScriptError, WorkerHost

SOURCE = "def gives_ctx(ctx):\n    return ctx\n\ndef gives_function(ctx):\n    return gives_ctx\n"
SAID = (r"returned a non-plain value \(a value of type function: a result holds no ctx, function or other such "
        r"value; expected None, a bool, int, float, string, list or dict\)")


@pytest.mark.parametrize("entry", ["gives_ctx", "gives_function"])
def test_in_process(entry: str) -> None:
    host = InProcessHost({"health": 1}, (), Limits())
    host.load("odd.star", SOURCE)
    with pytest.raises(ScriptError, match=SAID) as caught:
        host.call("odd.star", entry, args=({},))
    assert caught.value.kind == "result" and "serde" not in str(caught.value)


def test_in_a_worker() -> None:
    host = WorkerHost({"health": 1}, (), Limits())
    try:
        host.load("odd.star", SOURCE)
        with pytest.raises(ScriptError, match=SAID):
            host.call("odd.star", "gives_ctx", args=({},))
    finally:
        host.close()
