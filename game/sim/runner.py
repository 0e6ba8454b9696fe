"""One headless battle, computer against computer, reduced to one small row of numbers.

This is the battle side of ``python -m game simulate``: it runs in pool processes and on Dask
workers (see :mod:`game.sim.worker` for the tasks), so everything it receives is small and
picklable (a scenario path, override pairs, seeds) and everything it returns is a plain dict. The
parsed scenarios and power tables a worker reuses belong to a :class:`~game.sim.context.WorkerContext`.

Nothing here imports pygame: workers are headless and must start fast.
"""

from __future__ import annotations

import importlib
import random
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from components.events import CommandRefused
from components.values import clipped, shown_text
from game import ai
from game.battle.errors import IllegalCommand
from game.battle.log import describe
from game.content.scenario import Scenario
from game.sim.context import Overrides, WorkerContext
from game.sim.tally import COUNTERS, tally

#: A battle's row says "draw" when it hits the round limit or both sides fall in the same round.
DRAW = "draw"
#: How a row's ``replay`` begins when the replay could not be written (the reason follows).
NOT_WRITTEN = "(not written:"
#: How a battle's error begins when ``--battle-seconds`` stopped it (the bound follows): the re-run
#: line under the table gives such a battle a larger bound (game.sim.cli).
OVER_TIME = "stopped after --battle-seconds"


# ---------------------------------------------------------------------------------------------- seeds


def battle_seed(master: int, index: int) -> int:
    """The seed of battle ``index`` of a run whose master seed is ``master``.

    Derived with numpy's SeedSequence (child ``index`` of ``master``, as ``SeedSequence.spawn``
    would make it), so that seeds are independent streams, the same for every variant of a sweep
    (a fair comparison), and computable for one index without generating the others (any battle
    of a 10 000-battle run can be replayed alone).
    """
    state = np.random.SeedSequence(int(master), spawn_key=(int(index),)).generate_state(1, np.uint64)[0]
    return int(state) >> 1  # 63 bits: a plain positive Python int that every seed consumer accepts


def ai_rng(seed: int) -> random.Random:
    """The AI's own generator for a battle: seeded from the battle seed, but a different stream,
    so the "random" policy's choices never shift the rules' dice (and vice versa)."""
    return random.Random(f"ai:{seed}")


# ---------------------------------------------------------------------------------------------- hooks


def load_hook(spec: str | None) -> Callable[..., Any] | None:
    """Import a ``module:function`` setup hook (called with ``(battle, ids, seed)`` after each build).

    Raises:
        ValueError: the spec has no colon, its module cannot be imported, or the name is missing or
            not callable (one line, naming the spec; the command line checks it before any battle).
    """
    if not spec:
        return None
    module, _, name = spec.partition(":")
    said = f"--hook {shown_text(spec)}"  # (the spec, the module and its error clipped: a flag may be a megabyte)
    if not module.strip() or not name.strip():
        raise ValueError(f"{said}: expected MODULE:FUNCTION, e.g. mypackage.setup:place_traps")
    try:
        loaded = importlib.import_module(module)
    except Exception as err:  # a missing module, or one that fails on import: either way unusable
        raise ValueError(f"{said}: cannot import module {shown_text(module)} "
                         f"({type(err).__name__}: {clipped(str(err), 200)})") from None
    function = getattr(loaded, name, None)
    if function is None:
        raise ValueError(f"{said}: module {shown_text(module)} has no {shown_text(name)}")
    if not callable(function):
        raise ValueError(f"{said}: {shown_text(name)} is a {type(function).__name__}, expected a function")
    return function


# ---------------------------------------------------------------------------------------------- one battle


class OverTime(Exception):
    """A battle still running after ``--battle-seconds``, found between two rounds (where no alarm can
    end the process playing it: a Dask worker's thread)."""


def play(battle: Any, policy: str, rng: random.Random, max_rounds: int,
         timings: dict[str, float] | None = None, seconds: float | None = None) -> tuple[str, int, int, str, str]:
    """Fight the battle to the end: every creature computer-controlled, one ``tick`` per round.

    Returns ``(winner, rounds, refused, first refusal, first mover's team)``. A command the battle refuses (the AI is
    meant never to plan one) skips the rest of that creature's plan and is counted, not raised:
    one planning slip should show up in the numbers, not void a 10 000-battle run. An order refused
    when it resolves (a ``CommandRefused``: a move after a fall that downed the mover, say) is counted
    too, after those refused when given.
    ``timings``, when given, accumulates seconds spent planning ("ai") and ticking ("rules"), and
    counts the turns planned ("turns"). ``seconds``, when given, raises :class:`OverTime` after the first
    round that ends past it (a sandboxed pool worker has its alarm instead, which stops a round too).
    """
    policies = ai.parse_policies(policy)  # "tactical", or per team: "keep=tactical,raiders=greedy"
    order = battle.start_combat()
    # the side that acts first: an unconscious creature atop the order takes no turn (it was named)
    first = next((battle.team(e) for e in order if battle.can_act(e)), "")
    refused, first_refusal, refused_at = 0, "", 0  # (refused_at: events the battle had then)
    clock = time.perf_counter
    planning = 0.0

    def take_turn(b: Any, entity: int) -> None:
        """Each creature plans on its own turn, seeing the board as it is then."""
        nonlocal refused, first_refusal, refused_at, planning
        if not b.can_act(entity):
            return
        if timings is not None:
            timings["turns"] = timings.get("turns", 0.0) + 1
        spent, err = _issued(b, ai.decisions(b, entity, ai.policy_of(policies, b.team(entity)), rng), clock)
        planning += spent
        if err is not None:
            refused += 1
            first_refusal, refused_at = (first_refusal, refused_at) if first_refusal else \
                (f"round {b.round}: {err}", len(b.events))

    started = len(battle.events)

    def counted() -> tuple[int, str]:
        return _refusals(battle, started, refused, first_refusal, refused_at)

    began = clock()
    for _ in range(max_rounds):
        won = battle.winner()  # the window's answer: a one-team battle is never won (it played no round)
        if won is not None:
            return won or DRAW, battle.round, *counted(), first
        _check_time(battle, seconds, clock() - began)
        planning = 0.0
        ticked = clock()
        battle.tick(controller=take_turn)
        if timings is not None:
            timings["ai"] = timings.get("ai", 0.0) + planning
            timings["rules"] = timings.get("rules", 0.0) + clock() - ticked - planning
    return battle.winner() or DRAW, battle.round, *counted(), first


def _issued(battle: Any, steps: Iterator[ai.Decision], clock: Callable[[], float]) -> tuple[float, Exception | None]:
    """Issue a turn's decisions (``ai.decisions``: after a fall it looks again) in order: the seconds
    spent deciding, and the order the battle refused when given, if one was (the rest of the turn
    is then dropped)."""
    spent = 0.0
    while True:
        started = clock()
        decision = next(steps, None)
        spent += clock() - started
        if decision is None:
            return spent, None
        try:
            ai.issue(battle, decision.commands)
        except IllegalCommand as err:
            return spent, err


def _check_time(battle: Any, seconds: float | None, ran: float) -> None:
    """Raise :class:`OverTime` when a bound of ``seconds`` is given and ``ran`` is past it."""
    if seconds is not None and ran > seconds:
        raise OverTime(f"{OVER_TIME} {seconds:g}: the battle was still running after round "
                       f"{battle.round} (checked between rounds: this worker runs battles in threads, where no "
                       f"alarm can end one)")


def _refusals(battle: Any, started: int, given: int, first_given: str, given_at: int) -> tuple[int, str]:
    """The AI's orders refused: ``given`` when given (the first when the battle had ``given_at`` events)
    and those the battle refused when they resolved (its ``CommandRefused`` events since event
    ``started``), and the first of them all, by the events between (a refusal when given in round 5
    was named "first" over one when resolving in round 2; two in one round go by their turns)."""
    late = [(i, e) for i, e in enumerate(battle.events[started:], start=started) if isinstance(e, CommandRefused)]
    if late and (not first_given or late[0][0] < given_at):
        return given + len(late), f"round {late[0][1].round}: {describe(battle, late[0][1])}"
    return given + len(late), first_given


def blank_row(seed: int, error: str = "") -> dict[str, Any]:
    """A battle's row before anything is known of it: what a battle that failed, or whose worker died,
    is reported with (one shape for every row, so the report and the CSV read them alike)."""
    return {"seed": seed, "winner": "", "rounds": 0, "error": error, "refused": 0, "refusal": "", "replay": "",
            **dict.fromkeys(COUNTERS, 0), "script_error": ""}


def run_battle(path: str, overrides: Overrides, seed: int, policy: str = ai.DEFAULT_POLICY, max_rounds: int = 50,
               hook: str | None = None, replay_dir: str | None = None, always_replay: bool = False,
               strict_scripts: bool = False, timings: dict[str, float] | None = None,
               context: WorkerContext | None = None, seconds: float | None = None) -> dict[str, Any]:
    """Play one battle and return its row; never raises for a battle's own failure.

    Any exception while building or playing (a script error surfacing as Python, a hook, a bug in
    the rules) becomes a row with ``error`` set, and when ``replay_dir`` is given the battle is
    written there with :func:`game.content.saves.write_replay` so it can be stepped through. A battle
    that fails is reported, never dropped: the caller counts it.

    A script that fails inside the battle does not raise (the hook drops its commands and records a
    ScriptFailed event; the battle goes on): such battles are counted in ``script_failures``, and
    with ``strict_scripts`` they are failed battles instead, because the power did not do its job.

    ``context`` holds the parsed scenarios and power tables to reuse, and says whether this process
    is the scripts' sandbox; without one the battle gets a fresh, unsandboxed context of its own.
    ``seconds``: a battle still running after a round that ends past it fails, saying so (see :func:`play`).
    """
    context = context or WorkerContext()
    row = blank_row(seed)
    battle = None
    scenario = None
    build_commands = 0
    clock = time.perf_counter
    try:
        started = clock()
        template = context.template_for(path, overrides)
        scenario = template.scenario
        battle, ids = template.battle(seed, context.script_hosts() if template.untrusted else None)
        # the scenario's build ends here: a hook's commands are the battle's own, replayed from the file
        # (counted in the build, a replay was refused: the scenario builds with fewer commands)
        build_commands = len(battle.command_log)
        setup = load_hook(hook)
        if setup is not None:
            setup(battle, ids, seed)
        if timings is not None:
            timings["setup"] = timings.get("setup", 0.0) + clock() - started
        winner, rounds, refused, refusal, first = play(battle, policy, ai_rng(seed), max_rounds, timings, seconds)
        row.update(winner=winner, rounds=rounds, refused=refused, refusal=refusal, first=first)
        row.update(tally(battle))
        if strict_scripts and row["script_failures"]:
            row["error"] = f"ScriptFailed ({row['script_failures']}x): {row['script_error']}"
    except OverTime as err:  # as a pool worker's alarm reports it, without a line of ours to blame
        row.update(error=str(err), winner="", rounds=battle.round if battle is not None else 0)
    except Exception as err:  # a failing battle is a result, reported with its seed
        frame = traceback.extract_tb(err.__traceback__)[-1] if err.__traceback__ else None
        where = f" at {Path(frame.filename).name}:{frame.lineno}" if frame else ""
        row.update(error=f"{type(err).__name__}: {err}{where}", winner="")
        if battle is not None and not battle.closed:
            try:
                row["rounds"] = battle.round
                row.update(tally(battle))
            except Exception:  # the tally of a broken battle is a bonus, not a must
                pass
    finally:
        if battle is not None and scenario is not None and replay_dir and (row["error"] or always_replay):
            row["replay"] = _write_replay(replay_dir, scenario, battle, seed, build_commands)
        if battle is not None:
            battle.close()
    return row


def _write_replay(directory: str, scenario: Scenario, battle: Any, seed: int, build_commands: int) -> str:
    """Write the battle's replay file; the path, or "" (and why) when that is impossible."""
    from game.content.saves import write_replay  # (here: most battles write none)

    target = Path(directory) / f"seed-{seed}.json"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_replay(target, scenario, battle, build_commands or None)
    except Exception as err:  # a battle broken enough may not save; say so in the row
        return f"{NOT_WRITTEN} {type(err).__name__}: {err})"
    return str(target)
