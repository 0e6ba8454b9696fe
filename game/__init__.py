"""The game: the Battle facade, and the loaders a user of the core needs.

Names are loaded on first use (PEP 562), so that importing a light part of the package (the
script host's worker process imports ``game.scripting`` alone) never loads the battle, esper,
numpy or tcod.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from game.battle.errors import IllegalCommand, UnknownEntity
    from game.battle.facade import Battle
    from game.content.powers import load_powers
    from game.content.saves import load_game, save_game
    from game.content.scenario import Scenario, ScenarioError, load_scenario, load_scenario_text

#: public name -> the module that defines it (read-only: what the package offers is fixed here)
_PUBLIC: Mapping[str, str] = MappingProxyType({
    "Battle": "game.battle.facade",
    "IllegalCommand": "game.battle.errors",
    "UnknownEntity": "game.battle.errors",
    "Scenario": "game.content.scenario",
    "ScenarioError": "game.content.scenario",
    "load_scenario": "game.content.scenario",
    "load_scenario_text": "game.content.scenario",
    "load_powers": "game.content.powers",
    "save_game": "game.content.saves",
    "load_game": "game.content.saves",
})

__all__ = [
    "Battle",
    "IllegalCommand",
    "Scenario",
    "ScenarioError",
    "UnknownEntity",
    "load_game",
    "load_powers",
    "load_scenario",
    "load_scenario_text",
    "save_game",
]


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'game' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
