"""A path holding a NUL character, handed to the Python API (a command line cannot carry one), is
refused as every unreadable path is: the loader's own error naming the path, not os.stat's bare
``ValueError: embedded null byte``, which named no file and was no ScenarioError or SaveError."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.content.atomic import atomic_write
from game.content.saves import SaveError, load_game, play_replay, save_game
from game.content.scenario import ScenarioError, load_scenario

ROOT = Path(__file__).resolve().parent.parent


def test_a_scenario_path_with_a_nul_is_a_scenario_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match=r"keep\x00\.toml.*path holds a NUL character"):
        load_scenario(tmp_path / "keep\0.toml")


@pytest.mark.parametrize("read", [load_game, play_replay])
def test_a_save_path_with_a_nul_is_a_save_error_naming_it(read: object, tmp_path: Path) -> None:
    with pytest.raises(SaveError, match=r"a\x00\.json.*path holds a NUL character"):
        read(tmp_path / "a\0.json")  # type: ignore[operator]


def test_a_save_to_a_path_with_a_nul_is_a_save_error_and_writes_nothing(tmp_path: Path) -> None:
    scenario = load_scenario(ROOT / "assets" / "scenarios" / "ledge.toml")
    battle, _ = scenario.build_with_ids()
    with pytest.raises(SaveError, match=r"b\x00\.json.*cannot hold a NUL character"):
        save_game(tmp_path / "b\0.json", scenario, battle)
    battle.close()
    with pytest.raises(OSError, match="NUL"):
        atomic_write(tmp_path / "c\0", b"x")
    assert list(tmp_path.iterdir()) == []
