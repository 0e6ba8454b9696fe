"""Swept values told apart by what they mean, not by how they are spelt.

``--set`` compares its values as TOML reads them (``4``, ``+4`` and ``0x4`` are one value), which is
not enough once a key's value is parsed further: ``1d4`` and ``1d4+0`` are one die, ``30`` and
``30.0`` one range, a terrain blocking ``["sight", "movement"]`` or ``["movement", "sight"]`` one
terrain. Two such
variants would play the same battles under two labels, passing for a finding. So before any battle,
each value of a swept key is applied alone to the scenario and compared with the others by what the
battle is built from: the power it makes (a ``powers.ID.FIELD`` key) or the scenario's parsed fields
(every other key), with the lists whose order a battle ignores compared as sets (a creature's
powers keep their order: the random player draws among them, and keys 1-9 follow it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from game.content.scenario import Scenario
from game.content.toml_values import toml_shown
from game.sim.context import POWER_PREFIX, WorkerContext
from game.sim.flags import FlagError

__all__ = ["check_distinct", "meaning"]

#: The scenario fields a battle is built from (names, colours and the seed are refused as sweeps:
#: see game.sim.cli.inert_key).
_BUILT_FROM = ("width", "height", "ambient", "rules", "rows", "lights", "areas", "reactions")


def meaning(path: str, key: str, value: Any, context: WorkerContext) -> Any:
    """What the scenario at ``path`` is, for a battle, with ``key`` set to ``value`` alone: the power
    it makes, or the scenario's fields with terrain's ``blocks`` as sets.

    Raises:
        ScenarioError / ValueError: the value cannot be used (as when its variant is checked).
    """
    base = context.scenario_for(path, ())
    if key.startswith(POWER_PREFIX):
        powers = context.powers_for(((key, value),), base)
        power_id = key.split(".")[1]
        return powers.get(power_id) if powers is not None else base.powers.get(power_id)
    return _built_from(context.scenario_for(path, ((key, value),)))


def _built_from(scenario: Scenario) -> tuple[Any, ...]:
    creatures = tuple(dataclasses.replace(c, name="") for c in scenario.creatures)
    legend = tuple(sorted((char, dataclasses.replace(entry, name="", blocks=tuple(sorted(set(entry.blocks)))))
                          for char, entry in scenario.legend.items()))
    teams = tuple(sorted(scenario.teams))
    return (*(getattr(scenario, name) for name in _BUILT_FROM), creatures, legend, teams)


def check_distinct(path: str, sets: Sequence[tuple[str, Sequence[Any]]], context: WorkerContext) -> None:
    """Every swept key's values mean different battles.

    Raises:
        FlagError: naming the key and the two values that mean the same, like ``--set`` refusing a
            value given twice.
        ScenarioError / ValueError: a value that cannot be used at all.
    """
    for key, values in sets:
        seen: list[tuple[Any, Any]] = []
        for value in values:
            made = meaning(path, key, value, context)
            same = [earlier for earlier, other in seen if other == made]
            if same:
                what = "power" if key.startswith(POWER_PREFIX) else "scenario"
                raise FlagError(f"--set {key}: {toml_shown(same[0])} and {toml_shown(value)} make the same {what}, "
                                f"so their variants would be the same battles (each variant once)")
            seen.append((value, made))
