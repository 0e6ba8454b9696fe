"""Helpless is one list: a creature that cannot act is told the worst state it is in, and every
refusal (a move, ending an effect early) names that state."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from components import Conditions
from systems.vitals import HELPLESS, can_act, helpless_state

STATES = st.frozensets(st.sampled_from(["downed", "unconscious", "dead", "prone", "slowed", "restrained"]))


@given(STATES)
def test_a_creature_is_helpless_exactly_when_it_cannot_act_and_is_told_the_worst(active: frozenset[str]) -> None:
    conditions = Conditions(active=active)
    state = helpless_state(conditions)
    assert (state is None) == can_act(conditions)
    if state is not None:
        worst_first = ("dead", "unconscious", "downed")  # what a refusal says: the worst state it is in
        assert state == next(c for c in worst_first if c in active) and set(HELPLESS) == set(worst_first)
