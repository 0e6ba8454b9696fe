"""Command line: ``python -m game demo | play SCENARIO | replay FILE``.

Subcommands live in one table (``COMMANDS``: name -> (configure parser, run)) so that adding one,
such as the simulation runner's ``simulate``, is a single line here.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Mapping
from types import MappingProxyType

from components.values import counted, escaped
from game.ai import DEFAULT_POLICY
from game.play import headless
from game.sim.flags import SEED, FlagError, OneLineParser, one_line, policy_spec, whole, with_policies_help

#: ``--rounds`` of demo and play: the parser refuses a bad one before anything runs, display or not.
ROUNDS = whole(1, headless.MAX_ROUNDS)

Configure = Callable[[argparse.ArgumentParser], None]
Run = Callable[[argparse.Namespace], int]



def _demo_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--headless", action="store_true", help="never open a window (default when there is no display)")
    p.add_argument("--out", default=None, help="where screenshots and the log go when headless (default: out)")
    p.add_argument("--rounds", type=ROUNDS, default=None,  # None: not given (see window_ignored)
                   help=f"at most this many rounds, 1 to {headless.MAX_ROUNDS} (default: {headless.DEFAULT_ROUNDS})")
    p.add_argument("--policy", type=policy_spec, default=DEFAULT_POLICY, metavar="POLICY|TEAM=POLICY,...",
                   help=f"the computer player for every team, or per team (default: {DEFAULT_POLICY})")
    with_policies_help(p)
    p.add_argument("--seed", type=SEED, default=headless.DEMO_SEED,
                   help=f"seeds the computer players, 0 to 2**63-1 (default: {headless.DEMO_SEED}; "
                        "the battle has its own)")


def run_demo(args: argparse.Namespace) -> int:
    """Window with a display; otherwise headless: PNGs per round and the log, printed."""
    from game.play import demo

    try:
        windowed = not (args.headless or not demo.has_display())
        if windowed:  # (--out unchecked: ignored here, it refused the window for a path never written, as play did not)
            window_ignored("demo", args)
            demo.run_window(policy=args.policy, seed=args.seed)  # --policy is checked against the demo's teams
            return 0
        headless.check_out(out_of(args), headless.DEMO_OUTPUTS)  # before the battle
        lines = demo.run_headless(out_of(args), max_rounds=rounds_of(args), seed=args.seed, policy=args.policy)
    except (FlagError, headless.PlayError) as err:
        print(f"demo: {one_line(err)}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    print(f"\nScreenshots and combat-log.txt written to {escaped(out_of(args))}/", file=sys.stderr)
    return 0


def out_of(args: argparse.Namespace) -> str:
    """``--out`` as given, or its default (the parser leaves it None, so that a window can tell it was given)."""
    return "out" if args.out is None else str(args.out)


def rounds_of(args: argparse.Namespace) -> int:
    """``--rounds`` as given, or its default (None from the parser when not given, as ``--out``)."""
    return headless.DEFAULT_ROUNDS if args.rounds is None else int(args.rounds)


def window_ignored(command: str, args: argparse.Namespace) -> None:
    """Say, once each, that ``--rounds`` and ``--out`` bound and place a headless run only: a window
    plays until it is closed and writes no screenshots or log, and ``play F --rounds 3`` in one used
    to play on past round 3 without a word."""
    if args.rounds is not None:
        print(f"{command}: warning: --rounds {args.rounds} is ignored: a window plays until you close it "
              f"(--rounds bounds a --headless run)", file=sys.stderr)
    if args.out is not None:
        print(f"{command}: warning: --out {escaped(args.out)} is ignored: a window writes no screenshots or log "
              f"(--out is where a --headless run writes them)", file=sys.stderr)


def _play_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("scenario", help="a scenario file, e.g. assets/scenarios/ledge.toml")
    p.add_argument("--headless", action="store_true",
                   help="no window: the computer plays every side; screenshots of its turns and the log go to --out")
    p.add_argument("--out", default=None, help="where the headless screenshots and combat-log.txt go (default: out)")
    p.add_argument("--rounds", type=ROUNDS, default=None,  # None: not given (see window_ignored)
                   help=f"headless: at most this many rounds, 1 to {headless.MAX_ROUNDS} "
                        f"(default: {headless.DEFAULT_ROUNDS})")
    p.add_argument("--policy", type=policy_spec, default=DEFAULT_POLICY, metavar="POLICY|TEAM=POLICY,...",
                   help="the computer player for every team, or per team as merchants=tactical,bandits=greedy "
                        "(tactical: weighs forecasts; greedy: the fixed baseline; random)")
    p.add_argument("--explain", action="store_true",
                   help="the computer player's reason for each turn in the combat log (the GM's log in a window)")
    with_policies_help(p)
    p.add_argument("--seed", type=SEED, default=None,
                   help="seeds the battle (default: the scenario's seed) and the computer players, 0 to 2**63-1")


def _play_headless(args: argparse.Namespace) -> int:
    """Computer against computer on any scenario, turn by turn, without a window."""
    from game.content.scenario import ScenarioError

    try:
        out = headless.check_out(out_of(args))
        played = headless.play(args.scenario, out, rounds=rounds_of(args), seed=args.seed, policy=args.policy,
                               explain=args.explain)
    except (headless.PlayError, ScenarioError) as err:
        print(f"play: {one_line(err)}", file=sys.stderr)
        return 2
    print("\n".join(played.lines))
    result = f"{played.winner} won" if played.winner else ("nobody is left" if played.winner == "" else "undecided")
    print(f"\n{result} after {counted(played.rounds, 'round')}; {counted(len(played.shots), 'screenshot')} and "
          f"combat-log.txt written to {escaped(str(out))}/", file=sys.stderr)
    return 0


def run_play(args: argparse.Namespace) -> int:
    """Open the window (the scenario's human teams are yours, the rest the computer's), or with
    --headless play it computer against computer."""
    from game.play import demo

    if args.headless:
        return _play_headless(args)
    from game.content.scenario import ScenarioError

    seed = args.seed  # the parser refused a bad --seed or --rounds before this, display or not
    if not demo.has_display():
        named = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
        why = f"{named!r} names no running display server" if named else \
            "DISPLAY or WAYLAND_DISPLAY, and SDL_VIDEODRIVER not dummy"
        print(f"play needs a display ({why}); --headless plays without one", file=sys.stderr)
        return 2
    from game.play.app import App

    try:
        loaded = demo.load(args.scenario, human=True, seed=seed)
    except (headless.PlayError, ScenarioError) as err:
        print(f"play: {one_line(err)}", file=sys.stderr)
        return 2
    try:
        headless.check_policy(args.policy, loaded.battle, args.scenario)
    except headless.PlayError as err:
        loaded.battle.close()
        print(f"play: {one_line(err)}", file=sys.stderr)
        return 2
    window_ignored("play", args)
    if not loaded.human_teams:
        print(f"{escaped(args.scenario)}: no team has control = \"human\"; you will only watch", file=sys.stderr)
    if (note := headless.human_policy_note(args.policy, loaded.human_teams)) is not None:
        print(f"play: {note}", file=sys.stderr)
    App(loaded.battle, loaded.human_teams, loaded.team_colours, loaded.scenario, loaded.build_commands,
        policy=args.policy, seed=seed, title=loaded.title,
        powers=loaded.powers, explain=args.explain).run()
    return 0


def _replay_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a replay or save written by game.content.saves")
    p.add_argument("--headless", action="store_true",
                   help="only check it (no window); in a window: step it by event, turn and round (? for keys)")


def run_replay(args: argparse.Namespace) -> int:
    """Replay a file and say whether the events came out the same; exit status 1 if not, 2 if the
    file cannot be read as a replay at all."""
    from game.content.saves import SaveError, check_replay

    try:  # read once: the window steps what was checked, not the file as it may be by then
        battle, first_mismatch, found = check_replay(args.file)
        matched = first_mismatch is None
    except SaveError as err:
        print(f"replay: {one_line(err)}", file=sys.stderr)
        return 2
    if matched:
        print(f"{escaped(args.file)}: replayed {counted(battle.round, 'round')}, "
              f"{counted(len(battle.state.events), 'event')}: all matched")
    else:
        print(one_line(f"{args.file}: MISMATCH: {first_mismatch}"))  # (the file's own events, quoted)
    if not args.headless:
        from game.play import demo

        if demo.has_display():
            from game.play.replay_window import open_replay

            battle.close()
            try:  # stepped in a window: a timeline, forward and back by event, turn and round
                open_replay(args.file, f"Replay of {os.path.basename(args.file)}", found).run()
            except (SaveError, ValueError) as err:
                print(f"replay: {one_line(err)}", file=sys.stderr)
                return 2
        else:  # said: the window simulate's own line points to ("python -m game replay FILE") never came
            print("replay: no display to step it in a window (DISPLAY or WAYLAND_DISPLAY, and SDL_VIDEODRIVER "
                  "not dummy): checked only, as --headless does", file=sys.stderr)
    return 0 if matched else 1


def _simulate_args(p: argparse.ArgumentParser) -> None:
    from game.sim.cli import build_parser

    build_parser(p)


def run_simulate(args: argparse.Namespace) -> int:
    """Battles at scale (see game.sim.cli); imported only when asked for, it pulls in dask and plots."""
    from game.sim.cli import run_cli

    return run_cli(args)


COMMANDS: Mapping[str, tuple[str, Configure, Run]] = MappingProxyType({
    "demo": ("computer vs computer on the demo scenario (headless without a display)", _demo_args, run_demo),
    "play": ("play a scenario in a window against the computer (--headless: computer on every side)",
             _play_args, run_play),
    "replay": ("replay a saved game or replay file and check its events", _replay_args, run_replay),
    "simulate": ("headless computer-vs-computer battles at scale: win rates with CIs, CSV, plots",
                 _simulate_args, run_simulate),
})


def main(argv: list[str] | None = None) -> int:
    """Parse and run; the exit status (2 with one line on stderr for a flag that cannot be used)."""
    parser = OneLineParser(prog="python -m game", description="Tactical grid battles.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (help_text, configure, _) in COMMANDS.items():
        configure(sub.add_parser(name, help=help_text, description=help_text))
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # --help (0) or a refused flag (2, its line already printed)
        return stop.code if isinstance(stop.code, int) else 2
    if args.command is None:
        parser.print_help()
        return 2
    try:
        return COMMANDS[args.command][2](args)
    except KeyboardInterrupt as stop:  # Ctrl+C: a line, not a traceback (simulate keeps its finished battles itself)
        said = one_line(stop) if isinstance(stop, headless.Interrupted) else "interrupted"  # (what it kept)
        print(f"{args.command}: {said}", file=sys.stderr)
        return 130


