"""The ``simulate`` command line: flags to a :class:`~game.sim.config.SimConfig`, the run, the report.

``python -m game simulate assets/scenarios/ledge.toml --battles 10000 --set creatures.ogre.health=20,30,40``
(also ``python -m game.sim.cli ...``). See :mod:`game.sim.simulate` for how a run is built.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import resource
import shlex
import signal
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any

from components.values import counted, shown_text
from game import ai
from game.content.scenario_overrides import LEGEND, key_parts
from game.content.toml_values import nesting, parse_value, split_values, toml_value
from game.sim.command import battle_flags, rerun_line
from game.sim.config import ENGINES, SimConfig
from game.sim.flags import (
    SEED,
    FlagError,
    OneLineParser,
    check_out_dir,
    check_scheduler,
    escaped,
    one_line,
    policy_spec,
    seconds,
    whole,
    with_policies_help,
)
from game.sim.notes import notes
from game.sim.outputs import check_outputs
from game.sim.report import Failure
from game.sim.runner import NOT_WRITTEN, OVER_TIME
from game.sim.simulate import SimResult, simulate

DESCRIPTION = "Balance at scale: thousands of headless computer-vs-computer battles, a table, a CSV and plots."


#: Documented ranges of the numeric flags (``--help`` shows them).
MAX_BATTLES = 100_000_000
MAX_WORKERS = 64
MAX_ROUNDS = 1_000
MAX_CHUNK = 10_000
MAX_RECYCLE = 10_000_000
MAX_VARIANTS = 1_000
BATTLE_SECONDS = (0.01, 3600.0)
#: How deep a --set value's arrays and tables may nest (``[{ x = 1 }]`` is 2).
MAX_NESTING = 16


def parse_set(text: str) -> tuple[str, list[Any]]:
    """``KEY=V1,V2,...`` -> ``(KEY, [V1, V2, ...])``; every value non-empty and given once.

    Raises:
        argparse.ArgumentTypeError: no ``=``, no key, an empty value, or a value given twice (what the
            key and values mean is checked against the scenario, before any battle).
    """
    key, sep, values = _key_and_values(text)
    parts = [v.strip() for v in split_values(values)]
    if not sep or not key.strip() or not all(parts):
        raise argparse.ArgumentTypeError(f"{shown_text(text)}: expected KEY=V1,V2,... with no empty value, "
                                         f"like creatures.ogre.health=20,30")
    deep = next(((i, depth) for i, depth in enumerate(map(nesting, parts)) if depth > MAX_NESTING), None)
    if deep is not None:  # before parsing: tomllib (and all that walks a value) recurses once per level
        raise argparse.ArgumentTypeError(
            f"{shown_text(key.strip())}: value {deep[0] + 1} nests arrays or tables {deep[1]} deep, too deeply to be a "
            f"scenario's value (at most {MAX_NESTING}; a scenario's values nest one or two)")
    parsed = [parse_value(v) for v in parts]
    spelled = [toml_value(v) for v in parsed]  # (4, +4 and 0x4 are one value: compared as read)
    twice = sorted({v for v in spelled if spelled.count(v) > 1})
    if twice:
        raise argparse.ArgumentTypeError(f"{shown_text(text)}: a value is given twice ({twice[0]}; each variant once)")
    inert = inert_key(key.strip())
    if inert:
        raise argparse.ArgumentTypeError(f"{shown_text(text)}: sweeping {key.strip()} changes nothing in a "
                                         f"simulation's battles ({inert})")
    return key.strip(), parsed


def _key_and_values(text: str) -> tuple[str, str, str]:
    """``text`` cut at the ``=`` that ends its key. A legend character is the one part of a key that may
    be ``=`` itself (the shipped ambush draws its road with one): ``map.legend.=.ground=0,2`` sweeps it,
    as ``map.legend...ground`` sweeps ".", and a re-run line spells it so."""
    after = len(LEGEND) + 1  # the one character, then the dot before its field
    if text.startswith(LEGEND) and text[after:after + 1] == ".":
        field, sep, values = text[after:].partition("=")
        return text[:after] + field, sep, values
    return text.partition("=")


def inert_key(key: str) -> str | None:
    """Why sweeping ``key`` could change nothing a simulation counts, or None: its variants would be
    the same battles, told apart only by their label."""
    parts = key_parts(key)
    if key == "seed":
        return "every battle's seed comes from --seed, the master seed"
    if key in ("name", "description") or (len(parts) == 3 and parts[0] == "creatures" and parts[2] == "name"):
        return "a name is only a name"
    if len(parts) == 3 and parts[0] == "powers" and parts[2] in ("name", "description"):
        return "a power's name and description are only words: the table counts its uses by its id"
    if len(parts) == 4 and parts[:2] == ["map", "legend"] and parts[3] == "name":
        return "a square's name is only drawn"
    if len(parts) == 3 and parts[0] == "teams" and parts[2] in ("control", "colour"):
        return "simulate plays every team by --policy" if parts[2] == "control" else "a colour is only drawn"
    return None


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    """The ``simulate`` arguments (on a given parser, for the ``game`` command's subcommand table)."""
    parser = parser or OneLineParser(prog="python -m game simulate", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    low, high = BATTLE_SECONDS
    given = SimConfig(scenario="")  # the defaults are the config's own, said once
    parser.add_argument("scenario", help="scenario TOML file, e.g. assets/scenarios/ledge.toml")
    parser.add_argument("--battles", type=whole(1, MAX_BATTLES), default=None,  # None: not given (see ignored)
                        help=f"battles per variant, 1 to {MAX_BATTLES:,} (default {given.battles})")
    parser.add_argument("--workers", type=whole(1, MAX_WORKERS), default=None,
                        help=f"worker processes, 1 to {MAX_WORKERS} (default: all cores)")
    parser.add_argument("--seed", type=SEED, default=None,  # None: not given (see ignored)
                        help=f"master seed, 0 to 2**63-1; battle seeds derive from it (default {given.seed})")
    parser.add_argument("--out", default=given.out_dir,
                        help=f"directory for battles.csv, plots and replays (default {given.out_dir})")
    parser.add_argument("--policy", type=policy_spec, default=given.policy, metavar="POLICY|TEAM=POLICY,...",
                        help=f"the computer player for every team ({', '.join(ai.POLICIES)}), or per team, e.g. "
                             f"keep=tactical,raiders=greedy (teams not named play {given.policy}); listed below")
    with_policies_help(parser)
    parser.add_argument("--set", dest="sets", action="append", type=parse_set, default=[], metavar="KEY=V1,V2,...",
                        help="sweep a scenario key (creatures.ogre.health) or power key (powers.fireball.damage); "
                             f"several --set make a grid (at most {MAX_VARIANTS} variants); every variant runs "
                             "on the same seeds")
    parser.add_argument("--engine", choices=ENGINES, default=given.engine,
                        help="local process pool or Dask distributed")
    parser.add_argument("--scheduler", default=None,
                        help="Dask scheduler address, with --engine dask (default: a local 2-worker cluster)")
    parser.add_argument("--max-rounds", type=whole(1, MAX_ROUNDS), default=given.max_rounds,
                        help=f"rounds before a battle is a draw, 1 to {MAX_ROUNDS} (default {given.max_rounds})")
    parser.add_argument("--chunk", type=whole(1, MAX_CHUNK), default=None,
                        help=f"battles per worker task, 1 to {MAX_CHUNK:,} (default: automatic)")
    parser.add_argument("--hook", default=None, help="module:function called with (battle, ids, seed) after each build")
    parser.add_argument("--only-seed", dest="only_seeds", type=SEED, action="append", default=None, metavar="SEED",
                        help="run just this battle seed (repeatable) and write its replay under OUT/replays")
    parser.add_argument("--battle-seconds", type=seconds(low, high), default=given.battle_seconds, metavar="S",
                        help=f"a battle still running after S seconds ({low:g} to {high:g}) stops its worker and "
                             f"counts as failed (Dask: after the first round that ends past S) "
                             f"(default {given.battle_seconds:g})")
    parser.add_argument("--strict-scripts", action="store_true",
                        help="a battle in which a script failed counts as a failed battle (default: counted apart)")
    parser.add_argument("--recycle", type=whole(0, MAX_RECYCLE), default=None, metavar="N",
                        help="replace pool workers after about N battles each, bounding leaked native memory "
                             f"(default {given.recycle}; 0 never; at most {MAX_RECYCLE:,})")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser


def check_args(args: argparse.Namespace) -> None:
    """What the flags mean together, the hook, the scheduler and the output directory, before any battle.

    Raises:
        FlagError: a combination or value that cannot be used (the message names the flag).
    """
    from game.sim.runner import load_hook

    keys = [key for key, _ in args.sets]
    repeated = sorted({key for key in keys if keys.count(key) > 1})
    if repeated:
        raise FlagError(f"--set {shown_text(repeated[0])}: given twice (put every value in one --set KEY=V1,V2)")
    variants = math.prod(len(values) for _, values in args.sets)
    if variants > MAX_VARIANTS:
        raise FlagError(f"--set: {variants:,} variants, expected at most {MAX_VARIANTS:,}")
    twice = sorted(seed for seed, n in Counter(args.only_seeds or ()).items() if n > 1)
    if twice:  # the same battle again would count as another, narrowing the interval for nothing
        raise FlagError(f"--only-seed {twice[0]}: given twice (each seed is one battle)")
    battles = len(args.only_seeds) if args.only_seeds else with_defaults(args).battles
    if battles * variants > MAX_BATTLES:
        raise FlagError(f"--battles {battles:,} x {variants:,} variants: expected at most {MAX_BATTLES:,} "
                        f"battles in all (run several, with another --seed)")
    if args.scheduler is not None and args.engine != "dask":
        raise FlagError(f"--scheduler {shown_text(args.scheduler)}: needs --engine dask")
    load_hook(args.hook)  # raises a one-line ValueError naming --hook
    if args.scheduler is not None:
        check_scheduler(args.scheduler)
    check_outputs(check_out_dir("--out", args.out))


def with_defaults(args: argparse.Namespace) -> SimConfig:
    """``--battles``, ``--seed`` and ``--recycle`` as given, or their defaults (the parser leaves them None
    when not given, so that :func:`ignored` can tell a flag the user gave from a default)."""
    default = SimConfig(scenario=args.scenario)
    return dataclasses.replace(default, battles=default.battles if args.battles is None else args.battles,
                               seed=default.seed if args.seed is None else args.seed,
                               recycle=default.recycle if args.recycle is None else args.recycle)


def ignored(args: argparse.Namespace) -> list[str]:
    """A warning for each flag the user gave that this run cannot follow: it used to be dropped in
    silence, and a designer who asked for ``--battles 5000`` with ``--only-seed`` took the table of one
    battle for the table of 5,000."""
    warnings = []
    if args.only_seeds and args.battles is not None:
        warnings.append(f"--battles {args.battles:,} is ignored: --only-seed runs just the seeds it names "
                        f"({counted(len(args.only_seeds), 'battle')} a variant)")
    if args.only_seeds and args.seed is not None:  # the master seed derives seeds; --only-seed gives them
        warnings.append(f"--seed {args.seed} is ignored: --only-seed gives each battle its seed itself")
    if args.scheduler is not None and args.workers is not None:
        warnings.append(f"--workers {args.workers} does not size the cluster at --scheduler, which has the workers "
                        f"it has: it only sizes the chunks of battles sent to it")
    if args.engine == "dask" and args.recycle is not None:
        warnings.append(f"--recycle {args.recycle:,} is ignored: --engine dask does not replace its workers "
                        f"(only the pool engine recycles)")
    return warnings


def run_cli(args: argparse.Namespace) -> int:
    """Run from parsed arguments; print the table, failures, files and peak memory.

    Returns:
        0 when every battle finished, 1 when some failed or an output could not be written (the
        table is printed all the same), 130 when interrupted, and 2 (with one line
        on stderr naming the flag or file) when the command was refused before any battle.
    """
    from game.content.scenario import ScenarioError

    try:
        check_args(args)
    except ValueError as err:
        print(f"simulate: {one_line(err)}", file=sys.stderr)
        return 2
    for warning in ignored(args):
        print(f"simulate: warning: {warning}", file=sys.stderr)
    given = with_defaults(args)
    config = SimConfig(scenario=args.scenario, battles=given.battles, seed=given.seed, sets=list(args.sets),
                       workers=args.workers, policy=args.policy, max_rounds=args.max_rounds, engine=args.engine,
                       scheduler=args.scheduler, out_dir=args.out, chunk_size=args.chunk, hook=args.hook,
                       only_seeds=args.only_seeds, strict_scripts=args.strict_scripts,
                       battle_seconds=args.battle_seconds,
                       recycle=given.recycle)

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt  # SIGTERM stops a run as Ctrl+C does: the workers are shut, not orphaned

    previous = signal.signal(signal.SIGTERM, stop)  # the CLI runs on the main thread
    try:
        result = simulate(config, progress=not args.no_progress and sys.stderr.isatty())
    except (ScenarioError, ValueError, OSError) as err:
        print(f"simulate: {one_line(err)}", file=sys.stderr)
        return 2
    finally:
        signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)
    print(report(result))
    unwritten = any(replay.startswith(NOT_WRITTEN) for _, _, replay in result.replays)
    return 130 if result.interrupted else (1 if result.failed or unwritten or result.write_errors else 0)


def rerun(result: SimResult, failure: Failure) -> str:
    """The line that plays a failed battle again. One that ``--battle-seconds`` stopped would only be
    stopped again with the same bound: its line gives it ten times as long (at most the flag's
    highest), and says so; at the highest already, it says what else would end the battle sooner."""
    c = result.config
    overrides = result.variants[failure.variant].overrides
    if not failure.error.startswith(OVER_TIME):
        return f"  re-run the first alone: {rerun_line(c, failure.seed, overrides)}"
    high = BATTLE_SECONDS[1]
    if c.battle_seconds >= high:
        return (f"  re-run the first alone (it ran past --battle-seconds {high:g}, the most the flag allows; "
                f"a lower --max-rounds ends it sooner): {rerun_line(c, failure.seed, overrides)}")
    longer = min(high, c.battle_seconds * 10)
    again = rerun_line(dataclasses.replace(c, battle_seconds=longer), failure.seed, overrides)
    return (f"  re-run the first alone, with --battle-seconds {longer:g} in place of the {c.battle_seconds:g} "
            f"it ran past (with the same bound it would stop again): {again}")


def _some(paths: Sequence[object]) -> str:
    """The first three of ``paths`` (files, seeds), and how many more."""
    more = f" and {len(paths) - 3} more" if len(paths) > 3 else ""
    return f"{', '.join(map(str, paths[:3]))}{more}"


def _outputs(result: SimResult) -> list[str]:
    """What the run did to ``--out``: the files it wrote, or that it kept the last run's, and what it removed."""
    lines = [f"wrote {path}" for path in result.files]
    if result.kept is not None:  # (a ``replays`` link went before the battles: "removed" names it below)
        but = ", but for what is named removed below" if result.removed else ""
        if result.rewritten:  # (kept: the earlier table names them)
            but += (f"; of its replays, this run wrote {_some(result.rewritten)} again before it was stopped "
                    f"(the earlier run's battles only if played with the earlier run's flags)")
        lines.append(f"wrote nothing in {result.kept}: interrupted before any battle finished; whatever an earlier "
                     f"run left there (battles.csv, summary.json, plots, replays) is as it was{but}")
    if result.removed:  # said, not silent: a designer's earlier replays and plots are gone
        lines.append(f"removed an earlier run's {_some(result.removed)} (not written by this run)")
    if result.unrecorded:  # a replay beside a table without its battle's row would pass for a finished battle's
        lines.append(f"removed {_some(result.unrecorded)}: written for battles stopped before they finished, "
                     f"which battles.csv has no row for")
    return lines


def report(result: SimResult) -> str:
    """The table with a header and footer: what ran, failures with seeds, files, speed and memory; a
    control or bidi character in any line is spelt as an escape (``components.values.escaped``)."""
    c = result.config
    cut = " -- INTERRUPTED, table covers the finished battles" if result.interrupted else ""
    parsed = ai.parse_policies(c.policy)
    policies = ", ".join(f"{team}={ai.policy_of(parsed, team)}" for team in result.teams)
    # (a few of them: thousands of --only-seed made a first line of tens of kilobytes, the table far below)
    seeds = f"master seed {c.seed}" if c.only_seeds is None else f"--only-seed {_some(c.only_seeds)}"
    lines = [f"{c.scenario}: {result.done}/{result.total} battles, {seeds}, "
             f"policies {policies}, engine {c.engine}{cut}",
             f"battles played with: {shlex.join(battle_flags(c))}",
             "", result.table(), ""]
    lines += notes(result)
    if result.failed:
        lines.append(f"{counted(result.failed, 'battle')} FAILED (counted in 'failed', excluded from rates):")
        for f in result.failures[:20]:
            replay = f"  replay: {f.replay}" if f.replay else ""
            lines.append(f"  variant {f.variant} battle {f.battle} seed {f.seed}: {f.error}{replay}")
        if result.failed > 20:
            lines.append(f"  ... and {result.failed - 20} more (see battles.csv)")
        if result.failures:
            lines.append(rerun(result, result.failures[0]))
    for variant_index, seed, replay in result.replays:
        if replay.startswith(NOT_WRITTEN):
            lines.append(f"replay of variant {variant_index} seed {seed} FAILED: {replay[1:-1]}")
        else:
            lines.append(f"replay of variant {variant_index} seed {seed}: {replay} (python -m game replay {replay})")
    lines += _outputs(result)
    for problem in result.write_errors:
        lines.append(f"FAILED to write: {problem}")
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    # a slow run's rate with a tenth: "1 battles/s" read wrong, and "0 battles/s" said no battle was played
    rate = f"{result.rate:.0f}" if result.rate >= 9.95 else f"{result.rate:.1f}"
    lines.append(f"{counted(result.done, 'battle')} in {result.elapsed:.1f} s ({rate} battles/s, start-up included); "
                 f"peak RSS: main {own:.0f} MiB, largest worker {children:.0f} MiB")
    # each line escaped once: paths (--out, a replay's, the scenario's) are names a stranger may choose
    return "\n".join(escaped(line) for chunk in lines for line in chunk.split("\n"))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m game.sim.cli ...`` (the same as ``python -m game simulate ...``)."""
    return run_cli(build_parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
