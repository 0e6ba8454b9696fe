"""What a battle's scripts may still spend: steps per round and per battle, counted like a call's.

A call is already bounded on its own (``Limits.max_steps``), but many calls are not: a script that
stays just under its limit every call, many reactions, reactions that trigger reactions, or a read
of a big map in a loop can each stall a round for seconds. So every call is also charged against
the round's and the battle's budget, in the same counted steps (its ticks, plus
``Limits.ctx_call_steps`` per ctx call, plus what costly answers weigh, plus ``Limits.call_steps``
for the call itself). A call is given at most what is left, so it stops at exactly the same step
on every machine, and the caller puts the script whose call ran past a budget out of the battle.

The owner is whoever plays the battle (its script hook); nothing here is module state.
"""

from __future__ import annotations

from .errors import Limits

__all__ = ["ScriptBudget"]


class ScriptBudget:
    """The steps a battle's scripts have used this round and this battle.

    Args:
        limits: ``round_steps``, ``battle_steps``, ``call_steps`` and ``max_steps`` are read.

    Attributes:
        round: the round the round's count belongs to (None before the first call).
        round_used: steps charged in that round.
        battle_used: steps charged in the whole battle.
    """

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.round: int | None = None
        self.round_used = 0
        self.battle_used = 0

    def allowance(self, round_: int) -> int:
        """Steps the next call in round ``round_`` may use (negative: it may not run at all).

        The call's own ``call_steps`` are already taken off; at most ``max_steps``.
        """
        if round_ != self.round:
            self.round, self.round_used = round_, 0
        limits = self.limits
        left = min(limits.round_steps - self.round_used, limits.battle_steps - self.battle_used)
        return min(limits.max_steps, left - limits.call_steps)

    def binding(self) -> str:
        """Which budget a call given less than ``max_steps`` was cut by: ``"round"`` or ``"battle"``."""
        limits = self.limits
        return "battle" if limits.battle_steps - self.battle_used < limits.round_steps - self.round_used else "round"

    def spend(self, steps: int) -> None:
        """Charges one call that used ``steps`` (its ``call_steps`` are added here)."""
        cost = self.limits.call_steps + max(0, steps)
        self.round_used += cost
        self.battle_used += cost

    def describe(self, which: str) -> str:
        """The budget ``which`` (see :meth:`binding`) in words, for a ScriptFailed reason."""
        if which == "battle":
            return f"the battle's script budget of {self.limits.battle_steps} steps"
        return f"round {self.round}'s script budget of {self.limits.round_steps} steps"
