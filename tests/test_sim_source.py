"""A simulation's battles are built from the texts its parent read and checked, never from the disk
again: a worker (a recycled one, a second one, a Dask one) read the scenario, its power files and its
scripts itself when it started, so a file edited or deleted while a run went on made one run play two
scenarios, the second never checked (a health raised mid-run turned 47% wins into 7%)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from game.sim.config import SimConfig
from game.sim.context import WorkerContext
from game.sim.simulate import checked, chunk_sizes, chunks_of, simulate
from game.sim.worker import run_chunk

SCENARIO = '''
name = "Duel"
seed = 3
power_files = ["mine.toml"]
[map]
rows = ["......", "......", "......"]
[map.legend]
"." = { ground = 0 }
[teams.a]
[teams.b]
[[creatures]]
key = "x"
team = "a"
x = 0
y = 0
powers = ["drain"]
[[creatures]]
key = "y"
team = "b"
x = 3
y = 2
powers = ["drain"]
'''

POWERS = '''
[drain]
name = "Drain"
description = "A touch that drains."
action = "action"
range_ft = 30
targets = "enemy"
attack = { bonus = 2 }
damage = "1d6"
script = "drain.star"
'''

SCRIPT = '''
def on_hit(ctx, target):
    ctx.heal(ctx.user, 1)
'''


def _folder(tmp_path: Path) -> Path:
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "drain.star").write_text(SCRIPT, encoding="utf-8")
    (tmp_path / "mine.toml").write_text(POWERS, encoding="utf-8")
    scenario = tmp_path / "duel.toml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    return scenario


def _edit(scenario: Path) -> None:
    """What a designer's edits mid-run do: the health, the power's dice and the script all change."""
    scenario.write_text(SCENARIO.replace("y = 2\n", "y = 2\nhealth = 500\n"), encoding="utf-8")
    (scenario.parent / "mine.toml").write_text(POWERS.replace('"1d6"', '"9d6"'), encoding="utf-8")
    (scenario.parent / "scripts" / "drain.star").unlink()


def _rows(config: SimConfig, after_check: Callable[[], None] = lambda: None) -> list[tuple[object, ...]]:
    """Each battle of a run in process (a fresh worker context per chunk, as recycled workers start),
    ``after_check`` called once the parent has checked the run and before any battle."""
    scenarios, source = checked(config)
    assert scenarios
    after_check()
    seeds = config.seeds()
    chunks = chunks_of(config, seeds, config.variants(), None, chunk_sizes(config, len(seeds), 1), source)
    rows = [row for chunk in chunks for row in run_chunk(chunk, WorkerContext())]
    return [(r["seed"], r["winner"], r["rounds"], r["error"], r["script_failures"]) for r in rows]


@pytest.mark.slow
def test_a_workers_battles_are_the_checked_files_whatever_the_disk_holds_now(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    sweep = (("powers.drain.damage", ("1d6", "2d6")),)
    clean = _rows(SimConfig(scenario=str(_folder(first)), battles=1, seed=5, max_rounds=5, chunk_size=1, sets=sweep))
    edited_path = _folder(second)
    edited = _rows(SimConfig(scenario=str(edited_path), battles=1, seed=5, max_rounds=5, chunk_size=1, sets=sweep),
                   after_check=lambda: _edit(edited_path))
    assert edited == clean
    assert not any(error for _, _, _, error, _ in edited)  # the deleted script was not looked for
    assert {winner for _, winner, _, _, _ in clean} != {"b"}  # (the edit's health would have b win every one)


@pytest.mark.slow
def test_a_swept_script_is_carried_to_the_workers_too(tmp_path: Path) -> None:
    scenario = _folder(tmp_path)
    (tmp_path / "scripts" / "other.star").write_text(SCRIPT.replace("1)", "2)"), encoding="utf-8")
    config = SimConfig(scenario=str(scenario), battles=1, seed=5, max_rounds=3, chunk_size=1,
                       sets=(("powers.drain.script", ("other.star",)),))
    _, source = checked(config)
    assert "other.star" in source.files["scripts"] and "drain.star" in source.files["scripts"]
    rows = _rows(config, after_check=(tmp_path / "scripts" / "other.star").unlink)
    assert rows and not any(error for _, _, _, error, _ in rows)


@pytest.mark.slow
def test_a_recycling_pool_plays_the_file_as_it_was_when_the_run_began(tmp_path: Path, warm_pool: Any) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    # the table the edited run must equal: the same seeds played on the unedited files, on conftest's
    # warm worker (a pool's workers and recycling change no digit of a table: test_simulate)
    clean = simulate(SimConfig(scenario=str(_folder(first)), battles=3, seed=5, workers=1, chunk_size=1, recycle=1,
                               max_rounds=5, out_dir=None), progress=False, executor=warm_pool)
    edited_path = _folder(second)
    edits: list[Path] = []

    def edit_once(row: object) -> None:
        if not edits:
            edits.append(edited_path)
            _edit(edited_path)

    edited = simulate(SimConfig(scenario=str(edited_path), battles=3, seed=5, workers=1, chunk_size=1, recycle=1,
                                max_rounds=5, out_dir=None), on_row=edit_once, progress=False)
    assert edits and edited.failed == 0
    assert edited.table().replace(str(edited_path), "") == clean.table().replace(str(first / "duel.toml"), "")


@pytest.mark.slow
def test_a_swept_reaction_is_carried_to_the_workers_too(tmp_path: Path) -> None:
    """A scenario override naming a script the file does not (``creatures.x.reactions``) is read when
    its variant is checked; its battles read that text, not the disk."""
    scenario = _folder(tmp_path)
    (tmp_path / "scripts" / "rally.star").write_text("def on_downed(ctx, event):\n    pass\n", encoding="utf-8")
    config = SimConfig(scenario=str(scenario), battles=1, seed=5, max_rounds=3, chunk_size=1,
                       sets=(("creatures.x.reactions", ([], ["rally.star"])),))
    rows = _rows(config, after_check=(tmp_path / "scripts" / "rally.star").unlink)
    assert len(rows) == 2 and not any(error for _, _, _, error, _ in rows)
