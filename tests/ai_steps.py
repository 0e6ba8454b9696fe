"""Helpers shared by the computer player's tests: what a decision moves to and uses, and battles of a
scenario played by computer players."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from game import ai
from game.battle.facade import Battle
from game.sim.context import WorkerContext, split_overrides
from game.sim.runner import ai_rng, play
from game.sim.template import build


def moves_and_uses(decision: ai.Decision) -> tuple[list[tuple[int, int]], list[tuple[str, dict]]]:
    """The squares a decision walks through and the ``(power, arguments)`` it uses, in order."""
    moves = [(args[1], args[2]) for name, args, _ in decision.commands if name == "move"]
    uses = [(args[1], kwargs) for name, args, kwargs in decision.commands if name == "use_power"]
    return moves, uses


def end_square(battle: Battle, me: int, decision: ai.Decision) -> tuple[int, int]:
    """Where the creature stands once the decision's moves are made."""
    moves, _ = moves_and_uses(decision)
    return moves[-1] if moves else battle.square_of(me)


def played(path: Path, overrides: Iterable[tuple[str, Any]], policies: str, seeds: Iterable[int],
           max_rounds: int) -> Iterator[tuple[str | None, Battle]]:
    """A battle of the scenario at ``path`` (with ``overrides``) for each seed, built as the simulation
    builds it and played by ``policies`` for at most ``max_rounds``: its winner and the battle, which is
    closed once the caller has read it (the build-and-play loop of ``game.sim.runner.run_battle``)."""
    context = WorkerContext()
    powers, rules = split_overrides(overrides)
    scenario = context.scenario_for(str(path), rules)
    table = context.powers_for(powers, scenario)
    for seed in seeds:
        battle, _ = build(scenario, seed, table, powers)
        try:
            winner, *_ = play(battle, policies, ai_rng(seed), max_rounds)
            yield winner, battle
        finally:
            battle.close()
