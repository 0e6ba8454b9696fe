"""Granting and revoking conditions: one function each, for the GM's commands, powers and scripts."""

from __future__ import annotations

import esper

from components import Conditions
from components.commands import GrantCondition, RevokeCondition
from components.powers import effect_of
from systems.state import BattleState

#: The source of the "surprised" a creature caught unprepared is granted when combat starts.
SURPRISE = "surprise"


def grant_condition(state: BattleState, command: GrantCondition) -> None:
    """Add one counted grant (the dead are a record: nothing changes them)."""
    conditions = esper.component_for_entity(command.target, Conditions)
    if "dead" in conditions.active:
        return
    conditions.grant(command.condition, command.source)
    effect = state.effects.get(command.effect) if command.effect is not None else None
    if effect is not None:
        effect.conditions.append((command.target, command.condition))
    state.dirty.add(command.target)


def revoke_condition(state: BattleState, command: RevokeCondition) -> None:
    """Drop grants of a condition: one source's, or every source's (sparing live effects if asked)."""
    conditions = esper.component_for_entity(command.target, Conditions)
    if "dead" in conditions.active:
        return
    if command.spare_live_effects:
        for source in list(conditions.granted.get(command.condition, {})):
            live = effect_of(source) in state.effects
            if not live:
                conditions.revoke(command.condition, source, every=True)
    else:
        conditions.revoke(command.condition, command.source)
    state.dirty.add(command.target)
    if command.condition == "flying":
        state.mark_moved(command.target)  # without flight it may have nothing under it: look again


def end_surprise(state: BattleState, spare_dead: bool) -> None:
    """Surprise ends: every creature's grant of "surprised" by :data:`SURPRISE` goes.

    ``spare_dead``: the dead keep theirs (a record nothing changes), as when surprise wears off at
    the end of its rounds; combat's end takes it from the dead too, as it always has (sparing them
    there would change what a battle's log records).
    """
    for entity, conditions in esper.get_component(Conditions):
        if "surprised" not in conditions.granted or (spare_dead and "dead" in conditions.active):
            continue  # (revoke would find nothing to take back)
        if conditions.revoke("surprised", SURPRISE):
            state.dirty.add(entity)
