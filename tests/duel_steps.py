"""The duel the turn, tick and refusal tests play: the smallest battle with a turn to take on each
side (built by hand in each of them before)."""

from __future__ import annotations

from typing import Any

from game import Battle


def duel(seed: int = 1, height: int = 8, foe_x: int = 3, combat: bool = True, **foe: Any) -> tuple[Battle, int, int]:
    """A (team x) at (1, 1) and C (team y) at (``foe_x``, 1), both with strike, on a field 8 squares
    wide and ``height`` high; combat started unless not ``combat``. ``foe``: C's other spawn options
    (``prepared=False``). Returns the battle, A and C."""
    battle = Battle(seed=seed, width=8, height=height)
    a = battle.spawn("A", 1, 1, team="x", powers=["strike"])
    c = battle.spawn("C", foe_x, 1, team="y", powers=["strike"], **foe)
    if combat:
        battle.start_combat()
    return battle, a, c
