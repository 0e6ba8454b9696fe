"""What an interrupted ``simulate --out`` says it kept is what is on disk.

A worker writes a battle's replay when the battle ends, but its row reaches the run only with its
whole chunk: Ctrl+C (or a worker's death) between the two left the replay of a battle battles.csv has
no row for. A run stopped so said "0/30 battles" and "wrote nothing in OUT" beside the 8 replays its
worker had written. And a Ctrl+C while the plots were drawn, after every battle had finished, ended
the run with "simulate: interrupted" alone: no table printed, no summary.json.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from game.sim import simulate as simulate_module
from game.sim import written
from game.sim.cli import main
from game.sim.worker import Chunk

KEEP = str(Path(__file__).resolve().parent.parent / "assets" / "scenarios" / "keep.toml")


def _stopped_after(first: int) -> Any:
    """A ``schedule`` that plays the first ``first`` chunks, then, as a worker cut short would, writes the
    next chunk's replay and a replay's temporary (of a writer that is gone), and is stopped by Ctrl+C."""
    real = simulate_module.schedule

    def schedule(engine: Any, chunks: Iterator[Chunk], deliver: Any) -> None:
        real(engine, itertools.islice(chunks, first), deliver)
        cut = next(chunks)
        folder = Path(str(cut.replay_dir))
        folder.mkdir(parents=True, exist_ok=True)
        seed = cut.battles[0][1]
        (folder / f"seed-{seed}.json").write_text("{}", encoding="utf-8")
        (folder / f".seed-{seed}.json.999999999.abcd1234.tmp").write_text("{", encoding="utf-8")
        raise KeyboardInterrupt

    return schedule


def test_a_replay_of_a_battle_without_a_row_is_removed_and_said(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], warm_pool: Any) -> None:
    monkeypatch.setattr(simulate_module, "schedule", _stopped_after(1))
    assert main([KEEP, "--only-seed", "1", "--only-seed", "2", "--chunk", "1", "--max-rounds", "2", "--out",
                 str(tmp_path), "--no-progress"]) == 130
    said = capsys.readouterr().out
    replays = tmp_path / "replays" / "variant-0"
    assert sorted(p.name for p in replays.iterdir()) == ["seed-1.json"]  # the finished battle's, with its row
    assert len((tmp_path / "battles.csv").read_text(encoding="utf-8").splitlines()) == 2  # header and seed 1
    assert f"{replays / 'seed-2.json'}" in said and "which battles.csv has no row for" in said


def test_a_run_stopped_before_any_row_leaves_no_replay_it_wrote(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], warm_pool: Any) -> None:
    monkeypatch.setattr(simulate_module, "schedule", _stopped_after(0))
    assert main([KEEP, "--only-seed", "1", "--max-rounds", "2", "--out", str(tmp_path), "--no-progress"]) == 130
    said = capsys.readouterr().out
    assert f"wrote nothing in {tmp_path}" in said and "which battles.csv has no row for" in said
    assert list(tmp_path.iterdir()) == []  # no replay, no temporary, no folder made for them


def test_ctrl_c_while_the_plots_are_drawn_still_prints_the_table_and_writes_the_summary(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], warm_pool: Any) -> None:
    def ctrl_c(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(written, "plot", ctrl_c)
    assert main([KEEP, "--battles", "2", "--max-rounds", "2", "--out", str(tmp_path), "--no-progress"]) == 130
    said = capsys.readouterr().out
    assert "2/2 battles" in said and "INTERRUPTED" in said and "keep win" in said
    assert f"the plots in {tmp_path} were not drawn: interrupted" in said
    assert sorted(p.name for p in tmp_path.iterdir()) == ["battles.csv", "summary.json"]


def test_a_run_stopped_before_any_row_keeps_the_earlier_tables_replays_it_wrote_over(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], warm_pool: Any) -> None:
    """The earlier run's battles.csv stays when no battle finished, and its row names replays/variant-0/seed-1.json:
    a worker of this run that wrote seed 1 again before Ctrl+C left it to be removed, and the table naming a
    file that was gone, under "replays there were left as they were"."""
    earlier = tmp_path / "replays" / "variant-0" / "seed-1.json"
    earlier.parent.mkdir(parents=True)
    earlier.write_text("{}", encoding="utf-8")
    (tmp_path / "battles.csv").write_text(f"seed,replay\n1,{earlier}\n", encoding="utf-8")
    monkeypatch.setattr(simulate_module, "schedule", _stopped_after(0))  # (it writes seed 1 over, as a worker would)
    assert main([KEEP, "--only-seed", "1", "--max-rounds", "2", "--out", str(tmp_path), "--no-progress"]) == 130
    said = capsys.readouterr().out
    assert sorted(p.name for p in earlier.parent.iterdir()) == ["seed-1.json"]  # (its temporary gone)
    assert (tmp_path / "battles.csv").read_text(encoding="utf-8") == f"seed,replay\n1,{earlier}\n"
    assert f"this run wrote {earlier} again before it was stopped" in said
    assert f"removed {earlier}" not in said


def test_a_plot_drawn_before_ctrl_c_is_kept_and_not_called_an_earlier_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], warm_pool: Any) -> None:
    """Ctrl+C between two plots: the win rates drawn by this run were removed, and named "an earlier
    run's ... (not written by this run)"; the earlier run's rounds plot, which this run did not draw, goes."""
    for name in ("winrate.png", "rounds.png"):
        (tmp_path / name).write_bytes(b"an earlier run's")

    def one_then_ctrl_c(summaries: Any, variants: Any, teams: Any, sets: Any, out_dir: Path, rounds: Any) -> Any:
        written.atomic_write(out_dir / "winrate.png", b"this run's")
        raise KeyboardInterrupt

    monkeypatch.setattr(written, "plot", one_then_ctrl_c)
    assert main([KEEP, "--battles", "2", "--max-rounds", "2", "--out", str(tmp_path), "--no-progress"]) == 130
    said = capsys.readouterr().out
    assert (tmp_path / "winrate.png").read_bytes() == b"this run's" and not (tmp_path / "rounds.png").exists()
    assert f"wrote {tmp_path / 'winrate.png'}" in said and f"removed an earlier run's {tmp_path / 'rounds.png'}" in said
    assert f"the plots in {tmp_path} were not drawn (but for {tmp_path / 'winrate.png'}, drawn before it)" in said
