"""What a power's script would do, foreseen by the script itself, for a planner and a person.

A power whose effect a script decides (a draining touch that heals its user, a bolt that jumps to a
second enemy) cannot be forecast from its data: the data says only what the script adds to. Its
forecast says ``scripted``; this asks the script. Its hook runs as a what-if (commands checked and
none applied, nothing charged, no die rolled: :mod:`game.battle.foresight`), once for each of a few
quantiles its dice are read at, and what the runs ask is summed per creature into the numbers a
forecast gives (the damage rule decides who goes down and who dies). A computer player weighs those
numbers as it weighs a forecast's; where the script cannot be foreseen, it can only guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import esper

from components import Creature, Fatigue, Health, Rules
from components.forecasts import Outcome, ScriptForesight
from game.battle import validate
from game.battle.foresight import RUNS
from game.battle.uses import PowerUses
from game.battle.world import entry
from systems.damage import after_hit, healed
from systems.powers import script_ctx
from systems.state import BattleState
from systems.vitals import dead_at

Runs = Sequence[Sequence[tuple[str, Sequence[Any]]]]


class ScriptForecasts(PowerUses):
    """``foresee_script``: a power's script asked what it would do."""

    @entry
    def foresee_script(self, user: int, power_id: str, target: int | None = None,
                       point: tuple[int, int] | None = None, hit: int | None = None,
                       runs: int = 5) -> ScriptForesight:
        """What the script of ``power_id`` would ask for if ``user`` used it now, aimed as
        ``use_power`` aims it (``target``, ``point``): its ``on_hit`` when the use lands on ``hit``,
        or its ``on_use`` (once a use, landing or not) when no ``hit`` is given. In each of ``runs``
        runs its dice are read at one quantile (:func:`game.battle.foresight.quantiles`: five runs
        read the 10th, 30th, ... 90th percentiles, one run the median), and the runs' commands are
        summed per creature (see :class:`~components.forecasts.ScriptForesight`). What the power's
        data does is the forecast's (``forecast``, ``outcomes_many``); this is only what its script
        adds.

        Why: without it a computer player can only guess what a scripted power is worth, and uses it
        too little or too much; a designer who writes a script wants it weighed as it plays.

        Raises:
            IllegalCommand: an unknown power, a point off the grid, or runs not in 1..MAX_RUNS.
            UnknownEntity: a user or target this battle does not have.
        """
        runs = validate.within(runs, RUNS, "runs")
        user, power = self.check(user), self.power(power_id)
        target = None if target is None else self.check(target)
        hit = None if hit is None else self.check(hit)
        point = None if point is None else self.aim_point(point)
        if not power.script:
            return ScriptForesight(power.id, hit)  # nothing of it is a script's
        ctx = script_ctx(self.state.round, power.id, user, target, point)
        function, args = ("on_use", ()) if hit is None else ("on_hit", (hit,))
        asked, known = self.scripts.foresee_power(power.script, function, ctx, args, runs)
        if not known:
            return ScriptForesight(power.id, hit, known=False)
        return ScriptForesight(power.id, hit, True, asked, script_outcomes(self.state, user, asked))


def _run_on(run: Sequence[tuple[str, Sequence[Any]]], creature: int, health: Health, fatigue: Fatigue,
            rules: Rules) -> tuple[int, int, int, int]:
    """One run's hits and heals on ``creature`` in the order given, each by the rule it resolves by:
    the damage dealt, the healing given (no more than it then lacks), and its Health and fatigue after."""
    dealt = given = 0
    current, tired = health.current, fatigue.level
    for method, args in run:
        if method == "damage" and args[0] == creature:
            dealt += int(args[1])
            current, tired = after_hit(current, tired, fatigue.maximum, int(args[1]), rules)
        elif method == "heal" and args[0] == creature:
            back = healed(current, health.maximum, tired, fatigue.maximum, int(args[1]))
            given, current = given + back, current + back
    return dealt, given, current, tired


def script_outcomes(state: BattleState, user: int, runs: Runs) -> tuple[Outcome, ...]:
    """The runs' numbers for each creature they touch, in the order first touched: the share of runs
    that hurt or heal it, the mean damage and healing over all runs, and the share that down it and
    that kill it (each damage command a hit, resolved by ``systems.damage.after_hit``, and each heal
    what ``systems.damage.healed`` gives back then: no more than it lacks); then one more
    for each condition a run grants it, with the share of runs that grant it."""
    team = esper.component_for_entity(user, Creature).team
    rules, count = state.rules, max(len(runs), 1)
    order: list[int] = []
    for run in runs:
        for method, args in run:
            if method in ("damage", "heal", "add_condition") and args[0] not in order:
                order.append(args[0])
    found = []
    for creature in order:
        health = esper.component_for_entity(creature, Health)
        fatigue = esper.component_for_entity(creature, Fatigue)
        ally = esper.component_for_entity(creature, Creature).team == team
        was_dead = dead_at(health.current, fatigue.level, fatigue.maximum)
        touched = damage = healing = downs = kills = 0  # summed over the runs, then shared out
        granted: dict[str, int] = {}
        for run in runs:
            dealt, given, current, tired = _run_on(run, creature, health, fatigue, rules)
            touched += any(method in ("damage", "heal") and args[0] == creature for method, args in run)
            damage, healing = damage + dealt, healing + given
            downs += health.current > 0 and current == 0
            kills += not was_dead and dead_at(current, tired, fatigue.maximum)
            for name in {str(args[1]) for method, args in run if method == "add_condition" and args[0] == creature}:
                granted[name] = granted.get(name, 0) + 1
        if touched:
            found.append(Outcome(creature, ally, touched / count, damage / count if damage else None,
                                 healing / count if healing else None, None, (), downs / count, kills / count))
        found += [Outcome(creature, ally, runs_granting / count, None, None, None, (name,), 0.0, 0.0)
                  for name, runs_granting in sorted(granted.items())]
    return tuple(found)
