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


def test_a_stand_is_refused_by_one_rule_with_the_one_helpless_wording() -> None:
    """The facade and the turn ask systems.actions.stand_problem alike; a helpless creature is told
    the worst state it is in, as a use, a move or an effect's early end tell it."""
    import pytest

    from game import Battle, IllegalCommand
    from systems.actions import stand_problem
    from systems.vitals import helpless_problem

    assert stand_problem(Conditions(active={"downed", "prone"}), lambda: True) == "it is downed and cannot stand"
    assert stand_problem(Conditions(), lambda: False) == "it is not prone"
    assert stand_problem(Conditions(), lambda: True) is None
    assert helpless_problem(Conditions(active={"downed", "dead"})) == "it is dead and cannot act"
    with Battle(seed=1) as b:
        knight = b.spawn("Knight", 1, 1, team="a", health=5)
        b.spawn("Foe", 8, 5, team="b")
        with pytest.raises(IllegalCommand, match=rf"Knight \(#{knight}\) cannot stand: it is not prone$"):
            b.stand(knight)
        b.damage(knight, 5)
        b.tick()
        with pytest.raises(IllegalCommand, match=rf"Knight \(#{knight}\) cannot stand: it is downed and cannot stand$"):
            b.stand(knight)
