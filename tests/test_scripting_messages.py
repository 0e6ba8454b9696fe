"""A builtin given an integer past 32 bits (or of the wrong type) says so in the script's terms.

starlark passes indexes, counts and sizes as 32-bit integers; past that it said "Error unpacking
value for parameter `a1` of type `int" (cut short, with its internal parameter name). The message
now names the builtin or method as the script wrote it, the argument, and the range.
"""

from __future__ import annotations

import pytest

from game.scripting import InProcessHost, ScriptError, WorkerHost

RANGE = "it must be an integer from -2147483648 to 2147483647 (32 bits)"
CASES = [
    ("range(1 << 60)", f"range(): argument 1 is out of range: {RANGE}"),
    ("range(0, 1 << 40)", f"range(): argument 2 is out of range: {RANGE}"),
    ("range(-(1 << 40))", f"range(): argument 1 is out of range: {RANGE}"),
    ("chr(1 << 40)", f"chr(): argument `i` is out of range: {RANGE}"),
    ('"abc".find("a", 1 << 40)', f".find(): argument `start` is out of range: {RANGE}"),
    ('"abc".count("a", 1 << 40)', f".count(): argument `start` is out of range: {RANGE}"),
    ('"a b".split(" ", 1 << 40)', f".split(): argument `maxsplit` is out of range: {RANGE}"),
    ('"aa".replace("a", "b", 1 << 40)', f".replace(): argument `count` is out of range: {RANGE}"),
    ("[].insert(1 << 40, 1)", f".insert(): argument `index` is out of range: {RANGE}"),
    ("[1].pop(1 << 40)", f".pop(): argument `index` is out of range: {RANGE}"),
    ("enumerate([1], 1 << 40)", f"enumerate(): argument `start` is out of range: {RANGE}"),
    ('int("5", 1 << 40)', f"int(): argument `base` is out of range: {RANGE}"),
    ("[1, 2][1 << 40]", f"1099511627776 is out of range as an index, count or size: {RANGE}"),
    ("[1, 2][1:1 << 40]", f"1099511627776 is out of range as an index, count or size: {RANGE}"),
    ('"abc"[1 << 40]', f"1099511627776 is out of range as an index, count or size: {RANGE}"),
    ('range("a")', "range(): argument 1 must be int, not string"),
]


@pytest.mark.parametrize(("expression", "message"), CASES)
def test_an_integer_past_32_bits_is_named_with_its_range(expression: str, message: str) -> None:
    host = InProcessHost()
    host.load("big.star", f"def f(ctx):\n    x = {expression}\n    return 1\n")
    with pytest.raises(ScriptError) as info:
        host.call("big.star", "f", ({},))
    assert (info.value.kind, info.value.line) == ("runtime", 2)
    assert str(info.value) == f"big.star:2 in f: {message}"


def test_the_worker_says_the_same() -> None:
    with WorkerHost() as host:
        host.load("big.star", "def f(ctx):\n    for i in range(1 << 60):\n        pass\n")
        with pytest.raises(ScriptError) as info:
            host.call("big.star", "f", ({},))
    assert str(info.value) == f"big.star:2 in f: range(): argument 1 is out of range: {RANGE}"
