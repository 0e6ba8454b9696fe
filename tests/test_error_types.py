"""The battle's refusals are its one error type: IllegalCommand (a ValueError, so that callers who
know only the contract still catch them). Restoring another battle's snapshot and a rules override
the rules refuse raised plain ValueErrors; a closed battle's RuntimeError stays (it is no refusal of
an argument: the battle is gone), as the README says.
"""

from __future__ import annotations

import pytest

from game import Battle, IllegalCommand


def test_another_battles_snapshot_is_an_illegal_command() -> None:
    one, other = Battle(seed=1, width=5, height=5), Battle(seed=1, width=5, height=5)
    one.spawn("A", 1, 1, team="a")
    with pytest.raises(IllegalCommand, match="that snapshot was taken of another battle"):
        other.restore(one.snapshot())
    assert other.creatures() == []


@pytest.mark.parametrize(("rules", "words"), [
    ({"cover_bonus": "x"}, r"rules\.cover_bonus: expected a whole number in -1000\.\.1000 Defense points, got 'x'"),
    ({"no_such_rule": 1}, r"no_such_rule"),
])
def test_a_refused_rules_override_is_an_illegal_command(rules: dict[str, object], words: str) -> None:
    with pytest.raises(IllegalCommand, match=words):
        Battle(seed=1, width=5, height=5, rules=rules)


def test_illegal_commands_are_still_value_errors() -> None:
    with pytest.raises(ValueError, match="cover_bonus"):
        Battle(seed=1, width=5, height=5, rules={"cover_bonus": "x"})


def test_a_closed_battle_raises_runtime_error() -> None:
    b = Battle(seed=1, width=5, height=5)
    b.close()
    with pytest.raises(RuntimeError, match="this battle is closed"):
        b.spawn("A", 1, 1)
    with pytest.raises(RuntimeError, match="this battle is closed"):
        b.turn_order()
