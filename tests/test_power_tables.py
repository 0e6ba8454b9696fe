"""A battle's power table, given to the constructor or the ``powers`` setter: a mapping of power ids
to ``components.powers.Power``, each under its own id. Anything else used to be taken (or to fail
with a TypeError) and then broke the first forecast deep inside with an AttributeError.
"""

from __future__ import annotations

import dataclasses

import pytest

from components.dice import Dice
from components.events import PowerUsed, TurnStarted
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


def _stronger_strike() -> dict[str, object]:
    """The shipped table with a strike that hits far harder (what a designer's what-if would try)."""
    table = default_powers()
    table["strike"] = dataclasses.replace(table["strike"], damage=Dice.parse("10d10"))
    return table


def _uses_strike(battle: Battle, actor: int) -> None:
    """A turn controller: the hero strikes the orc (entity 2)."""
    if battle.name(actor) == "Hero":
        battle.use_power(actor, "strike", target=2)


@pytest.mark.parametrize("route", ["controller", "handler"])
def test_the_setter_refuses_a_table_after_a_use_made_inside_a_tick(route: str) -> None:
    # The guard used to read only the log's own entries: a controller's use is recorded inside its tick
    # and a handler's not at all, so the table could be replaced after them, and a replay of the log (under
    # the one table the battle then had) dealt 44 damage where the battle had dealt 3.
    b = Battle(seed=5, width=8, height=4)
    hero = b.spawn("Hero", 1, 1, team="a", powers=["strike"])
    orc = b.spawn("Orc", 2, 1, team="b", health=500)
    b.start_combat()
    if route == "controller":
        b.tick(controller=_uses_strike)
    else:
        b.on(TurnStarted, lambda battle, event: battle.use_power(hero, "strike", target=orc)
             if event.entity == hero else None)
        b.tick()
    assert any(isinstance(e, PowerUsed) for e in b.events)
    before = b.powers["strike"]
    with pytest.raises(IllegalCommand, match="only before the battle's first use of a power"):
        b.powers = _stronger_strike()
    assert b.powers["strike"] is before


def test_the_setter_still_takes_a_table_before_any_use() -> None:
    b = Battle(seed=5, width=8, height=4)
    b.spawn("Hero", 1, 1, team="a", powers=["strike"])
    b.spawn("Orc", 2, 1, team="b", health=500)
    b.start_combat()
    b.tick(controller=lambda battle, actor: None)
    b.powers = _stronger_strike()
    assert str(b.powers["strike"].damage) == "10d10"
