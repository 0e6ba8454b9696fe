"""battles.csv has a column for whatever a ``--hook``'s creatures bring in, or a note says what it lacks.

Its columns were the powers the scenario's creatures have: a hook that gave the hill a mage with a
fireball got a table row "fireball 0.67 uses, 9.83 dealt", while every row of battles.csv left the
uses out and put the damage under ``dealt.other``, the GM's column, with nothing said: a designer
checking the table from the rows found damage the GM never dealt.
"""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import pytest

from game.sim.config import SimConfig
from game.sim.notes import notes
from game.sim.report import CsvSink, VariantStats
from game.sim.simulate import simulate

LEDGE = "assets/scenarios/ledge.toml"
HOOK = '''
def add_mage(battle, ids, seed):
    battle.spawn("Hill mage", 0, 0, team="hill", powers=["fireball"], health=8)


def add_moles(battle, ids, seed):
    battle.spawn("Mole", 0, 0, team="moles", powers=["strike"], health=1000, defense=1000)
'''


@pytest.mark.slow
def test_a_hooks_power_has_columns_of_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "sim_mage_hook.py").write_text(HOOK, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    out = tmp_path / "out"
    result = simulate(SimConfig(scenario=LEDGE, battles=4, seed=0, workers=1, max_rounds=4,
                                hook="sim_mage_hook:add_mage", out_dir=str(out)), progress=False)
    rows = list(csv.DictReader((out / "battles.csv").open()))
    summary = result.summaries()[0]["powers"]
    assert sum(int(r["uses.fireball"]) for r in rows) / len(rows) == summary["fireball"]["uses"] > 0
    assert sum(int(r["dealt.fireball"]) for r in rows) / len(rows) == summary["fireball"]["dealt"]
    assert sum(int(r["dealt.other"]) for r in rows) == 0 and result.unlisted == []


def test_what_no_column_takes_is_named() -> None:
    """A power or team beyond even the battle's table (a hook that replaced it, or spawned a new side)."""
    handle = io.StringIO()
    sink = CsvSink(handle, [VariantStats(0, (), ("hill", "vale"))], ["strike"])
    sink.write({"variant": 0, "battle": 0, "seed": 1, "winner": "hill", "rounds": 2,
                "uses": {"strike": 1, "zap": 2}, "dealt": {"strike": 3, "zap": 4},
                "taken": {"vale": {"strike": 3}, "moles": {"zap": 4}}})
    assert sink.unlisted == {"the uses of power 'zap' (left out)", "the damage of power 'zap' (counted in dealt.other)",
                             "the damage team 'moles' took (left out)"}
    [row] = csv.DictReader(io.StringIO(handle.getvalue()))
    assert [row[k] for k in ("uses.strike", "dealt.strike", "dealt.other", "taken.vale.strike")] == ["1", "3", "4", "3"]


@pytest.mark.slow
def test_a_side_the_scenario_does_not_declare_is_noted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hook's mole (nothing hits it) outlasts both sides: its wins are in no column of the table."""
    (tmp_path / "sim_mage_hook.py").write_text(HOOK, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    result = simulate(SimConfig(scenario=LEDGE, battles=2, seed=0, workers=1, max_rounds=30,
                                hook="sim_mage_hook:add_moles", out_dir=str(tmp_path / "out")), progress=False)
    said = "\n".join(notes(result))
    assert "(as written): 2 battles won by 'moles', a team the scenario does not declare" in said
