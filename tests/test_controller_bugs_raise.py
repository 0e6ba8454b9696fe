"""A ValueError raised by a controller's own code is a bug, raised on as the README says of any
exception in the caller's code: ``tick`` took it for the battle's refusal of an order (a
``CommandRefused`` reading "invalid literal for int()"), and the round played on without that
creature's turn. The battle's own refusals (IllegalCommand, UnknownEntity) are still refused orders.
"""

from __future__ import annotations

from typing import Any

import pytest

from components.events import CommandRefused
from game import IllegalCommand
from tests.duel_steps import duel


def test_a_controllers_own_value_error_is_raised_on() -> None:
    with duel(height=4)[0] as battle:
        def buggy(b: Any, actor: int) -> None:
            int("three")

        with pytest.raises(ValueError, match=r"invalid literal for int\(\) with base 10: 'three'") as raised:
            battle.tick(controller=buggy)
        assert not isinstance(raised.value, IllegalCommand)
        assert not any(isinstance(e, CommandRefused) for e in battle.events)
        with pytest.raises(IllegalCommand, match=r"an exception inside tick left round 1 half played"):
            battle.tick()


def test_the_battles_refusals_are_still_refused_orders() -> None:
    with duel(height=4)[0] as battle:
        def wrong(b: Any, actor: int) -> None:
            b.move(actor, 99, 99)

        def unknown(b: Any, actor: int) -> None:
            b.damage(99, 1)

        battle.tick(controller=wrong)
        battle.tick(controller=unknown)
        reasons = [e.reason for e in battle.events if isinstance(e, CommandRefused)]
        assert len(reasons) == 4 and "off the 8x4 grid" in reasons[0] and "no creature with id 99" in reasons[3]
