"""What simulate prints says what is true: "1 battle", not "1 battles"; a slow run's rate with a tenth
(it read "1 battles/s", or "0 battles/s" for a run that played); and an ``--out`` in /proc is refused
for being unwritable, where the reason read "No such file or directory" of a folder that is there."""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path

import pytest

from components.values import counted
from game.sim import flags
from game.sim.cli import report
from game.sim.config import SimConfig
from game.sim.flags import FlagError, check_out_dir
from game.sim.report import Failure, VariantStats
from game.sim.simulate import SimResult

KEEP = str(Path(__file__).resolve().parent.parent / "assets" / "scenarios" / "keep.toml")


def test_one_is_singular() -> None:
    assert [counted(n, "round") for n in (0, 1, 2)] == ["0 rounds", "1 round", "2 rounds"]


def test_a_run_of_one_battle_says_battle() -> None:
    config = SimConfig(KEEP, battles=1, out_dir=None)
    teams = ("keep", "raiders")
    result = SimResult(config, [VariantStats(0, (), teams)], teams, [Failure(0, 0, 5, "boom")], 1, 1, 1, 2.0, False)
    said = report(result)
    assert "\n1 battle FAILED (counted in 'failed'" in said
    assert re.search(r"\n1 battle in 2\.0 s \(0\.5 battles/s, start-up included\)", said), said
    assert " 1 battles" not in said and "(0 battles/s" not in said


def test_an_out_dir_where_nothing_can_be_made_is_not_called_missing(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    def like_proc(**kwargs: object) -> str:  # /proc answers a mkdir with ENOENT, of a folder that is there
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT))

    monkeypatch.setattr(flags.tempfile, "mkdtemp", like_proc)
    with pytest.raises(FlagError, match=r"cannot write in '.*' \(it exists, but its file system lets no file or "
                                        r"folder be made in it\)$"):
        check_out_dir("--out", str(tmp_path / "new"))


def test_thousands_of_only_seeds_are_clipped_in_the_first_line() -> None:
    """``--only-seed`` given 5,000 times printed every seed on the report's first line (tens of
    kilobytes before the table); it names a few and how many more, as the outputs' lists do."""
    seeds = list(range(1000, 6000))
    config = SimConfig(KEEP, out_dir=None, only_seeds=seeds)
    teams = ("keep", "raiders")
    first = report(SimResult(config, [VariantStats(0, (), teams)], teams, [], 0, 5000, 0, 1.0, False)).split("\n")[0]
    assert ", --only-seed 1000, 1001, 1002 and 4997 more, policies " in first, first
    assert len(first) < 300
    few = SimConfig(KEEP, out_dir=None, only_seeds=[9, 4])
    said = report(SimResult(few, [VariantStats(0, (), teams)], teams, [], 0, 2, 0, 1.0, False))
    assert ", --only-seed 9, 4, policies " in said.split("\n")[0]
