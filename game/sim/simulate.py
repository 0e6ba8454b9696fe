"""Balance at scale: thousands of headless computer-vs-computer battles, a table, a CSV and plots.

``python -m game simulate assets/scenarios/ledge.toml --battles 10000 --set creatures.ogre.health=20,30,40``

Why it is built this way:

* **Same command, same table.** Battle ``i`` gets seed ``battle_seed(master, i)`` (a SeedSequence
  child of the master seed), and totals are whole-number counters, so neither the number of workers
  nor the engine nor the order in which battles finish changes a digit.
* **Fair sweeps.** Every variant of a ``--set`` grid runs on the same seeds, so a difference
  between variants is the change, not the dice.
* **Every battle accounted for.** A battle that raises, or whose worker process dies, is a row with
  its seed and error (and a replay file when one can be written); the run goes on.
* **Flat memory.** Rows stream to a temporary beside ``battles.csv`` as they arrive (it replaces
  the last run's table when the run ends, Ctrl+C included once a battle finished: a run stopped
  before any leaves the last run's outputs as they were) and are folded into counters; each
  battle's esper world is deleted when it ends; at most a few chunks are in flight.
* **Ctrl+C keeps what finished.** The table is printed for the battles done so far.

Engines (:mod:`game.sim.engines`): a local process pool (spawn context; default) or Dask distributed
(``--engine dask``, a two-worker LocalCluster unless ``--scheduler ADDRESS`` is given). Both ship
small chunks of ``(scenario path, overrides, seeds)`` and get small row dicts back. The command line
is :mod:`game.sim.cli`.
"""

from __future__ import annotations

import bisect
import concurrent.futures as cf
import contextlib
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game import ai
from game.content.atomic import replacing
from game.content.scenario import Scenario
from game.sim.chunks import chunk_size, chunk_sizes, chunks_of
from game.sim.config import ENGINES, SimConfig
from game.sim.context import ScenarioSource, WorkerContext
from game.sim.engines import DaskEngine, Engine, PoolEngine, default_workers
from game.sim.outputs import (
    REPLAYS,
    TABLE,
    Identity,
    check_outputs,
    earlier_replays,
    holding,
    remove_replay_links,
    remove_unrecorded_replays,
    written_over,
)
from game.sim.report import (
    MAX_KEPT_FAILURES,
    CsvSink,
    Failure,
    VariantStats,
    format_table,
    team_column_problem,
    with_paired,
)
from game.sim.runner import NOT_WRITTEN
from game.sim.schedule import schedule
from game.sim.variants import check_distinct
from game.sim.worker import Chunk
from game.sim.written import write_files

__all__ = ["SimResult", "check_config", "checked", "chunk_size", "chunk_sizes", "chunks_of", "simulate"]

RowCallback = Callable[[Mapping[str, Any]], None]


@dataclass
class SimResult:
    """What a run produced: per-variant totals and summaries, failures, timing, whether it was cut short."""

    config: SimConfig
    variants: list[VariantStats]
    teams: tuple[str, ...]
    failures: list[Failure]
    failed: int
    done: int
    total: int
    elapsed: float
    interrupted: bool
    files: list[Path] = field(default_factory=list)
    replays: list[tuple[int, int, str]] = field(default_factory=list)  # (variant, seed, path) for --only-seed
    #: outputs that could not be written (the table is still whole: the caller prints it)
    write_errors: list[str] = field(default_factory=list)
    #: what rows held that battles.csv has no column for (see ``CsvSink.unlisted``)
    unlisted: list[str] = field(default_factory=list)
    #: an earlier run's outputs in ``--out`` that this run removed (its replays, plots it did not draw)
    removed: list[Path] = field(default_factory=list)
    #: ``--out`` when Ctrl+C came before any battle finished: its earlier table, summary, plots, replays were kept
    kept: Path | None = None
    #: replays this run's workers wrote for battles stopped before their rows came back: removed
    unrecorded: list[Path] = field(default_factory=list)
    #: with ``kept``: the earlier run's replays this run's workers wrote over (kept: its table names them)
    rewritten: list[Path] = field(default_factory=list)

    def summaries(self) -> list[dict[str, Any]]:
        """Each variant's totals; those after the first with their paired difference from it."""
        return with_paired([v.summary() for v in self.variants], self.variants)

    def table(self) -> str:
        """The terminal table (identical for identical seeds, whatever the engine)."""
        return format_table(self.summaries(), self.teams)

    @property
    def rate(self) -> float:
        """Battles per second, wall clock, start-up included."""
        return self.done / self.elapsed if self.elapsed > 0 else 0.0


def _powers_used(scenarios: Sequence[Scenario]) -> set[str]:
    """Every power a creature of some variant may use (the CSV has a column per power)."""
    powers: set[str] = set()
    for scenario in scenarios:
        for spec in scenario.creatures:
            if spec.powers:
                powers.update(spec.powers)
            else:  # a creature given no powers may use every power of the battle
                powers.update(scenario.powers)
    return powers


def _csv_powers(known: Sequence[str], scenarios: Sequence[Scenario], hook: str | None) -> set[str]:
    """battles.csv's power columns: every power a creature may use (``known``), and with a ``--hook`` every
    power of the battles' tables, since the hook may give a creature any (its uses were left out of the CSV,
    its damage put under the GM's ``other``, while the table showed the power's own row)."""
    powers = set(known)
    if hook:
        for scenario in scenarios:
            powers.update(scenario.powers)
    return powers


def check_config(config: SimConfig) -> list[Scenario]:
    """The scenario of every variant, checked in this process before any worker starts (see :func:`checked`)."""
    return checked(config)[0]


def checked(config: SimConfig) -> tuple[list[Scenario], ScenarioSource]:
    """The scenario of every variant, checked in this process before any worker starts, and the
    texts it was read from (the scenario's, its power files' and every script's), which the workers
    build every battle from: a file edited during the run changes none of its battles.

    Raises:
        ScenarioError / ValueError: an unknown policy or engine, a scenario or override that cannot be used,
            or a team battles.csv cannot hold (``report.team_column_problem``: named as a drawn battle
            is, or as a spreadsheet formula starts).
    """
    ai.parse_policies(config.policy)  # raises ValueError for an unknown policy, in one line
    if config.engine not in ENGINES:
        raise ValueError(f"unknown engine {config.engine!r}: expected one of {', '.join(ENGINES)}")
    context = WorkerContext()  # this run's own: nothing is shared with another run or a worker
    scenarios = [context.check_variant(str(config.scenario), overrides) for overrides in config.variants()]
    check_distinct(str(config.scenario), config.sets, context)  # 1d4 and 1d4+0 are one variant
    teams = {c.team for c in scenarios[0].creatures} if scenarios else set()
    ai.policies_for(config.policy, teams, str(config.scenario))
    for scenario in scenarios:
        for team in scenario.teams:  # (each one's name is printable: the scenario's load checked it)
            problem = team_column_problem(team)
            if problem:
                raise ValueError(f"{config.scenario}: teams.{team}: {problem}: rename the team")
    return scenarios, context.source_of(str(config.scenario))


class _Collector:
    """Folds arriving rows into the totals, the CSV, the kept failures and replays, and the bar."""

    def __init__(self, config: SimConfig, stats: list[VariantStats], sink: CsvSink | None, bar: Any,
                 on_row: RowCallback | None) -> None:
        self.config = config
        self.stats = stats
        self.sink = sink
        self.bar = bar
        self.on_row = on_row
        self.failures: list[Failure] = []
        self.replays: list[tuple[int, int, str]] = []
        self.recorded: set[tuple[str, str]] = set()  # (variant-N, seed-S.json) of every row's replay
        self.failed = 0
        self.done = 0

    def _keep(self, row: Mapping[str, Any]) -> None:
        if row.get("error"):
            self.failed += 1
            # the first MAX_KEPT_FAILURES by variant and battle, whatever order their rows arrive in
            bisect.insort(self.failures, Failure(row["variant"], row["battle"], row["seed"], row["error"],
                                                 row.get("replay", "")), key=lambda f: (f.variant, f.battle))
            del self.failures[MAX_KEPT_FAILURES:]
        if row.get("replay") and not row["replay"].startswith(NOT_WRITTEN):
            self.recorded.add((Path(row["replay"]).parent.name, Path(row["replay"]).name))
        if self.config.only_seeds is not None and row.get("replay"):
            bisect.insort(self.replays, (row["variant"], row["seed"], row["replay"]))
            del self.replays[MAX_KEPT_FAILURES:]

    def __call__(self, rows: list[dict[str, Any]]) -> None:
        for row in rows:
            self.stats[row["variant"]].add(row)
            self.done += 1
            self._keep(row)
            if self.sink is not None:
                self.sink.write(row)
            if self.on_row is not None:
                self.on_row(row)
        if self.bar is not None:
            self.bar.update(len(rows))
            if self.failed:
                self.bar.set_postfix(failed=self.failed, refresh=False)


def _engine(config: SimConfig, workers: int, executor: cf.ProcessPoolExecutor | None) -> Engine:
    if config.engine == "dask":
        return DaskEngine(config.scheduler, config.workers)
    # About config.recycle battles per worker: the pool's workers share its chunks.
    return PoolEngine(workers, executor, workers * config.recycle if config.recycle else None)


def _run(engine_of: Callable[[], Engine], chunks: Iterator[Chunk], collect: _Collector) -> bool:
    """Schedule every chunk; whether Ctrl+C (or a KeyboardInterrupt from ``on_row``) cut the run short."""
    engine: Engine | None = None
    interrupted = False
    try:
        engine = engine_of()
        schedule(engine, chunks, collect)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if engine is not None:
            try:
                engine.close(cancel=True)
            except KeyboardInterrupt:  # a second Ctrl+C while closing: stop waiting for workers
                interrupted = True
    return interrupted


def _ready_out(config: SimConfig, held: contextlib.ExitStack,
               removed: list[Path]) -> tuple[Path | None, dict[Path, Identity]]:
    """The output folder, checked and made before any battle (a path in the way would lose the whole
    run's files), locked in ``held`` against another run into it (game.sim.outputs.holding), a
    ``replays`` link in it removed (added to ``removed``), and an earlier run's replay files, which
    :func:`game.sim.written.write_files` removes once a battle finished (they would pass for this one's)."""
    if not config.out_dir:
        return None, {}
    out_dir = Path(config.out_dir)
    check_outputs(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    held.enter_context(holding(out_dir))
    removed += remove_replay_links(out_dir)
    return out_dir, earlier_replays(out_dir)


class _NothingFinished(Exception):
    """Raised inside battles.csv's ``replacing`` block to drop its temporary: Ctrl+C came before any battle."""


@dataclass
class _Played:
    """What playing every chunk left: the folded rows, whether Ctrl+C cut it short, how long it took,
    files that could not be written, and powers a hook used that battles.csv has no column for."""

    collect: _Collector
    interrupted: bool
    elapsed: float
    write_errors: list[str]
    unlisted: list[str]


def _play(config: SimConfig, chunks: Iterator[Chunk], total: int, stats: list[VariantStats], csv_powers: set[str],
          out_dir: Path | None, on_row: RowCallback | None, progress: bool,
          engine_of: Callable[[], Engine]) -> _Played:
    """Every chunk through the engine, each row folded into ``stats``, the progress bar and battles.csv.

    Rows go to a temporary beside battles.csv, which replaces the last run's table when the run ends
    (Ctrl+C included, once a battle finished); a run that fails, or that Ctrl+C stopped before any
    battle finished, leaves the old one (game.content.atomic.replacing). A table
    that cannot be put in place once every battle finished is a write error, not a lost run.
    """
    finished, write_errors = False, []
    sink: CsvSink | None = None
    bar = None
    try:
        with replacing(out_dir / TABLE) if out_dir else contextlib.nullcontext() as csv_handle:
            try:
                if progress:
                    from tqdm import tqdm

                    bar = tqdm(total=total, unit="battle", smoothing=0.05, dynamic_ncols=True, file=sys.stderr)
                if csv_handle is not None:
                    held = None if config.hook else {v.index: v.known_powers for v in stats}  # (a hook gives any)
                    sink = CsvSink(csv_handle, stats, csv_powers, held)
                collect = _Collector(config, stats, sink, bar, on_row)
                started = time.perf_counter()
                interrupted = _run(engine_of, chunks, collect)
                finished = True
                if interrupted and not collect.done and csv_handle is not None:
                    raise _NothingFinished  # the last run's battles.csv stays: a header is no table
            finally:
                if bar is not None:
                    bar.close()
    except _NothingFinished:
        pass
    except OSError as err:
        if not finished or out_dir is None:
            raise
        write_errors.append(f"cannot write {out_dir / TABLE}: {err.strerror or err}")
    return _Played(collect, interrupted, time.perf_counter() - started, write_errors,
                   sorted(sink.unlisted) if sink is not None else [])


def simulate(config: SimConfig, on_row: RowCallback | None = None, progress: bool = True,
             executor: cf.ProcessPoolExecutor | None = None) -> SimResult:
    """Run the battles of every variant and return the totals.

    Args:
        config: what to run.
        on_row: called in this process with each finished battle's row (after it is counted); a
            KeyboardInterrupt raised from it stops the run exactly like Ctrl+C (tests use this).
        progress: show a tqdm bar (battles per second, time left) on stderr.
        executor: an existing process pool to use (benchmarks reuse warm workers); not shut down.

    Raises:
        ScenarioError / ValueError: a scenario or override that cannot be used, before any battle.
    """
    scenarios, source = checked(config)
    variants = config.variants()
    teams = tuple(scenarios[0].teams)
    known = tuple(sorted(_powers_used(scenarios)))  # battles.csv has a column for each
    # the power table lists each power a creature of the variant has, used or not: one only another
    # variant's creatures have (a sweep of creatures.KEY.powers) is no power this variant's AI left unused
    stats = [VariantStats(i, overrides, teams, known_powers=tuple(sorted(_powers_used([scenario]))))
             for i, (overrides, scenario) in enumerate(zip(variants, scenarios, strict=True))]
    seeds = config.seeds()
    total = len(seeds) * len(variants)
    with contextlib.ExitStack() as held:  # --out is this run's until its last file is written
        removed: list[Path] = []
        out_dir, earlier = _ready_out(config, held, removed)
        replay_dir = str(out_dir.resolve() / REPLAYS) if out_dir else None  # not resolved: a replays link is removed
        workers = config.workers or default_workers()
        chunks = chunks_of(config, seeds, variants, replay_dir, chunk_sizes(config, total, workers), source)
        played = _play(config, chunks, total, stats, _csv_powers(known, scenarios, config.hook), out_dir, on_row,
                       progress, lambda: _engine(config, workers, executor))
        collect = played.collect
        collect.failures.sort(key=lambda f: (f.variant, f.battle))  # arrival order differs between engines and runs
        result = SimResult(config, stats, teams, collect.failures, collect.failed, collect.done, total,
                           played.elapsed, played.interrupted, replays=sorted(collect.replays),
                           write_errors=played.write_errors, unlisted=played.unlisted, removed=removed)
        # Ctrl+C before any battle: the earlier run's battles.csv stays, and its rows name its replays' paths,
        # which this run may have written over: removing them too left that table naming files that were gone
        kept = played.interrupted and not collect.done
        recorded = collect.recorded | ({(p.parent.name, p.name) for p in earlier} if kept else set())
        try:  # (the workers are stopped by now: none writes another)
            result.unrecorded = remove_unrecorded_replays(out_dir, earlier, recorded) if out_dir else []
        except OSError as err:
            result.write_errors.append(f"cannot remove the replays of unfinished battles: {err.strerror or err}")
        result.rewritten = written_over(earlier) if kept else []
        if out_dir and (collect.done or not played.interrupted):
            write_files(result, out_dir, len(seeds), earlier)
        elif out_dir:  # Ctrl+C before any battle: an empty table and summary must not replace the last run's, nor
            # its replays go
            result.kept = out_dir
    return result
