"""A script's what-if answers are kept beside its host, so the battles a worker plays one after another
find them again (``game.battle.foresight.WhatIfs``): a kept answer is given only where running the
script now would give it, so a battle plays the same whichever battles its hosts served before."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.bench_battles import scenario_text
from components.events import Damaged
from game import Battle
from game.battle.foresight import MEMO_SIZE, WhatIfs, answered
from game.battle.reactions import new_hosts
from game.scripting import ScriptHosts
from game.sim.context import WorkerContext
from game.sim.runner import battle_seed, play
from tests.power_steps import custom, powers


def _counted(hosts: ScriptHosts, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The functions the trusted host is asked to run from now on."""
    host = hosts.host(True)
    calls: list[str] = []
    real = host.call

    def call(name: str, function: str, *args: Any, **kwargs: Any) -> Any:
        calls.append(function)
        return real(name, function, *args, **kwargs)

    monkeypatch.setattr(host, "call", call)
    return calls


def _lightning(hosts: ScriptHosts, second_x: int) -> tuple[Battle, int, int, int]:
    b = Battle(seed=2, script_hosts=hosts)
    user = b.spawn("mage", 2, 2, team="a")
    first = b.spawn("first", 6, 2, team="b", health=20)
    second = b.spawn("second", second_x, 2, team="b", health=20)
    return b, user, first, second


def test_the_next_battle_on_the_same_hosts_is_answered_without_running_the_script(monkeypatch):
    hosts = new_hosts()
    with hosts:
        b, user, first, second = _lightning(hosts, 8)
        with b:
            asked = b.foresee_script(user, "chain-lightning", first, hit=first, runs=1)
        calls = _counted(hosts, monkeypatch)
        b, user, first, second = _lightning(hosts, 8)
        with b:
            assert b.foresee_script(user, "chain-lightning", first, hit=first, runs=1) == asked
            assert calls == [] and [o.target for o in asked.outcomes] == [second]
        b, user, first, second = _lightning(hosts, 14)  # the second one stands out of the jump's 15 ft
        with b:
            assert b.foresee_script(user, "chain-lightning", first, hit=first, runs=1).outcomes == ()
            assert calls == ["on_hit"]  # a read answered otherwise: the script is run


def test_a_kept_answer_whose_command_is_refused_now_is_run_and_refused(tmp_path: Path):
    (tmp_path / "it.star").write_text("def on_hit(ctx, target):\n    ctx.damage(target + 1, 2)\n")
    table = powers(custom("it", script="it.star", range_ft=30, targets="enemy"))
    with new_hosts() as hosts:
        with Battle(seed=1, powers=table, script_dir=tmp_path, script_hosts=hosts) as b:
            user, target = b.spawn("mage", 2, 2, team="a"), b.spawn("t", 5, 2, team="b")
            third = b.spawn("third", 6, 2, team="b")
            assert third == target + 1
            assert [(o.target, o.damage) for o in b.foresee_script(user, "it", target, hit=target).outcomes] == [
                (third, 2.0)]
        with Battle(seed=1, powers=table, script_dir=tmp_path, script_hosts=hosts) as b:
            assert (b.spawn("mage", 2, 2, team="a"), b.spawn("t", 5, 2, team="b")) == (user, target)
            # this battle has no creature target + 1: the real run's damage is refused, so is the what-if
            assert not b.foresee_script(user, "it", target, hit=target).known


def _log(context: WorkerContext, path: str, seed: int) -> str:
    """A digest of the events of a bench battle played to its end on ``context``'s hosts."""
    template = context.template_for(path, ())
    battle, _ = template.battle(battle_seed(1, seed))
    with battle:
        play(battle, "tactical", random.Random(seed), 8)
        return hashlib.sha256(repr(battle.events).encode()).hexdigest()


def test_a_battle_plays_the_same_whichever_battles_its_hosts_played_before(tmp_path: Path, monkeypatch):
    found: list[bool] = []
    real = WhatIfs.find

    def find(memo: WhatIfs, *args: Any) -> Any:
        kept = real(memo, *args)
        found.append(kept is not None)
        return kept

    monkeypatch.setattr(WhatIfs, "find", find)
    path = str(tmp_path / "bench.toml")
    Path(path).write_text(scenario_text(), encoding="utf-8")
    worker = WorkerContext(sandboxed=True)  # (scripts in-process, as in a pool worker)
    for seed in (1, 2):
        _log(worker, path, seed)
    battle, _ = worker.template_for(path, ()).battle(0)
    with battle:
        assert battle.scripts.foreseer.memo.trees  # the battles before left answers kept
    found.clear()
    after = _log(worker, path, 3)
    assert any(found)  # some of its what-ifs were answered by the runs of the battles before
    assert after == _log(WorkerContext(sandboxed=True), path, 3)


class _Reads:
    """A bridge whose reads answer from a table (``weight`` as the battle's: none for these)."""

    def __init__(self, answers: dict[tuple[str, tuple[Any, ...]], Any]) -> None:
        self.answers = answers

    def read(self, method: str, args: tuple[Any, ...]) -> Any:
        return self.answers[(method, args)]

    def weight(self, method: str, args: tuple[Any, ...]) -> int:
        return 0


def _kept(memo: WhatIfs, question: tuple[Any, ...], reads: list[tuple[str, tuple[Any, ...], Any]],
          answer: Any) -> None:
    bridge = _Reads({})
    memo.keep(question, [(m, a, answered(bridge, m, a, v)) for m, a, v in reads], answer)  # type: ignore[arg-type]


@pytest.mark.parametrize("kept, now", [(1, True), (True, 1), (1, 1.0), (0.0, -0.0), ([1, 2], [1, 2.0])])
def test_an_answer_a_script_could_tell_apart_from_the_kept_one_is_not_taken_for_it(kept: Any, now: Any):
    memo = WhatIfs()
    _kept(memo, ("q",), [("health", (1,), kept)], "kept")
    assert memo.find(("q",), _Reads({("health", (1,)): now})) is None
    assert memo.find(("q",), _Reads({("health", (1,)): kept})).answer == "kept"  # type: ignore[union-attr]


answers = st.lists(st.integers(0, 3), min_size=4, max_size=4)


@settings(max_examples=60, deadline=None)
@given(st.lists(answers, min_size=1, max_size=12))
def test_reads_that_answer_as_a_kept_run_find_its_answer_and_others_find_none(runs: list[list[int]]):
    # one script: it reads health(0), then health(1), ... while the answers so far sum under 6 (each run's
    # answers ``values``); its answer is what it read
    def reads(values: list[int]) -> list[tuple[str, tuple[Any, ...], Any]]:
        out, total = [], 0
        for i, value in enumerate(values):
            out.append(("health", (i,), value))
            total += value
            if total >= 6:
                break
        return out

    memo = WhatIfs()
    for values in runs:
        _kept(memo, ("q",), reads(values), tuple(v for _, _, v in reads(values)))
        assert memo.size <= MEMO_SIZE
    for values in runs:
        traced = reads(values)
        found = memo.find(("q",), _Reads({(m, a): v for m, a, v in traced}))
        assert found is not None and found.answer == tuple(v for _, _, v in traced)
    other = _Reads({("health", (0,)): 4})  # an answer no run was given: the script is run
    assert memo.find(("q",), other) is None


def test_the_kept_answers_stay_bounded_and_what_is_still_asked_outlives_the_rest():
    memo = WhatIfs()
    asked_often = _Reads({("health", (1,)): -1, ("position", (1,)): [-1, 1, 0.0]})
    _kept(memo, ("often",), [("health", (1,), -1), ("position", (1,), [-1, 1, 0.0])], "often")
    for question in range(MEMO_SIZE // 2):  # (some 7 values each: three generations and more)
        _kept(memo, (question,), [("health", (1,), question), ("position", (1,), [question, 1, 0.0])], question)
        assert memo.size <= MEMO_SIZE and len(memo.trees) + len(memo.older) <= 2 * MEMO_SIZE
        if question % 100 == 0:
            assert memo.find(("often",), asked_often) is not None
    assert memo.find((0,), _Reads({("health", (1,)): 0, ("position", (1,)): [0, 1, 0.0]})) is None  # forgotten


def test_a_kept_area_is_not_given_on_a_map_where_making_it_runs_the_script_past_its_steps(tmp_path: Path):
    # an area costs the script a step per 4 squares of the map: on 1000 x 1000, 250,000, past the 200,000
    # a call may take, so the real reaction fails there, and so must its what-if, whatever was kept before
    (tmp_path / "dark.star").write_text('def on_damaged(ctx, event):\n    ctx.create_area(1, 1, 5, "no vision", 2)\n')

    def foreseen(hosts: ScriptHosts, size: int) -> tuple[Any, ...]:
        with Battle(seed=1, width=size, height=size, script_dir=tmp_path, script_hosts=hosts) as b:
            a = b.spawn("a", 2, 2, team="a")
            b.attach_reaction("dark.star", a)
            return b.scripts.foresee(Damaged(round=b.round, entity=a, amount=1, health=5, source="x"))

    with new_hosts() as hosts:
        alone = foreseen(hosts, 1000)
    with new_hosts() as hosts:
        assert foreseen(hosts, 10)[1]  # known on a small map, and kept
        assert foreseen(hosts, 1000) == alone
    assert alone[1] is False


def _values(value: Any) -> int:
    """The plain values in a kept answer (a tuple's items, each counted the same way)."""
    return sum(map(_values, value)) if type(value) is tuple else 1


def _held(node: Any) -> int:
    """The plain values a kept tree holds: its reads' answers and its end's answer."""
    if hasattr(node, "answer"):
        return _values(node.answer)
    return sum(_values(told) + _held(then) for told, then in node.then.items())


@pytest.mark.slow
def test_the_bound_counts_what_the_answers_hold_too():
    # a power whose runs ask many commands and read nothing (an area that damages 64 creatures): each kept
    # question is five runs of 64 commands, 960 values; counted as one, two generations held 768 MiB
    memo = WhatIfs()
    for question in range(3 * MEMO_SIZE // 8):
        runs = tuple(tuple(("damage", (1000 + i, 7 + run)) for i in range(64)) for run in range(5))
        _kept(memo, ("power", question), [], (runs, ()))
    held = sum(map(_held, [*memo.trees.values(), *memo.older.values()]))
    assert held <= 2 * MEMO_SIZE
