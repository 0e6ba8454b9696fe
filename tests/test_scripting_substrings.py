"""A substring test (``p in s``, ``p not in s``) costs what its step charge says: the sizes of both
strings. starlark's own ``in`` of two strings compares the pattern at every place of the string, so a
100 KB pattern against a 200 KB string took half a second for under 5,000 steps, and ten of them, well
within the budget, ran past the worker's 2 s clock: whether the script finished then depended on the
machine, and two runs of one seed could disagree. The helper asks ``find``, which is linear, and means
the same. No clock is read here: the worker's own 2 s limit is what the hostile call used to hit."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from game.scripting import InProcessHost, Limits, ScriptError, WorkerHost

HOSTILE = (
    "def f(ctx):\n"
    "    s = 'a' * 200000\n"
    "    p = 'a' * 100000 + 'b'\n"
    "    k = 0\n"
    "    for i in range(10):\n"
    "        if p in s or not (p not in s):\n"
    "            k += 1\n"
    "    return [k, 'a' * 100000 in s, '' in s, 'b' in s, 'ab' not in 'xaby', 1 in [1], 'k' in {'k': 1}]\n"
)


@pytest.fixture(scope="module")
def worker() -> Iterator[WorkerHost]:
    with WorkerHost(limits=Limits()) as host:
        yield host


def test_a_quadratic_substring_search_finishes_within_the_worker_clock(worker: WorkerHost) -> None:
    worker.load("substrings.star", HOSTILE)
    assert worker.call("substrings.star", "f", ({},)) == [0, True, True, False, False, True, True]


def test_both_hosts_answer_and_charge_a_substring_test_alike(worker: WorkerHost) -> None:
    host = InProcessHost(limits=Limits())
    host.load("substrings.star", HOSTILE)
    assert host.call("substrings.star", "f", ({},)) == [0, True, True, False, False, True, True]
    worker.load("substrings.star", HOSTILE)
    worker.call("substrings.star", "f", ({},))
    assert 0 < host.last_steps == worker.last_steps < Limits().max_steps


def test_in_of_a_string_and_a_number_is_still_starlarks_own_error() -> None:
    host = InProcessHost(limits=Limits())
    host.load("mixed.star", "def f(ctx):\n    return 1 in 'abc'\n")
    with pytest.raises(ScriptError, match=r"mixed\.star:2 in f: Type of parameters mismatch, expected `str`"):
        host.call("mixed.star", "f", ({},))


def test_a_case_mapping_pays_per_eight_characters() -> None:
    # ("Σ" * 200000).lower() in a loop ran the whole budget in 0.9 s, paying a step per 64 characters
    host = InProcessHost(limits=Limits())
    host.load("casing.star", "def f(ctx):\n    s = 'Σ' * 160000\n    return len(s.lower()) + len(s.upper())\n")
    assert host.call("casing.star", "f", ({},)) == 320000
    assert host.last_steps >= 2 * 160000 // 8
