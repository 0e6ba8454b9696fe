"""The tactical computer player: it weighs where to end its turn and what to do there by the forecasts.

For a short list of squares it could end on (the one it stands on included), it asks the battle what
each use of each of its powers would do from there (``Battle.outcomes_many``, the numbers of its
forecasts: hit chance, damage, kills, pushes and the falls they cause, areas with friends caught in
them, heals, conditions), what moving there would cost (``Battle.forecast_moves_to``: the path and any
fall at its end), and what the enemies could do to it there before its next turn (``Battle.threats``:
cover, light and their reach included). It picks the best (square, action) pair, moving first or
acting first and then moving away, by one score. No rule is computed here: every number comes from
the battle's forecasts, so a change of rules (a bigger cover bonus, softer ground) changes its choices
as it changes the dice.

Deterministic: the same board gives the same plan; ties go to the earlier square and power.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from components.forecasts import MoveForecast, Threat
from game.ai.tactical_squares import approach_field, shortlist, ways_round
from game.ai.tactical_turn import DEFAULT, Choice, Command, Decision, Turn, Weights, Why, exposure, longest_reach
from game.ai.tactical_uses import heal_on_the_way, uses_from, uses_from_each
from game.ai.tactical_veils import veil_option
from systems.drops import fall_dice_many, fall_odds, least_hurtful_drop_ft
from systems.geometry import distance_3d_ft
from systems.paths import UNREACHABLE
from systems.power_checks import AT_HAND_SQUARES

__all__ = ["DEFAULT", "SETTLE", "Choice", "Decision", "Weights", "longest_reach", "plan", "settle", "shortlist",
           "uses_from"]

#: The order after which a plan looks again at the board as it settled (``game.ai.policy.decisions``).
SETTLE = "resolve_orders"


def settle() -> Command:
    """A plan's :data:`SETTLE` order (a fresh one: a command's keywords are a dict of its own)."""
    return (SETTLE, (), {})


def _far_apart(turn: Turn) -> bool:
    """Whether no enemy could touch the creature this round, nor it any enemy, wherever it moves: then
    only closing in (and a heal for a friend within its reach) is worth weighing (the forecasts of
    blows would all say 0)."""
    mine = turn.speed + turn.reach()
    for enemy in turn.enemies:
        theirs = turn.round_reach(enemy)
        away = turn.apart(turn.here, turn.z[turn.me])[enemy]
        if away <= mine + theirs:
            return False
    return True


class _Option(NamedTuple):
    """One way to spend the turn, scored (a NamedTuple, as :class:`~game.ai.tactical_turn.Choice` is)."""

    score: float
    commands: tuple[Command, ...]
    why: Why  # built only for the option chosen (a plan weighs a few dozen)


def _said(text: str) -> Why:
    """A reason already in words."""
    return lambda: text


def _joined(first: Why, then: Why, between: str = "; ") -> Why:
    """Two reasons one after the other, put into words when read."""
    return lambda: f"{first()}{between}{then()}"


def _close_in(turn: Turn, reserved: set[tuple[int, int]], field: np.ndarray) -> _Option:
    """Move to the reachable square nearest the enemies by path, never off a drop that hurts, at its
    goal or on the way (scored by the squares it gains, so that closing in aloft can be weighed
    against closing in afoot)."""
    mask = turn.battle.reachable(turn.me).copy()
    for square in reserved:
        mask[square] = False
    terrain = turn.battle.state.terrain
    drop = turn.z[turn.me] - terrain.ground
    drops = drop >= least_hurtful_drop_ft(turn.rules)
    if terrain.soft.any():  # only soft ground makes a drop that long no fall (the rules' dice say where)
        drops &= fall_dice_many(drop, terrain.soft, turn.rules) > 0
    squares = [(int(x), int(y)) for x, y in zip(*np.nonzero(mask & ~drops))]
    here = float(field[turn.here])
    nearer = sorted((s for s in squares if float(field[s]) < here), key=lambda s: (float(field[s]), s))
    # the nearest whose walk ends on it: a way that steps off a ledge short of its goal falls there
    best = next((s for s in nearer if turn.battle.forecast_move(turn.me, s, cover=False).stops_at == s), None)
    if best is None:
        return _Option(0.0, (), lambda: f"stays at {turn.here}: nowhere nearer")
    steps = min(float(field[turn.here]) - float(field[best]), UNREACHABLE) / turn.rules.square_ft
    return _Option(turn.weights.approach * steps, (("move", (turn.me, *best), {}),),
                   lambda: f"moves to {best}: {steps:.0f} squares nearer the enemy")


def _fall_cost(turn: Turn, move: MoveForecast | None) -> tuple[float, float]:
    """The fall that ending the move costs: its average damage and the chance that it downs (the
    move's forecast of its fall). A flier whose flight runs out before its next turn falls from the
    height the move's forecast leaves it at (``MoveForecast.z``: it keeps its height over lower
    ground), by the rules' fall odds (``systems.drops.fall_odds``: what the falling system rolls)."""
    fall = None if move is None else move.fall
    if fall is None and turn.flight_ends:
        terrain = turn.battle.state.terrain
        stop = turn.here if move is None else move.square
        z = turn.z[turn.me] if move is None or move.z is None else move.z
        if z > float(terrain.ground[stop]):
            fall = fall_odds(z - float(terrain.ground[stop]), bool(terrain.soft[stop]), turn.rules)
    if fall is None:
        return 0.0, 0.0
    return fall.damage.mean, fall.damage.at_least(max(turn.glance[turn.me].health, 1))


def _taken(turn: Turn, threat: Threat, downs: dict[int, float]) -> float:
    """The damage it expects to take on the threat's square before its next turn: every enemy that
    could reach it acts before then, unless this turn's blow downs it first (``downs``); an enemy
    strikes one creature a turn, so its blow is shared among the friends it could also reach."""
    # (a loop, not ``sum`` over a generator, and each share read from the turn's table once it is there,
    # not by a call: a plan asks this for most options it weighs; the same products in the same order)
    total, shares = 0.0, turn.shares
    for s in threat.sources:
        part = s.expected * (shares[s.enemy] if s.enemy in shares else turn.share(s.enemy))
        total += part * (1.0 - downs.get(s.enemy, 0.0)) if downs else part  # (no downs: times 1.0)
    return total


def _next_turn(turn: Turn, threat: Threat, z: float, field: np.ndarray) -> float:
    """What ending on the threat's square is worth for the turn after: its best blow, if from there some
    enemy still standing would be in its reach next turn (:meth:`Turn.strikable_next_turn`), or if an
    enemy whose own blows are at hand could reach it there this round (it comes to strike, and stands in
    reach after)."""
    at_hand = AT_HAND_SQUARES * turn.rules.square_ft
    able = turn.strikes_next_turn(threat.square, z, field) or any(
        turn.menace_reach(s.enemy) <= at_hand for s in threat.sources)
    return turn.weights.tempo * turn.menace(turn.me) if able else 0.0


def _rallied(turn: Turn, end: tuple[int, int], taken: float) -> float:
    """What the scenario's reactions to a creature going down are worth to it standing on ``end``:
    for itself and each friend, the chance it goes down before its next turn (``taken``: the damage
    it expects there, :func:`_taken` with no blow of its own) times what the reactions would then do
    (a rally heals the friends near the one who fell)."""
    if not turn.downs_heard:
        return 0.0
    health, least = turn.glance[turn.me].health, turn.weights.down_worth_asking
    mine = min(1.0, taken / max(health, 1))
    found = mine * turn.if_downed(turn.me, end) if mine >= least else 0.0
    for friend in turn.friends:  # each question is a script call: only about the friends in danger
        if friend != turn.me and friend in turn.able and (chance := turn.down_chance(friend)) >= least:
            found += chance * turn.if_downed(friend, end)
    return found


def _options_at(turn: Turn, move: MoveForecast | None, threat: Threat, here_best: Choice | None,
                field: np.ndarray, via: tuple[int, int] | None = None, jump: MoveForecast | None = None
                ) -> list[_Option]:
    """Moving to ``move``'s square (or staying; by way of ``via`` first, when given: see
    :func:`~game.ai.tactical_squares.ways_round`; or after ``jump``, a move to the same goal whose
    walk jumps down short of it and lands there: see :func:`_walks_on`): then acting there, acting
    first, or only moving.

    Each is scored as what the action is worth now, minus the damage it expects to take where it
    ends (less the blows of enemies the action would down first), minus a fall, plus the blow it
    could strike from there next turn (a hit-and-run that ends out of reach gives that up). A blow
    after a walk whose fall may down it is still planned, worth the chance it stands: the plan settles
    the fall first (:func:`settle`; ``game.ai.policy.decisions`` then gives the blow only to a creature
    still standing, or plans again), which costs nothing it could have done; a blow given up for any
    chance at all lost a sure blow to a 1-in-36 fall (iron won 69 of 100 gauntlet battles against
    greedy that way, 84 of 100 this way).
    """
    w, end = turn.weights, threat.square
    walks = move if jump is None else jump
    # (no fall to cost, on most squares, with no call: ``_fall_cost``'s answer then)
    fall, fall_downs = _fall_cost(turn, walks) if turn.flight_ends or walks is not None and walks.fall is not None \
        else (0.0, 0.0)
    z = turn.z[turn.me] if move is None or move.z is None else move.z
    base = -w.fall * fall - w.fall_down * fall_downs + _next_turn(turn, threat, z, field)
    # what it takes there with no blow of its own downing anyone first: asked once, since an option
    # whose blow downs no one takes the same (a source's share times 1.0 is the share itself)
    taken = _taken(turn, threat, {})
    base += _rallied(turn, end, taken) if turn.downs_heard else 0.0  # (``_rallied``'s answer then, with no call)
    # (``item``: a Python int, not a numpy scalar; the ways are ints, exact as floats)
    closer = w.approach * (float(field.item(turn.here)) - float(field.item(end))) / turn.rules.square_ft
    caution = turn.caution()
    moving: tuple[Command, ...] = () if move is None else (("move", (turn.me, *move.square), {}),)
    if via is not None:
        moving = (("move", (turn.me, *via), {}), *moving)
    elif jump is not None:  # the jump's fall settles before it walks on (``game.ai.policy.decisions``)
        moving = (("move", (turn.me, *jump.square), {}), settle(), *moving)

    def ending() -> str:
        words = exposure(threat)
        if fall:
            words += f", a fall of {fall:.1f}"
        if move is None:
            return f"stays at {turn.here}: {words}"
        if jump is not None:
            return f"jumps down at {jump.stops_at}, then moves on to {move.square}: {words}"
        if move.stops_at is not None and move.stops_at != move.square:
            return f"moves towards {move.square}, jumping down at {move.stops_at}: {words}"
        return f"moves to {move.square}{'' if via is None else f' by way of {via}'}: {words}"

    found = [_Option(base + closer - caution * taken, moving, ending)]
    there = uses_from(turn, end) if jump is not None or _lands(turn, move) else []
    if there:
        best = there[0]
        standing = 1.0 - fall_downs  # the blow needs it on its feet after the fall (else refused, at no cost)
        score = base + standing * best.score - caution * (_taken(turn, threat, dict(best.downs)) if best.downs
                                                          else taken)
        settled = (settle(),) if jump is None and walks is not None and walks.fall is not None else ()
        found.append(_Option(score, (*moving, *settled, best.command), _joined(ending, best.why)))
    if here_best is not None and move is not None:
        score = base + here_best.score - caution * (_taken(turn, threat, dict(here_best.downs))
                                                    if here_best.downs else taken)
        found.append(_Option(score, (here_best.command, *moving), _joined(here_best.why, ending, "; then ")))
    return found


def _lands(turn: Turn, move: MoveForecast | None) -> bool:
    """Whether it acts where ``move`` ends: a walk that steps off a ledge (on the way, or onto its goal
    from above) falls where it steps off, and the fall settles before its next order, so it acts from
    where it lands if the fall leaves it standing, and not at all when the fall goes on into the next round."""
    return move is None or move.fall is None or turn.battle.queued_fall(turn.me, [move.square]) is None


def _walks_on(turn: Turn, moves: list[MoveForecast | None]) -> list[tuple[tuple[MoveForecast, MoveForecast], Threat]]:
    """For each move whose walk jumps down short of its goal and lands this round, the rest of the
    way from where it lands (the battle's forecast of the same move queued again, ``after=``) when
    that reaches the goal dry, with the threat there.

    Why: the fall settles before the next order, so a walker that jumps off a ledge may walk on; the
    battle's move stops where it lands, and one more order takes it the rest of the way."""
    battle, me = turn.battle, turn.me
    jumps = [m for m in moves if m is not None and m.fall is not None and m.stops_at not in (None, m.square)
             and battle.queued_fall(me, [m.square]) is None]
    pairs = []
    for jump in jumps:
        [on] = battle.forecast_moves_to(me, [jump.square], cover=False, after=jump.square, way=False)
        if on.legal and on.stops_at == on.square and on.fall is None:
            pairs.append((jump, on))
    if not pairs:
        return []
    return list(zip(pairs, battle.threats(me, [on.square for _, on in pairs], turn.enemies)))


def _leaps(turn: Turn, field: np.ndarray) -> list[_Option]:
    """Teleporting (a blink) to a square it cannot walk to this turn, then acting there if it still may.

    The squares tried are the few within the power's range nearest the enemies still standing (as
    the arrow flies: across a ravine the walking way does not exist); each is weighed as a move is,
    by the battle's threats there, the uses from there and the next turn's blow.
    """
    battle, me, w = turn.battle, turn.me, turn.weights
    foes = turn.standing or turn.enemies
    leaps = [p for p in turn.powers if p.teleport and p.range_ft is not None and p.damage is None]
    if not leaps or not foes:
        return []
    ground = battle.state.terrain.ground

    def nearest(square: tuple[int, int], z: float) -> float:
        return min(distance_3d_ft(square, z, turn.square[e], turn.z[e], turn.rules) for e in foes)

    walkable, walls = battle.reachable(me), battle.state.terrain.walls
    found = []
    for power in leaps:
        # the squares within its reach are the battle's answer (heights counted, as a use counts them)
        xs, ys = np.nonzero(battle.reach_squares(power.id, me))
        kept = ~walkable[xs, ys] & ~walls[xs, ys]
        near = list(zip(xs[kept].tolist(), ys[kept].tolist()))
        near.sort(key=lambda s: (nearest(s, float(ground[s])), s))
        points = [s for s in near if battle.forecast(me, power.id, point=s).legal][: w.shortlist]
        if not points:
            continue
        for point, threat in zip(points, battle.threats(me, points, turn.enemies)):
            leap: Command = ("use_power", (me, power.id), {"point": point})
            z = float(ground[point])
            closer = w.approach * (nearest(turn.here, turn.z[me]) - nearest(point, z)) / turn.rules.square_ft
            base = closer + _next_turn(turn, threat, z, field)
            words = f"{power.name} to {point}: {threat.expected:.1f} expected damage there"
            found.append(_Option(base - turn.caution() * _taken(turn, threat, {}), (leap,), _said(words)))
            there = [c for c in uses_from(turn, point) if battle.power(c.command[1][1]).action != power.action]
            if there:
                best = there[0]
                score = base + best.score - turn.caution() * _taken(turn, threat, dict(best.downs))
                # the blink resolves before the use is given, which is checked from where it then stands
                found.append(_Option(score, (leap, settle(), best.command),
                                     _joined(_said(words), best.why)))
    return found


def plan(battle: Any, me: int, reserved: set[tuple[int, int]] | None = None,
         allowed: Sequence[str] | None = None, weights: Weights = DEFAULT) -> Decision:
    """The tactical player's turn for ``me``: the best of staying or moving to a shortlisted square,
    with the best use of a power before or after (see the module's docstring).

    A prone creature is planned as any other, by the battle's answers for it as it is (its walk, its
    uses, the blows at it): the rules give prone no effect but the half of its speed a stand costs
    (README.md), so the forecasts let it walk and strike lying down, and it never pays for a stand
    that would buy it nothing (it stood first, as if prone stopped it moving).
    """
    turn = Turn(battle, me, allowed, weights)
    if not turn.enemies:
        return Decision((), "no enemy left")
    conditions = turn.glance[me].conditions  # (the battle's, read with the roster a moment ago)
    # surprised, the forecasts refuse its powers this round: the reason says why none is used
    aside = " (surprised: no powers this round)" if "surprised" in conditions else ""
    if aside and turn.weights.hold_when_surprised and _nothing_to_gain(turn):
        threat = battle.threats(me, [turn.here], turn.enemies)[0]  # asked now: the reason is read later
        return Decision((), lambda: f"holds {turn.here}: every enemy standing is in its reach next turn"
                                    f" from here; {exposure(threat)}{aside}")
    best = _plan(turn, reserved or set())
    return Decision(best.commands, lambda: best.why() + aside)


def _flight(turn: Turn, reserved: set[tuple[int, int]]) -> _Option | None:
    """Taking to the air (a power that grants flight), then the best plan it would have aloft.

    Tried on the battle itself: on a snapshot it flies, the flight resolves, the whole plan is made
    again from there (the squares a flier reaches, the threats on them, the uses from them, and the
    fall where the flight would run out, by the battle's effects), and the battle is restored.
    """
    battle, me = turn.battle, turn.me
    wings = [p for p in turn.powers if p.flight and p.damage is None and p.healing is None and not p.conditions]
    if not wings or "flying" in battle.conditions(me):
        return None
    best: _Option | None = None
    for power in wings:
        if not battle.forecast(me, power.id).legal:
            continue
        before = battle.snapshot()
        try:
            battle.use_power(me, power.id)
            battle.resolve_orders()
            aloft = _plan(Turn(battle, me, [p.id for p in turn.powers], turn.weights), reserved, flown=True)
        finally:
            battle.restore(before)
        fly: tuple[Command, ...] = (("use_power", (me, power.id), {}), settle())
        if best is None or aloft.score > best.score:
            best = _Option(aloft.score, (*fly, *aloft.commands), _joined(_said(power.name), aloft.why, ", then "))
    return best


def _nothing_to_gain(turn: Turn) -> bool:
    """Whether a creature that can use no power this turn (surprised) gains nothing by moving: every
    enemy standing is already in its reach next turn from where it stands. It acts after the enemies
    next round too (the surprised act last), so a step towards them only meets their blows first."""
    field = approach_field(turn)
    return set(turn.standing) <= turn.strikable_next_turn(turn.here, turn.z[turn.me], field)


def _plan(turn: Turn, reserved: set[tuple[int, int]], flown: bool = False) -> _Option:
    """:func:`plan`'s best option (``flown``: its flight is already tried)."""
    battle, me = turn.battle, turn.me
    field = approach_field(turn)
    if _far_apart(turn):
        walking = _close_in(turn, reserved, field)
        # cut off (nowhere nearer afoot: a chasm, a wall of battlements): what flying over it would gain
        flight = None if flown or walking.commands else _flight(turn, reserved)
        # out of the fight, it may still help a friend in it: heal (or stand up) whoever it reaches first,
        # from here, else from where the walk ends (a downed friend the walk brings within reach)
        heal = heal_on_the_way(turn, walking.commands[-1][1][1:] if walking.commands else None)
        if heal is not None:  # (``_close_in`` makes one move: where it ends)
            (choice, first), walk = heal, walking.commands
            order = (choice.command, *walk) if first else (*walk, choice.command)
            walking = _Option(walking.score + choice.score, order,
                              _joined(*((choice.why, walking.why) if first else (walking.why, choice.why)), "; then "))
        return flight if flight is not None and flight.score > walking.score else walking
    moves: list[MoveForecast | None] = [None]
    squares = shortlist(turn, reserved, field)
    moves += [m for m in battle.forecast_moves_to(me, squares, cover=False, way=False) if m.legal]
    ends = [turn.here if m is None or m.stops_at is None else m.stops_at for m in moves]
    threats = battle.threats(me, ends, turn.enemies)
    # the uses from here and from each end it could act on, asked of the battle at once
    here_uses = uses_from_each(turn, [t.square for m, t in zip(moves, threats) if _lands(turn, m)])[0]
    here_best = here_uses[0] if here_uses else None
    options: list[_Option] = []
    for move, threat in zip(moves, threats):
        options.extend(_options_at(turn, move, threat, here_best, field))
    # a move whose way drops off a ledge short of its goal: the goal by a way round, if there is one
    rounds = ways_round(turn, [m for m in moves if m is not None], reserved)
    if rounds:
        for (via, move), threat in zip(rounds, battle.threats(me, [m.square for _, m in rounds], turn.enemies)):
            options.extend(_options_at(turn, move, threat, here_best, field, via))
    for (jump, on), threat in _walks_on(turn, moves):
        options.extend(_options_at(turn, on, threat, here_best, field, jump=jump))
    options.extend(_leaps(turn, field))
    # a light, darkness or fog is tried on the battle itself, which costs a snapshot a try: only on a
    # turn that has no use of a power worth making (in a crowd of 50 it cost seconds a round); so is a flight
    calm = max(options, key=lambda o: o.score)  # its best turn (with no use of a power in it, unless it acts)
    acts = any(name == "use_power" for name, _, _ in calm.commands)
    veil = None if acts else veil_option(turn, calm.commands)
    best = calm  # the first of equals: staying, then shortlist order; a veil after it only if it gains
    if veil is not None and calm.score + veil[0] > calm.score:
        best = _Option(calm.score + veil[0], (*calm.commands, veil[1]), _joined(calm.why, _said(veil[2])))
    flight = None if acts or flown else _flight(turn, reserved)
    return flight if flight is not None and flight.score > best.score else best
