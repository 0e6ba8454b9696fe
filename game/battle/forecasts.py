"""Forecasts: what a use or a move would do, answered by the rules' own functions.

A forecast never changes the battle. It asks the functions the systems resolve with (legality in
``systems.power_checks``, roll terms and roll modes, areas, pushes, walks and falls) and enumerates
their dice exactly, so the odds shown on hover, weighed by the computer player and checked by the
tests are the odds the dice have. Where a script decides, the forecast says so, and ``trials=N``
adds an estimate from N uses on a copy of the battle (a snapshot, restored after each).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

import esper

from components import Conditions, Creature, Fatigue, Health, Movement, Position
from components.commands import Hit, UsePower
from components.dice import Dice
from components.events import ScriptFailed
from components.forecasts import (
    AttackOdds,
    Distribution,
    FallOdds,
    PowerForecast,
    SaveOdds,
    ScriptEstimate,
    TargetForecast,
)
from components.powers import Power
from components.values import Bound
from game.battle import orders, validate
from game.battle.errors import IllegalCommand
from game.battle.move_forecasts import MoveForecasts
from game.battle.supposing import Supposing
from game.battle.uses import PowerUses
from game.battle.world import entry
from systems.areas import area_squares, creatures_reached
from systems.damage import after_hit, heal_outcomes
from systems.drops import fall_odds
from systems.forces import push_landing
from systems.geometry import distance_ft
from systems.odds import chance_at_least, dice_outcomes, mixture, sum_of
from systems.power_checks import (
    Vantage,
    aim_problem,
    attack_terms,
    halved,
    height_at,
    reach_ft,
    save_terms,
    user_problem,
    vantage,
)
from systems.vitals import dead_at, is_dead, is_flying, stands_if_healed

#: Most script trials one forecast may ask for (each is a whole use on a copy).
MAX_TRIALS = 200
#: How many trials ``forecast`` takes.
TRIALS = Bound(0, MAX_TRIALS)

#: What an aim of ``forecast_many`` and ``outcomes_many`` may hold.
_AIM_KEYS = frozenset({"target", "point", "direction"})

#: Damage answers kept per map's caches before they are forgotten (a battle needs a few dozen).
_DAMAGE_ODDS_KEPT = 4096


def _branches(dice: Dice | None, full: float, half: float, miss: float) -> list[tuple[float, dict[int, float]]]:
    """A use's own damage, branch by branch: the dice in full, halved by a save, or none on a miss."""
    rolled = dice_outcomes(dice) if dice is not None else {0: 1.0}
    halves: dict[int, float] = defaultdict(float)
    for value, p in rolled.items():
        halves[halved(value)] += p
    return [(full, rolled), (half, dict(halves)), (miss, {0: 1.0})]


class Forecasts(MoveForecasts, PowerUses, Supposing):
    """``forecast`` and its batch forms (the moves' in :class:`~game.battle.move_forecasts.MoveForecasts`)."""

    # ------------------------------------------------------------------ one use

    @entry
    def forecast(self, user: int, power_id: str, target: int | None = None, point: tuple[int, int] | None = None,
                 from_square: tuple[int, int] | None = None, trials: int = 0,
                 direction: str | tuple[int, int] | None = None, unseen: Iterable[int] = ()) -> PowerForecast:
        """What ``user`` using ``power_id`` would do (from ``from_square``: where it would stand).
        After a queued move that leaves the user falling no use is legal: the turn would refuse it.

        Args:
            trials: for a scripted power, how many uses on a copy of the battle to estimate its
                script from (0: none; at most ``MAX_TRIALS``).
            direction: where a cone or line would face, as for ``use_power``.
            unseen: creatures the asking player cannot see, told as ``forecast_move`` tells them
                (their squares count as free): a push that one of them would stop short must not
                give away that something stands there. The use itself, when given, resolves
                against the battle as it is.

        Raises:
            IllegalCommand: an unknown power or square (a ``from_square`` off the grid, a wall or terrain
                that blocks its user), or trials out of range.
            UnknownEntity: a creature this battle does not have.
        """
        from_square = None if from_square is None else self._from_square(user, from_square)
        state = self.state
        user, power = self.check(user), self.power(power_id)
        target = None if target is None else self.check(target)
        point = None if point is None else self.aim_point(point)
        facing = validate.direction(direction)
        trials = validate.within(trials, TRIALS, "trials")
        # where its queued orders leave it, asked only when it matters (a planner names the square),
        # and whether one of them leaves it falling (the turn would refuse the use)
        if from_square is None or (power.script and trials):
            position, _, falling = orders.projected(state, user)
            here: tuple[int, int] | None = position.square
        else:
            here, falling = None, orders.queued_fall(state, user)
        origin = here if from_square is None else from_square  # (a square of the grid: checked above)
        assert origin is not None
        queued = [c for c in state.actions.get(user, ()) if isinstance(c, UsePower)]
        z = position.z if from_square is None else None  # its height after its orders (a flight's stays aloft)
        unusable = falling or user_problem(state, power, user, queued)
        with self._hiding(unseen):
            found = self._forecast_from(power, target, point, facing, unusable, vantage(state, user, origin, z))
        if power.script and trials and found.legal and origin == here:
            return replace(found, estimate=self._estimate(power, user, target, point, trials, facing))
        return found

    @entry
    def forecast_many(self, user: int, from_square: tuple[int, int],
                      uses: Iterable[tuple[str, Mapping[str, Any]]]) -> list[PowerForecast]:
        """``forecast`` of each ``(power_id, aim)`` of ``uses`` from one square, the user and the square
        checked once: a planner asks about every use of every power from each square it weighs.
        ``aim`` holds ``forecast``'s ``target``, ``point`` and ``direction`` (no script trials).

        Raises:
            IllegalCommand: an unknown power, square (a wall or blocking terrain, too) or aim.
            UnknownEntity: a creature this battle does not have.
        """
        from_square, uses = self._from_square(user, from_square), validate.uses(uses, "forecast_many")
        seen, aims = self._aims_from(user, from_square, uses, "forecast_many")
        return [self._forecast_from(power, target, point, facing, unusable, seen)
                for power, target, point, facing, unusable in aims]

    def _aims_from(self, user: int, from_square: tuple[int, int], uses: Iterable[tuple[str, Mapping[str, Any]]],
                   asked: str) -> tuple[Vantage, list[tuple[Power, int | None, tuple[int, int] | None,
                                                           tuple[int, int] | None, str | None]]]:
        """A batch of uses from one square, checked: the user as it would stand there (read once), and
        each use's power, target, point and facing with its power's aim-free problem (asked once a power).

        Raises:
            IllegalCommand: an unknown power, square or aim (``asked`` names the method).
            UnknownEntity: a creature this battle does not have.
        """
        user = self.check(user)
        return self._aims_at(user, self._unusable(user), from_square, uses, asked)

    def _unusable(self, user: int) -> tuple[dict[str, str | None], list[UsePower], str | None]:
        """The user's side of every aim, whatever square it is asked from: each power's aim-free problem
        (filled as asked), its queued uses, and what its queued moves leave it (a fall: no use resolves).

        The problems read nothing of the square, so they are kept for as long as the battle's stamp holds
        (all that ``use_problem`` reads: see ``check_stamp``), by the user, the uses it has queued and what
        its queued moves leave it (the queue is no part of the stamp)."""
        state = self.state
        queued = [c for c in state.actions.get(user, ()) if isinstance(c, UsePower)]
        falling = orders.queued_fall(state, user)
        table: dict[str, str | None] = self.memo.table(state).setdefault(("unusable", user, tuple(queued), falling), {})
        return table, queued, falling

    def _aims_at(self, user: int, side: tuple[dict[str, str | None], list[UsePower], str | None],
                 from_square: tuple[int, int], uses: Iterable[tuple[str, Mapping[str, Any]]], asked: str,
                 seen: Vantage | None = None) -> tuple[Vantage, list[tuple[Power, int | None, tuple[int, int] | None,
                                                                           tuple[int, int] | None, str | None]]]:
        """:meth:`_aims_from` for a checked ``user``, its side (:meth:`_unusable`) read already (and the
        user on ``from_square``, a checked square, when ``seen`` is given)."""
        state = self.state
        unusable, queued, falling = side
        if seen is None:  # the user on that square (checked by the caller): its height, team and sight there
            seen = vantage(state, user, from_square)
        found = []
        for power_id, aim in uses:
            if not aim.keys() <= _AIM_KEYS:  # (a subset test: no set is made for the common aim)
                unknown = set(aim) - _AIM_KEYS
                raise IllegalCommand(f"{asked}: an aim takes target, point and direction, not {sorted(unknown)}")
            target, point, direction = aim.get("target"), aim.get("point"), aim.get("direction")
            power = self.power(power_id)
            if power_id not in unusable:
                unusable[power_id] = falling or user_problem(state, power, user, queued)
            found.append((power, None if target is None else self.check(target),
                          None if point is None else self.aim_point(point),
                          None if direction is None else validate.direction(direction), unusable[power_id]))
        return seen, found

    def _forecast_from(self, power: Power, target: int | None, point: tuple[int, int] | None,
                       facing: tuple[int, int] | None, unusable: str | None, seen: Vantage) -> PowerForecast:
        """A checked use's forecast by the user as ``seen`` stands (its aim validated; ``unusable``
        the power's aim-free problem: ``use_problem`` asked in its two parts)."""
        state, user, origin = self.state, seen.user, seen.square
        problem = unusable or aim_problem(state, power, user, target, point, origin, facing, seen)
        squares = tuple(area_squares(state, power, origin, point, facing)) if power.area is not None else ()
        reached = [] if problem is not None else creatures_reached(
            state, power, user, target, point, origin=origin, direction=facing, origin_z=seen.z, squares=squares)
        odds = tuple(self._target_odds(power, user, t, origin, seen.team) for t in reached)
        return PowerForecast(user, power.id, problem is None, problem, origin, target, point, squares, odds,
                             bool(power.script))

    def _target_odds(self, power: Power, user: int, target: int, origin: tuple[int, int], team: str,
                     target_square: tuple[int, int] | None = None) -> TargetForecast:
        """The odds of one target (standing on ``target_square`` when given): the roll, then each
        effect weighted by the roll's outcome."""
        full, half, attack, save = self._landing(power, user, target, origin, target_square)
        damage, healing, pushed_to, fall, downs, kills, ally = self._effects(power, user, target, origin, team, full,
                                                                             half, target_square)
        # healed at 0 Health, it is downed no more (the conditions' own test: downed is 0 Health; the dead
        # are healed nothing, which the healing's outcomes already count)
        downed = healing is not None and esper.component_for_entity(target, Health).current == 0
        revives = healing.at_least(1) if downed and healing is not None else 0.0
        stands = revives if revives and stands_if_healed(esper.component_for_entity(target, Conditions).active) else 0.0
        return TargetForecast(target, ally, full, attack, save, damage, healing, power.grants, pushed_to, fall,
                              downs, kills, revives, stands)

    def _effects(self, power: Power, user: int, target: int, origin: tuple[int, int], team: str, full: float,
                 half: float, target_square: tuple[int, int] | None = None
                 ) -> tuple[Distribution | None, Distribution | None, tuple[int, int] | None, FallOdds | None,
                            float, float, bool]:
        """What a use landing with these chances does to one target (standing on ``target_square`` when
        given): its damage and healing, where a push leaves it and the fall there, the chance it goes
        down and dies, and whether it is a friend."""
        miss = 1.0 - full - half
        miss = miss if miss > 0.0 else 0.0  # (max(0.0, miss), without the builtin's call)
        damage = healing = None
        hurt: dict[int, float] = {0: 1.0}
        if power.damage is not None:
            hurt, damage = self._damage_odds(power.damage, full, half, miss)
        if power.healing is not None:
            gives = heal_outcomes(esper.component_for_entity(target, Health),
                                  esper.component_for_entity(target, Fatigue), dice_outcomes(power.healing))
            healing = Distribution.of(mixture([(full + half, gives), (miss, {0: 1.0})]))
        pushed_to, fall = self._push_odds(power, user, target, origin, target_square)
        # a push lands only with the full effect, whose damage is the dice in full: the fall goes with that branch
        branches: list[tuple[float, dict[int, float], dict[int, float] | None]] = [(1.0, hurt, None)]
        if fall is not None:
            branches = [(w, dealt, landing) for (w, dealt), landing in zip(
                _branches(power.damage, full, half, miss), (dict(fall.damage.outcomes), None, None))]
        total = hurt if fall is None else mixture([(w, dealt if landing is None else sum_of(dealt, landing))
                                                for w, dealt, landing in branches])
        health = esper.component_for_entity(target, Health).current
        downs = 0.0 if health == 0 else float(sum(p for v, p in total.items() if v >= health))
        ally = esper.component_for_entity(target, Creature).team == team
        kills = self._kill_odds(target, branches, 1 if fall is None else 2)
        return damage, healing, pushed_to, fall, downs, kills, ally

    def _kill_odds(self, target: int, branches: list[tuple[float, dict[int, float], dict[int, float] | None]],
                   hits: int) -> float:
        """The chance that the use's blow, then the fall it causes, leaves the target dead: each a hit
        resolved by the damage rule (``systems.damage.after_hit``). ``branches`` are ``(weight, the
        blow's damage, the fall's or None)``: one with no fall, else the full, halved and missed blow;
        ``hits`` how many hits that makes at most (2 with a fall)."""
        health = esper.component_for_entity(target, Health)
        fatigue = esper.component_for_entity(target, Fatigue)
        rules = self.state.rules
        if is_dead(health, fatigue) or fatigue.level + hits * rules.fatigue_per_hit_at_zero < fatigue.maximum:
            return 0.0  # not dead yet, and too few hits to fill its track: no outcome kills

        def dead(*amounts: int) -> bool:
            current, tired = health.current, fatigue.level
            for amount in amounts:
                current, tired = after_hit(current, tired, fatigue.maximum, amount, rules)
            return dead_at(current, tired, fatigue.maximum)

        found = 0.0
        for weight, dealt, landing in branches:
            if landing is None:
                found += weight * sum(p for v, p in dealt.items() if dead(v))
            else:
                found += weight * sum(p * q for v, p in dealt.items() for d, q in landing.items() if dead(v, d))
        return float(found)

    def _damage_odds(self, dice: Dice, full: float, half: float, miss: float
                     ) -> tuple[dict[int, float], Distribution]:
        """The damage a use deals one target, given how it lands: worked out once per (dice, odds)
        for every battle on this map, since a planner weighs the same few thousand times a battle.
        The answer is shared: callers only read it."""
        known: dict[tuple[Dice, float, float, float], tuple[dict[int, float], Distribution]]
        known = self.state.caches.owned("forecast_damage_odds", dict)
        key = (dice, full, half, miss)
        found = known.get(key)
        if found is None:
            if len(known) >= _DAMAGE_ODDS_KEPT:
                known.clear()
            hurt = mixture(_branches(dice, full, half, miss))
            found = known[key] = (hurt, Distribution.of(hurt))
        return found

    def _landing(self, power: Power, user: int, target: int, origin: tuple[int, int],
                 target_square: tuple[int, int] | None = None
                 ) -> tuple[float, float, AttackOdds | None, SaveOdds | None]:
        """How a use lands on one target: the chance of its full effect, of its halved effect (a
        save made against a half-damage power), and the attack or save odds behind them."""
        if power.attack_bonus is not None:
            terms = attack_terms(self.state, power, user, target, user_square=origin, target_square=target_square)
            full = terms.hit_chance()
            return full, 0.0, AttackOdds(terms.mode, terms.bonus, terms.defense, full), None
        if power.save_dc is not None:
            mode, dc = save_terms(self.state, power, target, target_square=target_square)
            saved = chance_at_least(mode.mode, dc)
            return 1.0 - saved, (saved if power.save_half else 0.0), None, SaveOdds(mode, dc, saved, power.save_half)
        return 1.0, 0.0, None, None

    def _push_odds(self, power: Power, user: int, target: int, origin: tuple[int, int],
                   target_square: tuple[int, int] | None = None) -> tuple[tuple[int, int] | None, FallOdds | None]:
        """Where a push or pull by ``user`` from ``origin`` would leave the target (standing on
        ``target_square`` when given, at the height its feet would have there), and its fall there."""
        feet = power.push_ft or power.pull_ft
        if not feet:
            return None, None
        state = self.state
        z = None if target_square is None else height_at(state, target, target_square)
        landing = push_landing(state, origin, target, feet, bool(power.push_ft), target_square, z, pusher=user)
        height = esper.component_for_entity(target, Position).z if z is None else z
        ground = float(state.terrain.ground[landing])
        flying = is_flying(esper.component_for_entity(target, Movement), esper.component_for_entity(target, Conditions))
        if flying or height <= ground:
            return landing, None
        return landing, fall_odds(height - ground, bool(state.terrain.soft[landing]), state.rules)

    def _estimate(self, power: Power, user: int, target: int | None, point: tuple[int, int] | None,
                  trials: int, facing: tuple[int, int] | None) -> ScriptEstimate:
        """Use the power ``trials`` times on a copy of the battle, and average what it asked for."""
        state = self.state
        resolve = state.handlers[UsePower]
        before = self._snapshot_now()
        damage: dict[int, float] = defaultdict(float)
        healing: dict[int, float] = defaultdict(float)
        failed = 0
        try:
            for trial in range(trials):
                state.rng.seed(f"forecast:{self.seed}:{state.round}:{user}:{trial}")
                seen = len(state.events)
                state.health_queue.clear()
                resolve(UsePower(user, power.id, target, point, facing))
                failed += sum(1 for e in state.events[seen:] if isinstance(e, ScriptFailed))
                for request in state.health_queue:
                    book = damage if isinstance(request, Hit) else healing
                    book[request.target] += request.amount / trials
                self._restore_to(before)
        finally:
            self._restore_to(before)
        return ScriptEstimate(trials, tuple(sorted(damage.items())), tuple(sorted(healing.items())), failed)

    # ------------------------------------------------------------------ a whole turn at once

    @entry
    def forecast_uses(self, user: int, from_square: tuple[int, int] | None = None) -> list[PowerForecast]:
        """Every legal use of every power the user has, from ``from_square`` (where it would stand).

        Single-target powers are tried on every living creature; powers aimed at a square on every
        creature's square and the squares around it (where an area catches most); powers on the
        user itself once. Illegal uses are left out.
        """
        user = self.check(user)
        origin = self._from_square(user, from_square or orders.projection(self.state, user)[0].square)
        found = []
        for power_id in self.powers_of(user):
            for target, point in self._aims(self.power(power_id), origin):
                forecast = self.forecast(user, power_id, target=target, point=point, from_square=origin)
                if forecast.legal:
                    found.append(forecast)
        return found

    def _aims(self, power: Power, origin: tuple[int, int]) -> list[tuple[int | None, tuple[int, int] | None]]:
        """The (target, point) pairs worth asking about for one power."""
        state = self.state
        living = [e for e in state.creatures
                  if not is_dead(esper.component_for_entity(e, Health), esper.component_for_entity(e, Fatigue))]
        if power.single_target:
            return [(e, None) for e in living]
        faces_from_user = power.needs_direction and power.range_ft is None
        if not (power.aims_at_point or faces_from_user):
            return [(None, None)]
        reach = reach_ft(power, state.rules) if power.range_ft is not None else None
        points: set[tuple[int, int]] = set()
        for entity in living:
            x, y = esper.component_for_entity(entity, Position).square
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    if state.terrain.inside(x + dx, y + dy):
                        points.add((x + dx, y + dy))
        if faces_from_user:
            points.discard(origin)  # a cone or line from the user faces the square it is aimed at
        if reach is not None:
            points = {p for p in points if distance_ft(origin, p, state.rules) <= reach}
        return [(None, p) for p in sorted(points)]

