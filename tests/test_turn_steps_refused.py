"""The turn steps keep to their places.

``end_turn()`` from a ``tick``'s controller (or an ``on`` handler) ended the turn and began the next
creature's inside the tick, which then played that creature's turn without asking its controller
(or, at the last turn, failed with "no creature's turn is under way" from the tick's own loop).
``end_combat()`` in the middle of a round was taken: the round's later turns were played out of
combat, with no ``TurnStarted`` (so no ``on_turn_start`` reaction), and a surprised creature lost its
surprise mid-round; with no combat at all it was taken in silence. ``start_combat`` already kept to
the rounds' edges, and now both do.
"""

from __future__ import annotations

from typing import Any

import pytest

from components.events import CommandRefused, TurnStarted
from game import IllegalCommand
from tests.duel_steps import duel


def test_a_controller_cannot_end_its_turn_inside_the_tick() -> None:
    battle, a, c = duel(combat=False)
    battle.start_combat()
    asked: list[int] = []

    def hasty(b: Any, actor: int) -> None:
        asked.append(actor)
        b.end_turn()

    battle.tick(controller=hasty)  # a controller's illegal order is refused, and the round goes on
    assert sorted(asked) == [a, c]  # each creature's controller was asked (the second was skipped)
    refused = [e for e in battle.events if isinstance(e, CommandRefused)]
    assert len(refused) == 2 and all("end_turn: called inside another command (a tick's controller, an on "
                                      "handler); a tick ends each turn itself" in e.reason for e in refused)
    battle.close()


def test_end_turn_between_commands_still_steps_a_round() -> None:
    with duel(combat=False)[0] as battle:
        battle.start_combat()
        first = battle.begin_round()
        second = battle.end_turn()
        assert first is not None and second is not None and second != first
        assert battle.end_turn() is None and battle.round == 1


def test_end_combat_is_refused_mid_round_and_outside_combat() -> None:
    battle, a, c = duel(combat=False, prepared=False)
    with pytest.raises(IllegalCommand, match=r"combat has not started \(or has already ended\)"):
        battle.end_combat()
    battle.start_combat()
    battle.begin_round()
    log = list(battle.command_log)
    with pytest.raises(IllegalCommand, match=r"cannot end combat while round 1 is under way: end its turns first"):
        battle.end_combat()
    assert battle.in_combat and "surprised" in battle.conditions(c) and battle.command_log == log
    started = len(battle.events)
    assert battle.end_turn() == c
    assert any(isinstance(e, TurnStarted) and e.entity == c for e in battle.events[started:])  # still in combat
    assert battle.end_turn() is None
    battle.end_combat()  # between rounds: combat ends, surprise with it
    assert not battle.in_combat and "surprised" not in battle.conditions(c)
    battle.close()
