"""Script files are read from inside the script folder only, also when battles share what they found."""

from __future__ import annotations

from pathlib import Path

import pytest

from game import Battle
from game.scripting import ScriptError
from systems.caches import MapCaches

SCRIPT = "def on_hit(ctx, target):\n    return None\n"


def _load(folder: Path, caches: MapCaches, name: str = "s.star") -> frozenset[str]:
    with Battle(seed=1, script_dir=folder, caches=caches) as b:
        return b.scripts.load(name)


def test_a_symlink_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    folder, outside = tmp_path / "scripts", tmp_path / "elsewhere.star"
    folder.mkdir()
    outside.write_text(SCRIPT)
    (folder / "s.star").symlink_to(outside)
    with pytest.raises(ScriptError, match="outside the script folder"):
        _load(folder, MapCaches())


def test_a_script_folder_that_is_a_symlink_out_of_its_own_folder_is_refused(tmp_path: Path) -> None:
    """A scenario's ``scripts`` linked elsewhere would read files from anywhere: refused by the battle
    too, not only when the scenario loads."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "s.star").write_text(SCRIPT)
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "scripts").symlink_to(outside)
    with pytest.raises(ScriptError, match="'scripts' leads outside the folder"):
        _load(tmp_path / "pack" / "scripts", MapCaches())
    assert "on_hit" in _load(outside, MapCaches())


def test_a_file_found_inside_then_swapped_for_a_symlink_out_is_refused_in_the_next_battle(tmp_path: Path) -> None:
    folder, outside = tmp_path / "scripts", tmp_path / "elsewhere.star"
    folder.mkdir()
    outside.write_text(SCRIPT)
    (folder / "s.star").write_text(SCRIPT)
    caches = MapCaches()
    assert "on_hit" in _load(folder, caches)
    (folder / "s.star").unlink()
    (folder / "s.star").symlink_to(outside)
    with pytest.raises(ScriptError, match="outside the script folder"):
        _load(folder, caches)


def test_a_file_changed_between_battles_is_read_again(tmp_path: Path) -> None:
    folder = tmp_path / "scripts"
    folder.mkdir()
    (folder / "s.star").write_text(SCRIPT)
    caches = MapCaches()
    assert _load(folder, caches) == frozenset({"on_hit"})
    (folder / "s.star").write_text(SCRIPT + "def on_use(ctx):\n    return None\n")
    assert _load(folder, caches) == frozenset({"on_hit", "on_use"})
