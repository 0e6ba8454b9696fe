"""Computer players: plan a creature's turn as Battle commands (see :mod:`game.ai.policy`)."""

from game.ai.info import power_info
from game.ai.policy import (
    DEFAULT_POLICY,
    POLICIES,
    POLICY_HELP,
    act,
    act_for,
    controller,
    decide,
    decisions,
    issue,
    parse_policies,
    plan_turn,
    policies_for,
    policy_of,
    turn_rng,
)
from game.ai.tactical import Decision

__all__ = ["DEFAULT_POLICY", "POLICIES", "POLICY_HELP", "Decision", "act", "act_for", "controller", "decide",
           "decisions", "issue", "parse_policies", "plan_turn", "policies_for", "policy_of", "power_info", "turn_rng"]
