"""The README named ``way=False`` beside ``forecast_moves(user)`` and ``forecast_moves_to(user, squares)``;
only ``forecast_moves_to`` takes it (``forecast_moves(e, way=False)`` is a TypeError)."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from game import Battle

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_readme_names_way_on_the_call_that_takes_it() -> None:
    text = " ".join(README.read_text(encoding="utf-8").split())
    assert "`forecast_moves_to`'s `way=False`, which `forecast_moves` does not take" in text
    assert "way" in inspect.signature(Battle.forecast_moves_to).parameters
    b = Battle(seed=1, width=4, height=4)
    e = b.spawn("A", 0, 0, team="a")
    with pytest.raises(TypeError, match="way"):
        b.forecast_moves(e, way=False)  # type: ignore[call-arg]
