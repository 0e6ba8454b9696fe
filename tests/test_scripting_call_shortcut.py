"""A ctx call's arguments are checked by one shortcut question where they are certainly fine.

Every ctx call a script makes is checked twice before the bridge answers it: its arguments must be
plain data (``values.problem``) and fit the worker's pipe (``messages.arguments_too_large``). A
planner's what-if of a chain lightning makes a dozen such calls, each a few numbers, so
``messages.plain_and_small`` answers both at once for the common call. It must never say yes where
either check would refuse: then a script's bad argument would reach the battle.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.scripting import InProcessHost, Limits, ScriptError
from game.scripting.messages import SLACK, arguments_too_large, dumps, plain_and_small, result_too_large
from game.scripting.values import problem

SCALARS = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=1100),
)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                                          max_size=3), max_leaves=6)
CAPS = st.sampled_from([64, 1024, 300_000, Limits().max_message_bytes, 10**9])


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.lists(VALUES, max_size=18), CAPS)
def test_the_shortcut_never_admits_what_a_check_refuses(values: list[object], cap: int) -> None:
    if plain_and_small(tuple(values), cap):
        assert problem(tuple(values)) is None
        assert len(dumps(["bridge", "m", values])) <= cap  # measured: arguments_too_large asks the shortcut too


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(VALUES, max_size=18), CAPS)
def test_the_size_checks_answer_as_the_measure_does(values: list[object], cap: int) -> None:
    """``arguments_too_large`` and ``result_too_large`` ask the shortcut before measuring: for plain values
    (all they are given) they say what measuring the worker's message says."""
    if problem(tuple(values)) is not None:
        return
    large = len(dumps(["bridge", "m", values])) > cap
    assert (arguments_too_large("m", tuple(values), cap) is not None) == large
    assert result_too_large(values[0] if values else None, 7, cap) == (
        len(dumps(["ok", values[0] if values else None, 7])) > cap + SLACK)


def test_the_common_call_takes_the_shortcut() -> None:
    assert plain_and_small((3, 7, 15), Limits().max_message_bytes)
    assert plain_and_small(("blinded", None, True, 2.5), Limits().max_message_bytes)


def test_what_may_not_cross_is_left_to_the_checks() -> None:
    cap = Limits().max_message_bytes
    for bad in (2**63, -(2**63) - 1, math.nan, math.inf, "x" * 2000, [1], {"a": 1}, (1,), object()):
        assert not plain_and_small((1, bad), cap), bad


def test_a_script_passing_a_huge_integer_is_still_refused() -> None:
    # (without the counted builtins, whose own check refuses it in the script first, the host's check does)
    host = InProcessHost(methods={"team": 1}, counted_builtins=False, checked_ops=False)
    host.load("big.star", "def f(ctx):\n    return ctx.team(1 << 70)\n")
    with pytest.raises(ScriptError, match="an argument is an integer beyond 64 bits"):
        host.call("big.star", "f", ({},), bridge=lambda method, args: "red")
