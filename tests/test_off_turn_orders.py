"""A creature's own orders (move, stand, use_power) given while another creature's turn is under way.

They used to be queued for the creature's own turn, the next round's when it had acted, outside the
tick (or the stepped turn) that gave them, though the API says a turn's commands resolve in that turn:
a controller playing one creature could move another a round later. Now they are refused, naming
whose turn it is; between rounds any creature still takes orders for its turn.
"""

from __future__ import annotations

from typing import Any

import pytest

from components import Position
from components.events import CommandRefused, Moved, RoundEnded, TurnStarted
from game import Battle, IllegalCommand


def _duel() -> tuple[Battle, int, int]:
    battle = Battle(seed=1, width=8, height=6)
    first = battle.spawn("Ann", 0, 0, team="a", powers=["strike"], initiative_bonus=50)
    second = battle.spawn("Cob", 5, 3, team="b", powers=["strike"])
    battle.start_combat()
    return battle, first, second


def test_a_controller_ordering_a_creature_that_has_acted_is_refused_in_that_turn() -> None:
    battle, first, second = _duel()

    def controller(b: Any, actor: int) -> None:
        if actor == second:
            b.move(first, 1, 1)  # first has acted this round: the move would have waited for round 2

    battle.tick(controller=controller)
    battle.tick()
    refused = [e for e in battle.events if isinstance(e, CommandRefused)]
    assert len(refused) == 1 and refused[0].entity == second
    assert "it is Cob (#2)'s turn" in refused[0].reason and "Ann (#1) cannot move:" in refused[0].reason
    assert not any(isinstance(e, Moved) for e in battle.events)
    assert battle.get(first, Position).x == 0


def test_stepped_turn_refuses_another_creatures_orders_and_changes_nothing() -> None:
    battle, first, second = _duel()
    assert battle.begin_round() == first
    log, events = len(battle.command_log), len(battle.events)
    with pytest.raises(IllegalCommand, match=r"Cob \(#2\) cannot move: it is Ann \(#1\)'s turn"):
        battle.move(second, 4, 3)
    with pytest.raises(IllegalCommand, match=r"Cob \(#2\) cannot use Strike: it is Ann \(#1\)'s turn"):
        battle.use_power(second, "strike", target=first)
    assert (len(battle.command_log), len(battle.events)) == (log, events)
    battle.end_turn()
    battle.move(second, 4, 3)  # its own turn now
    battle.end_turn()
    assert battle.get(second, Position).x == 4


def test_orders_between_rounds_are_for_each_creatures_turn() -> None:
    battle, first, second = _duel()
    battle.move(first, 1, 0)
    battle.move(second, 4, 3)
    battle.tick()
    assert (battle.get(first, Position).x, battle.get(second, Position).x) == (1, 4)


def test_a_handlers_order_for_another_creature_waits_for_its_turn_as_documented() -> None:
    """Battle.on's handlers react inside a resolution, and their commands resolve at the next
    opportunity: a handler moving a creature other than the one whose turn it is is not refused."""
    battle, first, second = _duel()

    def rally(b: Any, event: Any) -> None:
        if event.entity == first:
            b.move(second, 4, 3)

    battle.on(TurnStarted, rally)
    battle.tick()
    assert not any(isinstance(e, CommandRefused) for e in battle.events)
    assert battle.get(second, Position).x == 4


def test_a_handlers_order_inside_a_controllers_resolve_orders_waits_too() -> None:
    """The computer player resolves its orders inside its controller: a handler fired there was taken
    for the controller and refused, which left the round half played and refused every later tick."""
    battle, first, second = _duel()
    third = battle.spawn("Dee", 5, 5, team="b", powers=["strike"])
    battle.move(first, 4, 3)  # between rounds: Ann's first order, up to Cob

    def shout(b: Any, event: Any) -> None:
        if event.entity == first:
            b.move(third, 4, 5)

    def controller(b: Any, actor: int) -> None:
        if actor == first:
            b.resolve_orders()  # Ann's move resolves here, and the handler hears it

    battle.on(Moved, shout)
    battle.tick(controller=controller)
    battle.tick()
    assert not any(isinstance(e, CommandRefused) for e in battle.events)
    assert battle.get(third, Position).x == 4


def test_a_handlers_refused_order_inside_a_controllers_resolve_orders_reaches_the_caller() -> None:
    """Refused for another reason (a square off the grid), it was taken for the controller's refusal:
    the round went on as if whole, though it was left half played, and the next tick was refused."""
    battle, first, second = _duel()
    third = battle.spawn("Dee", 5, 5, team="b", powers=["strike"])
    battle.move(first, 2, 0)

    def shout(b: Any, event: Any) -> None:
        if event.entity == first:
            b.move(third, 99, 99)

    def controller(b: Any, actor: int) -> None:
        if actor == first:
            b.resolve_orders()

    battle.on(Moved, shout)
    with pytest.raises(IllegalCommand, match=r"destination \(99, 99\) is off the 8x6 grid"):
        battle.tick(controller=controller)
    assert not any(isinstance(e, CommandRefused) for e in battle.events)
    with pytest.raises(IllegalCommand, match="left round 1 half played"):
        battle.tick()


def test_a_controller_in_a_tick_a_handler_plays_is_held_to_its_turn() -> None:
    battle, first, second = _duel()
    played: list[int] = []

    def controller(b: Any, actor: int) -> None:
        if actor == first:
            b.move(second, 4, 3)  # Cob's order in Ann's turn

    def again(b: Any, event: Any) -> None:
        if not played:
            played.append(1)
            b.tick(controller=controller)

    battle.on(RoundEnded, again)
    battle.tick()
    refused = [e for e in battle.events if isinstance(e, CommandRefused)]
    assert len(refused) == 1 and "it is Ann (#1)'s turn" in refused[0].reason
    assert battle.get(second, Position).x == 5
