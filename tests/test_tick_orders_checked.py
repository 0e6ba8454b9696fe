"""``tick``'s recorded orders are checked whole before the round: orders beside a controller, orders
for an actor that is no creature of the battle, or two entries for one actor were dropped in silence
(the controller decided instead, or the unknown actor's or the first entry's orders never ran), so a
hand-made or damaged log replayed into another battle without a word.
"""

from __future__ import annotations

import pytest

from game import Battle, IllegalCommand, ai
from tests.duel_steps import duel


@pytest.mark.parametrize(("orders", "controller", "words"), [
    ([[1, [["move", [1, 2, 1], {}]]]], ai.controller(seed=1), r"tick: give a controller or recorded orders, not both"),
    ([[9, [["move", [1, 2, 1], {}]]]], None, r"tick: the orders name actor 9 which is no creature of this battle"),
    ([[1, [["move", [1, 2, 1], {}]]], [1, [["move", [1, 2, 2], {}]]]], None, r"tick: the orders name actor 1 twice"),
])
def test_orders_that_would_be_dropped_are_refused_before_the_round(orders: object, controller: object,
                                                                   words: str) -> None:
    battle, a, c = duel(seed=2, height=4, foe_x=5)
    log, events = list(battle.command_log), len(battle.events)
    with pytest.raises(IllegalCommand, match=words):
        battle.tick(controller=controller, orders=orders)  # type: ignore[arg-type]
    assert battle.command_log == log and len(battle.events) == events and battle.round == 0
    battle.tick(orders=[[a, [["move", [a, 2, 1], {}]]]])  # a well-formed recording plays as ever
    assert battle.square_of(a) == (2, 1)
    battle.close()


def test_a_logged_call_with_arguments_its_command_does_not_take_is_an_illegal_command() -> None:
    """Such a call raised a TypeError from inside the battle, and inside a recorded tick left the round
    half played (every later command refused)."""
    battle, a, c = duel(seed=2, height=4, foe_x=5)
    with pytest.raises(IllegalCommand, match=r"tick: the orders of actor 1: move cannot take the arguments \[2, 1\] "
                                             r"\{\}: missing a required argument: 'y'"):
        battle.tick(orders=[[a, [["move", [2, 1], {}]]]])
    with pytest.raises(IllegalCommand, match=r"tick: the orders of actor 1: a recorded order names 'begin_round'"):
        battle.tick(orders=[[a, [["begin_round", [], {}]]]])
    assert battle.round == 0
    battle.tick()  # nothing was left half played
    battle.close()
    with pytest.raises(IllegalCommand, match=r"the log's entry 0: spawn cannot take the arguments \['A', 1, 1\] "
                                             r"\{'colour': 'red'\}: got an unexpected keyword argument 'colour'"):
        Battle.replay(2, 8, 4, None, [("spawn", ("A", 1, 1), {"colour": "red"})])


@pytest.mark.parametrize("refusal", [["refused", [], {}], ["refused", [3], {}], ["refused", ["no"], {"x": 1}]])
def test_a_recorded_refusal_not_of_its_shape_is_refused_before_the_round(refusal: list) -> None:
    """A refusal records its reason, once: ``["refused", []]`` reached ``args[0]`` inside the round (an
    IndexError that left it half played), and a save holding it loaded."""
    from game.content.save_format import call_problem

    battle, a, _ = duel(seed=2, height=4, foe_x=5)
    log, events = list(battle.command_log), len(battle.events)
    with pytest.raises(IllegalCommand, match=r"tick: the orders of actor 1: a recorded refusal is"):
        battle.tick(orders=[[a, [refusal]]])
    assert battle.command_log == log and len(battle.events) == events and battle.round == 0
    assert "a recorded refusal is" in str(call_problem("tick", (), {"orders": [[a, [refusal]]]}))
    battle.tick(orders=[[a, [["refused", ["it changed its mind"], {}]]]])
    assert battle.round == 1
