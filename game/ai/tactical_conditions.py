"""Conditions a power lays on an enemy (blinded, dazzled, ...): valued by what they change in the blows.

A blinded or dazzled enemy strikes worse and is struck more easily, and by how much is the rules'
(sight, roll modes, defenses), which no fixed weight of the tactical player's can say: blinding a
fireball-slinging mage matters more than blinding a pickpocket. So the player asks the battle: with
the battle as the grant would leave it (``Battle.supposing``), the threats between that enemy and
the player's side are asked again (``Battle.threats``, the odds the rolls resolve with). Nothing here
knows a rule; the fixed weights of :class:`game.ai.tactical_turn.Weights` stay the floor for
conditions whose worth is not in the blows (prone, slowed).
"""

from __future__ import annotations

from game.ai.tactical_turn import Turn

#: Enemies tried in one turn: those who could deal the most damage (their best power's average, data),
#: each the threats of one enemy asked again as if it had the condition; others get the fixed weight.
MOST_ENEMIES = 2


def _duel(turn: Turn, enemy: int) -> tuple[float, float]:
    """Before the player's next turn: the most damage ``enemy`` could deal one of its side (an enemy
    strikes one creature a turn), and the damage its side could deal that enemy."""
    friends = turn.side
    # (both sides where they stand, asked in one call: among the enemy and its side, each friend's enemy
    # is the one tried, and the enemy's are the friends)
    threats = turn.battle.threats_where_they_stand([*friends, enemy], [enemy, *friends])
    taken = max((t.expected for t in threats[:-1]), default=0.0)
    return taken, threats[-1].expected if friends else 0.0


def weighed(turn: Turn) -> list[int]:
    """The enemies still standing whose conditions are tried this turn: the ones whose best blow is
    the heaviest (nearest first among equals)."""
    return sorted(turn.standing, key=lambda e: -turn.menace(e))[:MOST_ENEMIES]


def condition_worth(turn: Turn, enemy: int, condition: str) -> float | None:
    """What granting ``condition`` to ``enemy`` would be worth for one round, if it took hold: the
    damage its side is spared (weighed by the player's caution) plus the damage it gains on that
    enemy; None for an enemy not tried this turn (see :data:`MOST_ENEMIES`). Asked once a turn per
    enemy and condition, whatever square the power would be used from."""
    key = (enemy, condition)
    if key in turn.conditions_seen:
        return turn.conditions_seen[key]
    worth: float | None = None
    if enemy in weighed(turn):
        battle = turn.battle
        if enemy not in turn.duels_seen:  # the same for each condition tried on it
            turn.duels_seen[enemy] = _duel(turn, enemy)
        taken, dealt = turn.duels_seen[enemy]
        with battle.supposing(enemy, condition):
            taken_after, dealt_after = _duel(turn, enemy)
        worth = turn.caution() * (taken - taken_after) + (dealt_after - dealt)
    turn.conditions_seen[key] = worth
    return worth
