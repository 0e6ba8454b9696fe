"""A save or replay whose JSON gives one key twice in an object is refused naming the file and the
key: ``json`` kept the last silently, so a file could show its reader one seed or script and be
played with another."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.content.saves import SaveError, load_game, play_replay, save_game, write_replay
from tests.save_steps import small_scenario


def _written(folder: Path, kind: str) -> Path:
    scenario = small_scenario()
    battle = scenario.build()
    out = folder / "twice.json"
    try:
        battle.tick()
        (write_replay if kind == "replay" else save_game)(out, scenario, battle)
    finally:
        battle.close()
    return out


@pytest.mark.parametrize("kind", ["replay", "save"])
def test_a_key_given_twice_is_refused_naming_it(tmp_path: Path, kind: str) -> None:
    out = _written(tmp_path, kind)
    text = out.read_text(encoding="utf-8")
    seed = json.loads(text)["seed"]
    out.write_text(text.replace('"seed": ', f'"seed": {seed + 1}, "seed": ', 1), encoding="utf-8")
    with pytest.raises(SaveError, match=r"twice\.json: not a save this game wrote: an object holds the key "
                                        r"'seed' twice"):
        play_replay(out) if kind == "replay" else load_game(out)


def test_a_key_given_twice_deep_inside_is_refused(tmp_path: Path) -> None:
    """In a command's kwargs as at the top: every object of the file is read alike."""
    out = _written(tmp_path, "save")
    document = json.loads(out.read_text(encoding="utf-8"))
    document["commands"].append({"method": "tick", "args": [], "kwargs": {}})
    text = json.dumps(document).replace('"kwargs": {}}]', '"kwargs": {"orders": null, "orders": []}}]')
    out.write_text(text, encoding="utf-8")
    with pytest.raises(SaveError, match=r"an object holds the key 'orders' twice"):
        load_game(out)


def test_a_save_this_game_writes_still_loads(tmp_path: Path) -> None:
    load_game(_written(tmp_path, "save")).close()
