"""Helpers shared by the computer player's tests: what a decision moves to and uses."""

from __future__ import annotations

from game import ai
from game.battle.facade import Battle


def moves_and_uses(decision: ai.Decision) -> tuple[list[tuple[int, int]], list[tuple[str, dict]]]:
    """The squares a decision walks through and the ``(power, arguments)`` it uses, in order."""
    moves = [(args[1], args[2]) for name, args, _ in decision.commands if name == "move"]
    uses = [(args[1], kwargs) for name, args, kwargs in decision.commands if name == "use_power"]
    return moves, uses


def end_square(battle: Battle, me: int, decision: ai.Decision) -> tuple[int, int]:
    """Where the creature stands once the decision's moves are made."""
    moves, _ = moves_and_uses(decision)
    return moves[-1] if moves else battle.square_of(me)
