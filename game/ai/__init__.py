"""Computer players: plan a creature's turn as Battle commands (see :mod:`game.ai.policy`)."""

from game.ai.policy import POLICIES, act, act_for, controller, issue, plan_turn, power_info

__all__ = ["POLICIES", "act", "act_for", "controller", "issue", "plan_turn", "power_info"]
