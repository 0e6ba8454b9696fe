"""A sweep's variants: played block by block of seeds (a sweep stopped early has each variant's paired
difference), and each with the power table of its own creatures. The runs play on conftest's warm
pool worker (``warm_pool``): what is tested is what the parent does with the rows."""

from __future__ import annotations

import csv
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from game.sim.config import SimConfig
from game.sim.simulate import simulate

YARD = textwrap.dedent("""\
    name = "yard"
    [map]
    rows = ["........", "........"]
    [map.legend]
    "." = { ground = 0 }
    [teams.red]
    [teams.blue]
    [[creatures]]
    key = "r1"
    team = "red"
    x = 0
    y = 0
    health = 8
    powers = ["shoot"]
    [[creatures]]
    key = "b1"
    team = "blue"
    x = 7
    y = 1
    health = 8
    powers = ["strike"]
""")


@pytest.fixture
def scenario(tmp_path: Path) -> str:
    path = tmp_path / "yard.toml"
    path.write_text(YARD, encoding="utf-8")
    return str(path)


def test_a_sweep_stopped_early_has_every_variant_on_the_same_first_seeds(scenario: str, warm_pool: Any) -> None:
    """A sweep plays its variants block by block of seeds, so one stopped early (Ctrl+C) still has a
    paired difference for every variant: variant by variant, a 3-variant sweep stopped at 200 of 3,000
    battles had played the first variant only, and said ``- (no seed both finished)`` for the others."""
    seen: list[Mapping[str, Any]] = []

    def stop_after_three(row: Mapping[str, Any]) -> None:
        seen.append(row)
        if len(seen) == 3:
            raise KeyboardInterrupt

    sweep = [("creatures.b1.health", [6, 8, 10])]
    result = simulate(SimConfig(scenario, battles=20, seed=4, workers=1, chunk_size=1, max_rounds=3, sets=sweep,
                                out_dir=None), on_row=stop_after_three, progress=False, executor=warm_pool)
    assert result.interrupted and result.done == 3
    assert sorted(int(row["variant"]) for row in seen) == [0, 1, 2]
    assert len({row["seed"] for row in seen}) == 1  # the same seed, played by each variant
    summaries = result.summaries()
    assert [s["finished"] for s in summaries] == [1, 1, 1]
    assert all(s["paired"][team]["n"] == 1 for s in summaries[1:] for team in ("red", "blue"))
    assert "no seed both finished" not in result.table()


@pytest.mark.slow
def test_the_power_table_leaves_a_power_no_creature_of_the_variant_has_at_dash(scenario: str, warm_pool: Any) -> None:
    """Sweeping a creature's powers, the variant whose creatures lack Shove listed it at 0.00 uses, as a
    power its AI never used, which the README calls a finding: it is "-" there now, and 0 uses stays
    for a power the variant's creatures have and never used."""
    sweep = [("creatures.b1.powers", [["strike"], ["strike", "shove"]])]
    result = simulate(SimConfig(scenario, battles=1, seed=4, workers=1, max_rounds=2, sets=sweep, out_dir=None),
                      progress=False, executor=warm_pool)
    without, with_shove = result.summaries()
    assert "shove" not in without["powers"] and "shove" in with_shove["powers"]
    shove_rows = [line.split() for line in result.table().splitlines() if " shove " in line]
    assert [row[-5:] for row in shove_rows] == [["shove", "-", "-", "-", "-"],
                                               ["shove", f"{with_shove['powers']['shove']['uses']:.2f}",
                                                f"{with_shove['powers']['shove']['dealt']:.2f}", "0.00", "0.00"]]


@pytest.mark.slow
def test_battles_csv_leaves_a_power_no_creature_of_the_variant_has_empty(scenario: str, tmp_path: Path,
                                                                         warm_pool: Any) -> None:
    """battles.csv wrote uses.shove = 0 in the rows of the variant whose creatures lack Shove, where the
    power table shows "-": its cells are empty there now, and every row keeps every column."""
    sweep = [("creatures.b1.powers", [["strike"], ["strike", "shove"]])]
    out = tmp_path / "out"
    simulate(SimConfig(scenario, battles=1, seed=4, workers=1, max_rounds=2, sets=sweep, out_dir=str(out)),
             progress=False, executor=warm_pool)
    with (out / "battles.csv").open(encoding="utf-8", newline="") as handle:
        without, with_shove = sorted(csv.DictReader(handle), key=lambda row: row["variant"])
    assert list(without) == list(with_shove)
    shove = [column for column in without if column.endswith(".shove")]
    assert shove == ["uses.shove", "dealt.shove", "taken.red.shove", "taken.blue.shove"]
    assert [without[c] for c in shove] == ["", "", "", ""]
    assert all(with_shove[c].isdigit() for c in shove)
    assert without["uses.strike"].isdigit() and without["uses.shoot"].isdigit()  # held, used or not
