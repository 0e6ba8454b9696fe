"""Conditions: the full set each creature has, derived from what is granted and from its state.

Granted conditions come from commands, falls, surprise and powers. Derived ones follow from numbers:
downed at 0 Health, slowed and unconscious at fatigue thresholds, dead at 0 Health and a full track,
flat-footed when surprised or without vision. Changes become events here and only here.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import esper

from components import Conditions, Fatigue, Health, Rules, Visibility, Vision
from components.events import ConditionGained, ConditionLost, Died, Downed, Event, Revived, Unconscious
from systems.query import components_of
from systems.state import BattleState, Phase
from systems.vitals import is_dead

_ANNOUNCED_BY_NAME: Mapping[str, type] = MappingProxyType({"downed": Downed, "unconscious": Unconscious, "dead": Died})


def derive(conditions: Conditions, health: Health, fatigue: Fatigue, vision: Vision, rules: Rules
           ) -> frozenset[str]:
    """Every condition the creature has now, granted and derived."""
    active = set(conditions.granted)
    if health.current == 0:
        active.add("downed")
    if fatigue.level >= rules.slowed_at_fatigue:
        active.add("slowed")
    if fatigue.level >= rules.unconscious_at_fatigue:
        active.add("unconscious")
    if is_dead(health, fatigue):
        active.add("dead")
    if unseeing(vision.level) or "surprised" in active:
        active.add("flat-footed")
    return frozenset(active)


def unseeing(level: int) -> bool:
    """Whether sight at ``level`` leaves a creature flat-footed: with no vision it sees no blow coming."""
    return level == Visibility.NO_VISION


def flat_footed_reason(active: frozenset[str], sight: int) -> str | None:
    """What leaves a creature with these ``active`` conditions and sight at level ``sight``
    flat-footed by the rules ("surprised", "no vision"), or None when nothing does (only a grant
    can). The condition's event and the Defense's modifier both say it so."""
    if "surprised" in active:
        return "surprised"
    return "no vision" if unseeing(sight) else None


def _source(condition: str, conditions: Conditions, sight: int) -> str:
    """Why a creature has a condition, for the event: who granted it, or what it follows from
    (``sight``: its vision's level, from which it was derived)."""
    sources = conditions.granted.get(condition)
    if sources:
        return ",".join(sorted(sources))
    if condition == "flat-footed":
        return flat_footed_reason(conditions.active, sight) or "no vision"  # (derived: one of the two holds)
    return {"downed": "health", "slowed": "fatigue", "unconscious": "fatigue"}.get(condition, "health and fatigue")


class ConditionSystem(esper.Processor):
    """Re-derives conditions of the creatures whose state changed, and announces the differences."""

    PHASES = frozenset({Phase.START, Phase.TURN, Phase.END, Phase.GM})  # the only phases it runs in

    def __init__(self, state: BattleState) -> None:
        self.state = state

    def process(self, phase: Phase, actor: int | None = None) -> None:
        if phase is Phase.REFRESH or not self.state.dirty:
            return
        state = self.state
        dirty, state.dirty = state.dirty, set()
        for entity, (conditions, health, fatigue, vision) in components_of(dirty, Conditions, Health, Fatigue, Vision):
            self._settle(entity, conditions, health, fatigue, vision)

    def _settle(self, entity: int, conditions: Conditions, health: Health, fatigue: Fatigue, vision: Vision) -> None:
        """Derive one creature's conditions again and announce what changed."""
        if "dead" in conditions.active:
            return  # the dead are a record: nothing changes them any more
        before = conditions.active
        conditions.active = derive(conditions, health, fatigue, vision, self.state.rules)
        if "unconscious" in conditions.active and "unconscious" not in before:
            # a natural flier's own flight no longer holds it up: the falling system looks at it
            # again in the next phase it runs in
            self.state.moved.add(entity)
        self._announce(entity, conditions, vision.level)

    def _announce(self, entity: int, conditions: Conditions, sight: int) -> None:
        state = self.state
        announced = state.announced.setdefault(entity, {})
        after = conditions.active
        if after == announced.keys():
            return
        events: list[Event] = []
        for name in sorted(announced.keys() - after):
            source = announced.pop(name)
            events.append(Revived(state.round, entity) if name == "downed"
                          else ConditionLost(state.round, entity, name, source))
        # granted conditions first, then what follows from them (surprised, then flat-footed)
        for name in sorted(after - announced.keys(), key=lambda n: (n not in conditions.granted, n)):
            announced[name] = _source(name, conditions, sight)
            event_type = _ANNOUNCED_BY_NAME.get(name)
            events.append(event_type(state.round, entity) if event_type is not None
                          else ConditionGained(state.round, entity, name, announced[name]))
        for event in sorted(events, key=_event_order):
            state.emit(event)


def _event_order(event: Event) -> int:
    """Downed before unconscious before dead, so a log reads in the order things happen."""
    return {Downed: 1, Unconscious: 2, Died: 3}.get(type(event), 0)
