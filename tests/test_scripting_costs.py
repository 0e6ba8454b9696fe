"""Operations whose real cost grows with their operands pay for that size in steps, before they run.

A hostile tester found scripts within their step budget that ran for seconds to minutes (``b in
[a] * 3000`` with strings of 3 MB: each element's comparison scanned 3 MB, counted as nothing), so
whether they finished depended on the wall clock, and two runs of one seed disagreed. For each family
of such operations: the hostile size fails the same deterministic way on every run and in both hosts
(same message, same step), and a smaller one finishes, charged in proportion, within the budget.
Nothing here reads a clock: the step count is the proof.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from game.scripting import InProcessHost, Limits, ScriptError, WorkerHost

LIMITS = Limits()
BIG = 'a = "x" * 3000000 + "a"\n    b = "x" * 3000000 + "b"\n    '  # 93,750 steps to build
SMALL = 'a = "x" * 30000 + "a"\n    b = "x" * 30000 + "b"\n    '


@dataclass(frozen=True)
class Family:
    """One family: the body of ``f(ctx)`` for a size ``n``, the hostile ``n`` and a harmless one."""

    id: str
    body: Callable[[int], str]
    hostile: int
    harmless: int
    message: str = "instruction budget of 200000 exhausted"


def _big(n: int) -> str:
    return BIG if n > 1000 else SMALL


FAMILIES = [
    Family("in_list", lambda n: _big(n) + f"l = [a] * {n}\n    return b in l", 3000, 30),
    Family("not_in_tuple", lambda n: _big(n) + f"l = tuple([a] * {n})\n    return b not in l", 3000, 30),
    Family("list_index", lambda n: _big(n) + f"l = [a] * {n} + [b]\n    return l.index(b)", 3000, 30),
    Family("list_remove", lambda n: _big(n) + f"l = [a] * {n} + [b]\n    l.remove(b)\n    return len(l)", 3000, 30),
    Family("eq_loop", lambda n: _big(n) + f"k = 0\n    for i in range({n}):\n        if a == b:\n"
           "            k += 1\n    return k", 100000, 100),
    Family("lt_loop", lambda n: _big(n) + f"k = 0\n    for i in range({n}):\n        if a < b:\n"
           "            k += 1\n    return k", 100000, 100),
    Family("long_literal_compare", lambda n: f'k = 0\n    a = "x" * {n}\n    for i in range(10000):\n'
           f'        if a == "{"x" * 30000}" or a in ["{"x" * 30000}"]:\n            k += 1\n    return k',
           100000, 10),
    Family("list_eq", lambda n: _big(n) + f"return [a] * {n} == [b] * {n}", 3000, 30),
    Family("dag_eq", lambda n: f"a = [1]\n    b = [1]\n    for i in range({n}):\n        a = [a, a]\n"
           "        b = [b, b]\n    return a == b", 40, 10),
    Family("dict_key", lambda n: _big(n) + f"d = {{a: 1}}\n    k = 0\n    for i in range({n}):\n"
           "        k += d.get(b, 0)\n        d[b] = 2\n    return k", 100000, 100),
    Family("dict_display", lambda n: _big(n) + f"k = 0\n    for i in range({n}):\n        k += len({{b: 1}})\n"
           "    return k", 100000, 100),
    Family("dict_comprehension", lambda n: _big(n) + f"return len({{k: 1 for k in [a, b] * {n}}})", 50000, 50),
    Family("dict_of_pairs", lambda n: _big(n) + f"return len(dict([(a, 1), (b, 2)] * {n}))", 50000, 50),
    Family("in_dict", lambda n: _big(n) + f"d = {{a: 1}}\n    k = 0\n    for i in range({n}):\n"
           "        if b in d:\n            k += 1\n    return k", 100000, 100),
    Family("startswith", lambda n: _big(n) + f"k = 0\n    for i in range({n}):\n"
           "        if a.startswith(b) or a.endswith(b) or a.find(b) >= 0 or a.count(b):\n"
           "            k += 1\n    return k", 100000, 20),
    Family("strip_chars", lambda n: f'a = "x" * {n}\n    b = "y" * {n} + "x"\n    return len(a.strip(b))',
           300000, 3000),
    Family("len", lambda n: _big(n) + f"k = 0\n    for i in range({n}):\n        k += len(b)\n    return k",
           100000, 100),
    Family("str_index", lambda n: _big(n) + f"k = 0\n    for i in range({n}):\n        k += len(b[-2])\n"
           "    return k", 100000, 100),
    Family("str_slice", lambda n: _big(n) + f"k = 0\n    for i in range({n}):\n        k += len(b[-3:-2])\n"
           "    return k", 100000, 100),
    Family("sorted", lambda n: _big(n) + f"return len(sorted([a, b] * {n}))", 1500, 15),
    Family("sorted_key", lambda n: _big(n) + f"return len(sorted(range({n}), key = lambda i: a))", 3000, 10),
    Family("max", lambda n: _big(n) + f"return len(max([a, b] * {n}))", 1500, 15),
    Family("pop_front", lambda n: f"l = [0] * {n}\n    for i in range(1000):\n        l.insert(0, l.pop(0))\n"
           "    return len(l)", 1000000, 10),
    Family("long_loop_body", lambda n: "k = 0\n    for i in range(100000):\n" + "        k = k | i\n" * n +
           "    return k", 2000, 2),
    Family("long_function_body", lambda n: "g = lambda: 0\n    k = 0\n    for i in range(100000):\n"
           "        k = k | h(i)\n    return k\n\ndef h(i):\n" + "    i = i | 1\n" * n + "    return i", 2000, 2),
    Family("long_comprehension", lambda n: "return len([(" + "i, " * n + ") for i in range(100000)])", 5000, 2),
    Family("int_doubling", lambda n: f"x = 1\n    for i in range({n}):\n        x = x + x\n    return x > 0",
           100000, 60, "integer result of + beyond 64 bits"),
    Family("int_sub_doubling", lambda n: f"x = 1\n    for i in range({n}):\n        x = x - (0 - x)\n"
           "    return x > 0", 100000, 60, "integer result of - beyond 64 bits"),
    Family("int_shift_loop", lambda n: f"x = 1\n    for i in range({n}):\n        x = x << 64\n    return x > 0",
           100000, 1, "integer operand of << beyond 64 bits"),
    Family("int_parse", lambda n: f'return int("9" * {n}) % 7', 1000000, 18, "at most 100"),
]


def _source(family: Family, n: int) -> str:
    return f"def f(ctx):\n    {family.body(n)}\n"


def _failure(host: InProcessHost | WorkerHost, family: Family) -> tuple[str, str, int | None]:
    name = f"{family.id}.star"
    host.load(name, _source(family, family.hostile))
    with pytest.raises(ScriptError) as info:
        host.call(name, "f", ({},))
    return info.value.kind, str(info.value), info.value.steps


@pytest.fixture(scope="module")
def worker() -> Iterator[WorkerHost]:
    with WorkerHost(limits=LIMITS) as host:
        yield host


def test_every_family_is_here() -> None:
    assert len({f.id for f in FAMILIES}) == len(FAMILIES) >= 20


@pytest.mark.slow
@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.id)
def test_the_hostile_size_fails_the_same_way_every_time(family: Family, worker: WorkerHost) -> None:
    first = _failure(InProcessHost(limits=LIMITS), family)
    kind, message, _ = first
    assert kind in ("budget", "runtime"), message
    assert message.startswith(f"{family.id}.star:") and family.message in message, message
    assert _failure(InProcessHost(limits=LIMITS), family) == first
    assert _failure(worker, family) == first  # the worker counts the same steps


@pytest.mark.slow
@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.id)
def test_a_harmless_size_finishes_within_the_budget(family: Family) -> None:
    host = InProcessHost(limits=LIMITS)
    host.load(f"{family.id}.star", _source(family, family.harmless))
    host.call(f"{family.id}.star", "f", ({},))
    assert 0 <= host.last_steps <= LIMITS.max_steps
