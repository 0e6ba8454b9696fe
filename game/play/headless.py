"""Any scenario without a window: the computer plays every side, turn by turn, as the window would.

The battle is played by the window application itself (:class:`game.play.app.App` and its turn
flow) drawing into an off-screen surface, so what the PNGs show is what a window shows: a picture
after each of the first turns and one of the end, and the combat log written beside them.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from components.values import counted
from game.ai import DEFAULT_POLICY
from game.sim.flags import FlagError, check_out_dir
from game.sim.outputs import holding, in_the_way

#: Turns photographed (one PNG each) before only the last picture is kept.
TURN_SHOTS = 24
#: The most rounds a headless battle may be asked to play, and how many it plays unless asked.
MAX_ROUNDS = 500
DEFAULT_ROUNDS = 20
#: The demo's computer players' seed unless ``--seed`` names another (the battle has the scenario's own).
DEMO_SEED = 7
#: The files a headless play writes into --out, and the demo's (glob patterns).
PLAY_OUTPUTS = ("turn-*.png", "final.png", "combat-log.txt")
DEMO_OUTPUTS = ("round-*.png", "demo-*.png", "combat-log.txt")


class PlayError(ValueError):
    """A headless run asked for something it cannot do: the message names the flag and the value."""


@dataclass(frozen=True, slots=True)
class Played:
    """What a headless battle left: its log lines, the pictures written, the rounds and the winner."""

    lines: list[str]
    shots: list[Path]
    rounds: int
    winner: str | None


def write_out(write: Callable[[Path], None], path: Path) -> None:
    """A file of the run's output (a screenshot, the log), written by ``write(path)`` whole or not at
    all (a full disk, a folder made read-only during the run).

    Raises:
        PlayError: it cannot be written, with the file named.
    """
    try:
        write(path)
    except OSError as err:
        raise PlayError(f"cannot write {path}: {err.strerror or err}") from None


def clear_unwritten(out: Path, pattern: str, written: list[Path]) -> None:
    """Remove the files of ``out`` matching ``pattern`` that this run did not write (a longer last
    run's pictures): asked once a run's own are written, so a run that fails keeps the old ones."""
    for old in set(out.glob(pattern)) - set(written):
        old.unlink(missing_ok=True)


class Interrupted(KeyboardInterrupt):
    """Ctrl+C stopped a headless run, whose outputs so far are kept: the message says what ``--out`` holds."""


def keep_only_this_run(out: Path, lines: list[str], written: list[Path], outputs: tuple[str, ...]) -> Interrupted:
    """After Ctrl+C: ``out`` holds this run's pictures so far and its log (``lines``), never an older
    run's later pictures and log beside them (a folder that disagreed with itself). Returns what to
    raise, saying so: the run said only "interrupted", and left the reader to guess what was kept."""
    write_log(out / "combat-log.txt", lines)
    for pattern in outputs:
        if pattern != "combat-log.txt":
            clear_unwritten(out, pattern, written)
    return Interrupted(f"{lines[-1].lower()}: {out}/ holds this run's combat-log.txt to there and "
                       f"{counted(len(written), 'screenshot')}, and no older run's")


def write_log(path: Path, lines: list[str]) -> None:
    """The combat log, written whole or not at all (a full disk leaves the old one).

    Raises:
        PlayError: it cannot be written, with the file named.
    """
    from game.content.atomic import atomic_write

    write_out(lambda to: atomic_write(to, ("\n".join(lines) + "\n").encode("utf-8")), path)


def ready(battle: Any, policy: str, where: str, out: Path | None) -> None:
    """Before a run writes or shows anything: ``policy`` checked against ``battle``'s teams and the
    ``out`` folder made (None: a window, no folder); a refusal closes the battle.

    Raises:
        PlayError: the policy is refused (see :func:`check_policy`), or ``out`` cannot be made.
    """
    try:
        check_policy(policy, battle, where)
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        battle.close()
        raise PlayError(f"--out {out}: cannot make the folder ({err.strerror or err})") from None
    except PlayError:
        battle.close()
        raise


def hold(out: Path, battle: Any) -> contextlib.ExitStack:
    """``out`` held for this run until the returned stack closes (:func:`game.sim.outputs.holding`):
    two runs into one folder mixed their pictures and logs (one's log beside the other's turns).

    Raises:
        PlayError: another run (play, demo or simulate) holds the folder; the battle is closed.
    """
    stack = contextlib.ExitStack()
    try:
        stack.enter_context(holding(out))
    except FlagError as err:
        battle.close()
        raise PlayError(str(err)) from None
    return stack


def quiet_signals() -> None:
    """Headless, SDL must leave Ctrl+C and SIGTERM to Python: its handlers turn them into quit events
    that nothing reads without a window, so a long run could not be stopped."""
    os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")


def check_out(text: str, outputs: tuple[str, ...] = PLAY_OUTPUTS) -> Path:
    """``--out`` as a folder that exists or can be made, and can be written to, in which none of the
    run's ``outputs`` is in the way (see :func:`check_outputs`). Nothing is made yet: :func:`play`
    makes it once the scenario and the other flags are known to be good, so a refused run leaves no
    empty folder behind.

    Raises:
        PlayError: it is a file, or cannot be made or written, or an output's name is taken.
    """
    try:
        out = check_out_dir("--out", text)  # a folder really made and removed: access() says yes to root
    except FlagError as err:
        raise PlayError(str(err)) from None
    check_outputs(out, outputs)
    return out


def check_outputs(out: Path, outputs: tuple[str, ...] = PLAY_OUTPUTS) -> None:
    """Each file a run writes into ``out`` (glob patterns: ``turn-*.png``) can be replaced: none is a
    directory, device or pipe. Asked before the battle, as ``simulate`` does, so that a
    ``combat-log.txt`` that is a directory is not found after every turn has been played and drawn.

    Raises:
        PlayError: naming --out and the path in the way.
    """
    for pattern in outputs:
        for path in sorted(out.glob(pattern)) if out.is_dir() else ():
            problem = in_the_way(out, path)
            if problem:
                raise PlayError(problem)


def check_policy(spec: str, battle: Any, where: str) -> None:
    """Refuse a ``--policy`` that names a team ``battle`` does not have (``where``: its scenario).

    Raises:
        PlayError: the spec is not a policy, or names an unknown team (the message lists the teams).
    """
    from game import ai

    try:
        ai.policies_for(spec, {battle.team(c) for c in battle.creatures()}, where)
    except ValueError as err:
        raise PlayError(str(err)) from None


def human_policy_note(spec: str, human_teams: frozenset[str] | set[str]) -> str | None:
    """A line for a ``--policy`` that names a team the person plays (its creatures take the
    person's orders, so the policy does nothing), or None."""
    from game import ai

    named = sorted(set(ai.parse_policies(spec)) & set(human_teams))
    if not named:
        return None
    return f"--policy names {', '.join(repr(t) for t in named)}, which you play (control = \"human\"): ignored"


def play(scenario_path: str | Path, out: Path, rounds: int = DEFAULT_ROUNDS, seed: int | None = None,
         policy: str = DEFAULT_POLICY, size: tuple[int, int] = (1280, 800), explain: bool = False) -> Played:
    """Play a scenario computer against computer, writing PNGs of its turns and ``combat-log.txt``.

    ``seed`` seeds the battle (instead of the scenario's own seed) and the computer players; with
    ``explain`` the log has the computer player's reason before each of its turns.

    Raises:
        game.content.scenario.ScenarioError: the scenario cannot be loaded.
        PlayError: ``policy`` names a team the scenario does not have, ``out`` cannot be made, or one
            of its outputs is in the way (a ``combat-log.txt`` that is a directory).
    """
    check_outputs(out)  # before the battle: a path in the way would be found only after every turn
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    quiet_signals()
    from game.battle.log import format_events, format_with_notes
    from game.play import demo
    from game.play.app import App

    loaded = demo.load(scenario_path, human=False, seed=seed)
    ready(loaded.battle, policy, str(scenario_path), out)
    with hold(out, loaded.battle):  # until its last file is written
        app = App(loaded.battle, frozenset(), loaded.team_colours, loaded.scenario, loaded.build_commands,
                  policy=policy, seed=seed, title=loaded.title,
                  powers=loaded.powers, computer_delay=0.0,
                  max_rounds=rounds, explain=explain)
        window = app.open_window(size, offscreen=True)
        shots: list[Path] = []

        def shoot(path: Path) -> None:
            write_out(lambda to: window.screenshot(str(to), app.ui), path)
            shots.append(path)

        def log_lines() -> list[str]:
            events = app.battle.events
            if explain:
                return format_with_notes(app.battle, events, app.flow.reasons)
            return format_events(app.battle, events)

        try:
            shoot(out / "turn-000.png")
            turn = 0
            while app.flow.step():
                if app.flow.said:  # a creature's turn was played (not only a round begun)
                    turn += 1
                    app.ui.message = f"Round {app.battle.round}, turn {turn}: {app.flow.said}"
                    app.refresh()
                    if turn <= TURN_SHOTS:
                        shoot(out / f"turn-{turn:03d}.png")
                    app.flow.said = ""
            app.refresh()
            if not app.ui.banner:
                app.ui.message = f"Stopped after round {app.battle.round} (--rounds {rounds})"
            shoot(out / "final.png")
            lines = log_lines()
            write_log(out / "combat-log.txt", lines)
        except KeyboardInterrupt:
            raise keep_only_this_run(out, [*log_lines(), f"Interrupted in round {app.battle.round}"], shots,
                                     PLAY_OUTPUTS) from None
        finally:
            window.close()
        clear_unwritten(out, "turn-*.png", shots)
        return Played(lines, shots, app.battle.round, app.winner())
