"""Fuzzing the values that cross the script boundary: whatever goes in or comes back, a call either
returns a plain value or fails with a ScriptError, never another exception out of the engine."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.scripting import InProcessHost, Limits, ScriptError, is_plain

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**50), max_value=10**50),
    st.sampled_from([10**400, -(10**400), 2**63, -(2**63) - 1]),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=20))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=5), inner, max_size=4)), max_leaves=20)

HOST = InProcessHost({"echo": 1}, (), Limits())
HOST.load("echo.star", "def back(ctx, v):\n    return v\n\ndef asks(ctx, v):\n    return ctx.echo(v)\n")


def _same(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return a == b


@pytest.mark.slow
@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(VALUES)
def test_a_value_passed_in_and_back_is_plain_or_refused(value: object) -> None:
    """Arguments are the game's: one that is not plain is the caller's mistake (TypeError)."""
    try:
        back = HOST.call("echo.star", "back", args=({}, value))
    except TypeError:
        assert not is_plain(value)
        return
    except ScriptError as err:
        assert err.kind in ("result", "budget"), err
        return
    assert is_plain(value) and _same(back, value)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(VALUES)
def test_a_value_a_bridge_answers_with_is_plain_or_fails_the_call(value: object) -> None:
    try:
        back = HOST.call("echo.star", "asks", args=({}, 1), bridge=lambda method, args: value)
    except ScriptError as err:
        assert err.kind in ("bridge", "result", "runtime", "budget"), err
        return
    assert is_plain(value) and _same(back, value)
