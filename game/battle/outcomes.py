"""A planner's forecasts: ``forecast_many``'s numbers, without the explanations a person reads.

A computer player weighs a dozen uses of its powers from each of a few squares, every turn, and
reads only numbers off each forecast: whether it is legal, and for each creature it reaches the
chance it lands, the mean damage, healing and fall, the chance it downs and kills. The window's
forecast also says how each roll is made and why (the roll mode with its reasons, the Defense term by
term, the squares an area covers), which costs most of a forecast. ``outcomes_many`` answers the
numbers alone, by the very functions the full forecast and the rolls use (legality in two parts,
an attack's chance from ``attack_terms``' own parts, the same effects), so each number is the full
forecast's to the last bit; a test holds the two together.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

import esper

from components import Conditions, Defense, Fatigue, Position
from components.forecasts import Outcome, UseOutcome
from components.powers import Power
from components.values import shown
from game.battle import validate
from game.battle.errors import IllegalCommand
from game.battle.forecasts import Forecasts
from game.battle.script_forecasts import ScriptForecasts
from game.battle.world import entry
from systems.areas import area_squares, creatures_reached
from systems.cover import has_cover
from systems.power_checks import TargetReading, Vantage, aim_problem, attack_chance, vantages
from systems.visibility import level_at


class _Asking(NamedTuple):
    """What every use of one ``outcomes_each`` call shares: the user's side of every attack roll (its
    fatigue and attack bonus), the battle's answers kept for its stamp (``known``: see
    ``Outcomes._outcome``; ``hits``: each attack's chance by its parts), and what is read of each
    target once a call (``readings``: ``systems.power_checks.target_reading``; ``struck``: its side of
    an attack roll, see ``Outcomes._chances``), as the battle stands still while the call lasts."""

    striker: tuple[int, int]
    known: dict[tuple[Any, ...], Outcome]
    hits: dict[tuple[int, ...], float]
    readings: dict[int, TargetReading]
    struck: dict[int, tuple[tuple[int, int], int, int, bool]]


class Outcomes(Forecasts, ScriptForecasts):
    """``outcomes_many``: the numbers of ``forecast_many``, for a planner."""

    @entry
    def outcomes_many(self, user: int, from_square: tuple[int, int],
                      uses: Iterable[tuple[str, Mapping[str, Any]]]) -> list[UseOutcome]:
        """:meth:`forecast_many`'s numbers: for each ``(power_id, aim)`` of ``uses`` from one square,
        whether it is legal, whether a script decides part of it, and each creature's
        :class:`~components.forecasts.Outcome` (equal, number for number, to its ``TargetForecast``).

        Raises:
            IllegalCommand: an unknown power, square (a wall or blocking terrain, too) or aim.
            UnknownEntity: a user or target this battle does not have.
        """
        return self._outcomes(user, [(from_square, uses)], "outcomes_many")[0]

    @entry
    def outcomes_each(self, user: int, asks: Iterable[tuple[tuple[int, int], Iterable[tuple[str, Mapping[str, Any]]]]]
                      ) -> list[list[UseOutcome]]:
        """:meth:`outcomes_many` for each ``(from_square, uses)`` of ``asks``, in one call: a planner weighs
        its uses from several squares a turn, and the user's side of them (its queued orders, its powers'
        aim-free problems, its side of every attack roll) is the same from each.

        Raises:
            IllegalCommand: asks that are not a list of pairs; an unknown power, square (a wall or blocking
                terrain, too) or aim.
            UnknownEntity: a user or target this battle does not have.
        """
        if not validate.listed(asks):
            raise IllegalCommand(f"outcomes_each: asks must be a list of (from_square, uses) pairs, not {shown(asks)}")
        return self._outcomes(user, list(asks), "outcomes_each")

    def _outcomes(self, user: int, asks: list[Any], asked: str) -> list[list[UseOutcome]]:
        """:meth:`outcomes_each`'s answers (``asked`` names the method for an error)."""
        state, checked = self.state, []
        for ask in asks:
            if not isinstance(ask, (tuple, list)) or len(ask) != 2:
                raise IllegalCommand(f"{asked}: each ask must be a pair (from_square, uses), not {shown(ask)}")
            checked.append((self._from_square(user, ask[0]), validate.uses(ask[1], asked)))
        user = self.check(user)
        side = self._unusable(user)
        # its side of every attack roll from there: its fatigue and attack bonus (its sight is the vantage's)
        striker = (esper.component_for_entity(user, Fatigue).level,
                   esper.component_for_entity(user, Defense).attack_bonus)
        memo = self.memo.table(state)
        # what every use asked in this call shares: the answers kept for the stamp, and each target read
        # once (the battle stands still while the call lasts)
        asking = _Asking(striker, memo.setdefault("outcomes", {}),
                         memo.setdefault("attack_chances", {}),  # (shared with the threats' blows: see ``_chances``)
                         {}, {})
        found = []
        # the user on each square, its components read once
        for (square, uses), on in zip(checked, vantages(state, user, [square for square, _ in checked])):
            seen, aims = self._aims_at(user, side, square, uses, asked, on)
            found.append([self._use_outcome(power, target, point, facing, unusable, seen, asking)
                          for power, target, point, facing, unusable in aims])
        return found

    def _use_outcome(self, power: Power, target: int | None, point: tuple[int, int] | None,
                     facing: tuple[int, int] | None, unusable: str | None, seen: Vantage, asking: _Asking
                     ) -> UseOutcome:
        """One use's numbers (``_forecast_from``'s, by its parts; ``asking.known``: see :meth:`_outcome`)."""
        state, user, origin = self.state, seen.user, seen.square
        if unusable or aim_problem(state, power, user, target, point, origin, facing, seen, readings=asking.readings):
            return UseOutcome(power.id, False, bool(power.script), ())
        squares = area_squares(state, power, origin, point, facing) if power.area is not None else ()
        reached = creatures_reached(state, power, user, target, point, origin=origin, direction=facing,
                                    origin_z=seen.z, squares=squares)
        return UseOutcome(power.id, True, bool(power.script),
                          tuple([self._outcome(power, seen, t, asking) for t in reached]))

    def _outcome(self, power: Power, seen: Vantage, target: int, asking: _Asking) -> Outcome:
        """One creature's numbers: how the use lands on it, then ``_effects``, as ``_target_odds``.

        Past the landing chances, nothing of a use without a push or pull depends on where it is made
        from (only a push's landing does): a planner asks the same target from square after square and
        mostly finds the same chances, so the numbers are kept in ``known`` (the battle's memo, for as
        long as its stamp holds) by power, target, side and chances. A save's chances, or a sure
        use's, are the target's alone (its save's roll mode reads no square of the user's): those
        numbers are kept by power, target and side, and found again before any chance is worked out.
        """
        known = asking.known
        moves = bool(power.push_ft or power.pull_ft)
        key: tuple[Any, ...] | None = None
        if not moves and power.attack_bonus is None:  # nothing of it depends on the user's square
            key = (power.id, target, seen.team)
            found = known.get(key)
            if found is not None:
                return found
        full, half = self._chances(power, seen, target, asking)
        if not moves and power.attack_bonus is not None:
            key = (power.id, target, seen.team, full, half)
            found = known.get(key)
            if found is not None:
                return found
        damage, healing, _, fall, downs, kills, ally = self._effects(power, seen.user, target, seen.square,
                                                                     seen.team, full, half)
        found = Outcome(target, ally, full, None if damage is None else damage.mean,
                        None if healing is None else healing.mean, None if fall is None else fall.damage.mean,
                        power.grants, downs, kills)
        if key is not None:
            known[key] = found
        return found

    def _chances(self, power: Power, seen: Vantage, target: int, asking: _Asking) -> tuple[float, float]:
        """``_landing``'s chances of the full and of the halved effect, without an attack roll's
        explanation: an attack from ``attack_terms``' parts (the mode from the user's sight there and
        the target square's light, the Defense from cover and flat-footedness, the d20's table); a
        save, or a use with no roll, by ``_landing`` itself.

        An attack's chance is a function of those parts and the rules alone (a battle keeps its rules for
        its whole life): it is kept in ``asking.hits`` by its parts (the battle's memo, for as long as its
        stamp holds), which a planner finds again from square after square and in the threats' blows. The
        target's side of them is read once a call (``asking.struck``)."""
        state = self.state
        if power.attack_bonus is None:
            full, half, _, _ = self._landing(power, seen.user, target, seen.square)
            return full, half
        struck = asking.struck.get(target)
        if struck is None:
            there = esper.component_for_entity(target, Position).square
            struck = asking.struck[target] = (there, level_at(state, there),
                                              esper.component_for_entity(target, Defense).base,
                                              "flat-footed" in esper.component_for_entity(target, Conditions).active)
        there, level, base, flat_footed = struck
        striker, hits = asking.striker, asking.hits
        parts = (seen.sight, level, striker[0], striker[1] + power.attack_bonus, base,
                 has_cover(state, seen.square, there), flat_footed)
        chance = hits.get(parts)
        if chance is None:
            chance = hits[parts] = attack_chance(*parts, state.rules)
        return chance, 0.0
