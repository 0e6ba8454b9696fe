"""The simulation runner: reproducible tables, shared seeds, failures counted, streaming CSV, Dask == pool.

A tiny 2-against-2 scenario keeps every battle to a few milliseconds; the slow parts are process
start-ups (spawn pools, a Dask LocalCluster), so each test starts as few as it can: the tests of what
a run writes and prints play on the one warm worker of conftest's ``warm_pool``, and only the tests of
the pools themselves (seeds shared across worker counts, a dying worker, Ctrl+C) start their own.
"""

from __future__ import annotations

import csv
import json
import multiprocessing
import os
import re
import shutil
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from game.content.powers import SCRIPTS_DIR, PowerError, apply_power_overrides, default_powers
from game.content.scenario import ScenarioError
from game.sim.cli import parse_set
from game.sim.config import SimConfig
from game.sim.provenance import provenance
from game.sim.runner import battle_seed, run_battle
from game.sim.simulate import chunk_size, chunk_sizes, chunks_of, simulate

SCENARIO = textwrap.dedent("""
    name = "Test yard"
    seed = 1
    [map]
    rows = [
      "........",
      "...#....",
      "........",
      "....#...",
      "........",
    ]
    [map.legend]
    "." = { ground = 0 }
    "#" = { wall = true }
    [teams.red]
    [teams.blue]
    [[creatures]]
    key = "r1"
    team = "red"
    x = 0
    y = 1
    health = 8
    powers = ["strike"]
    [[creatures]]
    key = "r2"
    team = "red"
    x = 0
    y = 3
    health = 8
    powers = ["shoot"]
    [[creatures]]
    key = "b1"
    team = "blue"
    x = 7
    y = 1
    health = 8
    powers = ["strike"]
    [[creatures]]
    key = "b2"
    team = "blue"
    x = 7
    y = 3
    health = 8
    powers = ["shoot"]
""")

HOOKS = textwrap.dedent("""
    import os

    def explode(battle, ids, seed):
        if seed % 3 == 0:
            raise RuntimeError(f"hook exploded for seed {seed}")

    def kill_worker(battle, ids, seed):
        if seed == int(os.environ["SIM_TEST_KILL_SEED"]):
            os._exit(3)

    def stall(battle, ids, seed):
        if seed != int(os.environ["SIM_TEST_QUICK_SEED"]):
            import time
            time.sleep(8)
            with open(os.path.join(os.environ["SIM_TEST_MARKS"], f"{seed}.done"), "w"):
                pass
""")


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("sim") / "yard.toml"
    path.write_text(SCENARIO, encoding="utf-8")
    return str(path)


@pytest.fixture
def hooks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A hook module importable by spawned workers (they inherit sys.path and the environment)."""
    (tmp_path / "sim_test_hooks.py").write_text(HOOKS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    return "sim_test_hooks"


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


@pytest.mark.slow
def test_same_master_seed_same_table_and_variants_share_seeds(scenario: str, tmp_path: Path,
                                                               warm_pool: Any) -> None:
    sets = [("creatures.r1.health", [4, 12])]
    first = simulate(SimConfig(scenario, battles=12, seed=7, sets=sets, workers=2, out_dir=str(tmp_path / "a")),
                     progress=False)
    again = simulate(SimConfig(scenario, battles=12, seed=7, sets=sets, workers=1, chunk_size=5, recycle=10,
                               out_dir=str(tmp_path / "b")), progress=False)  # a fresh worker every 2 chunks
    assert first.done == 24 and first.failed == 0 and not first.interrupted
    assert first.summaries() == again.summaries()  # worker count, chunking and recycling change nothing
    assert first.table() == again.table()
    assert "creatures.r1.health=4" in first.table() and "95% CI" in first.table()
    # The sweep matters (a 4-health striker loses more often than a 12-health one) on the same seeds.
    rows = _rows(tmp_path / "a" / "battles.csv")
    assert len(rows) == 24  # one row per battle, streamed
    by_variant = {v: sorted((int(r["battle"]), r["seed"]) for r in rows if r["variant"] == v) for v in ("0", "1")}
    assert by_variant["0"] == by_variant["1"]
    assert [s for _, s in by_variant["0"]] == [str(battle_seed(7, i)) for i in range(12)]
    assert {"uses.strike", "dealt.shoot", "taken.red.strike", "taken.blue.fall"} <= set(rows[0])
    assert all(r["winner"] in ("red", "blue", "draw") and int(r["rounds"]) > 0 for r in rows)
    assert (tmp_path / "a" / "winrate.png").stat().st_size > 1000
    assert (tmp_path / "a" / "rounds.png").stat().st_size > 1000
    other = simulate(SimConfig(scenario, battles=12, seed=8, workers=1, out_dir=None), progress=False,
                     executor=warm_pool)  # another seed: what the pool is does not matter here
    assert other.summaries()[0]["mean_rounds"] != first.summaries()[0]["mean_rounds"] or \
        other.summaries()[0]["teams"] != first.summaries()[0]["teams"]


@pytest.mark.parametrize(("battles", "variants", "workers", "given"),
                         [(300, 1, 2, None), (1000, 3, 2, None), (1000, 1, 1, None), (7, 2, 2, None), (300, 1, 2, 7)])
def test_chunks_cover_every_battle_once_and_shrink_so_the_workers_finish_together(
        battles: int, variants: int, workers: int, given: int | None) -> None:
    config = SimConfig("x.toml", battles=battles, workers=workers, chunk_size=given,
                       sets=[("rules.cover_bonus", list(range(variants)))] if variants > 1 else [])
    seeds = config.seeds()
    chunks = list(chunks_of(config, seeds, config.variants(), None, chunk_sizes(config, battles * variants, workers)))
    for variant in range(variants):
        assert [s for c in chunks if c.variant == variant for s in c.battles] == list(seeds)  # in order, each once
    sizes = [len(c.battles) for c in chunks]
    if given is not None or workers == 1:  # the user's --chunk as asked; one worker waits for nobody
        assert set(sizes[:-1]) == {given or chunk_size(config, battles * variants, workers)}
    else:
        first = chunk_size(config, battles * variants, workers)
        assert max(sizes) == first and sizes[-2] <= max(first // 4, 1)  # the run ends on small chunks


def test_single_battle_replays_by_seed(scenario: str) -> None:
    seed = battle_seed(3, 5)
    assert run_battle(scenario, (), seed) == run_battle(scenario, (), seed)


def test_timings_split_a_battle_and_count_the_turns_planned(scenario: str) -> None:
    """bench_battles divides planning time by these turns: a turn is one creature's plan."""
    timings: dict[str, float] = {}
    row = run_battle(scenario, (), battle_seed(3, 5), timings=timings)
    assert set(timings) == {"setup", "ai", "rules", "turns"}
    assert all(timings[k] > 0 for k in ("setup", "ai", "rules"))
    creatures = 4  # the fixture's two a side, each planning at least one turn a round until it is down
    assert creatures <= timings["turns"] <= creatures * int(row["rounds"])


@pytest.mark.slow
def test_failing_battles_are_counted_with_seed_and_the_run_goes_on(scenario: str, tmp_path: Path,
                                                                   hooks: str) -> None:
    result = simulate(SimConfig(scenario, battles=15, seed=1, workers=2, hook=f"{hooks}:explode",
                                out_dir=str(tmp_path)), progress=False)
    seeds = [battle_seed(1, i) for i in range(15)]
    bad = {s for s in seeds if s % 3 == 0}
    assert bad and len(bad) < 15
    assert result.done == 15 and result.failed == len(bad)
    assert {f.seed for f in result.failures} == bad
    assert all("hook exploded" in f.error for f in result.failures)
    assert all(Path(f.replay).is_file() for f in result.failures)  # a replay of each failed battle
    assert result.summaries()[0]["finished"] == 15 - len(bad)
    rows = _rows(tmp_path / "battles.csv")
    assert len(rows) == 15
    assert {int(r["seed"]) for r in rows if r["error"]} == bad


@pytest.mark.slow
def test_a_worker_that_dies_fails_only_its_battle(scenario: str, hooks: str, monkeypatch: pytest.MonkeyPatch
                                                  ) -> None:
    killer = battle_seed(2, 3)
    monkeypatch.setenv("SIM_TEST_KILL_SEED", str(killer))
    result = simulate(SimConfig(scenario, battles=8, seed=2, workers=2, chunk_size=4, hook=f"{hooks}:kill_worker",
                                out_dir=None), progress=False)
    assert result.done == 8
    assert [(f.seed, f.battle) for f in result.failures] == [(killer, 3)]
    assert re.match(r"worker died \d+\.\d s into the battle, before --battle-seconds 60 \(out of memory, a crash, "
                    r"or killed from outside\)", result.failures[0].error), result.failures[0].error


@pytest.mark.slow
def test_a_battle_that_kills_a_dask_worker_fails_only_itself(scenario: str, hooks: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    killer = battle_seed(2, 3)
    monkeypatch.setenv("SIM_TEST_KILL_SEED", str(killer))
    result = simulate(SimConfig(scenario, battles=8, seed=2, chunk_size=4, hook=f"{hooks}:kill_worker",
                                engine="dask", out_dir=None), progress=False)
    assert result.done == 8
    assert [(f.seed, f.battle) for f in result.failures] == [(killer, 3)]


BROKEN_SCRIPT = "def on_use(ctx):\n    return 1 // 0\n"


@pytest.mark.slow
def test_failing_script_is_reported_and_strict_mode_fails_the_battle(tmp_path: Path) -> None:
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "broken.star").write_text(BROKEN_SCRIPT, encoding="utf-8")
    # The scenario's scripts/ folder is where its battles read every script, the shipped power's too.
    shutil.copy(SCRIPTS_DIR / "chain_lightning.star", tmp_path / "scripts")
    scenario = tmp_path / "yard.toml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    overrides = (("creatures.r1.powers", ["chain-lightning"]), ("powers.chain-lightning.script", "broken.star"))
    row = run_battle(str(scenario), overrides, battle_seed(0, 0))
    assert not row["error"] and row["script_failures"] > 0 and "broken.star" in row["script_error"]
    strict = run_battle(str(scenario), overrides, battle_seed(0, 0), strict_scripts=True)
    assert strict["error"].startswith("ScriptFailed") and strict["seed"] == battle_seed(0, 0)


def test_a_missing_script_is_refused_before_any_battle(scenario: str) -> None:
    overrides = [("creatures.r1.powers", ["chain-lightning"]), ("powers.chain-lightning.script", "missing.star")]
    with pytest.raises(PowerError, match=r"key 'script': 'missing\.star' cannot be read.*No such file"):
        simulate(SimConfig(scenario, battles=2, seed=1, sets=[(k, [v]) for k, v in overrides], workers=1,
                           out_dir=None), progress=False)


@pytest.mark.slow
def test_ctrl_c_keeps_the_finished_battles(scenario: str, tmp_path: Path) -> None:
    seen = []

    def stop_after_five(row: Mapping[str, Any]) -> None:
        seen.append(row)
        if len(seen) == 5:
            raise KeyboardInterrupt

    result = simulate(SimConfig(scenario, battles=400, seed=3, workers=2, chunk_size=2, out_dir=str(tmp_path)),
                      on_row=stop_after_five, progress=False)
    assert result.interrupted
    assert 5 <= result.done < 400
    assert result.summaries()[0]["battles"] == result.done
    assert len(_rows(tmp_path / "battles.csv")) == result.done
    assert "red win" in result.table()


@pytest.mark.slow
def test_ctrl_c_stops_the_workers_mid_chunk_instead_of_waiting_for_them(scenario: str, hooks: str, tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The pool's workers ignore Ctrl+C; the run used to wait for every chunk in flight to end (up to
    50 battles of up to --battle-seconds each) and then threw their rows away."""
    marks = tmp_path / "marks"
    marks.mkdir()
    monkeypatch.setenv("SIM_TEST_QUICK_SEED", str(battle_seed(5, 0)))
    monkeypatch.setenv("SIM_TEST_MARKS", str(marks))

    def stop(row: Mapping[str, Any]) -> None:
        raise KeyboardInterrupt

    before = set(multiprocessing.active_children())
    result = simulate(SimConfig(scenario, battles=4, seed=5, workers=2, chunk_size=1, out_dir=str(tmp_path / "out"),
                                hook=f"{hooks}:stall"), on_row=stop, progress=False)
    assert result.interrupted and result.done == 1
    assert sorted(p.name for p in marks.iterdir()) == []  # no stalled battle was waited for to its end
    assert set(multiprocessing.active_children()) - before == set()  # and none is left running either
    assert len(_rows(tmp_path / "out" / "battles.csv")) == 1


@pytest.mark.slow
def test_dask_local_cluster_table_equals_process_pool(scenario: str, warm_pool: Any) -> None:
    sets = [("powers.strike.damage", ["1d4", "2d6"])]
    # the pool engine's table on the warm worker (worker counts change no table: the first test here)
    pool = simulate(SimConfig(scenario, battles=10, seed=11, sets=sets, workers=2, out_dir=None), progress=False,
                    executor=warm_pool)
    dask = simulate(SimConfig(scenario, battles=10, seed=11, sets=sets, engine="dask", out_dir=None), progress=False)
    assert dask.done == pool.done == 20 and dask.failed == 0
    assert dask.table() == pool.table()
    assert dask.summaries() == pool.summaries()


def test_power_overrides_are_validated_like_files() -> None:
    changed = apply_power_overrides((("powers.strike.damage", "4d6"), ("powers.shoot.attack.bonus", 5)))
    strike, shipped = changed["strike"].damage, default_powers()["strike"].damage
    assert strike is not None and shipped is not None
    assert strike.average() == 14.0
    assert changed["shoot"].attack_bonus == 5
    assert shipped.average() != 14.0  # the shipped table is untouched
    with pytest.raises(PowerError, match="damage"):
        apply_power_overrides((("powers.strike.damage", "lots"),))
    with pytest.raises(ValueError, match="unknown power"):
        apply_power_overrides((("powers.nope.damage", "1d6"),))
    assert parse_set("powers.fireball.damage=4d6,6d6") == ("powers.fireball.damage", ["4d6", "6d6"])
    assert parse_set("creatures.ogre.health=20,30") == ("creatures.ogre.health", [20, 30])


def test_bad_scenario_override_fails_before_any_battle(scenario: str) -> None:
    with pytest.raises(ScenarioError, match="helth"):
        simulate(SimConfig(scenario, battles=5, sets=[("creatures.r1.helth", [3])], workers=1, out_dir=None),
                 progress=False)


@pytest.mark.slow
def test_command_line_prints_the_table_and_writes_the_csv(scenario: str, tmp_path: Path, warm_pool: Any,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from game.sim.cli import main

    status = main([scenario, "--battles", "6", "--workers", "1", "--seed", "4", "--out", str(tmp_path),
                   "--set", "creatures.b1.health=5,9", "--no-progress"])
    out = capsys.readouterr().out
    assert status == 0
    assert "creatures.b1.health=5" in out and "creatures.b1.health=9" in out and "peak RSS" in out
    assert len(_rows(tmp_path / "battles.csv")) == 12
    recorded = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))["provenance"]
    assert recorded == provenance()                       # package versions and the commit of this checkout
    assert set(recorded["packages"]) == {"esper", "numpy", "tcod", "starlark-pyo3", "dask", "pygame-ce"}
    assert main([scenario, "--battles", "2", "--set", "creatures.zz.health=1", "--out", str(tmp_path)]) == 2


@pytest.mark.slow
def test_a_sweep_of_a_power_no_creature_has_is_warned_about(scenario: str, tmp_path: Path, warm_pool: Any,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A designer who sweeps a power the scenario's creatures lack would read the equal rows as "it
    does not matter": the report says the sweep changes nothing instead."""
    from game.sim.cli import main

    args = [scenario, "--battles", "2", "--workers", "1", "--out", str(tmp_path), "--no-progress"]
    assert main([*args, "--set", "powers.fireball.damage=1d6,10d6"]) == 0
    assert "warning: no creature of" in capsys.readouterr().out
    assert main([*args, "--set", "powers.strike.damage=1d6,1d8"]) == 0  # one they have: no warning
    assert "warning" not in capsys.readouterr().out


def test_a_run_that_fails_leaves_the_last_runs_table_and_no_temporary(scenario: str, tmp_path: Path,
                                                                      warm_pool: Any) -> None:
    """battles.csv is replaced only once a run ends: one that fails on the way keeps the last run's
    table whole, and a summary that could not be written is refused before any battle, naming --out
    and the file (a write that fails after the battles: tests/test_sim_outputs.py)."""
    from game.sim.cli import main

    args = [scenario, "--battles", "2", "--workers", "1", "--out", str(tmp_path), "--no-progress"]
    assert main(args) == 0
    before = (tmp_path / "battles.csv").read_text(encoding="utf-8")

    def boom(row: Mapping[str, Any]) -> None:
        raise RuntimeError("the machine fell over")

    config = SimConfig(scenario=scenario, battles=4, seed=9, workers=1, out_dir=str(tmp_path))
    with pytest.raises(RuntimeError, match="fell over"):
        simulate(config, on_row=boom, executor=warm_pool)
    assert (tmp_path / "battles.csv").read_text(encoding="utf-8") == before
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    (tmp_path / "summary.json").unlink()
    (tmp_path / "summary.json").mkdir()  # in the way of this run's summary
    with pytest.raises(ValueError, match=r"--out '.*': '.*summary\.json' is a directory"):
        simulate(config, on_row=boom, executor=warm_pool)  # refused before the first battle: boom is never called


@pytest.mark.slow
def test_a_replay_that_cannot_be_written_fails_the_run(scenario: str, tmp_path: Path, warm_pool: Any,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from game.sim.cli import main

    (tmp_path / "replays").mkdir()
    (tmp_path / "replays" / "variant-0").write_text("a file where the variant's replays folder would go")
    status = main([scenario, "--only-seed", "3", "--workers", "1", "--out", str(tmp_path), "--no-progress"])
    out = capsys.readouterr().out
    assert status == 1 and "replay of variant 0 seed 3 FAILED: not written:" in out, out


@pytest.mark.slow
def test_the_table_is_readable_by_others_and_a_killed_runs_temporary_is_cleared(scenario: str, tmp_path: Path,
                                                                                warm_pool: Any) -> None:
    import stat

    left = tmp_path / ".battles.csv.999999999.deadbeef.tmp"  # a killed run's (no process has that pid)
    left.write_text("a killed run's rows")
    config = SimConfig(scenario=scenario, battles=2, workers=1, out_dir=str(tmp_path))
    simulate(config, progress=False, executor=warm_pool)
    assert stat.S_IMODE((tmp_path / "battles.csv").stat().st_mode) == 0o644
    assert not left.exists()

