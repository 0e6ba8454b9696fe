"""A battle's power table, given to the constructor or the ``powers`` setter: a mapping of power ids
to ``components.powers.Power``, each under its own id. Anything else used to be taken (or to fail
with a TypeError) and then broke the first forecast deep inside with an AttributeError.
"""

from __future__ import annotations

import pytest

from game import Battle, IllegalCommand
from game.content.powers import default_powers

BAD_TABLES = [
    (5, "must be a mapping of power ids to powers, not 5"),
    (["strike"], "must be a mapping of power ids to powers"),
    ({"x": 1}, r"the power table's 'x' must be a components\.powers\.Power, not 1"),
    ({"strike": "nope"}, r"the power table's 'strike' must be a components\.powers\.Power, not 'nope'"),
]


@pytest.mark.parametrize(("table", "words"), BAD_TABLES, ids=repr)
def test_the_constructor_refuses_a_malformed_table(table: object, words: str) -> None:
    with pytest.raises(IllegalCommand, match=words):
        Battle(seed=1, width=5, height=5, powers=table)  # type: ignore[arg-type]


def test_a_power_under_another_id_is_refused() -> None:
    strike = default_powers()["strike"]
    with pytest.raises(IllegalCommand, match=r"holds power 'strike' under 'shoot': each power goes under its own id"):
        Battle(seed=1, width=5, height=5, powers={"shoot": strike})


@pytest.mark.parametrize(("table", "words"), BAD_TABLES, ids=repr)
def test_the_setter_refuses_a_malformed_table_and_keeps_the_old_one(table: object, words: str) -> None:
    b = Battle(seed=1, width=5, height=5)
    hero = b.spawn("Hero", 1, 1, team="a", powers=["strike"])
    orc = b.spawn("Orc", 2, 1, team="b")
    before = dict(b.powers)
    with pytest.raises(IllegalCommand, match=words):
        b.powers = table  # type: ignore[assignment]
    assert dict(b.powers) == before
    assert b.forecast(hero, "strike", target=orc).legal


def test_the_setter_refuses_a_table_that_takes_away_a_creatures_power() -> None:
    b = Battle(seed=1, width=5, height=5)
    b.spawn("Hero", 1, 1, team="a", powers=["strike", "shoot"])
    table = {k: v for k, v in default_powers().items() if k != "shoot"}
    with pytest.raises(IllegalCommand, match=r"the new power table lacks 'shoot', which Hero \(#\d+\) has"):
        b.powers = table
    assert "shoot" in b.powers


def test_a_good_table_is_taken() -> None:
    table = default_powers()
    b = Battle(seed=1, width=5, height=5, powers={"strike": table["strike"]})
    hero = b.spawn("Hero", 1, 1, team="a", powers=["strike"])
    b.powers = {"strike": table["strike"], "shoot": table["shoot"]}
    assert sorted(b.powers) == ["shoot", "strike"]
    assert b.powers_of(hero) == ["strike"]
