"""How long a script may be, and what loading a long one costs.

A stranger's script of several hundred KB took seconds to load (a probe per top-level name, each as
dear as the whole module; starlark's lint, quadratic in the loops of one function), and a worker's
2 s clock cut it with only "took longer than 2.0 s" to say why. A script longer than
``MAX_SOURCE_BYTES``, or with more than ``MAX_BRANCHES`` for and if statements in one function, is
now refused at once by both hosts and by the scenario that names it, saying what was expected; a
long script within them finds its functions in one probe.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import starlark

from game.content.recorded import SCRIPT_BYTES
from game.content.scenario import ScenarioError, load_scenario
from game.scripting import InProcessHost, ScriptError, WorkerHost
from game.scripting.errors import MAX_SOURCE_BYTES
from game.scripting.loops import MAX_BRANCHES
from tests.script_steps import COMMANDS, LIMITS, METHODS, ordinary_call, ordinary_worker

SCENARIO = textwrap.dedent('''
    name = "Long script"
    reactions = ["big.star"]
    [map]
    rows = ["......"]
    [map.legend]
    "." = { ground = 0 }
    [teams.a]
    [teams.b]
    [[creatures]]
    key = "x"
    team = "a"
    x = 0
    y = 0
    [[creatures]]
    key = "y"
    team = "b"
    x = 3
    y = 0
''')


def _helpers(count: int) -> str:
    return "".join(f"def helper_{i}(a):\n    return a + {i}\n\n" for i in range(count))


def _longer_than_the_limit() -> str:
    source = "def on_round_end(ctx, event):\n    pass\n\n"
    return source + "# " + "x" * (MAX_SOURCE_BYTES - len(source)) + "\n"


@pytest.fixture(scope="module")
def worker() -> Iterator[WorkerHost]:
    host = ordinary_worker()
    yield host
    host.close()


@pytest.mark.parametrize("where", ["inproc", "worker"])
def test_a_script_longer_than_the_limit_is_refused_saying_its_size_and_the_limit(where: str,
                                                                                 worker: WorkerHost) -> None:
    host = worker if where == "worker" else InProcessHost(methods=METHODS, commands=COMMANDS, limits=LIMITS)
    source = _longer_than_the_limit()
    size = len(source.encode("utf-8"))
    with pytest.raises(ScriptError, match=rf"^long\.star: the script is {size:,} bytes; "
                                          rf"at most {MAX_SOURCE_BYTES:,} are loaded") as caught:
        host.load("long.star", source)
    assert caught.value.kind == "syntax"
    assert "long.star" not in host.loaded()
    if where == "worker":
        ordinary_call(host)  # the worker was never asked: it still answers


def test_a_script_of_many_characters_past_the_limit_in_utf8_bytes_is_refused() -> None:
    """The limit is the file's bytes: a script of few characters that encode long is over it too."""
    source = "def on_round_end(ctx, event):\n    pass\n# " + "é" * (MAX_SOURCE_BYTES // 2) + "\n"
    assert len(source) < MAX_SOURCE_BYTES < len(source.encode("utf-8"))
    with pytest.raises(ScriptError, match="bytes; at most"):
        InProcessHost().load("wide.star", source)


def test_a_scenario_naming_a_script_past_the_limit_is_refused_naming_the_key_and_the_size(tmp_path: Path) -> None:
    assert SCRIPT_BYTES == MAX_SOURCE_BYTES  # a file too long to load is refused as it is read
    (tmp_path / "scripts").mkdir()
    source = _longer_than_the_limit()
    (tmp_path / "scripts" / "big.star").write_text(source, encoding="utf-8")
    (tmp_path / "s.toml").write_text(SCENARIO, encoding="utf-8")
    size = len(source.encode("utf-8"))
    with pytest.raises(ScenarioError, match=rf"s\.toml: reactions\[0\]: big\.star: .*the file is {size} bytes; "
                                            rf"at most {MAX_SOURCE_BYTES} are read"):
        load_scenario(tmp_path / "s.toml")


@pytest.mark.slow
@pytest.mark.parametrize("false_names", [0, 1, 2000])
def test_a_long_script_finds_its_functions_in_a_probe_or_two_not_one_a_name(
        false_names: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each evaluation costs about the module's size: a probe per name made loading quadratic, and
    so would halving a probe again and again for names that only look like globals (lines of a
    string, keyword arguments in column 0)."""
    fake = "".join(f"fake_{i} = 1\n" for i in range(false_names))
    source = ("def on_round_end(ctx, event):\n    pass\n\n" + _helpers(900)
              + f'NOTE = """\n{fake}def neither(x):\n"""\nn = dict(\nkw = 1)\n_private = lambda: 1\nalias = helper_7\n')
    assert len(source.encode("utf-8")) < MAX_SOURCE_BYTES
    evaluations = []
    real = starlark.eval_with

    def counted(*args: Any, **kwargs: Any) -> Any:
        evaluations.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(starlark, "eval_with", counted)
    host = InProcessHost()
    host.load("many.star", source)
    expected = {"on_round_end", "alias"} | {f"helper_{i}" for i in range(900)}
    assert host.functions("many.star") == frozenset(expected)  # strings and private names are not
    assert len(evaluations) <= 8, len(evaluations)  # prelude, script, two probes, trampolines


@pytest.mark.parametrize("where", ["inproc", "worker"])
def test_a_function_of_too_many_loops_and_branches_is_refused_before_the_lint(where: str,
                                                                               worker: WorkerHost) -> None:
    host = worker if where == "worker" else InProcessHost(methods=METHODS, commands=COMMANDS, limits=LIMITS)
    body = "".join(f"    for i{i} in [1]:\n        if i{i}:\n            x += i{i}\n"
                   for i in range(MAX_BRANCHES // 2 + 1))
    source = f"def on_round_end(ctx, event):\n    pass\n\ndef crowded(ctx):\n    x = 0\n{body}"
    with pytest.raises(ScriptError, match=rf"^crowded\.star: line 4: function crowded holds {MAX_BRANCHES + 2} "
                                          rf"for and if statements; at most {MAX_BRANCHES} are taken in one "
                                          rf"function") as caught:
        host.load("crowded.star", source)
    assert caught.value.kind == "syntax"
    ordinary_call(host) if where == "worker" else None


def test_a_script_python_cannot_read_is_refused_without_starlarks_lint(monkeypatch: pytest.MonkeyPatch) -> None:
    """A script the counting rewrite cannot parse (a string Python cannot decode) is refused anyway;
    its loops were then not counted, so the lint (seconds for thousands of loops) must not run."""
    linted = []
    real = starlark.AstModule.lint

    def watched(module: Any) -> Any:
        linted.append(1)
        return real(module)

    monkeypatch.setattr(starlark.AstModule, "lint", watched)
    body = "".join(f"    for i{i} in [1]:\n        x += i{i}\n" for i in range(MAX_BRANCHES * 4))
    source = f"def on_round_end(ctx, event):\n    pass\n\ndef crowded(ctx):\n    x = 0\n{body}" + 'y = "\\N{nope}"\n'
    with pytest.raises(ScriptError, match=r"^odd\.star: cannot instrument the script: SyntaxError"):
        InProcessHost().load("odd.star", source)
    assert linted == []


def test_as_many_loops_as_the_limit_in_each_of_several_functions_load() -> None:
    half = "".join(f"    for i{i} in [1]:\n        if i{i}:\n            x += i{i}\n" for i in range(MAX_BRANCHES // 2))
    source = "def on_round_end(ctx, event):\n    pass\n" + "".join(
        f"\ndef f{n}(ctx):\n    x = 0\n{half}    return x\n" for n in range(3))
    host = InProcessHost()
    host.load("full.star", source)
    assert {"f0", "f1", "f2", "on_round_end"} <= host.functions("full.star")
