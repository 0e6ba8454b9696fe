"""battles.csv holds what a row's text columns say (a replay's path, an error) with each character
that has no place in a line spelt as an escape, as every report line does."""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path
from typing import Any

import pytest

from game.sim.config import SimConfig
from game.sim.report import CsvSink, VariantStats
from game.sim.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent


def test_a_run_into_a_folder_whose_name_is_not_utf8_writes_its_table(tmp_path: Path, warm_pool: Any) -> None:
    """Python reads the folder name's byte 0xff as '\\udcff', which the table's UTF-8 writer refused:
    the run died at its first row ("simulate: 'utf-8' codec can't encode character '\\udcff'") and its
    table was lost."""
    out = Path(os.fsdecode(bytes(tmp_path) + b"/bad\xffdir"))
    result = simulate(SimConfig(scenario=str(ROOT / "assets/scenarios/ledge.toml"), battles=1, workers=1,
                                max_rounds=3, only_seeds=[5], out_dir=str(out)), progress=False,
                      executor=warm_pool)  # conftest's warm worker: the table is what is tested
    assert result.done == 1 and result.write_errors == []
    [row] = csv.DictReader((out / "battles.csv").open(encoding="utf-8"))
    assert row["replay"] == f"{tmp_path}/bad\\udcffdir/replays/variant-0/seed-5.json"
    assert (out / "replays/variant-0/seed-5.json").is_file()


@pytest.mark.slow
def test_a_control_character_in_an_error_is_spelt_as_an_escape() -> None:
    handle = io.StringIO()
    sink = CsvSink(handle, [VariantStats(0, (), ("hill", "vale"))], ["strike"])
    sink.write({"variant": 0, "battle": 0, "seed": 1, "winner": "", "rounds": 0,
                "error": "ValueError: \x1b[2Jno\u202eway\nback"})
    [row] = csv.DictReader(io.StringIO(handle.getvalue()))
    assert row["error"] == "ValueError: \\x1b[2Jno\\u202eway\\nback"
