"""Damage and healing: each request resolved on its own, in the order it was issued.

Falling to 0 Health, and every hit taken at 0, costs fatigue; that is part of taking damage, so it
happens here, hit by hit, which is what makes two hits at 0 count twice and a hit on the dead count
for nothing.
"""

from __future__ import annotations

import esper

from components import Fatigue, Health, Rules
from components.commands import Heal, HealthRequest, Hit
from components.events import Damaged, FatigueChanged, Healed
from systems.state import BattleState, Phase
from systems.vitals import dead_at, is_dead


def after_hit(current: int, fatigue: int, most: int, amount: int, rules: Rules) -> tuple[int, int]:
    """Health and fatigue after one hit of ``amount`` on a creature with ``current`` Health and
    ``fatigue`` of ``most``: the rule a hit resolves by, and a forecast of one asks (a hit on the
    dead, or of nothing, changes nothing)."""
    if dead_at(current, fatigue, most) or amount <= 0:
        return current, fatigue
    after = max(0, current - amount)
    if after == 0 and fatigue < most:
        fatigue += min(rules.fatigue_per_hit_at_zero, most - fatigue)
    return after, fatigue


def healed(current: int, maximum: int, fatigue: int, most: int, amount: int) -> int:
    """What a heal of ``amount`` gives back to a creature with ``current`` of ``maximum`` Health and
    ``fatigue`` of ``most``: no more than it lacks, and nothing to the dead. The rule a heal resolves
    by, and a forecast of one asks."""
    if dead_at(current, fatigue, most) or amount <= 0:
        return 0
    room = maximum - current
    return amount if amount < room else room


def heal_outcomes(health: Health, fatigue: Fatigue, rolled: dict[int, float]) -> dict[int, float]:
    """The chances of what a heal rolling ``rolled`` gives back (:func:`healed`, roll by roll)."""
    found: dict[int, float] = {}
    for amount, p in rolled.items():
        given = healed(health.current, health.maximum, fatigue.level, fatigue.maximum, amount)
        found[given] = found.get(given, 0.0) + p
    return found


def hits_to_die(current: int, fatigue: int, most: int, rules: Rules) -> int | None:
    """How many more wounding hits a creature with ``current`` Health and ``fatigue`` of ``most``
    takes before it is dead, each resolved by :func:`after_hit` (a planner weighs a blow at a downed
    enemy as a step towards its death); 0 for the dead, None when hits no longer bring it nearer
    (rules that give no fatigue for a hit at 0)."""
    hits = 0
    while not dead_at(current, fatigue, most):
        after = after_hit(current, fatigue, most, max(current, 1), rules)
        if after == (current, fatigue):
            return None
        current, fatigue = after
        hits += 1
    return hits


class DamageSystem(esper.Processor):
    """Drains the health queue: hits and heals from the GM, falls and powers.

    In the GM phase only the landings of falls that phase started resolve (support taken away
    between orders: the fall settles at once); the GM's own damage and heals wait for the next
    tick, as documented, in the order issued.
    """

    PHASES = frozenset({Phase.START, Phase.TURN, Phase.END, Phase.GM})  # the only phases it runs in

    def __init__(self, state: BattleState) -> None:
        self.state = state

    def process(self, phase: Phase, actor: int | None = None) -> None:
        if phase not in self.PHASES:
            return
        if phase is Phase.GM:
            self._landings()
            return
        queue = self.state.health_queue
        while queue:
            request = queue.popleft()
            if not esper.entity_exists(request.target):
                continue
            if isinstance(request, Hit):
                self._hit(request)
            elif isinstance(request, Heal):
                self._heal(request)

    def _landings(self) -> None:
        """The falls' hits of the queue, in order; the rest stays queued, in its order."""
        queue = self.state.health_queue
        landings: list[Hit] = []
        kept: list[HealthRequest] = []
        for request in queue:
            if isinstance(request, Hit) and request.landing:
                landings.append(request)
            else:
                kept.append(request)
        if not landings:
            return
        queue.clear()
        queue.extend(kept)
        for hit in landings:
            if esper.entity_exists(hit.target):
                self._hit(hit)

    def _hit(self, hit: Hit) -> None:
        state = self.state
        health = esper.component_for_entity(hit.target, Health)
        fatigue = esper.component_for_entity(hit.target, Fatigue)
        if is_dead(health, fatigue) or hit.amount <= 0:
            return
        was, tired = health.current, fatigue.level
        health.current, fatigue.level = after_hit(was, tired, fatigue.maximum, hit.amount, state.rules)
        state.dirty.add(hit.target)
        state.emit(Damaged(state.round, hit.target, hit.amount, health.current, hit.source))
        if fatigue.level != tired:  # after_hit's own answer: none when the rules give no fatigue for it
            reason = "dropped to 0 health" if was > 0 else "hit while at 0 health"
            state.emit(FatigueChanged(state.round, hit.target, fatigue.level - tired, fatigue.level, reason))

    def _heal(self, heal: Heal) -> None:
        state = self.state
        health = esper.component_for_entity(heal.target, Health)
        fatigue = esper.component_for_entity(heal.target, Fatigue)
        given = healed(health.current, health.maximum, fatigue.level, fatigue.maximum, heal.amount)
        if not given:
            return  # dead, or already at full health: nothing happened
        before = health.current
        health.current = before + given
        state.dirty.add(heal.target)
        state.emit(Healed(state.round, heal.target, health.current - before, health.current, heal.source))
