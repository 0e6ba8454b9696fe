"""Tests of the Starlark script hosts on their own (no game, no pygame).

The hostile suite runs each case against the in-process host and/or the worker host:
cases that may abort or exhaust the process (memory bombs, parser stack overflows,
builtin time hogs) only against the worker -- that is exactly why the worker exists.
Every hostile case checks that (1) a ScriptError with a useful message naming the file
(and function/line where the interpreter can know them) is raised, (2) this process
is fine, and (3) an ordinary call on the same host then succeeds.
"""

from __future__ import annotations

import os
import pickle
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from game.scripting import STEPS_PER_TICK, InProcessHost, Limits, ScriptError, WorkerHost
from tests.script_steps import (
    COMMANDS,
    CTX,
    HOSTILE_DIR,
    LIMITS,
    METHODS,
    ORDINARY,
    ORDINARY_SRC,
    UNBOUNDED,
    FakeGame,
    ordinary_call,
    ordinary_worker,
)

# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def worker() -> Iterator[WorkerHost]:
    host = ordinary_worker()
    yield host
    host.close()


@pytest.fixture()
def inproc() -> Iterator[InProcessHost]:
    host = InProcessHost(methods=METHODS, commands=COMMANDS, limits=LIMITS)
    host.load(ORDINARY, ORDINARY_SRC)
    yield host
    host.close()


@pytest.fixture(scope="module")
def unbounded() -> Iterator[WorkerHost]:
    host = WorkerHost(methods=METHODS, commands=COMMANDS, limits=UNBOUNDED)
    host.load(ORDINARY, ORDINARY_SRC)
    yield host
    host.close()


@pytest.fixture()
def host(request: pytest.FixtureRequest, worker: WorkerHost) -> Any:
    """Parametrised indirectly with "inproc", "worker" or "unbounded"."""
    if request.param == "worker":
        return worker
    return request.getfixturevalue(request.param)


# --------------------------------------------------------------------------- normal use


@pytest.mark.parametrize("host", ["inproc", "worker"], indirect=True)
def test_normal_script_reads_commands_and_returns(host: Any) -> None:
    src = '''
TABLE = {"fireball": 3, "frost": 1}

def _bonus(power):
    return TABLE.get(power, 0)

def on_hit(ctx, base):
    hp = ctx.health(ctx.target)
    dmg = base + _bonus(ctx.power)
    if hp > dmg:
        ctx.damage(ctx.target, dmg)
    ctx.heal(ctx.user, 1)
    rnd = ctx.round
    return {"dealt": dmg, "hp_before": hp, "tags": [ctx.power, f"r{rnd}"], "ok": True, "ratio": 0.5}

on_tick = lambda ctx: ctx.round * 10
'''
    host.load("assets/scripts/normal.star", src)
    assert host.functions("assets/scripts/normal.star") == frozenset({"on_hit", "on_tick"})
    game = FakeGame()
    result = host.call("assets/scripts/normal.star", "on_hit", (dict(CTX), 4), game.bridge)
    assert result == {"dealt": 7, "hp_before": 20, "tags": ["fireball", "r2"], "ok": True, "ratio": 0.5}
    assert game.commands == [("damage", (2, 7)), ("heal", (1, 1))]
    assert host.call("assets/scripts/normal.star", "on_tick", (dict(CTX),), game.bridge) == 20


def test_load_parses_once_in_process(inproc: InProcessHost) -> None:
    src = "def f(ctx):\n    return ctx.user\n"
    for _ in range(3):
        inproc.load("once.star", src)
    for _ in range(20):
        assert inproc.call("once.star", "f", ({"user": 5},)) == 5
    assert inproc.load_counts["once.star"] == 1
    inproc.load("once.star", src.replace("ctx.user", "ctx.user + 1"))  # new source: hot reload
    assert inproc.load_counts["once.star"] == 2
    assert inproc.call("once.star", "f", ({"user": 5},)) == 6


def test_load_parses_once_in_worker(worker: WorkerHost) -> None:
    src = "def f(ctx):\n    return ctx.user * 2\n"
    for _ in range(3):
        worker.load("once_w.star", src)
    for _ in range(20):
        assert worker.call("once_w.star", "f", ({"user": 5},)) == 10
    stats = worker.stats()
    assert stats["load_counts"]["once_w.star"] == 1
    assert stats["pid"] == worker.pid != os.getpid()


def test_functions_discovery_ignores_strings_privates_and_constants(inproc: InProcessHost) -> None:
    src = '''
DOC = """
def fake_in_string(ctx):
    pass
"""
LIMIT = 3
def _helper(x):
    return x
def on_use(ctx):
    return _helper(LIMIT)
alias = on_use
'''
    inproc.load("disc.star", src)
    assert inproc.functions("disc.star") == frozenset({"on_use", "alias"})
    assert inproc.call("disc.star", "alias", ({},)) == 3


def test_error_message_format() -> None:
    src = "def on_hit(ctx):\n    for i in range(2147483647):\n        pass\n"
    host = InProcessHost(limits=Limits())
    host.load("assets/scripts/chain.star", src)
    with pytest.raises(ScriptError) as info:
        host.call("assets/scripts/chain.star", "on_hit", ({},))
    err = info.value
    assert str(err) == "assets/scripts/chain.star:2 in on_hit: instruction budget of 200000 exhausted"
    assert (err.file, err.line, err.function, err.kind) == ("assets/scripts/chain.star", 2, "on_hit", "budget")
    clone = pickle.loads(pickle.dumps(err))
    assert str(clone) == str(err) and clone.kind == "budget"


def test_caller_bugs_are_python_errors_not_script_errors(inproc: InProcessHost, worker: WorkerHost) -> None:
    for h in (inproc, worker):
        with pytest.raises(TypeError, match=r"args\[0\] must be the ctx field dict"):
            h.call(ORDINARY, "on_use", (3, 1))
        with pytest.raises(TypeError, match="script arguments must be plain values .* not a value of type object"):
            h.call(ORDINARY, "on_use", ({"user": object()}, 1))
        with pytest.raises(ValueError, match=r"ctx fields clash with bridge methods: \['health'\]"):
            h.call(ORDINARY, "on_use", ({"health": 1}, 1))
        ordinary_call(h)


def test_declared_arity_is_checked_before_the_bridge() -> None:
    game = FakeGame()
    host = InProcessHost(methods={"health": 1, "damage": 2}, commands={"damage"})
    host.load("arity.star", "def f(ctx):\n    ctx.damage(2)\n")
    with pytest.raises(ScriptError, match=r"arity.star:2 in f: ctx.damage\(\) takes 2 arguments \(1 given\)"):
        host.call("arity.star", "f", ({},), game.bridge)
    assert game.commands == []


def test_bridge_keyboard_interrupt_is_not_swallowed(inproc: InProcessHost) -> None:
    def bridge(method: str, args: tuple[Any, ...]) -> Any:
        raise KeyboardInterrupt

    inproc.load("kbd.star", "def f(ctx):\n    return ctx.health(1)\n")
    with pytest.raises(KeyboardInterrupt):
        inproc.call("kbd.star", "f", ({},), bridge)
    ordinary_call(inproc)


# --------------------------------------------------------------------------- hostile suite


@dataclass(frozen=True)
class Hostile:
    """One hostile script (``tests/data/hostile_host/<id>.star``) and what its failure must look like."""

    id: str
    source: str
    where: str = "both"  # "both" or "worker"
    host: str = "bounded"  # "unbounded": a worker whose step budget no script reaches (its limits must act)
    phase: str = "call"  # fails at "load" or at "call"
    function: str = "f"
    args: tuple[Any, ...] = ()
    kinds: tuple[str, ...] = ("runtime",)
    message: str = ""  # substring expected in str(error)
    line: int | None = None  # expected line, if the interpreter can know it




def _load_hostile() -> list[Hostile]:
    """The hostile cases kept as data: a script file each, and their expectations in cases.toml."""
    table = tomllib.loads((HOSTILE_DIR / "cases.toml").read_text(encoding="utf-8"))
    cases = []
    for case_id, spec in table.items():
        fields = {k: tuple(v) if isinstance(v, list) else v for k, v in spec.items()}
        cases.append(Hostile(case_id, (HOSTILE_DIR / f"{case_id}.star").read_text(encoding="utf-8"), **fields))
    return cases


HOSTILE: list[Hostile] = _load_hostile()


def _hostile_params() -> list[Any]:
    params = []
    for case in HOSTILE:
        if case.host == "unbounded":
            params.append(pytest.param(case, "unbounded", id=f"{case.id}-worker"))
            continue
        hosts = ["inproc", "worker"] if case.where == "both" else ["worker"]
        for h in hosts:
            params.append(pytest.param(case, h, id=f"{case.id}-{h}"))
    return params


def test_hostile_suite_is_big_enough() -> None:
    assert len(HOSTILE) >= 80
    assert sorted(p.stem for p in HOSTILE_DIR.glob("*.star")) == sorted(c.id for c in HOSTILE)


@pytest.mark.parametrize(("case", "host"), _hostile_params(), indirect=["host"])
def test_hostile_script(case: Hostile, host: Any) -> None:
    name = f"assets/scenario/hostile/{case.id}.star"
    game = FakeGame()
    with pytest.raises(ScriptError) as info:
        host.load(name, case.source)
        host.call(name, case.function, ({"user": 1, "target": 2}, *case.args), game.bridge)
    err = info.value
    assert err.kind in case.kinds, (err.kind, str(err))
    assert str(err).startswith(name), str(err)
    assert err.file == name
    assert case.message in str(err), str(err)
    if case.line is not None:
        assert err.line == case.line, str(err)
    if case.phase == "load":
        assert name not in host.loaded()
    else:
        assert err.function == case.function, str(err)
    # The game side saw at most the commands allowed, and the caller can discard them.
    assert len(game.commands) <= LIMITS.max_commands
    # Still alive, and the same host serves an ordinary call right away.
    ordinary_call(host)


# --------------------------------------------------------------------------- determinism


BUDGET_SRC = '''
def busy(ctx, n):
    total = 0
    for i in range(n):
        total += helper(i)
    return total

def helper(i):
    return i % 7
'''


def test_budget_is_deterministic_in_process() -> None:
    seen = set()
    for _ in range(3):
        host = InProcessHost(limits=Limits(max_steps=20_000))
        host.load("budget.star", BUDGET_SRC)
        assert host.call("budget.star", "busy", ({}, 3000)) == sum(i % 7 for i in range(3000))
        ok_steps = host.last_steps
        with pytest.raises(ScriptError) as info:
            host.call("budget.star", "busy", ({}, 10**9))
        seen.add((ok_steps, info.value.steps, str(info.value)))
    assert len(seen) == 1
    ok_steps, fail_steps, message = seen.pop()
    assert ok_steps % STEPS_PER_TICK == 0 and 0 < ok_steps <= 20_000
    assert fail_steps == 21_000  # first tick past the budget
    assert message == "budget.star:5 in busy: instruction budget of 20000 exhausted"


def test_budget_is_identical_in_worker_and_in_process(worker: WorkerHost) -> None:
    inproc = InProcessHost(methods=METHODS, commands=COMMANDS, limits=LIMITS)
    inproc.load("budget.star", BUDGET_SRC)
    worker.load("budget.star", BUDGET_SRC)
    results = []
    for h in (inproc, worker, inproc, worker):
        assert h.call("budget.star", "busy", ({}, 5000)) == sum(i % 7 for i in range(5000))
        good = h.last_steps
        with pytest.raises(ScriptError) as info:
            h.call("budget.star", "busy", ({}, 10**9))
        results.append((good, info.value.steps, str(info.value)))
    assert len(set(results)) == 1, results


@pytest.mark.slow
@pytest.mark.parametrize("host", ["inproc", "worker"], indirect=True)
def test_entry_point_called_with_wrong_arguments(host: Any) -> None:
    host.load("entry.star", "def f(ctx, a):\n    return a\n")
    with pytest.raises(ScriptError, match=r"^entry.star in f: Missing parameter `a`"):
        host.call("entry.star", "f", ({},))
    with pytest.raises(ScriptError, match=r"^entry.star in f: .*extra positional"):
        host.call("entry.star", "f", ({}, 1, 2))
    assert host.call("entry.star", "f", ({}, [1, {"k": None}])) == [1, {"k": None}]


def test_worker_bridge_may_not_reenter_the_same_host(worker: WorkerHost) -> None:
    worker.load("reenter.star", "def f(ctx):\n    return ctx.health(1)\n")

    def bridge(method: str, args: tuple[Any, ...]) -> Any:
        return worker.call("reenter.star", "f", ({},), bridge)

    expected = r"reenter.star:2 in f: ctx.health: bridge failed: RuntimeError: .*re-entrant"
    with pytest.raises(ScriptError, match=expected):
        worker.call("reenter.star", "f", ({},), bridge)
    ordinary_call(worker)


def test_the_worker_process_holds_nothing_of_the_battle() -> None:
    """The sandbox imports the script host alone: no battle, no esper, tcod, numpy or pygame."""
    with WorkerHost({"health": 1}, (), Limits()) as host:
        host.load("w.star", "def f(ctx):\n    return 1\n")
        modules = set(host.stats()["modules"])
    assert "starlark" in modules
    assert not modules & {"esper", "tcod", "numpy", "pygame", "components", "systems"}, modules
    assert not any(m.startswith("game.battle") for m in modules)
