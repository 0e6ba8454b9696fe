"""The tactical computer player: it weighs where to end its turn and what to do there by the forecasts.

For a short list of squares it could end on (the one it stands on included), it asks the battle what
each use of each of its powers would do from there (``Battle.forecast``: hit chance, damage, kills,
pushes and the falls they cause, areas with friends caught in them, heals, conditions), what moving
there would cost (``Battle.forecast_move``: the path and any fall at its end), and what the enemies
could do to it there before its next turn (``Battle.threat``: cover, light and their reach
included). It picks the best (square, action) pair, moving first or acting first and then moving
away, by one score. No rule is computed here: every number comes from the battle's forecasts, so a
change of rules (a bigger cover bonus, softer ground) changes its choices as it changes the dice.

Deterministic: the same board gives the same plan; ties go to the earlier square and power.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from components import Health, Movement, Position
from components.forecasts import MoveForecast, PowerForecast, TargetForecast, Threat
from components.powers import Power
from systems.geometry import distance_3d_ft
from systems.paths import UNREACHABLE
from systems.power_checks import reach_ft

Command = tuple[str, tuple[Any, ...], dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Weights:
    """How the tactical player values what the forecasts say, in expected points of Health."""

    caution: float = 0.8            # per point of damage it expects to take where it ends its turn
    caution_when_low: float = 2.0   # the same at or below ``low_health`` of its maximum
    low_health: float = 0.35
    kill: float = 3.0               # per expected kill, plus what the victim would still deal a round
    friendly_fire: float = 2.0      # per point of damage to a friend (it never trades one for one)
    heal: float = 1.2               # per point healed that the friend was missing
    revive: float = 6.0             # per expected friend brought back from downed
    approach: float = 0.4           # per square of path closer to the nearest enemy, when only moving
    fall: float = 1.0               # per point of fall damage it would take itself (a jump down may pay)...
    fall_down: float = 12.0         # ...and per chance that the fall downs it (never walk off by accident)
    script_guess: float = 2.5       # what a scripted power's unknown effect is taken to be worth per target
    crowd: int = 8                  # nearest enemies (and friends) weighed in a crowd
    shortlist: int = 3              # squares weighed in full besides its own (and the farthest)
    targets: int = 3                # nearest targets weighed per power and square
    conditions: dict[str, float] = field(default_factory=lambda: {
        "restrained": 0.7, "blinded": 0.6, "dazzled": 0.35, "prone": 0.3, "slowed": 0.25, "frightened": 0.4,
    })


DEFAULT = Weights()


@dataclass(frozen=True, slots=True)
class Choice:
    """One scored use of a power from a square, with the words that explain it."""

    score: float
    command: Command
    why: str


@dataclass(frozen=True, slots=True)
class Decision:
    """A creature's plan for its turn: the commands to issue, in order, and why."""

    commands: tuple[Command, ...] = ()
    why: str = ""


class _Turn:
    """What one creature's plan reads from the battle, read once."""

    def __init__(self, battle: Any, me: int, allowed: Sequence[str] | None, weights: Weights) -> None:
        self.battle, self.me, self.weights = battle, me, weights
        self.team = battle.team(me)
        self.here = battle.square_of(me)
        self.rules = battle.rules
        living = [c for c in battle.creatures() if "dead" not in battle.conditions(c)]
        self.square = {c: battle.square_of(c) for c in living}
        self.z = {c: float(battle.get(c, Position).z) for c in living}

        def away(c: int) -> float:
            return distance_3d_ft(self.here, self.z[me], self.square[c], self.z[c], self.rules)

        # in a crowd only the nearest matter this turn: a plan weighs at most ``weights.crowd`` of each side
        self.enemies = sorted((c for c in living if battle.team(c) != self.team), key=away)[: weights.crowd]
        self.friends = sorted((c for c in living if battle.team(c) == self.team), key=away)[: weights.crowd]
        self.health = {c: battle.get(c, Health) for c in living}
        own = battle.powers_of(me)
        self.powers = [battle.power(p) for p in own if allowed is None or p in allowed]
        self.menace_seen: dict[int, float] = {}
        self.shares: dict[int, float] = {}
        self.uses_seen: dict[tuple[int, int], list[Choice]] = {}

    def caution(self) -> float:
        health = self.health[self.me]
        low = health.current <= self.weights.low_health * health.maximum
        return self.weights.caution_when_low if low else self.weights.caution

    def menace(self, creature: int) -> float:
        """What a creature could deal in a round: its best power's average damage (data, not a rule)."""
        found = self.menace_seen.get(creature)
        if found is None:
            found = 0.0
            for power_id in self.battle.powers_of(creature):
                damage = self.battle.power(power_id).damage
                if damage is not None:
                    found = max(found, float(damage.average()))
            self.menace_seen[creature] = found
        return found

    def menace_reach(self, creature: int) -> float:
        """The longest reach of a creature's damaging powers, in feet (its powers' data)."""
        powers = (self.battle.power(i) for i in self.battle.powers_of(creature))
        return longest_reach((p for p in powers if p.damage is not None), self.rules.square_ft)

    def share(self, enemy: int) -> float:
        """The part of an enemy's blow this creature should expect: 1 over the number of its team the
        enemy could reach this round (by speed plus reach, as the arrow flies), itself included."""
        found = self.shares.get(enemy)
        if found is None:
            reach = self.battle.get(enemy, Movement).speed_ft + self.menace_reach(enemy)
            near = sum(1 for f in self.friends if f != self.me and distance_3d_ft(
                self.square[enemy], self.z[enemy], self.square[f], self.z[f], self.rules) <= reach)
            found = self.shares[enemy] = 1.0 / (1 + near)
        return found

    def label(self, creature: int) -> str:
        return f"{self.battle.name(creature)} at {self.square[creature]}"


# ---------------------------------------------------------------------- what an action is worth

def _worth(turn: _Turn, odds: TargetForecast) -> tuple[float, str]:
    """The value of one target's outcome, and a few words on it."""
    w = turn.weights
    health = turn.health[odds.target]
    damage = odds.damage.mean if odds.damage is not None else 0.0
    falling = odds.affected * odds.fall.damage.mean if odds.fall is not None else 0.0
    hurt = damage + falling
    chance = f"{odds.affected:.0%}"
    if not odds.ally:
        value = hurt + odds.downs * (w.kill + turn.menace(odds.target))
        value += sum(odds.affected * w.conditions.get(c, 0.2) * (1 + turn.menace(odds.target))
                     for c in odds.conditions if c not in turn.battle.conditions(odds.target))
        words = f"{chance}, {hurt:.1f} expected" + (f", fall {falling:.1f}" if falling else "")
        return value, words + (f", {odds.downs:.0%} to down" if odds.downs >= 0.05 else "")
    value = -w.friendly_fire * hurt
    if odds.healing is not None:
        missing = health.maximum - health.current
        value += w.heal * min(odds.healing.mean, missing)
        if "downed" in turn.battle.conditions(odds.target):
            value += w.revive * odds.affected
    return value, f"friend {chance}, heals {odds.healing.mean:.1f}" if odds.healing is not None else \
        f"friend hit {hurt:.1f}"


def _value(turn: _Turn, forecast: PowerForecast) -> tuple[float, str]:
    """A use's value: the sum over every creature it would touch, friends counted against it."""
    total, parts = 0.0, []
    for odds in forecast.targets:
        value, words = _worth(turn, odds)
        total += value
        parts.append(f"{turn.battle.name(odds.target)} {words}")
    if forecast.scripted:  # a script decides what it does: worth a modest guess per creature it reaches
        power = turn.battle.power(forecast.power)
        guess = [turn.weights.script_guess * (-1 if odds.ally else 1) * odds.affected for odds in forecast.targets
                 if power.damage is None and power.healing is None]
        total += sum(guess) if forecast.targets else 0.5
    name = turn.battle.power(forecast.power).name
    return total, f"{name}: " + "; ".join(parts) if parts else name


def _aims(turn: _Turn, power: Any, square: tuple[int, int]) -> list[dict[str, Any]]:
    """The aims worth forecasting for one power from ``square``: the nearest creatures it could help
    or harm, their squares for an area aimed at a point, or nothing for an area around the user."""
    helps = power.healing is not None or power.targets in ("ally", "allies")
    pool = turn.friends if helps else turn.enemies
    if power.targets == "self":
        return [{}] if power.healing is not None else []
    z = turn.z[turn.me] if square == turn.here else float(turn.battle.state.terrain.ground[square])
    reach = reach_ft(power, turn.rules)
    if power.area is not None:  # an area reaches past its aim point (a burst) or out along itself (a cone)
        reach += power.area.radius_ft if power.range_ft is not None else max(power.area.length_ft, power.area.radius_ft)
    away = {c: distance_3d_ft(square, z, turn.square[c], turn.z[c], turn.rules) for c in pool}
    near = sorted((c for c in pool if away[c] <= reach), key=away.__getitem__)[: turn.weights.targets]
    if power.single_target:
        return [{"target": c} for c in near]
    if power.aims_at_point or power.needs_direction:
        points = sorted({turn.square[c] for c in near} - {square})
        return [{"point": p} for p in points]
    return [{}]


def uses_from(turn: _Turn, square: tuple[int, int]) -> list[Choice]:
    """Every worthwhile legal use of the creature's powers from ``square``, best first."""
    key = square
    found = turn.uses_seen.get(key)
    if found is not None:
        return found
    choices = []
    for power in turn.powers:
        if power.damage is None and power.healing is None and not power.conditions and not power.push_ft \
                and not power.pull_ft and not power.script:
            continue  # light, darkness, flight, blinks: the tactical player does not weigh them yet
        for aim in _aims(turn, power, square):
            forecast = turn.battle.forecast(turn.me, power.id, from_square=square, **aim)
            if not forecast.legal:
                continue
            value, why = _value(turn, forecast)
            if value > 0:
                command: Command = ("use_power", (turn.me, power.id), dict(aim))
                choices.append(Choice(value, command, why))
    choices.sort(key=lambda c: -c.score)
    turn.uses_seen[key] = choices
    return choices


# ---------------------------------------------------------------------- where to end the turn

def longest_reach(powers: Iterable[Power], square_ft: float) -> float:
    """The longest reach among ``powers``, in feet: a range, else an area's length or radius (its
    data); one square when there is none."""
    reach = [p.range_ft if p.range_ft is not None else (p.area.length_ft or p.area.radius_ft if p.area else 0.0)
             for p in powers]
    return float(max(reach, default=square_ft))


def _reach_ft(turn: _Turn) -> float:
    """The longest reach of the creature's harmful powers."""
    return longest_reach((p for p in turn.powers if p.damage is not None or p.conditions or p.push_ft),
                         turn.rules.square_ft)


def shortlist(turn: _Turn, reserved: set[tuple[int, int]], field: np.ndarray) -> list[tuple[int, int]]:
    """The squares worth weighing in full: those from which an enemy is in reach, nearest first and
    with cover from the most enemies; and the one farthest from them (to fall back to)."""
    battle, w = turn.battle, turn.weights
    mask = battle.reachable(turn.me).copy()
    for square in reserved:
        mask[square] = False
    mask[turn.here] = False
    squares = [(int(x), int(y)) for x, y in zip(*np.nonzero(mask))]
    if not squares:
        return []
    ground = battle.state.terrain.ground
    reach = _reach_ft(turn)
    targets = [(turn.square[e], turn.z[e]) for e in turn.enemies]
    here_z = turn.z[turn.me]
    soft = battle.state.terrain.soft
    rank: dict[tuple[int, int], tuple[int, float]] = {}
    # every distance is at least the squares between on the grid (the larger axis) times the square's
    # feet: only squares that close to some enemy are asked about in three dimensions
    xs, ys = (np.array(axis) for axis in zip(*squares))
    near = np.zeros(len(squares), dtype=bool)
    for (ex, ey), _ in targets:
        near |= np.maximum(abs(xs - ex), abs(ys - ey)) * turn.rules.square_ft <= reach
    for square, maybe in zip(squares, near.tolist()):
        z = float(ground[square])
        in_reach = maybe and any(distance_3d_ft(square, z, at, ez, turn.rules) <= reach for at, ez in targets)
        way = float(field[square])
        if way >= UNREACHABLE:  # no way round to them (a wall, a ravine): how far as the arrow flies
            way = UNREACHABLE + min(distance_3d_ft(square, z, at, ez, turn.rules) for at, ez in targets)
        drop = here_z - z if here_z - z >= 10 else 0.0  # a drop that hurts ranks as that much farther away
        rank[square] = (0 if in_reach else 1, drop * (0.5 if soft[square] else 1.0) + way)
    ranked = sorted(squares, key=rank.__getitem__)[: 2 * w.shortlist]
    nearest = sorted(turn.enemies, key=lambda e: float(field[turn.square[e]]))[:3]
    cover = battle.cover_map(nearest, ranked)
    ranged = reach > 2 * turn.rules.square_ft
    shots = battle.open_shots(turn.me, ranked, turn.enemies) if ranged else dict.fromkeys(ranked, 0)
    ranked.sort(key=lambda s: (rank[s][0], -(cover[s] + shots[s]), rank[s][1]))
    chosen = ranked[: w.shortlist]
    farthest = max(squares, key=lambda s: (float(field[s]) - 2 * (rank[s][1] - float(field[s])), -s[0], -s[1]))
    if farthest not in chosen:
        chosen.append(farthest)
    return chosen


def _far_apart(turn: _Turn) -> bool:
    """Whether no enemy could touch the creature this round, nor it any enemy, wherever it moves: then
    nothing but closing in is worth weighing (the forecasts would all say 0)."""
    mine = turn.battle.get(turn.me, Movement).speed_ft + _reach_ft(turn)
    for enemy in turn.enemies:
        theirs = turn.battle.get(enemy, Movement).speed_ft + turn.menace_reach(enemy)
        away = distance_3d_ft(turn.here, turn.z[turn.me], turn.square[enemy], turn.z[enemy], turn.rules)
        if away <= mine + theirs:
            return False
    return True


def _close_in(turn: _Turn, reserved: set[tuple[int, int]], field: np.ndarray) -> Decision:
    """Move to the reachable square nearest the enemies by path, never off a drop that hurts."""
    mask = turn.battle.reachable(turn.me).copy()
    for square in reserved:
        mask[square] = False
    drops = turn.z[turn.me] - turn.battle.state.terrain.ground >= 10
    squares = [(int(x), int(y)) for x, y in zip(*np.nonzero(mask & ~drops))]
    if not squares:
        return Decision((), f"stays at {turn.here}: nowhere nearer")
    best = min(squares, key=lambda s: (float(field[s]), s))
    if float(field[best]) >= float(field[turn.here]):
        return Decision((), f"stays at {turn.here}: nowhere nearer")
    steps = (float(field[turn.here]) - float(field[best])) / turn.rules.square_ft
    return Decision((("move", (turn.me, *best), {}),), f"moves to {best}: {steps:.0f} squares nearer the enemy")


@dataclass(frozen=True, slots=True)
class _Option:
    score: float
    commands: tuple[Command, ...]
    why: str


def _stand_there(turn: _Turn, move: MoveForecast | None, threat: Threat) -> tuple[float, str]:
    """What ending the turn on a square is worth before any action: the threat there and a fall."""
    fall = move.fall.damage.mean if move is not None and move.fall is not None else 0.0
    downs = move.fall.damage.at_least(max(turn.health[turn.me].current, 1)) if move and move.fall else 0.0
    # an enemy strikes one creature a turn: its blow is shared among the friends it could also reach
    expected = sum(source.expected * turn.share(source.enemy) for source in threat.sources)
    score = -turn.caution() * expected - turn.weights.fall * fall - turn.weights.fall_down * downs
    threats = len(threat.sources)
    words = f"{threat.expected:.1f} expected damage there"
    if threats:
        words = f"cover from {threat.covered_from} of {threats} threats, " + words
    if fall:
        words += f", a fall of {fall:.1f}"
    return score, words


def _options_at(turn: _Turn, move: MoveForecast | None, threat: Threat, here_best: Choice | None,
                field: np.ndarray) -> list[_Option]:
    """Moving to ``move``'s square (or staying): then acting there, acting first, or only moving."""
    end = threat.square
    score, words = _stand_there(turn, move, threat)
    moving: tuple[Command, ...] = () if move is None else (("move", (turn.me, *move.square), {}),)
    where = f"moves to {move.square}" if move is not None else f"stays at {turn.here}"
    closer = turn.weights.approach * (float(field[turn.here]) - float(field[end])) / turn.rules.square_ft
    found = [_Option(score + closer, moving, f"{where}: {words}")]
    # a walk that ends early (off a ledge) is checked as if it reached its goal: act only before it
    there = uses_from(turn, end) if move is None or move.stops_at == move.square else []
    if there:
        best = there[0]
        found.append(_Option(score + best.score, (*moving, best.command), f"{where}: {words}; {best.why}"))
    if here_best is not None and move is not None:
        found.append(_Option(score + here_best.score, (here_best.command, *moving),
                             f"{here_best.why}; then {where}: {words}"))
    return found


def plan(battle: Any, me: int, reserved: set[tuple[int, int]] | None = None,
         allowed: Sequence[str] | None = None, weights: Weights = DEFAULT) -> Decision:
    """The tactical player's turn for ``me``: the best of staying or moving to a shortlisted square,
    with the best use of a power before or after (see the module's docstring)."""
    turn = _Turn(battle, me, allowed, weights)
    if not turn.enemies:
        return Decision((), "no enemy left")
    conditions = battle.conditions(me)
    prefix: tuple[Command, ...] = ()
    if "prone" in conditions and "restrained" not in conditions:
        prefix = (("stand", (me,), {}),)
    # ways are searched only as far as the farthest enemy weighed, and a turn's walk beyond (in 50 ft steps,
    # so that turn after turn the same searches are found again)
    far = max((distance_3d_ft(turn.here, turn.z[me], turn.square[e], turn.z[e], turn.rules) for e in turn.enemies),
              default=0.0)
    limit = 50.0 * (1 + int((2 * far + battle.get(me, Movement).speed_ft) // 50))
    field = battle.approach_map(me, turn.enemies, limit_ft=limit)
    if not prefix and _far_apart(turn):
        return _close_in(turn, reserved or set(), field)
    here_uses = uses_from(turn, turn.here)
    here_best = here_uses[0] if here_uses else None
    moves: list[MoveForecast | None] = [None]
    if not prefix:
        squares = shortlist(turn, reserved or set(), field)
        moves += [m for m in (battle.forecast_move(me, s, cover=False) for s in squares) if m.legal]
    ends = [turn.here if m is None or m.stops_at is None else m.stops_at for m in moves]
    options: list[_Option] = []
    for move, threat in zip(moves, battle.threats(me, ends, turn.enemies)):
        options.extend(_options_at(turn, move, threat, here_best, field))
    best = max(options, key=lambda o: o.score)  # the first of equals: staying, then shortlist order
    if prefix:
        return Decision((*prefix, *best.commands), "stands up; " + best.why)
    return Decision(best.commands, best.why)
