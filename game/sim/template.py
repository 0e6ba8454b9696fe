"""A scenario's battle built once per power table and trust level, copied for each battle of a run.

Building a battle through its commands (every wall and creature settling vision and conditions)
cost about 0.9 ms, as much as the rules of a short battle; a sweep builds the same variant thousands
of times with only the seed changing. A :class:`ScenarioTemplate` builds the map and creatures
once into a :class:`~game.battle.template.BattleTemplate`, and each battle is a copy of it with its
own seed, to which the scenario's reaction scripts are then attached by their commands, as a fresh
build attaches them: the battle, its events and its command log are those of :func:`build`.

A scenario whose build cannot be copied exactly (the template says why) is built afresh for every
battle, as before. Templates belong to a :class:`~game.sim.context.WorkerContext`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from components.powers import Power
from game.battle.facade import Battle
from game.battle.template import BattleTemplate
from game.content.rebuild import use_powers
from game.content.scenario import Scenario
from game.scripting import ScriptHosts

Overrides = tuple[tuple[str, Any], ...]


def build(scenario: Scenario, seed: int, powers: Mapping[str, Power] | None,
          power_overrides: Overrides = (), trusted: bool | None = None,
          script_hosts: ScriptHosts | None = None) -> tuple[Battle, dict[str, int]]:
    """Build the scenario's battle with this seed, using a changed power table when given.

    ``Scenario.build_with_ids`` takes no power table; the battle looks powers up by id only when
    they are used, so swapping its table right after the build (same ids, before combat) is
    exactly a battle built with it. ``trusted`` and ``script_hosts`` as for ``build_with_ids`` (True in
    a sandboxed worker; the worker's shared hosts).

    Raises:
        ScenarioError: the battle refused part of the scenario.
    """
    battle, ids = scenario.build_with_ids(seed, trusted=trusted, script_hosts=script_hosts)
    use_powers(battle, powers, power_overrides)
    return battle, ids


class ScenarioTemplate:
    """The battles of one scenario with one power table and trust level: :meth:`battle` makes each.

    Args:
        scenario: the scenario (its overrides applied).
        powers: a changed power table (None: the scenario's own), as for :func:`build`.
        power_overrides: the overrides that made it (saves record them).
        trusted: as for :func:`build`.
        script_hosts: the hosts the template's own build may use (a battle's are given to :meth:`battle`).

    Attributes:
        untrusted: its battles' scripts run in a script-host process (they need shared hosts).
        refusal: why the battles are built afresh each time ("" when they are copies).
    """

    def __init__(self, scenario: Scenario, powers: Mapping[str, Power] | None = None, power_overrides: Overrides = (),
                 trusted: bool | None = None, script_hosts: ScriptHosts | None = None) -> None:
        self.scenario = scenario
        self.powers = None if powers is None else dict(powers)
        self.power_overrides = tuple(power_overrides)
        self.trusted = trusted
        self.untrusted = not scenario.trusts(trusted)
        self.template: BattleTemplate | None = None
        self.ids: dict[str, int] = {}
        try:
            self.template, self.ids = self._made(script_hosts)
            self.refusal = ""
        except Exception as err:  # each battle is built afresh, and meets (and reports) any error itself
            self.refusal = f"{type(err).__name__}: {err}"

    def _made(self, script_hosts: ScriptHosts | None) -> tuple[BattleTemplate, dict[str, int]]:
        """The template: the scenario's map and creatures, with the power table, reactions not yet attached."""
        battle = self.scenario.new_battle(None, self.trusted, script_hosts)
        try:
            ids = self.scenario.place(battle)
            use_powers(battle, self.powers, self.power_overrides)
            return BattleTemplate(battle), ids
        finally:
            battle.close()

    def battle(self, seed: int, script_hosts: ScriptHosts | None = None) -> tuple[Battle, dict[str, int]]:
        """The scenario's battle with this seed, as :func:`build` makes it, and each creature key's entity id.

        Raises:
            ScenarioError: the battle refused part of the scenario (a reaction script that no longer loads).
            IllegalCommand: a seed out of range.
        """
        if self.template is None:
            return build(self.scenario, seed, self.powers, self.power_overrides, self.trusted, script_hosts)
        battle = self.template.battle(seed, script_hosts)
        return battle, self.scenario.finish(battle, lambda: dict(self.ids))
