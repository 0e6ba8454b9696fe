"""A query asked about a creature the battle does not have raises UnknownEntity (a LookupError and a
ValueError, not an IllegalCommand), and the docstrings say so: a dozen of them promised
``IllegalCommand: an unknown creature``, so a caller catching what the docstring named missed it.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

from game import Battle, IllegalCommand, UnknownEntity
from tests.duel_steps import duel

MISSING = 99
ASKS: dict[str, Callable[[Battle, int, int], Any]] = {
    "forecast": lambda b, a, c: b.forecast(MISSING, "strike", target=c),
    "forecast_many": lambda b, a, c: b.forecast_many(MISSING, (1, 1), [("strike", {"target": c})]),
    "outcomes_many": lambda b, a, c: b.outcomes_many(a, (1, 1), [("strike", {"target": MISSING})]),
    "outcomes_each": lambda b, a, c: b.outcomes_each(MISSING, [((1, 1), [])]),
    "forecast_move": lambda b, a, c: b.forecast_move(MISSING, (2, 2)),
    "forecast_moves_to": lambda b, a, c: b.forecast_moves_to(MISSING, [(2, 2)]),
    "threat": lambda b, a, c: b.threat(MISSING),
    "forecast_reactions": lambda b, a, c: b.forecast_reactions(a, moved={MISSING: (1, 1)}),
    "foresee_script": lambda b, a, c: b.foresee_script(a, "strike", target=MISSING),
    "supposing": lambda b, a, c: b.supposing(MISSING, "blinded").__enter__(),
    "queued_fall": lambda b, a, c: b.queued_fall(MISSING),
    "queued_stop": lambda b, a, c: b.queued_stop(MISSING),
    "move": lambda b, a, c: b.move(MISSING, 2, 2),
    "attach_reaction": lambda b, a, c: b.attach_reaction("rally.star", MISSING),
}


@pytest.mark.parametrize("method", sorted(ASKS))
def test_an_unknown_creature_is_an_unknown_entity_as_the_docstring_says(method: str) -> None:
    battle, a, c = duel(foe_x=2, combat=False)
    with battle:
        with pytest.raises(UnknownEntity, match=f"no creature with id {MISSING} in this battle") as raised:
            ASKS[method](battle, a, c)
        assert not isinstance(raised.value, IllegalCommand)
    raises = inspect.getdoc(getattr(Battle, method)).split("Raises:", 1)[1]
    assert "UnknownEntity:" in raises and "unknown creature" not in raises, raises
