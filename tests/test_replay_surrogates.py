"""A save or replay whose JSON spells a lone surrogate (``"\\ud800"``) where no file's text could
hold one is refused naming the file and the key; a folder whose name is not UTF-8 still loads."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from game.content.saves import SaveError, load_game, play_replay, save_game, write_replay
from game.content.scenario import load_scenario
from game.sim.runner import ai_rng, play

ROOT = Path(__file__).resolve().parent.parent


def _written(folder: Path, kind: str) -> tuple[Path, dict]:
    """The ambush (whose rally script the file carries), copied into ``folder`` and played two rounds."""
    (folder / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "assets/scenarios/ambush.toml", folder / "ambush.toml")
    shutil.copy(ROOT / "assets/scripts/rally.star", folder / "scripts/rally.star")
    scenario = load_scenario(folder / "ambush.toml")
    battle = scenario.build(seed=3)
    out = folder / "r.json"
    try:
        play(battle, "tactical", ai_rng(3), 2)
        (write_replay if kind == "replay" else save_game)(out, scenario, battle)
    finally:
        battle.close()
    return out, json.loads(out.read_text(encoding="utf-8"))


@pytest.mark.parametrize("kind", ["replay", "save"])
@pytest.mark.parametrize(("where", "said"), [
    ("files.scripts['rally.star']", "expected text"),
    ("scenario.path", "expected a file path"),
])
def test_a_lone_surrogate_is_refused_naming_the_file_and_the_key(tmp_path: Path, kind: str, where: str,
                                                                  said: str) -> None:
    """The script's text reached the script host, and the path the path resolver, as a
    UnicodeEncodeError: a traceback from deep inside instead of an error naming the key."""
    out, document = _written(tmp_path / "mine", kind)
    if where == "scenario.path":
        document["scenario"]["path"] = "mine\ud800/ambush.toml"
    else:
        document["files"]["scripts"]["rally.star"] += "# \ud800\n"
    out.write_text(json.dumps(document), encoding="utf-8")  # (JSON writes it as the escape \ud800)
    with pytest.raises(SaveError, match=rf"r\.json: {re.escape(where)}: a string with a lone surrogate escape; "
                                        rf"{said}"):
        play_replay(out) if kind == "replay" else load_game(out)


@pytest.mark.slow
def test_a_folder_whose_name_is_not_utf8_records_its_path_and_loads(tmp_path: Path) -> None:
    """Python spells the byte as ``\\udcff``: the one surrogate a path may hold, kept."""
    folder = Path(os.fsdecode(bytes(tmp_path) + b"/bad\xffdir"))
    out, document = _written(folder, "replay")
    assert "\udcff" in document["scenario"]["path"]
    battle, matched, mismatch = play_replay(out)
    battle.close()
    assert matched, mismatch
    document["scenario"]["path"] += "\ud800"  # a surrogate no byte is decoded to
    out.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(SaveError, match=r"scenario\.path: a string with a lone surrogate escape; expected a file path"):
        play_replay(out)


def test_an_emoji_spelt_as_a_surrogate_pair_is_text() -> None:
    """JSON spells a character past U+FFFF as two escapes; only a lone half is refused."""
    from game.content.save_format import lone_surrogate

    assert lone_surrogate(json.loads('{"a": ["\\ud83d\\ude00"]}')) is None
    assert lone_surrogate(json.loads('{"a": [{"b": "\\ude00"}]}')) == "a[0].b"
    assert lone_surrogate(json.loads('{"a": {"\\ud800": 1}}')) == "a: key '\\ud800'"
