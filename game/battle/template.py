"""Battle templates: a battle built once, copied for every battle that starts from it.

A simulation plays thousands of battles of one scenario, and building one through its commands
(every wall, light and creature settling vision and conditions) cost about as much as the rules
of a whole greedy battle. A :class:`BattleTemplate` keeps what such a build leaves (the creatures'
components, the battle's state, the command log) and gives each new battle its own copy of it,
with its own seed, its own esper world and its own processors. Building draws nothing from the
generator (a template refuses a battle whose generator has moved), so a copy with seed ``s`` is
exactly the battle a fresh build with ``s`` is, down to its command log: saves and replays, which
rebuild a battle from its log, agree with it.

The copy is independent (:func:`game.battle.copies.copier`): every container and every changeable
component is its own; only values that nothing may change are shared (events, lights, creatures'
names, enum members, read-only arrays).

Who keeps a template decides how long it lives (a simulation worker's context); nothing here is
module state.
"""

from __future__ import annotations

import random
from typing import Any

import esper

from game.battle.copies import Maker, Uncopyable, copier
from game.battle.facade import Battle
from game.battle.validate_whole import CheckedPowers
from game.scripting import ScriptHosts
from systems import schedule
from systems.paths import Paths
from systems.state import SNAPSHOT_FIELDS


def _refusal(battle: Battle) -> str | None:
    """Why ``battle`` cannot be copied as a fresh build (None: it can).

    A copy makes a new battle with the same constructor arguments and puts the state in: so the
    battle must be as its constructor and its commands left it, with nothing only it holds (a
    reaction, a handler, a system added, a script called) and an unmoved generator.
    """
    state, scripts = battle.state, battle.scripts
    creatures = list(range(1, len(state.creatures) + 1))
    checks = (
        (battle.closed, "it is closed"),
        (state.round != 0 or state.in_combat, "combat has begun"),
        (state.rng.getstate() != random.Random(battle.seed).getstate(), "its generator has been drawn from"),
        (state.creatures != creatures or list(esper.get_entities()) != creatures
         or battle.last_entity != len(creatures),
         "its entities are not its creatures, numbered from 1"),
        ([type(p) for _, p in battle.phases.entries] != list(schedule.ORDER), "systems were added"),
        (len(state.effect_end_hooks) != 1, "effect-end hooks were added"),
        (bool(scripts.reactions or scripts.python_handlers), "it has reactions or event handlers"),
        (bool(scripts.calls or scripts.out or scripts.expected or scripts.budget.battle_used),
         "scripts have run"),
        (battle.recording.depth != 0 or battle.recording.orders is not None, "a command is under way"),
    )
    return next((why for failed, why in checks if failed), None)


class BattleTemplate:
    """A built battle, kept to start other battles from (see the module's docstring).

    Args:
        battle: a battle as its constructor and its commands made it (a scenario's map and
            creatures); it is left as it is, and may be closed afterwards.

    Raises:
        ValueError: the battle cannot be copied exactly (combat began, its generator moved, it has
            reaction scripts, handlers or systems of its own...): the message says why.
    """

    def __init__(self, battle: Battle) -> None:
        battle.make_current()
        why = _refusal(battle)
        if why is not None:
            raise ValueError(f"this battle cannot be a template: {why}")
        state = battle.state
        self.kind = type(battle)
        self.options: dict[str, Any] = {
            "width": state.terrain.width, "height": state.terrain.height, "rules": state.rules,
            "powers": CheckedPowers(state.powers),  # checked once here, not again for every copy
            "trusted_scripts": battle.scripts.trusted,
            "script_dir": battle.scripts.script_dir, "script_limits": battle.scripts.budget.limits,
            "script_texts": battle.scripts.reads.recorded,
            "caches": state.caches}
        self.power_overrides = battle.power_overrides
        self.kept = dict(battle.scripts.reads.read)  # the texts its scenario's load read, kept by each copy
        self.heard = battle.scripts.seen
        payload: tuple[Any, ...] = ([esper.components_for_entity(e) for e in state.creatures],
                                    {name: getattr(state, name) for name in SNAPSHOT_FIELDS},
                                    battle.command_log, sorted(battle.ids), battle.display_names)
        try:
            self.copy: Maker = copier(payload)
        except Uncopyable as err:
            raise ValueError(f"this battle cannot be a template: {err}") from None

    def battle(self, seed: int, script_hosts: ScriptHosts | None = None) -> Battle:
        """A new battle with this seed, as the template's build would have made it with that seed.

        ``script_hosts`` as for the battle's constructor (None: the battle's own, or its caches'
        in-process hosts when trusted).

        Raises:
            IllegalCommand: a seed out of range (as the constructor says).
        """
        battle = self.kind(seed=seed, script_hosts=script_hosts, **self.options)
        try:
            battle.scripts.reads.keep(self.kept)
            self._fill(battle)
        except BaseException:
            battle.close()
            raise
        return battle

    def _fill(self, battle: Battle) -> None:
        """Put a copy of the template's creatures and state into a newly made battle."""
        components, values, log, ids, names = self.copy()
        battle.make_current()
        for entity, parts in enumerate(components, start=1):
            made = esper.create_entity(*parts)
            if made != entity:  # a new world numbers from 1, as the template's did (checked)
                raise RuntimeError(f"a template's creature {entity} came out as {made}")
        state = battle.state
        for name, value in values.items():
            setattr(state, name, value)
        state.paths = Paths(state.terrain, state.rules, state.caches)  # its map is the copy's
        battle.ids.update(ids)  # the script bridge holds this set
        battle.last_entity = len(components)
        battle.recording.log.extend(log)
        battle.display_names = names
        battle.power_overrides = self.power_overrides
        battle.scripts.seen = self.heard
