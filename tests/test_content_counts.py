"""How many of each thing a scenario may name, besides its map, lights and creatures
(tests/test_content_limits.py): powers, power files, scripts and teams. Each count a stranger's file
gives is bounded where it is read, so that the file is refused with one line naming the key and the
limit, instead of a battle whose round or whose report takes minutes (docs/limits.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.content.powers import MAX_POWERS, default_powers
from game.content.references import MAX_POWER_FILES
from game.content.scenario import ScenarioError, load_scenario
from game.content.scenario_parse import MAX_CREATURES, MAX_TEAMS

HEAD = """
name = "counts"
{top}
[map]
rows = ["......", "......"]
[map.legend]
"." = {{ ground = 0 }}
{teams}
[[creatures]]
key = "one"
team = "a"
x = 0
y = 0
[[creatures]]
key = "two"
team = "b"
x = 3
y = 1
"""


def power_table(power_id: str) -> str:
    return (f'[{power_id}]\nname = "{power_id}"\ndescription = "a jab"\naction = "action"\nrange_ft = 30\n'
            'attack = { bonus = 1 }\ndamage = "1d4"\n')


def folder(tmp_path: Path, top: str = "", teams: str = "[teams.a]\n[teams.b]\n") -> Path:
    path = tmp_path / "counts.toml"
    path.write_text(HEAD.format(top=top, teams=teams))
    return path


def refusal(path: Path) -> str:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: ")
    return message


def test_a_battle_takes_as_many_powers_as_the_limit_and_one_more_is_refused(tmp_path: Path) -> None:
    room = MAX_POWERS - len(default_powers())
    (tmp_path / "mine.toml").write_text("".join(power_table(f"p{i}") for i in range(room)))
    (tmp_path / "more.toml").write_text(power_table("one-more"))
    assert len(load_scenario(folder(tmp_path, 'power_files = ["mine.toml"]')).powers) == MAX_POWERS
    message = refusal(folder(tmp_path, 'power_files = ["mine.toml", "more.toml"]'))
    assert f"power_files: the battle would have {MAX_POWERS + 1} powers" in message
    assert f"expected at most {MAX_POWERS}" in message


def test_a_power_file_of_too_many_powers_is_refused_before_each_is_checked(tmp_path: Path) -> None:
    (tmp_path / "huge.toml").write_text("".join(f"[p{i}]\n" for i in range(MAX_POWERS + 1)))  # none would pass
    message = refusal(folder(tmp_path, 'power_files = ["huge.toml"]'))
    assert f"power_files[0]: {tmp_path / 'huge.toml'}: {MAX_POWERS + 1} powers; expected at most {MAX_POWERS}" \
        in message


def test_too_many_power_files_are_refused_before_any_is_read(tmp_path: Path) -> None:
    names = ", ".join(f'"f{i}.toml"' for i in range(MAX_POWER_FILES + 1))  # none of them exists
    message = refusal(folder(tmp_path, f"power_files = [{names}]"))
    assert f"power_files: {MAX_POWER_FILES + 1} files; expected at most {MAX_POWER_FILES}" in message
    assert "f0.toml" not in message


def test_a_scenario_declares_as_many_teams_as_it_may_hold_creatures_and_one_more_is_refused(tmp_path: Path) -> None:
    assert MAX_TEAMS == MAX_CREATURES
    most = "[teams.a]\n[teams.b]\n" + "".join(f"[teams.t{i}]\n" for i in range(MAX_TEAMS - 2))
    assert len(load_scenario(folder(tmp_path, teams=most)).teams) == MAX_TEAMS
    message = refusal(folder(tmp_path, teams=most + "[teams.one-more]\n"))
    assert f"teams: {MAX_TEAMS + 1} teams; expected at most {MAX_TEAMS}" in message
    assert "t0" not in message  # refused before any is read, not listed
