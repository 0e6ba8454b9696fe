"""``--out`` holds one run's outputs, checked before the battles and never lost with a write.

* A path in the way (``out/battles.csv`` a directory) used to be found only after every battle had
  run, failing with ``[Errno 21] Is a directory`` and losing the table: it is refused before any
  battle, naming ``--out`` and the path; and a write that fails after the battles (a full disk)
  still prints the table, then says what was not written.
* Files of an earlier run (an old ``paired.png`` beside a ``summary.json`` with no paired figures,
  old ``replays/``) used to stay and contradict the new run: the project's own output names this run
  does not write are removed, and nothing else.

The runs here test what the parent writes, so they play on conftest's one warm pool worker
(``warm_pool``) instead of spawning a pool each.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest

from game.sim import simulate as simulate_module
from game.sim import written
from game.sim.cli import main
from game.sim.flags import FlagError
from game.sim.outputs import check_outputs, earlier_replays, remove_stale_replays, remove_unwritten

ROOT = Path(__file__).resolve().parent.parent
KEEP = str(ROOT / "assets" / "scenarios" / "keep.toml")


@pytest.mark.parametrize("name", ["battles.csv", "summary.json", "paired.png"])
def test_an_output_name_taken_by_a_directory_is_refused_before_any_battle(
        tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ox"
    (out / name).mkdir(parents=True)
    with pytest.raises(FlagError, match=rf"--out '.*ox': '.*ox/{name}' is a directory; expected a file"):
        check_outputs(out)
    assert main([KEEP, "--battles", "3", "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert f"simulate: --out '{out}': '{out / name}' is a directory" in err and "Errno" not in err
    assert sorted(p.name for p in out.iterdir()) == [name]  # nothing was written, nothing ran


def test_a_replays_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "replays").write_text("not a folder", encoding="utf-8")
    with pytest.raises(FlagError, match=r"--out '.*': '.*replays' is a file; expected the folder of replays"):
        check_outputs(tmp_path)


def _earlier_run(out: Path) -> None:
    for name in ("battles.csv", "summary.json", "winrate.png", "rounds.png", "paired.png", "notes.txt"):
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text("old", encoding="utf-8")
    for name in ("variant-0/seed-1.json", "variant-3/seed-22.json", "variant-3/mine.json", "keep/seed-5.json"):
        (out / "replays" / name).parent.mkdir(parents=True, exist_ok=True)
        (out / "replays" / name).write_text("old", encoding="utf-8")


def _tree(out: Path) -> list[str]:
    return sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())


def test_only_the_projects_own_names_are_removed(tmp_path: Path) -> None:
    _earlier_run(tmp_path)
    elsewhere = tmp_path.parent / f"{tmp_path.name}-kept"
    (elsewhere / "variant-0").mkdir(parents=True)
    (elsewhere / "variant-0" / "seed-9.json").write_text("not ours to remove", encoding="utf-8")
    (tmp_path / "replays" / "variant-7").symlink_to(elsewhere / "variant-0")  # never followed
    remove_stale_replays(tmp_path, earlier_replays(tmp_path))
    remove_unwritten(tmp_path, [tmp_path / "battles.csv", tmp_path / "summary.json"])
    assert _tree(tmp_path) == ["battles.csv", "notes.txt", "replays/keep/seed-5.json", "replays/variant-3/mine.json",
                               "summary.json"]
    assert (elsewhere / "variant-0" / "seed-9.json").read_text(encoding="utf-8") == "not ours to remove"


def test_an_empty_replays_folder_goes_with_its_files(tmp_path: Path) -> None:
    (tmp_path / "replays" / "variant-0").mkdir(parents=True)
    (tmp_path / "replays" / "variant-0" / "seed-1.json").write_text("old", encoding="utf-8")
    found = earlier_replays(tmp_path)
    assert remove_stale_replays(tmp_path, found) == [tmp_path / "replays" / "variant-0" / "seed-1.json"]
    assert not (tmp_path / "replays").exists()


@pytest.mark.slow
def test_a_run_leaves_only_its_own_outputs(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           warm_pool: Any) -> None:
    _earlier_run(tmp_path)
    assert main([KEEP, "--battles", "2", "--workers", "1", "--max-rounds", "3", "--out", str(tmp_path),
                 "--no-progress"]) == 0
    said = capsys.readouterr().out
    assert "wrote" in said
    # said, not silent (a designer's earlier replays went without a word)
    assert f"removed an earlier run's {tmp_path}/replays/variant-0/seed-1.json, " \
           f"{tmp_path}/replays/variant-3/seed-22.json, {tmp_path}/paired.png (not written by this run)" in said
    assert _tree(tmp_path) == ["battles.csv", "notes.txt", "replays/keep/seed-5.json", "replays/variant-3/mine.json",
                               "rounds.png", "summary.json", "winrate.png"]  # no old paired.png, no old replays


@pytest.mark.slow
def test_a_write_that_fails_after_the_battles_still_prints_the_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], warm_pool: Any) -> None:
    (tmp_path / "summary.json").write_text('{"from": "an earlier run"}', encoding="utf-8")

    def full(path: Path, data: bytes) -> Any:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(written, "atomic_write", full)
    status = main([KEEP, "--battles", "2", "--workers", "1", "--max-rounds", "3", "--out", str(tmp_path),
                   "--no-progress"])
    out = capsys.readouterr().out
    assert status == 1
    assert "keep win [95% CI]" in out and "(as written)" in out  # the table
    assert f"FAILED to write: cannot write {tmp_path / 'summary.json'}: No space left on device" in out
    assert not (tmp_path / "summary.json").exists()  # the old one would pass for this run's
    assert (tmp_path / "battles.csv").is_file()


@pytest.mark.slow
def test_every_output_replaces_a_symlink_in_out_and_never_writes_through_it(tmp_path: Path, warm_pool: Any) -> None:
    """A ``winrate.png`` (or any output) that is a link to a file elsewhere used to have its target
    overwritten, and a ``replays`` link had the replays written into wherever it led: each output
    now replaces its link (written beside it and renamed), and the replays go into a real folder."""
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    out.mkdir()
    (elsewhere / "replays" / "variant-1").mkdir(parents=True)
    for name in ("battles.csv", "summary.json", "winrate.png", "rounds.png", "paired.png"):
        (elsewhere / name).write_text("precious", encoding="utf-8")
        (out / name).symlink_to(elsewhere / name)
    (out / "replays").symlink_to(elsewhere / "replays")
    assert main([KEEP, "--battles", "2", "--workers", "1", "--max-rounds", "2", "--only-seed", "1",
                 "--set", "rules.cover_bonus=2,5", "--out", str(out), "--no-progress"]) == 0
    assert all((elsewhere / name).read_text(encoding="utf-8") == "precious"
               for name in ("battles.csv", "summary.json", "winrate.png", "rounds.png", "paired.png"))
    assert [p.name for p in (elsewhere / "replays").rglob("*") if p.is_file()] == []
    assert not any(p.is_symlink() for p in out.rglob("*"))
    assert (out / "paired.png").read_bytes().startswith(b"\x89PNG")
    assert sorted(p.name for p in (out / "replays").rglob("*.json")) == ["seed-1.json", "seed-1.json"]


def test_a_replays_variant_link_is_removed_not_followed(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "out" / "replays").mkdir(parents=True)
    (tmp_path / "out" / "replays" / "variant-0").symlink_to(elsewhere)
    out = tmp_path / "out"
    assert remove_stale_replays(out, earlier_replays(out)) == [out / "replays" / "variant-0"]
    assert elsewhere.is_dir() and not (tmp_path / "out" / "replays").exists()


@pytest.mark.slow
def test_the_rounds_plot_says_where_battles_stopped_at_the_cap_are_drawn(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], warm_pool: Any) -> None:
    """A battle cut at ``--max-rounds`` is a draw drawn at the cap: the axis must say so, or a pile
    at the cap reads as battles that ended there."""
    from matplotlib.axes import Axes

    labels: list[str] = []
    real = Axes.set_xlabel

    def recording(axis: Axes, text: str, *args: Any, **kwargs: Any) -> Any:
        labels.append(text)
        return real(axis, text, *args, **kwargs)

    monkeypatch.setattr(Axes, "set_xlabel", recording)
    assert main([KEEP, "--battles", "2", "--workers", "1", "--max-rounds", "3",
                 "--out", str(tmp_path / "o"), "--no-progress"]) == 0
    assert "rounds until one side could no longer act, or the cap of 3 (a draw)" in labels, labels


@pytest.mark.parametrize("team", ["$\\frac{$", "a$b", "$x^$"])
def test_a_team_name_with_dollars_is_drawn_as_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], team: str, warm_pool: Any) -> None:
    """matplotlib reads ``$...$`` as a formula: a team named ``$\\frac{$`` raised a ParseSyntaxException
    deep inside the drawing, and the run printed that alone (exit 2), with no table and no summary."""
    text = Path(KEEP).read_text(encoding="utf-8").replace("[teams.keep]", f"[teams.{_toml(team)}]")
    text = text.replace('team = "keep"', f"team = {_toml(team)}")
    scenario = tmp_path / "dollars.toml"
    scenario.write_text(text, encoding="utf-8")
    out = tmp_path / "o"
    assert main([str(scenario), "--battles", "2", "--workers", "1", "--max-rounds", "2",
                 "--set", "rules.cover_bonus=2,5", "--out", str(out), "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert f"{team} win" in printed and "FAILED" not in printed
    assert sorted(p.name for p in out.iterdir()) == ["battles.csv", "paired.png", "rounds.png", "summary.json",
                                                     "winrate.png"]


def _toml(name: str) -> str:
    """``name`` as a TOML basic string."""
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def test_a_plot_that_fails_to_draw_keeps_the_table_and_the_summary(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], warm_pool: Any) -> None:
    """A drawing error is not a refused command: the run printed the error alone with exit 2, as if no
    battle had run, and wrote no summary. It is reported under the table, as a write that fails is."""
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("a glyph matplotlib cannot draw")

    monkeypatch.setattr(written, "plot", broken)
    out = tmp_path / "o"
    assert main([KEEP, "--battles", "2", "--workers", "1", "--max-rounds", "2", "--out", str(out),
                 "--no-progress"]) == 1
    printed = capsys.readouterr().out
    assert "keep win" in printed
    assert f"FAILED to write: cannot draw the plots in {out}: ValueError: a glyph matplotlib cannot draw" in printed
    assert sorted(p.name for p in out.iterdir()) == ["battles.csv", "summary.json"]


def _stopped_before_any_battle(out: Path, monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> str:
    """What ``simulate --out OUT`` says when Ctrl+C comes before any battle finished (as it is scheduled)."""

    def ctrl_c(*args: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(simulate_module, "schedule", ctrl_c)
    assert main([KEEP, "--battles", "2", "--workers", "1", "--out", str(out), "--no-progress"]) == 130
    return capsys.readouterr().out


def test_ctrl_c_before_any_battle_keeps_the_earlier_runs_outputs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], warm_pool: Any) -> None:
    """A Ctrl+C before any chunk came back replaced an earlier run's battles.csv with a header, its
    summary.json with one of no battles, and removed its plots and replays: a run that finished nothing destroyed
    the last one's results."""
    _earlier_run(tmp_path)
    before = _tree(tmp_path)
    said = _stopped_before_any_battle(tmp_path, monkeypatch, capsys)
    assert f"wrote nothing in {tmp_path}: interrupted before any battle finished" in said
    assert _tree(tmp_path) == before  # its replays too (and no stray temporary)
    assert all(path.read_text(encoding="utf-8") == "old" for path in tmp_path.rglob("*") if path.is_file())


def test_ctrl_c_before_any_battle_in_a_fresh_folder_names_no_earlier_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], warm_pool: Any) -> None:
    """Stopped before any battle in a folder no run wrote to, it said "an earlier run's battles.csv, summary.json,
    plots and replays there were left as they were": files that never were (the reviewer's finding)."""
    out = tmp_path / "fresh"
    said = _stopped_before_any_battle(out, monkeypatch, capsys)
    assert f"wrote nothing in {out}: interrupted before any battle finished" in said
    assert "an earlier run's battles.csv" not in said and not any(out.iterdir())


@pytest.mark.slow
def test_ctrl_c_before_any_battle_with_a_replays_link_says_the_link_went(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], warm_pool: Any) -> None:
    """A ``replays`` link in --out is removed before the battles (no replay is written through it): a
    Ctrl+C before any battle said the replays were "left as they were" and, a line later, that the link
    was removed; the first line now points at the second."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "replays").symlink_to(elsewhere, target_is_directory=True)
    said = _stopped_before_any_battle(out, monkeypatch, capsys)
    assert "is as it was, but for what is named removed below" in said
    assert f"removed an earlier run's {out / 'replays'}" in said and not (out / "replays").exists()


@pytest.mark.slow
def test_a_replay_this_run_writes_over_an_earlier_ones_name_stays(tmp_path: Path, warm_pool: Any) -> None:
    """An earlier run's replays are removed after the battles now, not before: not the one this run wrote."""
    _earlier_run(tmp_path)
    assert main([KEEP, "--only-seed", "1", "--max-rounds", "2", "--out", str(tmp_path), "--no-progress"]) == 0
    mine = tmp_path / "replays" / "variant-0" / "seed-1.json"
    assert mine.read_text(encoding="utf-8") != "old" and not (tmp_path / "replays/variant-3/seed-22.json").exists()
