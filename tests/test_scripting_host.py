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
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from game.scripting import STEPS_PER_TICK, InProcessHost, Limits, ScriptError, WorkerHost

METHODS = ("health", "damage", "heal", "glitch")
COMMANDS = frozenset({"damage", "heal"})
LIMITS = Limits(wall_seconds=1.0, max_bridge_calls=500)

ORDINARY = "assets/scripts/ordinary.star"
ORDINARY_SRC = '''
def on_use(ctx, amount):
    before = ctx.health(ctx.target)
    ctx.damage(ctx.target, amount)
    return {"before": before, "power": ctx.power, "round": ctx.round, "user": ctx.user}
'''


# --------------------------------------------------------------------------- fakes


@dataclass
class FakeGame:
    """A tiny stand-in for the battle facade: entity -> hp, plus a command buffer."""

    hp: dict[int, int] = field(default_factory=lambda: {1: 10, 2: 20, 3: 30})
    commands: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)
    reads: int = 0

    def bridge(self, method: str, args: tuple[Any, ...]) -> Any:
        """Dispatches like a real bridge would: ``getattr`` + ``*args`` (so a wrong
        arity is a TypeError), ValueError/LookupError for illegal requests."""
        return getattr(self, "_" + method)(*args)

    def _entity(self, e: Any) -> int:
        if type(e) is not int:
            raise ValueError(f"entity id must be an int, got {e!r}")
        if e not in self.hp:
            raise LookupError(f"unknown entity {e}")
        return e

    def _health(self, e: Any) -> int:
        self.reads += 1
        return self.hp[self._entity(e)]

    def _damage(self, e: Any, n: Any) -> None:
        self._entity(e)
        if type(n) is not int or n < 0:
            raise ValueError(f"illegal damage amount {n!r}")
        self.commands.append(("damage", (e, n)))

    def _heal(self, e: Any, n: Any) -> None:
        self.commands.append(("heal", (self._entity(e), n)))

    def _glitch(self) -> None:
        raise RuntimeError("bridge bug: dict changed size during iteration")


CTX = {"user": 1, "target": 2, "power": "fireball", "round": 2}


def _ordinary_call(host: Any) -> None:
    """The 'next ordinary call succeeds' half of every hostile test."""
    game = FakeGame()
    result = host.call(ORDINARY, "on_use", (dict(CTX), 3), game.bridge)
    assert result == {"before": 20, "power": "fireball", "round": 2, "user": 1}
    assert game.commands == [("damage", (2, 3))]


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def worker() -> Iterator[WorkerHost]:
    host = WorkerHost(methods=METHODS, commands=COMMANDS, limits=LIMITS)
    host.load(ORDINARY, ORDINARY_SRC)
    yield host
    host.close()


@pytest.fixture()
def inproc() -> Iterator[InProcessHost]:
    host = InProcessHost(methods=METHODS, commands=COMMANDS, limits=LIMITS)
    host.load(ORDINARY, ORDINARY_SRC)
    yield host
    host.close()


@pytest.fixture()
def host(request: pytest.FixtureRequest, worker: WorkerHost) -> Any:
    """Parametrised indirectly with "inproc" or "worker"."""
    if request.param == "worker":
        return worker
    return request.getfixturevalue("inproc")


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
    assert str(err) == "assets/scripts/chain.star:2 in on_hit: instruction budget of 100000 exhausted"
    assert (err.file, err.line, err.function, err.kind) == ("assets/scripts/chain.star", 2, "on_hit", "budget")
    clone = pickle.loads(pickle.dumps(err))
    assert str(clone) == str(err) and clone.kind == "budget"


def test_caller_bugs_are_python_errors_not_script_errors(inproc: InProcessHost, worker: WorkerHost) -> None:
    for h in (inproc, worker):
        with pytest.raises(TypeError):
            h.call(ORDINARY, "on_use", (3, 1))
        with pytest.raises(TypeError):
            h.call(ORDINARY, "on_use", ({"user": object()}, 1))
        with pytest.raises(ValueError):
            h.call(ORDINARY, "on_use", ({"health": 1}, 1))
        _ordinary_call(h)


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
    _ordinary_call(inproc)


# --------------------------------------------------------------------------- hostile suite


@dataclass(frozen=True)
class Hostile:
    """One hostile script and what its failure must look like."""

    id: str
    source: str
    where: str = "both"  # "both" or "worker"
    phase: str = "call"  # fails at "load" or at "call"
    function: str = "f"
    args: tuple[Any, ...] = ()
    kinds: tuple[str, ...] = ("runtime",)
    message: str = ""  # substring expected in str(error)
    line: int | None = None  # expected line, if the interpreter can know it


# Each s.count() scans 50 MB inside one builtin (~40 ms, no loop ticks, no allocation):
# 900 of them stay far below the step budget but take ~40 s.
# The big string is built at call time (a literal "x" * 50000000 would be folded, slowly, at load).
HOG_SRC = ('def f(ctx):\n    k = 1\n    for i in range(25):\n        k = k * 2\n    s = "x" * k\n    n = 0\n'
           '    for i in range(900):\n        n += s.count("y")\n    return n\n')

HOSTILE: list[Hostile] = [
    Hostile("open_file", 'def f(ctx):\n    return open("/etc/passwd").read()\n', phase="load",
            message="`open` not found", line=2),
    Hostile("network", 'def f(ctx):\n    return socket.create_connection(("evil.example", 80))\n',
            phase="load", message="`socket` not found", line=2),
    Hostile("load_statement", 'load("//x.star", "y")\ndef f(ctx):\n    return y\n', phase="load",
            kinds=("syntax",), message="`load` is not allowed", line=1),
    Hostile("import_os", "import os\ndef f(ctx):\n    return 1\n", phase="load", kinds=("syntax",),
            message="Parse error", line=1),
    Hostile("dunder_import", 'def f(ctx):\n    return __import__("os").system("id")\n', phase="load",
            message="`__import__` not found", line=2),
    Hostile("ctx_class", "def f(ctx):\n    return ctx.__class__\n", message="no attribute `__class__`", line=2),
    Hostile("str_class_chain", 'def f(ctx):\n    return "".__class__.__base__.__subclasses__()\n',
            message="no attribute `__class__`", line=2),
    Hostile("getattr_dict", 'def f(ctx):\n    return getattr(ctx, "__dict__")\n', message="__dict__", line=2),
    Hostile("type_mro", "def f(ctx):\n    return type(ctx).mro()\n", message="no attribute `mro`", line=2),
    Hostile("direct_recursion", "def f(ctx):\n    return f(ctx)\n", kinds=("callstack",),
            message="call stack deeper than 50", line=2),
    Hostile("mutual_recursion", "def f(ctx):\n    return g(ctx)\n\ndef g(ctx):\n    return f(ctx)\n",
            kinds=("callstack",), message="call stack deeper than 50"),
    Hostile("fanout_recursion", "def f(ctx, d = 40):\n    if d == 0:\n        return 1\n"
            "    return f(ctx, d - 1) + f(ctx, d - 1)\n", kinds=("budget",), message="budget of 100000 exhausted"),
    Hostile("while_true", "def f(ctx):\n    while True:\n        pass\n", phase="load", kinds=("syntax",),
            message="reserved keyword `while`", line=2),
    Hostile("range_10_pow_12", "def f(ctx):\n    for i in range(1000000000000):\n        pass\n",
            message="", line=2),
    Hostile("long_range_loop", "def f(ctx):\n    for i in range(2147483647):\n        pass\n",
            kinds=("budget",), message="budget of 100000 exhausted", line=2),
    Hostile("nested_loops", "def f(ctx):\n    n = 0\n    for i in range(100000):\n        for j in range(100000):\n"
            "            n += 1\n    return n\n", kinds=("budget",), message="budget of 100000 exhausted"),
    Hostile("toplevel_loop_at_load", "X = [i for i in range(2147483647)]\ndef f(ctx):\n    return 1\n",
            phase="load", kinds=("budget",), message="budget of 100000 exhausted", line=1),
    Hostile("huge_string_constant", 'def f(ctx):\n    return len("x" * 2000000000)\n', where="worker",
            phase="load", kinds=("died", "panic"), message="script host died"),
    Hostile("huge_string_runtime", 'def f(ctx, n):\n    return len("x" * n)\n', where="worker",
            args=(2000000000,), kinds=("died", "panic"), message="out of memory"),
    Hostile("doubling_string", 'def f(ctx):\n    s = "x"\n    for i in range(40):\n        s = s + s\n'
            "    return len(s)\n", where="worker", kinds=("died", "panic"), message="out of memory"),
    Hostile("doubling_list", "def f(ctx):\n    l = [0]\n    for i in range(40):\n        l = l + l\n"
            "    return len(l)\n", where="worker", kinds=("died", "panic"), message="out of memory"),
    Hostile("huge_dict", "def f(ctx, n):\n    return len(dict(zip(range(n), range(n))))\n", where="worker",
            args=(2147483647,), kinds=("died", "panic"), message="out of memory"),
    Hostile("parser_stack_bomb", "X = " + "[" * 5000 + "]" * 5000 + "\ndef f(ctx):\n    return 1\n",
            where="worker", phase="load", kinds=("died",), message="script host died"),
    Hostile("builtin_time_hog", HOG_SRC, where="worker", kinds=("timeout",), message="took longer than 1.0 s"),
    Hostile("bridge_value_error", "def f(ctx):\n    ctx.damage(2, -5)\n", kinds=("bridge",),
            message="ctx.damage: illegal damage amount -5", line=2),
    Hostile("bridge_lookup_error", "def f(ctx):\n    return ctx.health(99)\n", kinds=("bridge",),
            message="ctx.health: unknown entity 99", line=2),
    Hostile("bridge_runtime_error", "def f(ctx):\n    x = 1\n    ctx.glitch()\n", kinds=("bridge",),
            message="RuntimeError: bridge bug", line=3),
    Hostile("fail_boom", 'def f(ctx):\n    fail("boom")\n', message="fail: boom", line=2),
    Hostile("division_by_zero", "def f(ctx):\n    return ctx.user // 0\n", message="division by zero", line=2),
    Hostile("syntax_error", "def f(ctx:\n    return 1\n", phase="load", kinds=("syntax",),
            message="Parse error", line=2),
    Hostile("missing_function", "def f(ctx):\n    return 1\n", function="nope", kinds=("missing",),
            message="no function 'nope'"),
    Hostile("too_many_commands", "def f(ctx):\n    for i in range(1000):\n        ctx.damage(2, 1)\n",
            kinds=("commands",), message="more than 64 commands", line=3),
    Hostile("too_many_bridge_calls", "def f(ctx):\n    for i in range(100000):\n        ctx.health(1)\n",
            kinds=("bridge_calls",), message="more than 500 bridge calls", line=3),
    Hostile("return_function", "def f(ctx):\n    return f\n", kinds=("result",), message="non-plain"),
    Hostile("return_ctx", "def f(ctx):\n    return ctx\n", kinds=("result",), message="non-plain"),
    Hostile("bridge_wrong_arity", "def f(ctx):\n    ctx.damage(2)\n", kinds=("bridge",),
            message="TypeError", line=2),
    Hostile("bridge_kwargs", "def f(ctx):\n    ctx.damage(e = 2, n = 1)\n", kinds=("bridge",),
            message="takes no keyword arguments", line=2),
    Hostile("method_not_whitelisted", 'def f(ctx):\n    ctx.system("rm -rf /")\n',
            message="no attribute `system`", line=2),
    Hostile("mutate_frozen_global", "STATE = {\"hits\": 0}\ndef f(ctx):\n    STATE[\"hits\"] += 1\n",
            message="Immutable", line=3),
    Hostile("mutate_frozen_list", "LOG = []\ndef f(ctx):\n    LOG.append(ctx.user)\n", message="Immutable", line=3),
    Hostile("reserved_identifier", "def f(ctx):\n    return sbx__M\n", phase="load", kinds=("syntax",),
            message="reserved"),
    Hostile("no_print", 'def f(ctx):\n    print("spam")\n', phase="load", message="`print` not found"),
    Hostile("result_too_large", 'def f(ctx, n):\n    return "y" * n\n', where="worker", args=(3 * 2**20,),
            kinds=("result",), message="result too large"),
    Hostile("bridge_args_too_large", 'def f(ctx, n):\n    return ctx.health("y" * n)\n', where="worker",
            args=(3 * 2**20,), kinds=("bridge",), message="arguments too large", line=2),
]


def _hostile_params() -> list[Any]:
    params = []
    for case in HOSTILE:
        hosts = ["inproc", "worker"] if case.where == "both" else ["worker"]
        for h in hosts:
            params.append(pytest.param(case, h, id=f"{case.id}-{h}"))
    return params


def test_hostile_suite_is_big_enough() -> None:
    assert len(HOSTILE) >= 25


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
    _ordinary_call(host)


# --------------------------------------------------------------------------- worker life cycle


def test_worker_killed_is_restarted_with_scripts_loaded() -> None:
    with WorkerHost(methods=METHODS, commands=COMMANDS, limits=LIMITS) as host:
        host.load(ORDINARY, ORDINARY_SRC)
        host.load("other.star", "def f(ctx):\n    return ctx.user + 1\n")
        _ordinary_call(host)
        first_pid = host.pid
        assert first_pid is not None
        os.kill(first_pid, signal.SIGKILL)
        time.sleep(0.05)
        try:  # a call racing with the death may report it; it must be a ScriptError
            _ordinary_call(host)
        except ScriptError as err:
            assert err.kind == "died" and "script host died" in str(err)
            _ordinary_call(host)
        assert host.pid not in (None, first_pid)
        assert host.call("other.star", "f", ({"user": 41},)) == 42
        stats = host.stats()
        assert stats["worker_starts"] == 2
        assert stats["load_counts"] == {ORDINARY: 1, "other.star": 1}  # re-loaded once, not per call
        assert host.functions("other.star") == frozenset({"f"})


def test_worker_memory_bomb_mid_call_then_restart() -> None:
    with WorkerHost(methods=METHODS, commands=COMMANDS, limits=LIMITS) as host:
        host.load(ORDINARY, ORDINARY_SRC)
        host.load("bomb.star", 'def f(ctx, n):\n    return len("x" * n)\n')
        old = host.pid
        with pytest.raises(ScriptError, match="script host died"):
            host.call("bomb.star", "f", ({}, 2000000000))
        _ordinary_call(host)
        assert host.pid != old
        assert host.call("bomb.star", "f", ({}, 10)) == 10  # the bomb script itself was re-loaded
        assert host.stats()["load_counts"] == {ORDINARY: 1, "bomb.star": 1}


def test_worker_timeout_kills_and_restarts() -> None:
    limits = Limits(wall_seconds=0.5)
    with WorkerHost(methods=METHODS, commands=COMMANDS, limits=limits) as host:
        host.load(ORDINARY, ORDINARY_SRC)
        host.load("slow.star", HOG_SRC)
        with pytest.raises(ScriptError, match=r"slow.star in f: took longer than 0.5 s"):
            host.call("slow.star", "f", ({},))
        _ordinary_call(host)
        assert host.stats()["worker_starts"] == 2


def test_worker_wall_clock_excludes_bridge_time() -> None:
    limits = Limits(wall_seconds=0.3)

    def slow_bridge(method: str, args: tuple[Any, ...]) -> Any:
        time.sleep(0.1)
        return 1

    with WorkerHost(methods=METHODS, commands=COMMANDS, limits=limits) as host:
        host.load("b.star", "def f(ctx):\n    return len([ctx.health(1) for i in range(5)])\n")
        assert host.call("b.star", "f", ({},), slow_bridge) == 5  # 0.5 s in the bridge, fine


def test_closed_hosts_refuse_work() -> None:
    for host in (InProcessHost(), WorkerHost()):
        host.close()
        with pytest.raises(RuntimeError):
            host.load("x.star", "def f(ctx):\n    return 1\n")


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
    _ordinary_call(worker)
