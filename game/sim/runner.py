"""One headless battle, computer against computer, reduced to one small row of numbers.

This is the worker side of ``python -m game simulate``: it runs in pool processes and on Dask
workers, so everything it receives is small and picklable (a scenario path, override pairs, seeds)
and everything it returns is a plain dict. Scenarios and power tables are parsed once per worker
process and cached, because a sweep builds the same variant thousands of times.

Nothing here imports pygame: workers are headless and must start fast.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import random
import signal
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from components.events import Damaged, Died, Downed, EffectEnded, Landed, PowerUsed, ScriptFailed, Unconscious
from components.powers import Power
from game import ai
from game.battle.errors import IllegalCommand
from game.content.powers import apply_power_overrides, default_powers
from game.content.scenario import Scenario, ScenarioError, load_scenario

#: Conditions that take a creature out of the fight: its side has lost when all of them have one.

#: Override keys starting with this change a power (``powers.fireball.damage``), not the scenario.
POWER_PREFIX = "powers."

#: A battle's row says "draw" when it hits the round limit or both sides fall in the same round.
DRAW = "draw"

Overrides = tuple[tuple[str, Any], ...]


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


# ---------------------------------------------------------------------------------------------- overrides


def split_overrides(overrides: Iterable[tuple[str, Any]]) -> tuple[Overrides, Overrides]:
    """Separate power overrides (``powers.ID.FIELD``) from scenario overrides (everything else)."""
    powers: list[tuple[str, Any]] = []
    scenario: list[tuple[str, Any]] = []
    for key, value in overrides:
        (powers if key.startswith(POWER_PREFIX) else scenario).append((key, value))
    return tuple(powers), tuple(scenario)


_SCENARIOS: dict[str, Scenario] = {}
_POWERS: dict[str, dict[str, Power] | None] = {}


def _key(*parts: Any) -> str:
    """A cache key for override values, lists included (they are not hashable)."""
    return json.dumps(parts, default=repr)


def scenario_for(path: str, overrides: Overrides) -> Scenario:
    """A loaded scenario with scenario overrides applied, cached per worker process."""
    key = _key(path, overrides)
    scenario = _SCENARIOS.get(key)
    if scenario is None:
        if len(_SCENARIOS) > 64:
            _SCENARIOS.clear()
        scenario = load_scenario(path, trusted=True if _SANDBOXED else None)  # the worker is the sandbox
        scenario = scenario.with_overrides(dict(overrides)) if overrides else scenario
        _SCENARIOS[key] = scenario
    return scenario


def powers_for(overrides: Overrides, scenario: Scenario | None = None) -> dict[str, Power] | None:
    """The power table for these power overrides of the scenario's powers (None: the scenario's own
    table; no scenario: the shipped powers), cached per process."""
    if not overrides:
        return None
    key = _key(scenario.path if scenario is not None else None, overrides)
    if key not in _POWERS:
        if len(_POWERS) > 64:
            _POWERS.clear()
        _POWERS[key] = apply_power_overrides(overrides, scenario.library, scenario.script_dir) \
            if scenario is not None else apply_power_overrides(overrides)
    return _POWERS[key]


def load_hook(spec: str | None) -> Callable[..., Any] | None:
    """Import a ``module:function`` setup hook (called with ``(battle, ids, seed)`` after each build)."""
    if not spec:
        return None
    module, _, name = spec.partition(":")
    if not module or not name:
        raise ValueError(f"hook {spec!r}: expected module:function")
    function = getattr(importlib.import_module(module), name)
    if not callable(function):
        raise ValueError(f"hook {spec!r} is not callable")
    return function


# ---------------------------------------------------------------------------------------------- one battle


def build(scenario: Scenario, seed: int, powers: Mapping[str, Power] | None,
          power_overrides: Overrides = ()) -> tuple[Any, dict[str, int]]:
    """Build the scenario's battle with this seed, using a changed power table when given.

    ``Scenario.build_with_ids`` takes no power table; the battle looks powers up by id only when
    they are used, so swapping its table right after the build (same ids, before combat) is
    exactly a battle built with it.
    """
    battle, ids = scenario.build_with_ids(seed, trusted=True if _SANDBOXED else None)
    if powers is not None:
        battle.powers = dict(powers)
        battle.power_overrides = tuple(power_overrides)  # saves and replays record them
    return battle, ids


def play(battle: Any, policy: str, rng: random.Random, max_rounds: int,
         timings: dict[str, float] | None = None) -> tuple[str, int, int, str, str]:
    """Fight the battle to the end: every creature computer-controlled, one ``tick`` per round.

    Returns ``(winner, rounds, refused, first refusal, first mover's team)``. A command the battle refuses (the AI is
    meant never to plan one) skips the rest of that creature's plan and is counted, not raised:
    one planning slip should show up in the numbers, not void a 10 000-battle run.
    ``timings``, when given, accumulates seconds spent planning ("ai") and ticking ("rules").
    """
    order = battle.start_combat()
    first = battle.team(order[0]) if order else ""
    refused, first_refusal = 0, ""
    clock = time.perf_counter
    planning = 0.0

    def take_turn(b: Any, entity: int) -> None:
        """Each creature plans on its own turn, seeing the board as it is then."""
        nonlocal refused, first_refusal, planning
        if not b.can_act(entity):
            return
        started = clock()
        plan = ai.plan_turn(b, entity, policy, rng)
        planning += clock() - started
        for name, args, kwargs in plan:
            try:
                getattr(b, name)(*args, **kwargs)
            except IllegalCommand as err:
                refused += 1
                first_refusal = first_refusal or f"round {b.round}: {err}"
                break

    for _ in range(max_rounds):
        teams = battle.standing_teams()
        if len(teams) <= 1:
            return (teams.pop() if teams else DRAW), battle.round, refused, first_refusal, first
        planning = 0.0
        ticked = clock()
        battle.tick(controller=take_turn)
        if timings is not None:
            timings["ai"] = timings.get("ai", 0.0) + planning
            timings["rules"] = timings.get("rules", 0.0) + clock() - ticked - planning
    teams = battle.standing_teams()
    return (teams.pop() if len(teams) == 1 else DRAW), battle.round, refused, first_refusal, first


def _source_key(source: str, effects: Mapping[str, str]) -> str:
    """A Damaged event's source as a power id ("fall" for falls, "other" for the GM and unknowns)."""
    kind, _, rest = source.partition(":")
    if kind in ("power", "script") and rest:
        return rest
    if kind == "effect":
        return effects.get(source, "other")
    if source == "fall":
        return "fall"
    return "other"


def tally(battle: Any) -> dict[str, Any]:
    """Count what happened, from the battle's events: uses, damage by power, taken by team, downs...

    Damage dealt by a power is every Damaged event whose source is ``power:ID`` or ``script:ID`` (a
    power's script), or ``effect:N`` of an effect that power made; taken is the same amounts
    grouped by the team of the creature hit.
    """
    events = battle.events
    teams = {entity: battle.team(entity) for entity in battle.creatures()}
    effects = {f"effect:{e['id']}": e["power"] for e in battle.effects()}
    for event in events:
        if isinstance(event, EffectEnded):
            effects[f"effect:{event.effect}"] = event.power
    uses: Counter[str] = Counter()
    dealt: Counter[str] = Counter()
    taken: dict[str, Counter[str]] = defaultdict(Counter)
    counts = Counter(downs=0, deaths=0, unconscious=0, falls=0, fall_damage=0, script_failures=0)
    script_error = ""
    for event in events:
        if isinstance(event, Damaged):
            key = _source_key(event.source, effects)
            dealt[key] += event.amount
            taken[teams.get(event.entity, "?")][key] += event.amount
        elif isinstance(event, PowerUsed):
            uses[event.power] += 1
        elif isinstance(event, Downed):
            counts["downs"] += 1
        elif isinstance(event, Died):
            counts["deaths"] += 1
        elif isinstance(event, Unconscious):
            counts["unconscious"] += 1
        elif isinstance(event, Landed):
            counts["falls"] += 1
            counts["fall_damage"] += event.damage
        elif isinstance(event, ScriptFailed):
            counts["script_failures"] += 1
            script_error = script_error or f"round {event.round}: {event.script} {event.function}: {event.reason}"
    return {**counts, "script_error": script_error, "uses": dict(uses), "dealt": dict(dealt),
            "taken": {team: dict(by) for team, by in taken.items()}}


def run_battle(path: str, overrides: Overrides, seed: int, policy: str = "tactical", max_rounds: int = 50,
               hook: str | None = None, replay_dir: str | None = None, always_replay: bool = False,
               strict_scripts: bool = False, timings: dict[str, float] | None = None) -> dict[str, Any]:
    """Play one battle and return its row; never raises for a battle's own failure.

    Any exception while building or playing (a script error surfacing as Python, a hook, a bug in
    the rules) becomes a row with ``error`` set, and when ``replay_dir`` is given the battle is
    written there with :func:`game.saves.write_replay` so it can be stepped through. A battle
    that fails is reported, never dropped: the caller counts it.

    A script that fails inside the battle does not raise (the hook drops its commands and records a
    ScriptFailed event; the battle goes on): such battles are counted in ``script_failures``, and
    with ``strict_scripts`` they are failed battles instead, because the power did not do its job.
    """
    row: dict[str, Any] = {"seed": seed, "winner": "", "rounds": 0, "error": "", "refused": 0, "refusal": "",
                           "replay": "", "script_failures": 0, "script_error": ""}
    battle = None
    scenario = None
    build_commands = 0
    clock = time.perf_counter
    try:
        started = clock()
        power_overrides, scenario_overrides = split_overrides(overrides)
        scenario = scenario_for(path, scenario_overrides)
        powers = powers_for(power_overrides, scenario)
        battle, ids = build(scenario, seed, powers, power_overrides)
        setup = load_hook(hook)
        if setup is not None:
            setup(battle, ids, seed)
        build_commands = len(battle.command_log)
        if timings is not None:
            timings["setup"] = timings.get("setup", 0.0) + clock() - started
        winner, rounds, refused, refusal, first = play(battle, policy, ai_rng(seed), max_rounds, timings)
        row.update(winner=winner, rounds=rounds, refused=refused, refusal=refusal, first=first)
        row.update(tally(battle))
        if strict_scripts and row["script_failures"]:
            row["error"] = f"ScriptFailed ({row['script_failures']}x): {row['script_error']}"
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
    try:
        from game.content.saves import write_replay
    except ImportError:  # the saves module is optional for simulations
        return ""
    target = Path(directory) / f"seed-{seed}.json"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_replay(target, scenario, battle, build_commands or None)
    except Exception as err:  # a battle broken enough may not save; say so in the row
        return f"(not written: {type(err).__name__}: {err})"
    return str(target)


# ---------------------------------------------------------------------------------------------- worker tasks


@dataclasses.dataclass(frozen=True, slots=True)
class Chunk:
    """A worker task: some battles of one variant. Small and picklable on purpose.

    Attributes:
        variant: index of the variant in the sweep.
        path: the scenario file (workers load it themselves; a path is cheaper to ship than a world).
        overrides: the variant's ``(key, value)`` overrides, scenario and power keys together.
        battles: ``(battle index, seed)`` pairs.
        policy: the AI policy for every team.
        max_rounds: the round limit (a draw when reached).
        hook: optional ``module:function`` called after each build.
        replay_dir: where failed battles' replays go (None: nowhere).
        always_replay: write a replay for every battle (``--only-seed``), not only failed ones.
        strict_scripts: a battle in which a script failed is a failed battle.
        battle_seconds: in a sandboxed pool worker, a battle that takes longer stops the worker, so
            the pool reports it as failed with its seed (a hostile script can spin inside one
            builtin call where no step budget sees it).
    """

    variant: int
    path: str
    overrides: Overrides
    battles: tuple[tuple[int, int], ...]
    policy: str = "tactical"
    max_rounds: int = 50
    hook: str | None = None
    replay_dir: str | None = None
    always_replay: bool = False
    strict_scripts: bool = False
    battle_seconds: float = 60.0

    def split(self) -> list[Chunk]:
        """One chunk per battle: to find which battle killed a worker."""
        return [dataclasses.replace(self, battles=(b,)) for b in self.battles]


def run_chunk(chunk: Chunk) -> list[dict[str, Any]]:
    """Play every battle of a chunk; rows carry their variant and battle index."""
    rows = []
    for index, seed in chunk.battles:
        watchdog = _Watchdog(chunk.battle_seconds) if _SANDBOXED else None
        try:
            row = run_battle(chunk.path, chunk.overrides, seed, chunk.policy, chunk.max_rounds, chunk.hook,
                             chunk.replay_dir, chunk.always_replay, chunk.strict_scripts)
        finally:
            if watchdog is not None:
                watchdog.cancel()
        row["variant"] = chunk.variant
        row["battle"] = index
        rows.append(row)
    return rows


class _Watchdog:
    """Stop this worker if a battle is not over in ``seconds``.

    In a sandboxed pool worker scripts run in-process, where nothing else bounds the time one
    builtin call may take, and such a call holds the GIL, so no Python timer could run. The kernel's
    real-time alarm needs no Python at all: SIGALRM, with no handler installed, ends the process.
    The pool then plays the chunk's battles one by one and reports this one as failed, with its seed.
    """

    def __init__(self, seconds: float) -> None:
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        signal.setitimer(signal.ITIMER_REAL, seconds)

    def cancel(self) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)


#: Address space a pool worker may use; a battle needs about 200 MiB, a runaway script far more.
WORKER_MEMORY_BYTES = 2 * 2**30
_SANDBOXED = False


def worker_init() -> None:
    """Pool worker start-up: ignore Ctrl+C (the parent decides what stops), warm the imports, and
    make the worker itself the sandbox.

    With an address-space limit on the worker, a script that exhausts memory aborts this worker
    only; the pool reports the battle with its seed and carries on. So scripts of any scenario run
    in-process here (``trusted=True``), without a script-host worker per battle worker: this is the
    "whole battle in a sandboxed worker" arrangement, and it is about ten times faster per call.
    """
    import resource

    global _SANDBOXED
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = WORKER_MEMORY_BYTES if hard == resource.RLIM_INFINITY else min(WORKER_MEMORY_BYTES, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    _SANDBOXED = True
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    default_powers()


def failed_rows(chunk: Chunk, error: str) -> list[dict[str, Any]]:
    """Rows for battles that produced nothing (their worker died): counted, with seed and reason."""
    return [{"seed": seed, "winner": "", "rounds": 0, "error": error, "refused": 0, "refusal": "", "replay": "",
             "variant": chunk.variant, "battle": index} for index, seed in chunk.battles]


def check_variant(path: str, overrides: Overrides) -> Scenario:
    """Validate a variant in the parent before any worker starts: a bad key fails the command now.

    Raises:
        ScenarioError: a scenario override that the scenario refuses.
        ValueError: a power override the power loader refuses.
    """
    power_overrides, scenario_overrides = split_overrides(overrides)
    scenario = scenario_for(path, scenario_overrides)
    powers_for(power_overrides, scenario)
    return scenario


__all__ = [
    "Chunk", "DRAW", "ScenarioError", "apply_power_overrides", "battle_seed", "check_variant", "failed_rows",
    "run_battle", "run_chunk", "split_overrides", "tally", "worker_init",
]
