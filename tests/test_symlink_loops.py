"""A symlink loop in a scenario's folder is named as a loop, not as a link out of the folder.

A script, a ``scripts`` folder or a power file that was a link to itself (or a ring of links) was
refused with "leads outside the folder (a symlink out of it is not followed)": a designer looking
for a link out of the folder found none.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from game.content.scenario import ScenarioError, load_scenario
from tests.scenario_steps import SCRIPTED_ZAP, two_sided

SCENARIO = two_sided('Loops', top='seed = 1\nreactions = ["r.star"]\npower_files = ["p.toml"]')
SCRIPT = "def on_hit(ctx, target):\n    pass\n"
REACTION = "def on_downed(ctx, event):\n    pass\n"
LOOP = "is a symlink loop"


def _folder(tmp_path: Path) -> Path:
    (tmp_path / "scripts").mkdir()
    (tmp_path / "s.toml").write_text(SCENARIO)
    (tmp_path / "p.toml").write_text(SCRIPTED_ZAP)
    (tmp_path / "scripts" / "z.star").write_text(SCRIPT)
    (tmp_path / "scripts" / "r.star").write_text(REACTION)
    return tmp_path / "s.toml"


def _relink(path: Path, target: str) -> None:
    path.unlink()
    os.symlink(target, path)


def test_the_folder_loads_without_links(tmp_path: Path) -> None:
    assert load_scenario(_folder(tmp_path)).power_files == ("p.toml",)


def test_a_script_linked_to_itself_is_a_loop(tmp_path: Path) -> None:
    path = _folder(tmp_path)
    _relink(tmp_path / "scripts" / "z.star", "z.star")
    with pytest.raises(ScenarioError, match=r"power \[zap\] key 'script': 'z.star' cannot be read .*'z.star' "
                                            + LOOP) as caught:
        load_scenario(path)
    assert "outside" not in str(caught.value)


def test_a_ring_of_reaction_links_is_a_loop(tmp_path: Path) -> None:
    path = _folder(tmp_path)
    _relink(tmp_path / "scripts" / "r.star", "r2.star")
    os.symlink("r.star", tmp_path / "scripts" / "r2.star")
    with pytest.raises(ScenarioError, match=r"reactions\[0\]: r.star: .*'r.star' " + LOOP):
        load_scenario(path)


def test_a_scripts_folder_linked_to_itself_is_a_loop(tmp_path: Path) -> None:
    path = _folder(tmp_path)
    for child in (tmp_path / "scripts").iterdir():
        child.unlink()
    (tmp_path / "scripts").rmdir()
    os.symlink("scripts", tmp_path / "scripts")
    with pytest.raises(ScenarioError, match=r"'scripts' " + LOOP) as caught:
        load_scenario(path)
    assert "outside" not in str(caught.value)


def test_a_power_file_linked_to_itself_is_a_loop(tmp_path: Path) -> None:
    path = _folder(tmp_path)
    _relink(tmp_path / "p.toml", "p.toml")
    with pytest.raises(ScenarioError, match=r"power_files\[0\]: 'p.toml' " + LOOP):
        load_scenario(path)


def test_a_link_out_of_the_folder_is_still_called_one(tmp_path: Path) -> None:
    path = _folder(tmp_path)
    outside = tmp_path.parent / f"{tmp_path.name}-outside.star"
    outside.write_text(SCRIPT)
    _relink(tmp_path / "scripts" / "z.star", str(outside))
    with pytest.raises(ScenarioError, match="it leads outside the script folder"):
        load_scenario(path)
