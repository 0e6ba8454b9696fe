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
* **Flat memory.** Rows stream to ``battles.csv`` as they arrive and are folded into counters; each
  battle's esper world is deleted when it ends; at most a few chunks are in flight.
* **Ctrl+C keeps what finished.** The table is printed for the battles done so far.

Engines: a local process pool (spawn context; default) or Dask distributed (``--engine dask``,
a two-worker LocalCluster unless ``--scheduler ADDRESS`` is given). Both ship small chunks of
``(scenario path, overrides, seeds)`` and get small row dicts back.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures as cf
import itertools
import json
import multiprocessing
import os
import resource
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.sim.report import MAX_KEPT_FAILURES, CsvSink, Failure, VariantStats, format_table, plot
from game.sim.runner import (
    Chunk,
    Overrides,
    battle_seed,
    check_variant,
    failed_rows,
    run_chunk,
    worker_init,
)

POLICIES = ("tactical", "random", "greedy")
ENGINES = ("pool", "dask")

RowCallback = Callable[[Mapping[str, Any]], None]


# ---------------------------------------------------------------------------------------------- config


@dataclass
class SimConfig:
    """What to simulate. Mirrors the command line; see ``python -m game simulate --help``.

    Attributes:
        scenario: path of the scenario TOML file.
        battles: battles per variant.
        seed: the master seed every battle seed derives from.
        sets: swept keys and their values, ``[("powers.fireball.damage", ["4d6", "6d6"])]``; their
            product is the grid of variants.
        workers: worker processes (pool engine); None means every core.
        policy: the AI policy for every side.
        max_rounds: rounds before a battle is called a draw.
        engine: "pool" or "dask".
        scheduler: a Dask scheduler address; None starts a local two-worker cluster.
        out_dir: where battles.csv, plots and failed battles' replays go; None writes nothing.
        chunk_size: battles per task; None picks one that keeps every worker busy and the bar moving.
        hook: optional ``module:function`` called with ``(battle, ids, seed)`` after each build.
        only_seeds: run exactly these seeds (replaying chosen battles) instead of derived ones; a
            replay file is written for each when out_dir is set.
        strict_scripts: count a battle in which a power's or reaction's script failed as failed.
        battle_seconds: a battle still running after this many seconds stops its pool worker and
            is reported as failed with its seed (scripts run in-process there; see sim_battle).
        recycle: replace a pool worker after about this many battles (0: never), which bounds the
            native memory the rules leak (see :func:`pool_executor`).
    """

    scenario: str
    battles: int = 1000
    seed: int = 0
    sets: list[tuple[str, list[Any]]] = field(default_factory=list)
    workers: int | None = None
    policy: str = "tactical"
    max_rounds: int = 50
    engine: str = "pool"
    scheduler: str | None = None
    out_dir: str | None = "out"
    chunk_size: int | None = None
    hook: str | None = None
    only_seeds: list[int] | None = None
    strict_scripts: bool = False
    battle_seconds: float = 60.0
    recycle: int = 500

    def variants(self) -> list[Overrides]:
        """Every combination of swept values, first key varying slowest (the table's order)."""
        if not self.sets:
            return [()]
        keys = [k for k, _ in self.sets]
        return [tuple(zip(keys, combo)) for combo in itertools.product(*(v for _, v in self.sets))]

    def seeds(self) -> list[tuple[int, int]]:
        """``(battle index, seed)`` for every battle of one variant: the same list for every variant."""
        if self.only_seeds is not None:
            return list(enumerate(self.only_seeds))
        return [(i, battle_seed(self.seed, i)) for i in range(self.battles)]


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

    def summaries(self) -> list[dict[str, Any]]:
        return [v.summary() for v in self.variants]

    def table(self) -> str:
        """The terminal table (identical for identical seeds, whatever the engine)."""
        return format_table(self.summaries(), self.teams)

    @property
    def rate(self) -> float:
        """Battles per second, wall clock, start-up included."""
        return self.done / self.elapsed if self.elapsed > 0 else 0.0


# ---------------------------------------------------------------------------------------------- engines


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def pool_executor(workers: int, max_tasks_per_child: int | None = None) -> cf.ProcessPoolExecutor:
    """A process pool with the spawn context: workers import the game fresh (no forked esper state,
    no inherited threads of a Dask client or tqdm), ignore Ctrl+C, and warm the power table.

    ``max_tasks_per_child`` replaces a worker after that many chunks. The rules leak native memory
    that no Python code can free (tcod's ``dijkstra2d`` never frees its frontier: about 4 KiB a
    call, a few hundred KiB a battle), so a long run recycles its workers to keep RSS bounded.
    """
    return cf.ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                                  initializer=worker_init, max_tasks_per_child=max_tasks_per_child)


class _Engine:
    """Submit chunks, get rows back; the pool and Dask engines share the scheduling loop."""

    window: int

    def submit(self, chunk: Chunk) -> Any:
        raise NotImplementedError

    def wait(self, futures: set[Any]) -> tuple[set[Any], set[Any]]:
        raise NotImplementedError

    def result(self, future: Any) -> list[dict[str, Any]]:
        return future.result()

    def broken(self, error: BaseException) -> bool:
        """Whether the error means the worker (not the battle) failed: the chunk is retried apart."""
        return True

    def restart(self) -> None:
        """After a worker died: a usable engine again."""

    def close(self, cancel: bool) -> None:
        raise NotImplementedError


class _PoolEngine(_Engine):
    def __init__(self, workers: int, executor: cf.ProcessPoolExecutor | None = None,
                 max_tasks_per_child: int | None = None) -> None:
        self.workers = workers
        self.max_tasks_per_child = max_tasks_per_child
        self.own = executor is None
        self.executor = executor or pool_executor(workers, max_tasks_per_child)
        self.window = workers * 3

    def submit(self, chunk: Chunk) -> cf.Future[list[dict[str, Any]]]:
        return self.executor.submit(run_chunk, chunk)

    def wait(self, futures: set[Any]) -> tuple[set[Any], set[Any]]:
        done, pending = cf.wait(futures, timeout=0.5, return_when=cf.FIRST_COMPLETED)
        return set(done), set(pending)

    def restart(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.executor = pool_executor(self.workers, self.max_tasks_per_child)
        self.own = True

    def close(self, cancel: bool) -> None:
        if self.own:
            self.executor.shutdown(wait=True, cancel_futures=cancel)


class _DaskEngine(_Engine):
    def __init__(self, scheduler: str | None, workers: int | None) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError as err:  # a loud, actionable failure: never a silent fallback to the pool
            raise RuntimeError("--engine dask needs dask[distributed]: pip install 'dask[distributed]'") from err
        import dask
        from distributed import WorkerPlugin

        class _Setup(WorkerPlugin):
            """Runs on every worker, those the nanny restarts after a battle killed one included."""

            def setup(self, worker: Any) -> None:
                worker_init_dask()

        # A task whose worker dies fails at once (KilledWorker) rather than being retried on other
        # workers, so a battle that kills its worker takes down one worker, is isolated by
        # ``_schedule`` like on the pool, and is reported with its seed.
        dask.config.set({"distributed.scheduler.allowed-failures": 0})
        self.cluster = None
        if scheduler:
            self.client = Client(scheduler)
        else:
            self.cluster = LocalCluster(n_workers=workers or 2, threads_per_worker=1, processes=True,
                                        dashboard_address=None)
            self.client = Client(self.cluster)
        self.client.register_plugin(_Setup())
        n = max(1, len(self.client.scheduler_info().get("workers", {})))
        self.window = n * 3

    def submit(self, chunk: Chunk) -> Any:
        return self.client.submit(run_chunk, chunk, pure=False, retries=0)

    def wait(self, futures: set[Any]) -> tuple[set[Any], set[Any]]:
        from distributed import wait

        try:
            done, pending = wait(list(futures), timeout=0.5, return_when="FIRST_COMPLETED")
        except (TimeoutError, cf.TimeoutError):
            return set(), set(futures)
        return set(done), set(pending)

    def close(self, cancel: bool) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def worker_init_dask() -> None:
    """Dask worker start-up: warm the power table (Ctrl+C belongs to the nanny, not to us)."""
    from game.content.powers import default_powers

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    default_powers()


def chunk_size(config: SimConfig, total: int, workers: int) -> int:
    """Battles per task: big enough to hide the task overhead, small enough that every worker stays
    busy to the end, the bar moves and Ctrl+C loses little."""
    return config.chunk_size or max(1, min(50, total // (workers * 8) or 1))


def _chunks(config: SimConfig, seeds: Sequence[tuple[int, int]], variants: Sequence[Overrides],
            replay_dir: str | None, size: int) -> Iterator[Chunk]:
    for index, overrides in enumerate(variants):
        for start in range(0, len(seeds), size):
            yield Chunk(index, str(config.scenario), overrides, tuple(seeds[start:start + size]), config.policy,
                        config.max_rounds, config.hook, replay_dir and f"{replay_dir}/variant-{index}",
                        config.only_seeds is not None,
                        config.strict_scripts, config.battle_seconds)


def _schedule(engine: _Engine, chunks: Iterator[Chunk], deliver: Callable[[list[dict[str, Any]]], None]) -> None:
    """Keep a few chunks in flight and hand rows over as chunks finish.

    A chunk whose future fails (its worker died: a battle's own exceptions are rows, never failed
    futures) is split into single battles, and those "suspects" run one at a time, alone: the
    battle that kills its worker again is then known exactly and recorded as failed with its seed,
    while its innocent neighbours are played normally. The loop ends when every battle has a row.
    """
    inflight: dict[Any, tuple[Chunk, bool, int]] = {}  # future -> (chunk, suspect, engine generation)
    suspects: collections.deque[Chunk] = collections.deque()
    generation = 0
    exhausted = False
    while True:
        if suspects:
            if not inflight:
                chunk = suspects.popleft()
                inflight[engine.submit(chunk)] = (chunk, True, generation)
        else:
            while not exhausted and len(inflight) < engine.window:
                fresh = next(chunks, None)
                if fresh is None:
                    exhausted = True
                    break
                inflight[engine.submit(fresh)] = (fresh, False, generation)
        if not inflight:
            if exhausted and not suspects:
                return
            continue
        done, _ = engine.wait(set(inflight))
        restart = False
        for future in done:
            chunk, suspect, born = inflight.pop(future)
            try:
                rows = engine.result(future)
            except Exception as err:  # a dead worker: retry apart, then report
                restart = restart or born == generation
                if suspect:
                    deliver(failed_rows(chunk, f"worker died (out of memory, over --battle-seconds, or a crash): "
                                               f"{type(err).__name__}: {err}".strip()))
                else:
                    suspects.extend(chunk.split())
                continue
            deliver(rows)
        if restart:
            # Other chunks of the broken pool fail on their own and become suspects; only restart once.
            engine.restart()
            generation += 1


# ---------------------------------------------------------------------------------------------- the run


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
    if config.policy not in POLICIES:
        raise ValueError(f"unknown policy {config.policy!r}: expected one of {', '.join(POLICIES)}")
    if config.engine not in ENGINES:
        raise ValueError(f"unknown engine {config.engine!r}: expected one of {', '.join(ENGINES)}")
    variants = config.variants()
    scenarios = [check_variant(str(config.scenario), overrides) for overrides in variants]
    teams = tuple(scenarios[0].teams)
    stats = [VariantStats(i, overrides, teams) for i, overrides in enumerate(variants)]
    powers: set[str] = set()
    for scenario in scenarios:
        for spec in scenario.creatures:
            if spec.powers:
                powers.update(spec.powers)
            else:  # a creature given no powers may use every power of the battle
                powers.update(scenario.powers)
    seeds = config.seeds()
    seeds_per_variant = len(seeds)
    total = seeds_per_variant * len(variants)
    out_dir = Path(config.out_dir) if config.out_dir else None
    replay_dir = str((out_dir / "replays").resolve()) if out_dir else None
    workers = config.workers or default_workers()
    size = chunk_size(config, total, workers)

    failures: list[Failure] = []
    replays: list[tuple[int, int, str]] = []
    failed = 0
    done = 0
    interrupted = False
    csv_handle = None
    sink = None
    if out_dir:
        out_dir.mkdir(parents=True, exist_ok=True)
        csv_handle = open(out_dir / "battles.csv", "w", newline="", encoding="utf-8")
        sink = CsvSink(csv_handle, stats, powers)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=total, unit="battle", smoothing=0.05, dynamic_ncols=True, file=sys.stderr)

    def deliver(rows: list[dict[str, Any]]) -> None:
        nonlocal failed, done
        for row in rows:
            stats[row["variant"]].add(row)
            done += 1
            if row.get("error"):
                failed += 1
                if len(failures) < MAX_KEPT_FAILURES:
                    failures.append(Failure(row["variant"], row["battle"], row["seed"], row["error"],
                                            row.get("replay", "")))
            if config.only_seeds is not None and row.get("replay") and len(replays) < MAX_KEPT_FAILURES:
                replays.append((row["variant"], row["seed"], row["replay"]))
            if sink is not None:
                sink.write(row)
            if on_row is not None:
                on_row(row)
        if bar is not None:
            bar.update(len(rows))
            if failed:
                bar.set_postfix(failed=failed, refresh=False)

    started = time.perf_counter()
    engine: _Engine | None = None
    try:
        if config.engine == "dask":
            engine = _DaskEngine(config.scheduler, config.workers)
        else:
            recycle = -(-config.recycle // size) if config.recycle else None
            engine = _PoolEngine(workers, executor, recycle)
        _schedule(engine, _chunks(config, seeds, variants, replay_dir, size), deliver)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if engine is not None:
            try:
                engine.close(cancel=True)
            except KeyboardInterrupt:  # a second Ctrl+C while closing: stop waiting for workers
                interrupted = True
        if bar is not None:
            bar.close()
        if csv_handle is not None:
            csv_handle.close()
    elapsed = time.perf_counter() - started
    failures.sort(key=lambda f: (f.variant, f.battle))  # arrival order differs between engines and runs
    result = SimResult(config, stats, teams, failures, failed, done, total, elapsed, interrupted,
                       replays=sorted(replays))
    if out_dir:
        result.files.append(out_dir / "battles.csv")
        if done > failed:
            result.files += plot(result.summaries(), stats, teams, config.sets, out_dir)
        summary = {"scenario": str(config.scenario), "seed": config.seed, "policy": config.policy,
                   "battles_per_variant": seeds_per_variant, "done": done, "failed": failed,
                   "interrupted": interrupted, "variants": result.summaries(),
                   "failures": [f.__dict__ for f in failures]}
        (out_dir / "summary.json").write_text(json.dumps(summary, indent=1, default=str), encoding="utf-8")
        result.files.append(out_dir / "summary.json")
    return result


# ---------------------------------------------------------------------------------------------- command line


def parse_value(text: str) -> Any:
    """A --set value as TOML would read it (30 -> int, 0.5 -> float, true -> bool, 4d6 -> string)."""
    import tomllib

    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text.strip()


def parse_set(text: str) -> tuple[str, list[Any]]:
    """``KEY=V1,V2,...`` -> ``(KEY, [V1, V2, ...])``."""
    key, sep, values = text.partition("=")
    if not sep or not key.strip() or not values.strip():
        raise argparse.ArgumentTypeError(f"--set {text!r}: expected KEY=V1,V2,... like creatures.ogre.health=20,30")
    return key.strip(), [parse_value(v) for v in values.split(",") if v.strip()]


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    """The ``simulate`` arguments (on a given parser, for the ``game`` command's subcommand table)."""
    parser = parser or argparse.ArgumentParser(prog="python -m game simulate", description=__doc__.split("\n\n")[0],
                                               formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenario", help="scenario TOML file, e.g. assets/scenarios/ledge.toml")
    parser.add_argument("--battles", type=int, default=1000, help="battles per variant (default 1000)")
    parser.add_argument("--workers", type=int, default=None, help="worker processes (default: all cores)")
    parser.add_argument("--seed", type=int, default=0, help="master seed; battle seeds derive from it (default 0)")
    parser.add_argument("--out", default="out", help="directory for battles.csv, plots and replays (default out)")
    parser.add_argument("--policy", choices=POLICIES, default="tactical", help="AI policy for every side")
    parser.add_argument("--set", dest="sets", action="append", type=parse_set, default=[], metavar="KEY=V1,V2,...",
                        help="sweep a scenario key (creatures.ogre.health) or power key (powers.fireball.damage); "
                             "several --set make a grid; every variant runs on the same seeds")
    parser.add_argument("--engine", choices=ENGINES, default="pool", help="local process pool or Dask distributed")
    parser.add_argument("--scheduler", default=None, help="Dask scheduler address (default: a local 2-worker cluster)")
    parser.add_argument("--max-rounds", type=int, default=50, help="rounds before a battle is a draw (default 50)")
    parser.add_argument("--chunk", type=int, default=None, help="battles per worker task (default: automatic)")
    parser.add_argument("--hook", default=None, help="module:function called with (battle, ids, seed) after each build")
    parser.add_argument("--only-seed", dest="only_seeds", type=int, action="append", default=None, metavar="SEED",
                        help="run just this battle seed (repeatable) and write its replay under OUT/replays")
    parser.add_argument("--battle-seconds", type=float, default=60.0, metavar="S",
                        help="a battle still running after S seconds stops its worker and counts as failed "
                             "(default 60)")
    parser.add_argument("--strict-scripts", action="store_true",
                        help="a battle in which a script failed counts as a failed battle (default: counted apart)")
    parser.add_argument("--recycle", type=int, default=500, metavar="N",
                        help="replace a pool worker after about N battles, bounding leaked native memory "
                             "(default 500; 0 never)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser


def run_cli(args: argparse.Namespace) -> int:
    """Run from parsed arguments; print the table, failures, files and peak memory."""
    from game.content.scenario import ScenarioError

    if args.battles <= 0 or args.max_rounds <= 0:
        print("simulate: --battles and --max-rounds must be above 0", file=sys.stderr)
        return 2
    if args.battles > 100_000_000:
        print("simulate: --battles is at most 100,000,000 per run (run several, with other --seed)", file=sys.stderr)
        return 2
    if args.battle_seconds <= 0 or args.chunk is not None and args.chunk <= 0 or args.recycle < 0:
        print("simulate: --battle-seconds and --chunk must be above 0, --recycle 0 or more", file=sys.stderr)
        return 2
    config = SimConfig(scenario=args.scenario, battles=args.battles, seed=args.seed, sets=list(args.sets),
                       workers=args.workers, policy=args.policy, max_rounds=args.max_rounds, engine=args.engine,
                       scheduler=args.scheduler, out_dir=args.out, chunk_size=args.chunk, hook=args.hook,
                       only_seeds=args.only_seeds, strict_scripts=args.strict_scripts,
                       battle_seconds=args.battle_seconds,
                       recycle=args.recycle)
    try:
        result = simulate(config, progress=not args.no_progress and sys.stderr.isatty())
    except (ScenarioError, ValueError) as err:
        print(f"simulate: {err}", file=sys.stderr)
        return 2
    print(report(result))
    return 130 if result.interrupted else (1 if result.failed else 0)


def report(result: SimResult) -> str:
    """The table with a header and footer: what ran, failures with seeds, files, speed and memory."""
    c = result.config
    cut = " -- INTERRUPTED, table covers the finished battles" if result.interrupted else ""
    lines = [f"{c.scenario}: {result.done}/{result.total} battles, master seed {c.seed}, policy {c.policy}, "
             f"engine {c.engine}{cut}",
             "", result.table(), ""]
    for variant in result.variants:
        if variant.refused:
            lines.append(f"note: {variant.label}: {variant.refused} AI commands refused by the rules "
                         f"(first: {variant.first_refusal})")
        if variant.script_battles:
            lines.append(f"note: {variant.label}: scripts failed in {variant.script_battles} battles, which went on "
                         f"without them (--strict-scripts fails them); first: {variant.first_script_failure}")
    if result.failed:
        lines.append(f"{result.failed} battles FAILED (counted in 'failed', excluded from rates):")
        for f in result.failures[:20]:
            replay = f"  replay: {f.replay}" if f.replay else ""
            lines.append(f"  variant {f.variant} battle {f.battle} seed {f.seed}: {f.error}{replay}")
        if result.failed > 20:
            lines.append(f"  ... and {result.failed - 20} more (see battles.csv)")
        if result.failures:
            first = result.failures[0]
            sets = " ".join(f"--set {k}={v}" for k, v in result.variants[first.variant].overrides)
            lines.append(f"  re-run the first alone: python -m game simulate {c.scenario} --only-seed {first.seed} "
                         f"--policy {c.policy} --max-rounds {c.max_rounds} {sets}".rstrip()
                         + (f" --hook {c.hook}" if c.hook else ""))
    for variant_index, seed, replay in result.replays:
        lines.append(f"replay of variant {variant_index} seed {seed}: {replay} (python -m game replay {replay})")
    for path in result.files:
        lines.append(f"wrote {path}")
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    lines.append(f"{result.done} battles in {result.elapsed:.1f} s ({result.rate:.0f} battles/s, start-up included); "
                 f"peak RSS: main {own:.0f} MiB, largest worker {children:.0f} MiB")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m game.sim.simulate ...`` (the same as ``python -m game simulate ...``)."""
    return run_cli(build_parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
