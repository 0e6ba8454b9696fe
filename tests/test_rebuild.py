"""A recorded battle built again: one way for a save's load, the window's rewind and its replay viewer.

They built the scenario, installed the sweep's power table and played the log each in their own
words; the replay viewer never checked that the scenario still builds the battle the log was played
on, and left a battle open when a command failed; ``Battle.replay`` left its new battle open too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from game import Battle, IllegalCommand
from game.content.rebuild import rebuilt
from game.content.scenario import load_scenario
from game.play import timeline as timeline_module
from game.play.timeline import Timeline

LEDGE = Path(__file__).resolve().parent.parent / "assets" / "scenarios" / "ledge.toml"


def test_a_scenario_that_now_builds_another_battle_is_refused() -> None:
    scenario = load_scenario(LEDGE)
    built = scenario.build(seed=3)
    count = len(built.command_log)
    built.close()
    with pytest.raises(ValueError, match=rf"the scenario now builds with {count} commands, the battle was built "
                                         rf"with {count + 1}"):
        rebuilt(scenario, 3, build_commands=count + 1)
    with pytest.raises(ValueError, match="now builds with"):
        Timeline(scenario, 3, [("tick", [], {})], build_commands=count - 1)
    timeline = Timeline(scenario, 3, [("tick", [], {})], build_commands=count)
    assert timeline.battle.round == 0
    timeline.battle.close()


def test_the_replay_viewer_refuses_what_is_not_a_command_and_closes_what_it_built(monkeypatch) -> None:
    scenario = load_scenario(LEDGE)
    with pytest.raises(IllegalCommand, match="the log names 'explode', which is not a battle command"):
        Timeline(scenario, 3, [("tick", [], {}), ("explode", [], {})])
    timeline = Timeline(scenario, 3, [("tick", [], {})])
    made: list[Any] = []

    def kept(*args: Any) -> Any:
        made.append(rebuilt(*args))
        return made[-1]

    monkeypatch.setattr(timeline_module, "rebuilt", kept)
    timeline.commands.append(("damage", [9999, 1], {}))
    with pytest.raises(ValueError):
        timeline.battle_after(2)
    assert made and made[-1].closed
    timeline.battle.close()


def test_battle_replay_closes_the_battle_it_made_when_the_log_is_refused() -> None:
    made: list[Battle] = []
    with pytest.raises(IllegalCommand, match="the log names 'explode'"):
        Battle.replay(1, 8, 8, None, [("spawn", ["a", 1, 1], {}), ("explode", [], {})], extend=made.append)
    assert made[0].closed


def test_the_replay_viewer_names_a_bad_entry_by_its_place_in_the_whole_log_as_a_save_does() -> None:
    scenario = load_scenario(LEDGE)
    built = scenario.build(seed=3)
    count = len(built.command_log)
    built.close()
    with pytest.raises(IllegalCommand, match=rf"the log's entry {count + 1}: tick cannot take the arguments"):
        Timeline(scenario, 3, [("tick", [], {}), ("tick", [1, 2, 3], {})], build_commands=count)


def test_a_replay_files_commands_are_typed_as_the_save_format_decodes_them() -> None:
    """``ReplayFile.commands`` was ``list[Any]`` after it moved here: mypy let any list through as a
    replay's commands, where ``(name, args, kwargs)`` is what the format decodes and the battle follows."""
    import typing

    from game.content.rebuild import ReplayFile
    from game.content.save_format import Command

    assert typing.get_type_hints(ReplayFile)["commands"] == list[Command]
