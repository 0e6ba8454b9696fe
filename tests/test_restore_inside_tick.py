"""A handler or controller inside a tick cannot pull the battle out from under it.

``restore()`` of a snapshot taken before the tick, called from an ``on`` handler, was accepted: the
tick played on from round 0 (each TurnStarted restoring again, until a RecursionError) and ended in
"no creature's turn is under way" from deep inside. ``close()`` from a handler raised esper's KeyError.
Both are refused now with an IllegalCommand naming the call; the planner's own trials (a snapshot
taken and restored in one controller's turn) still work.
"""

from __future__ import annotations

from typing import Any

import pytest

from components import Position
from components.events import TurnStarted
from game import IllegalCommand, ai
from tests.duel_steps import duel


def test_a_handler_cannot_restore_a_snapshot_taken_before_the_tick() -> None:
    with duel()[0] as battle:
        before = battle.snapshot()
        battle.on(TurnStarted, lambda b, event: b.restore(before))
        with pytest.raises(IllegalCommand, match=r"restore: a command \(a tick or a turn, round 1\) is under way, "
                                                 r"and that snapshot was not taken in its turn"):
            battle.tick()
        battle.restore(before)  # between commands it is restored as ever, and the battle plays on
        assert battle.round == 0


def test_a_handler_cannot_close_the_battle_inside_a_tick() -> None:
    battle = duel()[0]
    battle.on(TurnStarted, lambda b, event: b.close())
    with pytest.raises(IllegalCommand, match=r"close: a command \(a tick or a turn\) is under way"):
        battle.tick()
    assert not battle.closed
    battle.close()
    assert battle.closed


def test_a_controller_may_still_try_things_on_a_snapshot_of_its_own_turn() -> None:
    with duel()[0] as battle:
        tried: list[tuple[int, int]] = []

        def trial(b: Any, actor: int) -> None:
            mark = b.snapshot()
            here = b.get(actor, Position)
            b.move(actor, here.x, here.y + 1)
            b.resolve_orders()
            tried.append((b.get(actor, Position).x, b.get(actor, Position).y))
            b.restore(mark)

        battle.tick(controller=trial)
        assert tried == [(1, 2), (3, 2)] or tried == [(3, 2), (1, 2)]
        assert battle.get(1, Position).y == 1 and battle.round == 1
        battle.tick(controller=ai.controller(seed=3))  # the tactical player's trials are snapshots of its turn
        assert battle.round == 2


def test_a_snapshot_taken_inside_a_tick_is_not_restored_after_it() -> None:
    """Restored between commands, a controller's snapshot left the battle mid-round with a log that had
    none of that round (the tick is logged when it ends): the turns stepped on from there ended in "no
    creature's turn is under way", and no replay could rebuild it."""
    with duel()[0] as battle:
        kept: list[Any] = []

        def keeper(b: Any, actor: int) -> None:
            kept.append(b.snapshot())

        battle.tick(controller=keeper)
        log = list(battle.command_log)
        with pytest.raises(IllegalCommand, match=r"restore: that snapshot was taken inside a command \(a tick's turn "
                                                 r"in round 1\), which has returned"):
            battle.restore(kept[0])
        assert battle.command_log == log and battle.round == 1 and battle.current_actor is None
