"""A save or replay edited by hand (or made by a stranger) is refused with the file and the key when
it asks for what this game never writes; it never makes the game read another file on this disk."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from game.content.files import POWER_FILE_BYTES, SCENARIO_BYTES
from game.content.recorded import SCRIPT_BYTES
from game.content.saves import SaveError, load_game, play_replay, save_game, write_replay
from game.sim.runner import ai_rng, play
from tests.save_steps import SMALL, small_scenario


def _written(out: Path, kind: str) -> dict:
    scenario = small_scenario()
    battle = scenario.build(seed=3)
    try:
        play(battle, "tactical", ai_rng(3), 2)
        (write_replay if kind == "replay" else save_game)(out, scenario, battle)
    finally:
        battle.close()
    document: dict = json.loads(out.read_text(encoding="utf-8"))
    return document


@pytest.mark.parametrize("kind", ["replay", "save"])
def test_a_version_2_file_without_its_scenario_text_is_refused_not_read_from_its_path(tmp_path: Path,
                                                                                      kind: str) -> None:
    """It used to load whatever file ``scenario.path`` named (``/etc/passwd`` was read as TOML), and
    that file's power files and scripts from beside it, not the ones the file carries."""
    out = tmp_path / "r.json"
    document = _written(out, kind)
    elsewhere = tmp_path / "elsewhere" / "small.toml"
    elsewhere.parent.mkdir()
    elsewhere.write_text(SMALL, encoding="utf-8")  # the very scenario: it would replay, and match
    document["scenario"].update(text=None, path=str(elsewhere))
    out.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(SaveError, match=r"r\.json: scenario\.text: expected the scenario's TOML text, which a "
                                        r"version 2 file carries .*got null"):
        play_replay(out) if kind == "replay" else load_game(out)


@pytest.mark.parametrize(("where", "most"), [
    ("files.shipped_power_files['martial.toml']", POWER_FILE_BYTES),
    ("files.power_files['mine.toml']", POWER_FILE_BYTES),
    ("files.scripts['rally.star']", SCRIPT_BYTES),
    ("scenario.text", SCENARIO_BYTES),
])
def test_a_text_the_file_carries_is_held_to_the_size_of_the_file_it_stands_for(tmp_path: Path, where: str,
                                                                              most: int) -> None:
    """A 30 MB ``martial.toml`` (an array of numbers, which tomllib reads at about a megabyte a
    second) took 47 s to be refused; the disk's copy of it is read to 4 MiB at most."""
    out = tmp_path / "r.json"
    document = _written(out, "replay")
    text = "#" * most + "\n"  # one byte past the limit
    if where == "scenario.text":
        document["scenario"]["text"] = text
    else:
        table, name = where.removeprefix("files.").removesuffix("']").split("['")
        document["files"][table][name] = text
    out.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(SaveError, match=rf"r\.json: {re.escape(where)}: {most + 1:,} bytes; expected at most "
                                        rf"{most:,}, the most "):
        play_replay(out)


def test_a_tick_that_gives_one_actor_orders_twice_is_refused_when_the_file_is_read(tmp_path: Path) -> None:
    """The battle keeps only the last orders an actor is given in a tick: the file played as though
    the first had never been written, and a replay holding them said every event matched."""
    out = tmp_path / "r.json"
    document = _written(out, "replay")
    tick = next(c for c in document["commands"] if c["method"] == "tick" and c["kwargs"].get("orders"))
    turns = tick["kwargs"]["orders"]
    turns.append([turns[0][0], []])
    out.write_text(json.dumps(document), encoding="utf-8")
    actor = turns[0][0]
    said = rf"orders\[{len(turns) - 1}\]: actor {actor} is given orders twice in one round \(orders\[0\] too\)"
    with pytest.raises(SaveError, match=rf"r\.json: commands\[\d+\] \(command #\d+ \(tick\)\): {said}"):
        play_replay(out)
