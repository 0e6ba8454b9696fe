"""Powers that change what can be seen (light, darkness, fog): valued by trying them on the battle.

A darkness on the enemy archers' line, a fog between two fronts, a light on enemies standing in the
dark: what they are worth is how they change the blows both sides can strike before the tactical
player's next turn. No forecast of a single use says that, and the rules of sight, light levels
and roll modes are the battle's, so the player asks the battle itself: on a snapshot it uses the
power and lets it resolve, asks the threats on its side and on the enemy (``Battle.threats``, the
same odds the rolls resolve with), and restores the battle as it was. Nothing here knows a rule:
even the distance to the enemy is the rules' own (``systems.geometry.distance_3d_ft``: a diagonal
counts as the scenario says).
"""

from __future__ import annotations

from components import Position
from components.powers import Power
from game.ai.tactical_turn import Command, Turn, farthest_toward

#: Enemies whose squares are tried as the point of a veil (nearest first), beside its own square.
AIM_AT_ENEMIES = 3
#: Most veils tried in one turn (each is a snapshot of the battle, a use, and the threats asked again).
MOST_TRIES = 4


def veils(turn: Turn) -> list[Power]:
    """Its powers whose whole effect is an area or a light (no damage, heal or condition of their own)."""
    return [p for p in turn.powers if (p.creates_area is not None or p.creates_light is not None)
            and p.damage is None and p.healing is None and not p.conditions and not p.script]


def points_toward_enemy(turn: Turn, here: tuple[int, int], power: Power) -> list[tuple[int, int]]:
    """Points on the way to the nearest enemy still standing: halfway, and as far as the power's range
    goes (:func:`~game.ai.tactical_turn.farthest_toward`: a light on enemies beyond its range still
    lights the ground before them). Whether a point is a legal aim is the battle's forecast's to say."""
    there = turn.square[turn.standing[0]]
    dx, dy = there[0] - here[0], there[1] - here[1]
    if here == there:
        return []
    found = [(here[0] + round(dx / 2), here[1] + round(dy / 2))]
    if power.range_ft is not None:
        far = farthest_toward(turn.battle, here, turn.battle.get(turn.me, Position).z, there, power.range_ft)
        if far not in (here, there):  # (the enemy's own square is tried already)
            found.append(far)
    return found


def _exchange(turn: Turn) -> tuple[float, float]:
    """Before its next turn: the damage its side expects to take (where each friend stands), and the
    damage its side could deal to the enemies still standing (where each of them stands)."""
    battle = turn.battle
    friends = turn.side
    taken = sum(t.expected for t in battle.threats_where_they_stand(friends, turn.enemies))
    dealt = sum(t.expected for t in battle.threats_where_they_stand(turn.standing, friends))
    return taken, dealt


def veil_option(turn: Turn, moving: tuple[Command, ...] = ()) -> tuple[float, Command, str] | None:
    """The best veil to raise after ``moving`` (the commands of its best turn without a use), if one
    helps: (its worth, the command, why).

    Both sides of the comparison are asked of the battle with the move made (on a snapshot), so the
    threats on it are those on the square it ends on, and the veil's range and sight are from there.
    Its worth is the damage its side is spared (weighed by its caution) plus the damage its side
    gains on the enemy, for one round; a veil that blinds its own archers more than the enemy's
    is worth less than nothing and is never chosen.
    """
    battle, me = turn.battle, turn.me
    powers = veils(turn)
    if not powers or not turn.standing:
        return None
    best: tuple[float, Command, str] | None = None
    moved = battle.snapshot()
    try:
        for name, args, kwargs in moving:
            if not battle.can_act(me):  # a fall it settled on the way downed it: it gives no more orders
                return None  # (``game.ai.policy.decisions``), the next one is refused when given
            getattr(battle, name)(*args, **kwargs)
        if battle.queued_fall(me) is not None:  # its move leaves it falling: the turn would refuse a veil
            return None
        battle.resolve_orders()
        taken, dealt = _exchange(turn)
        here = battle.square_of(me)
        points = [battle.square_of(e) for e in turn.standing[:AIM_AT_ENEMIES]] + [here]
        tries = [(power, point) for power in powers
                 for point in dict.fromkeys(points + points_toward_enemy(turn, here, power))
                 if battle.forecast(me, power.id, point=point).legal][:MOST_TRIES]
        for power, point in tries:
            before = battle.snapshot()
            try:
                battle.use_power(me, power.id, point=point)
                battle.resolve_orders()
                taken_after, dealt_after = _exchange(turn)
            finally:
                battle.restore(before)
            spared, gained = taken - taken_after, dealt_after - dealt
            worth = turn.caution() * spared + gained
            if worth > 0 and (best is None or worth > best[0]):
                why = f"{power.name} at {point}: {spared:+.1f} damage spared, {gained:+.1f} dealt"
                best = (worth, ("use_power", (me, power.id), {"point": point}), why)
    finally:
        battle.restore(moved)
    return best
