"""A recorded battle built again: its scenario on its seed, with the power table it was played with.

What a save's load, the window's rewind and its replay viewer each start from before they play the
recorded commands (:meth:`game.battle.facade.Battle.follow`), and what a simulation's battles are
given their sweep's table by: one place, so the three cannot come to disagree on how a saved battle
is made again, nor on where its replay goes past what the file recorded (:func:`past_the_file`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from components.powers import Power
from game.battle.facade import Battle
from game.content.save_format import Command
from game.content.scenario import Scenario


@dataclass(frozen=True)
class ReplayFile:
    """What a replay or save holds, read and checked but not played: the scenario, the seed, the
    commands after the build, the power table its battle used (None: the scenario's own), the
    number of commands its battle was built with (None: not checked), and how many events it holds
    (None: not bounded; a replay that gives more has gone past what the file recorded)."""

    scenario: Scenario
    seed: int
    commands: list[Command]  # (name, args, kwargs) as game.content.save_format decodes them
    powers: dict[str, Power] | None = None
    power_overrides: tuple[tuple[str, Any], ...] = ()
    build_commands: int | None = None
    events: int | None = None


class BuildMismatch(ValueError):
    """The scenario builds with another number of commands than the recorded battle was built with."""


def use_powers(battle: Battle, powers: Mapping[str, Power] | None, overrides: tuple[tuple[str, Any], ...]) -> None:
    """Give the battle the power table it is played with (None: keep the scenario's own) and the
    ``powers.ID.KEY`` overrides that made it, which saves and replays record."""
    if powers is not None:
        battle.powers = dict(powers)
        battle.power_overrides = tuple(overrides)


def rebuilt(scenario: Scenario, seed: int, powers: Mapping[str, Power] | None = None,
            overrides: tuple[tuple[str, Any], ...] = (), build_commands: int | None = None) -> Battle:
    """The scenario built on ``seed`` with ``powers`` (see :func:`use_powers`), checked to build with
    ``build_commands`` commands when given (the count the recorded battle was built with: a scenario
    edited since builds another battle, and its log would then be played on the wrong one).

    Raises:
        ScenarioError: the scenario does not build.
        BuildMismatch: it builds with another number of commands (the new battle is closed first).
    """
    battle = scenario.build(seed=seed)
    try:
        if build_commands is not None and len(battle.command_log) != build_commands:
            raise BuildMismatch(f"the scenario now builds with {len(battle.command_log)} commands, the battle "
                             f"was built with {build_commands}")
        use_powers(battle, powers, overrides)
    except BaseException:
        battle.close()
        raise
    return battle


def past_the_file(battle: Battle, recorded: int | None) -> bool:
    """Whether a replayed battle has given more events than its file recorded (``recorded``; None:
    no bound): nothing after could match the file, so a replay, a save's check and the window's
    timeline all stop at that command (a file of millions of ticks past its battle's end played
    them all). Asked after every command, so it counts the log itself: ``Battle.events`` is a copy."""
    return recorded is not None and len(battle.state.events) > recorded
