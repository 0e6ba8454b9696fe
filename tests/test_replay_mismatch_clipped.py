"""A replay's mismatch shows each side clipped: the file's side is whatever a stranger wrote.

``python -m game replay`` printed the first event that differed whole, so a file with a 4 MB value
in one event (or in a creature's snapshot) printed four megabytes to the terminal, and ``load_game``
raised an error of that size for the window to draw.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from game.content.saves import SaveError, load_game, play_replay, save_game, write_replay
from game.content.scenario import load_scenario

HUGE = "R" * 4_000_000


def _written(tmp_path: Path, write: Callable[..., Any]) -> Path:
    scenario = load_scenario("assets/scenarios/ledge.toml")
    battle = scenario.build()
    try:
        battle.start_combat()
        battle.tick()
        path = tmp_path / "f.json"
        write(path, scenario, battle)
        return path
    finally:
        battle.close()


def _tampered(path: Path, key: str) -> Path:
    document = json.loads(path.read_text())
    first = document[key][0]
    first[next(k for k in first if k not in ("kind", "entity"))] = HUGE
    path.write_text(json.dumps(document))
    return path


@pytest.mark.parametrize("key", ["events", "creatures"])
def test_a_replay_mismatch_is_clipped(tmp_path: Path, key: str) -> None:
    battle, matched, mismatch = play_replay(_tampered(_written(tmp_path, write_replay), key))
    battle.close()
    assert not matched and mismatch is not None
    assert "RRRR" in mismatch and "(4,0" in mismatch and "characters)" in mismatch
    assert len(mismatch) < 2_000


def test_a_save_refused_for_a_mismatch_says_so_briefly(tmp_path: Path) -> None:
    path = _tampered(_written(tmp_path, save_game), "events")
    with pytest.raises(SaveError, match=r"does not replay: event #0 differs: the file has .*characters\)") as caught:
        load_game(path)
    assert len(str(caught.value)) < 2_000
