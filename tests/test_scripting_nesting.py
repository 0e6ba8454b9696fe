"""Scripts nested deeper than starlark's parser can take are refused before it runs, by line.

starlark recurses once per level of the syntax tree: a long chain of prefix operators, conditionals
or lambdas killed the process running it (the game itself for a trusted script) with SIGSEGV. The
host's token count (game.scripting.nesting) refuses them, in process and in the worker alike.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from game.scripting import InProcessHost, ScriptError, WorkerHost
from game.scripting.nesting import MAX_NESTING, nesting_problem
from tests.script_steps import COMMANDS, LIMITS, METHODS, ORDINARY, ORDINARY_SRC, ordinary_call, ordinary_worker


#: One long chain of each kind that opens a level per link (30,000 links crashed the parser), about
#: 60,000 bytes long: within the longest script a host loads (``MAX_SOURCE_BYTES``).
def _chain(link: str, tail: str = "") -> str:
    return link * (60000 // len(link)) + tail


CHAINS = {
    "not": _chain("not ", "True"),
    "minus": _chain("-", "1"),
    "minus_spaced": _chain("- ", "1"),
    "tilde": _chain("~", "1"),
    "ifelse": _chain("1 if True else ", "1"),
    "lambda": _chain("lambda: ", "1"),
    "index": "[[1]]" + _chain("[0]"),
    "call": "len" + "(" * 30000 + ")" * 30000,
    "dot": "ctx" + _chain(".user"),
    "and": _chain("True and ", "True"),
    "plus": _chain("1 + ", "1"),
}


@pytest.fixture(scope="module")
def worker() -> Iterator[WorkerHost]:
    host = ordinary_worker()
    yield host
    host.close()


@pytest.mark.parametrize("kind", sorted(CHAINS))
@pytest.mark.parametrize("where", ["inproc", "worker"])
def test_a_long_chain_is_refused_by_line_and_the_host_lives(kind: str, where: str, worker: WorkerHost) -> None:
    host = worker if where == "worker" else InProcessHost(methods=METHODS, commands=COMMANDS, limits=LIMITS)
    if where == "inproc":
        host.load(ORDINARY, ORDINARY_SRC)
    name = f"assets/scripts/deep_{kind}.star"
    source = f"# a comment\ndef f(ctx):\n    x = {CHAINS[kind]}\n    return 1\n"
    with pytest.raises(ScriptError) as info:
        host.load(name, source)
    err = info.value
    assert (err.kind, err.file, err.line) == ("syntax", name, 3), str(err)
    assert str(err) == (f"{name}:3: nested too deeply to parse: more than {MAX_NESTING} levels of brackets, "
                        "operators and indentation in one statement (split it)")
    assert name not in host.loaded()
    ordinary_call(host)


def test_every_kind_of_link_counts_at_least_one_level_and_at_most_two() -> None:
    for link in ("not ", "-", "~", "lambda: ", "1 if True else ", "x.", "True or ", "f(", "[0]"):
        assert nesting_problem("x = " + link * (MAX_NESTING // 2 - 1) + "1\n") is None, link
        assert nesting_problem("x = " + link * (MAX_NESTING + 1) + "1\n") == 1, link


def test_what_scripts_write_is_not_refused() -> None:
    """Long flat data (negative numbers, many entries), strings and comments holding brackets."""
    table = "TABLE = {" + ", ".join(f'"k{i}": -{i}' for i in range(3000)) + "}\n"
    strings = 'S = """((((\n' + "[" * 500 + '\n"""\n# ' + "(" * 500 + "\nT = '" + "-" * 500 + "'\n"
    nested = "def f(ctx):\n" + "".join("    " * (i + 1) + "if ctx.user:\n" for i in range(20)) + "    " * 21 + "x = 1\n"
    for source in (table, strings, nested):
        assert nesting_problem(source) is None
    host = InProcessHost()
    host.load("table.star", table + strings + nested + "def g(ctx):\n    return TABLE['k2999'] + len(S + T)\n")
    assert host.call("table.star", "g", ({},)) == -2999 + len("((((\n" + "[" * 500 + "\n") + 500


def test_a_new_statement_starts_from_its_indentation() -> None:
    line = "x = " + "not " * 60 + "True\n"
    assert nesting_problem("def f():\n" + ("    " + line) * 50) is None
    assert nesting_problem("x = " + "not " * 60 + "True; y = " + "not " * 60 + "True\n") is None
    assert nesting_problem("x = [" + ", ".join(["not " * 60 + "True"] * 50) + "]\n") is None
