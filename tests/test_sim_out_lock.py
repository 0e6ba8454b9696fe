"""Two simulate runs into one --out: the second is refused at once, and the first's files are kept."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import Any

import pytest

from game.sim.cli import run_cli
from game.sim.config import SimConfig
from game.sim.flags import FlagError
from game.sim.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent
LEDGE = str(ROOT / "assets/scenarios/ledge.toml")


def test_a_run_into_a_folder_another_run_holds_is_refused_and_removes_nothing(tmp_path: Path,
                                                                             warm_pool: Any) -> None:
    """The second run removed the replays the first had written so far (the first still listed all
    of them), and whichever ended last left its table beside the other's replays."""
    out = tmp_path / "out"
    mine = out / "replays/variant-0/seed-7.json"
    mine.parent.mkdir(parents=True)
    mine.write_text("{}", encoding="utf-8")  # the running one's replay so far
    fd = os.open(out, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as the run that holds it does
        in_use = rf"--out '{out}' is in use by another run \(simulate, play or demo\).*choose another --out"
        with pytest.raises(FlagError, match=in_use):
            simulate(SimConfig(scenario=LEDGE, battles=1, workers=1, max_rounds=2, only_seeds=[5],
                               out_dir=str(out)), progress=False)
        assert mine.read_text(encoding="utf-8") == "{}" and sorted(p.name for p in out.iterdir()) == ["replays"]
    finally:
        os.close(fd)
    result = simulate(SimConfig(scenario=LEDGE, battles=1, workers=1, max_rounds=2, only_seeds=[5], out_dir=str(out)),
                      progress=False, executor=warm_pool)
    # once it has ended, the folder is free (and the earlier replay goes); conftest's warm worker plays it
    assert result.done == 1 and not mine.exists() and (out / "replays/variant-0/seed-5.json").is_file()
    fd = os.open(out, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the run let go of it when it ended
    finally:
        os.close(fd)


@pytest.mark.slow
def test_the_command_line_says_so_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from game.sim.cli import build_parser

    parser = argparse.ArgumentParser()
    build_parser(parser)
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        code = run_cli(parser.parse_args([LEDGE, "--battles", "1", "--workers", "1", "--out", str(tmp_path)]))
    finally:
        os.close(fd)
    assert code == 2
    assert capsys.readouterr().err == (f"simulate: --out '{tmp_path}' is in use by another run (simulate, play or "
                                       f"demo), which would remove this run's files, or this run its own; wait for "
                                       f"it to end, or choose another --out\n")
