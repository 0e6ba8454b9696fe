"""A save's or replay's override keys are held to 200 characters where the file is read.

An override key is ``creatures.KEY.FIELD``, ``teams.NAME.FIELD`` and the like, at most about 100
characters; a stranger's file with a key of a megabyte was read and refused by the scenario's loader
with the key quoted whole, a refusal of one to two megabytes for the terminal or the window.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.content.save_format import MAX_OVERRIDE_KEY
from game.content.saves import SaveError, play_replay, write_replay
from game.content.scenario import load_scenario


def _replay(tmp_path: Path) -> tuple[Path, dict]:
    scenario = load_scenario("assets/scenarios/ledge.toml")
    battle = scenario.build()
    try:
        battle.start_combat()
        path = tmp_path / "r.json"
        write_replay(path, scenario, battle)
    finally:
        battle.close()
    return path, json.loads(path.read_text())


@pytest.mark.parametrize(("where", "key"), [
    (("scenario", "overrides"), "creatures." + "k" * 1_000_000 + ".health"),
    (("powers",), "powers.strike." + "k" * 1_000_000),
])
def test_a_huge_override_key_is_refused_briefly(tmp_path: Path, where: tuple[str, ...], key: str) -> None:
    path, document = _replay(tmp_path)
    table = document
    for step in where[:-1]:
        table = table[step]
    table[where[-1]] = [[key, 1]]
    path.write_text(json.dumps(document))
    with pytest.raises(SaveError, match=rf"each key at most {MAX_OVERRIDE_KEY} characters") as caught:
        play_replay(path)
    assert len(str(caught.value)) < 1_000


def test_a_key_of_the_longest_kind_is_read(tmp_path: Path) -> None:
    path, document = _replay(tmp_path)
    document["scenario"]["overrides"] = [["teams." + "t" * 80 + ".colour", "#ffffff"]]
    path.write_text(json.dumps(document))
    with pytest.raises(SaveError, match="its scenario does not load: .*teams.ttt"):  # read, and no such team
        play_replay(path)
