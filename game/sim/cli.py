"""The ``simulate`` command line: flags to a :class:`~game.sim.config.SimConfig`, the run, the report.

``python -m game simulate assets/scenarios/ledge.toml --battles 10000 --set creatures.ogre.health=20,30,40``
(also ``python -m game.sim.cli ...``). See :mod:`game.sim.simulate` for how a run is built.
"""

from __future__ import annotations

import argparse
import resource
import sys
from collections.abc import Sequence
from typing import Any

from game.sim.config import ENGINES, POLICIES, SimConfig
from game.sim.simulate import SimResult, simulate

DESCRIPTION = "Balance at scale: thousands of headless computer-vs-computer battles, a table, a CSV and plots."


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
    parser = parser or argparse.ArgumentParser(prog="python -m game simulate", description=DESCRIPTION,
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
    """``python -m game.sim.cli ...`` (the same as ``python -m game simulate ...``)."""
    return run_cli(build_parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
