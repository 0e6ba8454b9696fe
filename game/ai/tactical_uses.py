"""What a use of a power is worth to the tactical player, from the battle's forecast of it.

Every number comes from the battle's forecasts (``Battle.outcomes_many``, the numbers of
``forecast_many``: hit chance, damage, kills, pushes and their falls, areas with friends in them,
heals, conditions); this module only weighs them (see :class:`game.ai.tactical_turn.Weights`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from components.forecasts import Outcome, ScriptForesight, UseOutcome
from game.ai.tactical_conditions import condition_worth
from game.ai.tactical_turn import Choice, Command, Turn, Why, farthest_toward
from systems.geometry import distance_3d_ft
from systems.power_checks import touch_ft


def worth(turn: Turn, odds: Outcome, rounds: int = 1) -> tuple[float, Why]:
    """The value of one target's outcome (a condition held for ``rounds``), and a few words on it.

    Damage to an enemy is worth more the nearer it brings that enemy to going down (its blow a round
    over the health it has left: the enemy the team has already hurt is the one to finish); an enemy
    already downed deals nothing, so a blow at it is worth little, unless its side could stand it up
    again: then it dies only when hits fill its Fatigue track, and each wounding blow is worth its
    share of a kill (the chance it lands over the hits left; all of one for a blow that kills).
    """
    w = turn.weights
    health = turn.glance[odds.target].health
    damage = odds.damage if odds.damage is not None else 0.0
    falling = odds.affected * odds.fall if odds.fall is not None else 0.0
    hurt = damage + falling
    if not odds.ally:
        if odds.target not in turn.standing:
            # out of the fight, unless its side can stand it up again: then each blow that wounds it is a
            # step of the few its Fatigue track has left before it dies, and worth that part of a kill
            value = w.finish * hurt
            if turn.could_come_back(odds.target):
                wounds = odds.affected if hurt > 0 else 0.0  # the chance it lands (and deals damage)
                part = max(odds.kills, wounds / turn.blows_to_kill(odds.target))
                value += part * (w.kill + turn.menace(odds.target))
                if part > 0:
                    return value, lambda: f"{odds.affected:.0%}, {hurt:.1f} expected (already down), " + (
                        f"{odds.kills:.0%} to kill" if odds.kills >= part else f"{part:.0%} of a kill")
            return value, lambda: f"{odds.affected:.0%}, {hurt:.1f} expected (already down)"
        menace = turn.menace(odds.target)
        value = hurt * (1 + w.focus * menace / max(health, 1)) + odds.downs * (w.kill + menace)
        if odds.healing is not None:  # healing an enemy (a script's, an area's) is worth as much to its side
            value -= turn.heal_worth(odds.target, odds.healing, odds.affected)
        value += odds.downs * turn.if_downed(odds.target) if odds.downs else 0.0  # its friends' rally, say
        for c in odds.conditions:
            if c not in turn.glance[odds.target].conditions:
                # the blows it changes each round it holds, asked of the battle (the heaviest hitters only)
                tried = condition_worth(turn, odds.target, c)
                value += odds.affected * (w.conditions.get(c, 0.2) * (1 + menace) if tried is None else rounds * tried)
        return value, lambda: f"{odds.affected:.0%}, {hurt:.1f} expected" \
            + (f", fall {falling:.1f}" if falling else "") \
            + (f", {odds.downs:.0%} to down" if odds.downs >= 0.05 else "")
    return _to_a_friend(turn, odds, hurt, health)


def _to_a_friend(turn: Turn, odds: Outcome, hurt: float, health: int) -> tuple[float, Why]:
    """``worth`` of a friend's outcome: its wound costs what the same wound on an enemy would be worth,
    and more (``friendly_fire``); a harm laid on it (an area's blindness, a script's dazzle) costs its
    weight; healing it is worth what it gives back."""
    w = turn.weights
    menace = turn.menace(odds.target)
    value = -w.friendly_fire * (hurt * (1 + w.focus * menace / max(health, 1)) + odds.downs * (w.kill + menace))
    for c in odds.conditions:
        if c not in turn.glance[odds.target].conditions:
            value -= odds.affected * w.conditions.get(c, 0.0) * (1 + menace)
    if odds.healing is not None:
        value += turn.heal_worth(odds.target, odds.healing, odds.affected)
    healing = odds.healing
    return value, (lambda: f"friend {odds.affected:.0%}, heals {healing:.1f}") if healing is not None else \
        (lambda: f"friend hit {hurt:.1f}")


def value_of(turn: Turn, forecast: UseOutcome, aim: dict[str, Any] | None = None) -> tuple[float, Why]:
    """A use's value: the sum over every creature it would touch, friends counted against it, and
    what its script would add, as the battle foresees it (``Battle.foresee_script``: its ``on_use``
    once, its ``on_hit`` for each creature by the chance the use lands on it)."""
    total, parts = 0.0, []
    rounds = max(turn.battle.power(forecast.power).duration or 1, 1)
    for odds in forecast.targets:
        value, words = worth(turn, odds, rounds)
        total += value
        parts.append((odds.target, words))
    if forecast.scripted:
        added = scripted(turn, forecast, aim or {})
        if added is None:  # the script cannot be foreseen: worth a modest guess per creature it reaches
            power = turn.battle.power(forecast.power)
            guess = [turn.weights.script_guess * (-1 if odds.ally else 1) * odds.affected
                     for odds in forecast.targets if power.damage is None and power.healing is None]
            total += sum(guess) if forecast.targets else 0.5
        else:
            # where the power's data does nothing to a creature and its script does (a draining touch),
            # the reason names the creature once, with what the script does
            bare = {odds.target: i for i, odds in enumerate(forecast.targets) if not _does_anything(odds)}
            for odds in added:
                value, words = worth(turn, odds, rounds)
                total += value
                if not _does_anything(odds):  # (a heal of one at full health gives nothing: not said)
                    continue
                at = bare.pop(odds.target, None)
                if at is None:
                    parts.append((odds.target, words))
                else:
                    parts[at] = (odds.target, words)
    name = turn.battle.power(forecast.power).name
    glance = turn.glance  # the names as they were when the plan was made
    return total, lambda: f"{name}: " + "; ".join(f"{glance[t].name} {words()}" for t, words in parts) \
        if parts else name


def _does_anything(odds: Outcome) -> bool:
    """Whether a creature's outcome says anything happens to it (damage, healing, a fall, a condition)."""
    return bool(odds.damage or odds.healing or odds.fall or odds.conditions)


def scripted(turn: Turn, forecast: UseOutcome, aim: dict[str, Any]) -> list[Outcome] | None:
    """What the use's script adds, creature by creature, as the battle foresees it: its ``on_use``
    once, and its ``on_hit`` on each creature the use reaches, scaled by the chance it lands there
    (the script's own numbers are for a use that lands), for the use aimed as ``aim`` says; None when
    the script cannot be foreseen.

    Where the power's data gives its damage or healing the script only adds to them (a bolt's jump
    to a second enemy), and one run with its dice at their medians says what; where the script
    decides everything, five runs (a what-if is a script call each: a planner asks a few a turn)."""
    power = turn.battle.power(forecast.power)
    runs = 5 if power.damage is None and power.healing is None else 1
    aimed = (aim.get("target"), aim.get("point"))
    once = _foreseen(turn, power.id, aimed, None, runs)
    if not once.known:
        return None
    found = list(once.outcomes)
    for odds in forecast.targets:
        hit = _foreseen(turn, power.id, aimed, odds.target, runs)
        if not hit.known:
            return None
        p = odds.affected
        found += [Outcome(o.target, o.ally, p * o.affected, None if o.damage is None else p * o.damage,
                          None if o.healing is None else p * o.healing, None, o.conditions, p * o.downs, p * o.kills)
                  for o in hit.outcomes]
    return found


def _foreseen(turn: Turn, power: str, aimed: tuple[Any, Any], hit: int | None, runs: int) -> ScriptForesight:
    """``Battle.foresee_script``'s answer, asked once a turn (a plan values the same use from square
    after square, and the battle's own memo of it checks every read the script made)."""
    key = (power, aimed, hit, runs)
    found = turn.scripts_seen.get(key)
    if found is None:
        found = turn.scripts_seen[key] = turn.battle.foresee_script(turn.me, power, *aimed, hit=hit, runs=runs)
    return found


class _Aiming(NamedTuple):
    """One power as :func:`aims` reads it from any square: worked out once a call of
    :func:`uses_from_each`, not once a square (a plan asks each power's aims from a handful)."""

    power: Any
    helps: bool  # it heals or is meant for friends: aimed at the nearest friends, else the nearest enemies
    reach: float  # its reach, and what an area reaches past its aim point (a burst) or out along itself (a cone)


def _aiming(turn: Turn, power: Any) -> _Aiming | None:
    """``power``'s part of :func:`aims`, the same from every square; None for a power aimed at its
    user that heals nothing (no aim is worth a forecast)."""
    if power.targets == "self" and power.healing is None:
        return None
    reach = touch_ft(power, turn.rules)
    if power.area is not None and power.range_ft is None:
        # an area spread from the user is tried at creatures up to a square past it too: a cone faced
        # at the nearest may catch others (the aims the pinned golden logs were played with)
        reach += turn.rules.square_ft
    return _Aiming(power, power.healing is not None or power.targets in ("ally", "allies"), reach)


def aims(turn: Turn, aiming: _Aiming, square: tuple[int, int], z: float) -> list[dict[str, Any]]:
    """The aims worth forecasting for one power (``aiming``: see :func:`_aiming`) from ``square`` (its
    user standing there at height ``z``): the nearest creatures it could help or harm (enemies still
    standing before downed ones), their squares for an area aimed at a point, or nothing for an area
    around the user."""
    power, helps = aiming.power, aiming.helps
    if power.targets == "self":
        return [{}]  # (a heal: see _aiming)
    away, reach = turn.apart(square, z, helps), aiming.reach  # (each of the pool's)
    near = [c for c in (turn.friends if helps else turn.enemies) if away[c] <= reach]
    if len(near) > 1:  # (the sort's key is asked of each, even of one)
        up = turn.standing
        near.sort(key=lambda c: (not helps and c not in up, away[c]))
    near = near[: turn.weights.targets]
    if power.single_target:
        return [{"target": c} for c in near]
    if power.takes_point:
        return [{"point": p} for p in area_points(turn, power, square, z, near, helps)]
    return [{}]


def area_points(turn: Turn, power: Any, square: tuple[int, int], z: float, near: list[int], helps: bool
                ) -> list[tuple[int, int]]:
    """Where to try aiming an area from ``square`` (its user there at height ``z``): at each creature
    it is meant for, and where two or three of them stand close enough for one area to hold them all,
    between them; a harmful burst also past an enemy, away from a friend it would catch there; a burst
    with a range also short of one past that range from ``square`` (:func:`_short_of`), as far as the
    range goes.

    A guess at which points are worth a forecast, nothing more: the battle's forecast of each says
    what it would reach. A burst keeps the few that look to hold the most of its targets and the
    fewest friends (by distance to the point), creatures' own squares first among equals.

    Only leaving out ``square`` itself and the points short of a creature out of range depend on
    where the user stands: the other points and their order are the same for the same power and the
    same creatures ``near`` (in any order), so they are ranked once a turn (``Turn.points_seen``) and
    each square takes them less its own.
    """
    if power.area is None:  # a light, veil or blink a script adds to: no area to hold several, so at each of them
        return sorted({turn.square[c] for c in near} - {square})
    key = (power.id, frozenset(near))
    ranked = turn.points_seen.get(key)
    if ranked is None:
        ranked = turn.points_seen[key] = _ranked_points(turn, power, near, helps)
    found = [p for p in ranked if p != square]
    if power.range_ft is None or power.area.shape != "burst":
        return found  # a cone or line from here: at each, and at each gap between them
    return found[: turn.weights.targets] + _short_of(turn, power, square, z, near, found)


def _short_of(turn: Turn, power: Any, square: tuple[int, int], z: float, near: list[int],
              found: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """For a burst with a range, a point short of each creature of ``near`` past that range from
    ``square`` (its user there at height ``z``): the square on the way to it as far as the range goes
    (:func:`~game.ai.tactical_turn.farthest_toward`, by the rules' distance), so that the burst's
    spread may still catch it (a fireball's 10 ft past its 60 ft); the forecast says whether it does."""
    points: list[tuple[int, int]] = []
    for c in near:
        there = turn.square[c]
        point = farthest_toward(turn.battle, square, z, there, power.range_ft)
        if point in (there, square) or point in found or point in points:
            continue  # (in range: aimed at already; or no square on the way is)
        points.append(point)
    return points


def _ranked_points(turn: Turn, power: Any, near: list[int], helps: bool) -> list[tuple[int, int]]:
    """:func:`area_points` from no square in particular, every one of them in order (a strict order:
    each point is its own last tie-break, so leaving one out keeps the others' order)."""
    span = power.area.radius_ft if power.range_ft is not None else max(power.area.length_ft, power.area.radius_ft)
    aimed = {turn.square[c] for c in near}
    points = aimed | set(_between(turn, near, 2 * span if power.range_ft is not None else None))
    if power.range_ft is None or power.area.shape != "burst":
        return sorted(points)
    harms = not helps and power.targets not in ("enemies", "enemy")
    others = turn.side if harms else []
    points |= set(_past(turn, near, others, span))
    ground, rules = turn.battle.state.terrain.ground, turn.rules

    def held(point: tuple[int, int]) -> float:
        z = float(ground[point])
        mine = sum(1 for c in near if distance_3d_ft(point, z, turn.square[c], turn.z[c], rules) <= span)
        theirs = sum(1 for f in others if distance_3d_ft(point, z, turn.square[f], turn.z[f], rules) <= span)
        return mine - turn.weights.friendly_fire * theirs

    return sorted(points, key=lambda p: (-held(p), p not in aimed, p))


def _between(turn: Turn, near: list[int], within: float | None) -> list[tuple[int, int]]:
    """The squares midway between each two of ``near`` at most ``within`` feet apart (None: any two),
    and amid all three when each two are."""
    def close(a: int, b: int) -> bool:
        return within is None or distance_3d_ft(turn.square[a], turn.z[a], turn.square[b], turn.z[b],
                                                turn.rules) <= within

    groups: list[tuple[int, ...]] = [(a, b) for i, a in enumerate(near) for b in near[i + 1:] if close(a, b)]
    if len(near) == 3 and len(groups) == 3:
        groups.append(tuple(near))
    return [(round(sum(turn.square[c][0] for c in g) / len(g)), round(sum(turn.square[c][1] for c in g) / len(g)))
            for g in groups]


def _past(turn: Turn, near: list[int], friends: list[int], span: float) -> list[tuple[int, int]]:
    """For each enemy of ``near`` with one of ``friends`` within ``span`` of it, the squares one step and
    more (up to the span) beyond the enemy, straight away from the nearest such friend."""
    rules, (width, height) = turn.rules, turn.battle.state.terrain.walls.shape
    found = []
    for enemy in near:
        (ex, ey), ez = turn.square[enemy], turn.z[enemy]
        apart = {f: distance_3d_ft(turn.square[f], turn.z[f], (ex, ey), ez, rules) for f in friends}
        close = [f for f in friends if apart[f] <= span]
        if not close:
            continue
        fx, fy = turn.square[min(close, key=lambda f: (apart[f], f))]
        dx, dy = (ex > fx) - (ex < fx), (ey > fy) - (ey < fy)
        for k in range(1, max(int(span // rules.square_ft), 1) + 1):
            if 0 <= ex + k * dx < width and 0 <= ey + k * dy < height:
                found.append((ex + k * dx, ey + k * dy))
    return found


def uses_from(turn: Turn, square: tuple[int, int]) -> list[Choice]:
    """Every worthwhile legal use of the creature's powers from ``square``, best first."""
    found = turn.uses_seen.get(square)
    return found if found is not None else uses_from_each(turn, [square])[0]


def heal_on_the_way(turn: Turn, end: tuple[int, int] | None) -> tuple[Choice, bool] | None:
    """The best heal (or stand-up) a creature that only closes in this turn could give a friend: from
    where it stands, before its walk (True), else from ``end``, where the walk ends, after it (False:
    a downed friend the walk brings within reach); None when neither reaches one, or it heals nothing."""
    if not any(p.healing is not None for p in turn.powers):
        return None
    for square, first in ((turn.here, True), (end, False)):
        found = [] if square is None else [c for c in uses_from(turn, square)
                                           if turn.battle.power(c.command[1][1]).healing is not None]
        if found:
            return found[0], first
    return None


def uses_from_each(turn: Turn, squares: list[tuple[int, int]]) -> list[list[Choice]]:
    """:func:`uses_from` for each of ``squares``: the battle is asked about all those not weighed yet
    in one call (``Battle.outcomes_each``), since the user's side of a use is the same from each."""
    asks = []
    # light, darkness, flight, blinks: the tactical player does not weigh them here
    aiming = [a for a in (_aiming(turn, power) for power in turn.powers
                          if power.damage is not None or power.healing is not None or power.conditions
                          or power.push_ft or power.pull_ft or power.script) if a is not None]
    ground = turn.battle.state.terrain.ground
    for square in dict.fromkeys(squares):
        if square in turn.uses_seen:
            continue
        z = turn.z[turn.me] if square == turn.here else float(ground[square])
        asked = [(a.power.id, aim) for a in aiming for aim in aims(turn, a, square, z)]
        if not asked:  # a square in reach of no one asks nothing
            turn.uses_seen[square] = []
        else:
            asks.append((square, asked))
    # from square after square the same use at the same target mostly forecasts the same numbers (cover
    # and light alike), which are valued once a turn
    for (square, asked), forecasts in zip(asks, turn.battle.outcomes_each(turn.me, asks) if asks else []):
        turn.uses_seen[square] = _choices(turn, asked, forecasts)
    return [turn.uses_seen[square] for square in squares]


def _choices(turn: Turn, asked: list[tuple[str, dict[str, Any]]], forecasts: list[UseOutcome]) -> list[Choice]:
    """The worthwhile legal uses of ``asked`` (forecast as ``forecasts`` say), best first."""
    choices = []
    for (power_id, aim), forecast in zip(asked, forecasts):
        if not forecast.legal:
            continue
        # (a script may read the aim: its use is valued by aim too)
        seen = (forecast, tuple(sorted(aim.items()))) if forecast.scripted else forecast
        valued = turn.values_seen.get(seen)
        if valued is None:
            valued = turn.values_seen[seen] = value_of(turn, forecast, aim)
        value, why = valued
        if value > 0:
            command: Command = ("use_power", (turn.me, power_id), dict(aim))
            # (a list made into a tuple: cheaper than a generator for the few targets of a use)
            downs = tuple([(o.target, o.downs) for o in forecast.targets if not o.ally and o.downs > 0])
            choices.append(Choice(value, command, why, downs))
    choices.sort(key=lambda c: -c.score)
    return choices
