"""One bad key is one problem: a wrong top-level value (``ambient``, ``seed``, ``name``) or a power
file that does not load must not also make every creature's own power "unknown".

The scenario's own power files used to be read only when every top-level key was right, so a
``seed = -5`` beside ``power_files = ["bows.toml"]`` reported the seed and then each archer's
``longbow`` as an unknown power: false problems that hide the real one.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.content.scenario import ScenarioError, load_scenario
from tests.power_steps import LEDGE, LONGBOW

ROOT = Path(__file__).resolve().parent.parent
BOWS = LONGBOW


def _folder(tmp_path: Path, top: str, files: str = '["bows.toml"]', seed: str = "7",
            name: str = "The ledge") -> Path:
    text = re.sub(r"(?m)^seed = .*$", f"seed = {seed}", LEDGE, count=1).replace('"The ledge"', f'"{name}"', 1)
    text = text.replace('ambient = "normal"\n', f'{top}\npower_files = {files}\n', 1)
    text = text.replace('powers = ["shoot"]', 'powers = ["longbow"]')
    assert 'powers = ["longbow"]' in text and "power_files" in text
    (tmp_path / "bows.toml").write_text(BOWS, encoding="utf-8")
    path = tmp_path / "scenario.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _problems(path: Path) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    return [line for line in str(caught.value).splitlines() if line.strip()]


def test_the_folder_loads_when_nothing_is_wrong(tmp_path: Path) -> None:
    scenario = load_scenario(_folder(tmp_path, 'ambient = "normal"'))
    assert "longbow" in scenario.powers


@pytest.mark.parametrize(("top", "seed", "name", "key"), [
    ('ambient = "dark"', "7", "Keep", "ambient"),
    ('ambient = "normal"', "-5", "Keep", "seed"),
    ('ambient = "normal"', "7", "x" * 90, "name"),
])
def test_a_bad_top_level_key_is_the_only_problem_reported(tmp_path: Path, top: str, seed: str, name: str,
                                                           key: str) -> None:
    path = _folder(tmp_path, top, seed=seed, name=name)
    with pytest.raises(ScenarioError, match=rf"scenario\.toml: {key}: "):
        load_scenario(path)
    problems = _problems(path)
    assert not any("longbow" in p for p in problems), problems
    assert sum(f"{key}:" in p for p in problems) == 1, problems


@pytest.mark.parametrize(("files", "key"), [('["nowhere.toml"]', r"power_files\[0\]"),
                                             ('["bows.toml", 3]', "power_files")])
def test_a_power_file_that_does_not_load_is_blamed_alone(tmp_path: Path, files: str, key: str) -> None:
    path = _folder(tmp_path, 'ambient = "normal"', files)
    with pytest.raises(ScenarioError, match=rf"scenario\.toml: {key}: "):
        load_scenario(path)
    problems = _problems(path)
    assert not any("unknown power" in p for p in problems), problems


def test_a_creature_power_in_no_file_is_still_unknown(tmp_path: Path) -> None:
    path = _folder(tmp_path, 'ambient = "normal"')
    path.write_text(path.read_text(encoding="utf-8").replace('"longbow"', '"longbw"', 1), encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"creatures\[\d+\]\.powers: unknown power 'longbw' "
                                            r"\(did you mean 'longbow'\?\)"):
        load_scenario(path)
