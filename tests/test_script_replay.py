"""A script failure no count decides (the worker's memory limit, its wall clock) replays exactly.

Such a failure is recorded in the battle's command log as ``script_out`` (call index, script,
function, reason), just before the command it happened in. Replaying the log marks the script out at
that very call instead of running it again: a replay agrees with the battle it replays on any
machine, in the worker or in this process, however much memory or time it has.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import pytest

from game import Battle, IllegalCommand
from game.battle.reactions import SCRIPT_OUT, new_hosts
from game.content.powers import parse_power
from game.content.saves import load_game, play_replay, save_game, write_replay
from game.content.scenario import load_scenario
from game.scripting import Limits, ScriptError, WorkerHost
from tests.scenario_steps import two_sided

#: A step budget no script reaches: only the worker's memory limit can stop the bomb.
UNBOUNDED = Limits(max_steps=10**9, round_steps=10**10, battle_steps=10**11, wall_seconds=10.0)
BOMB = 'def on_use(ctx):\n    s = "x" * (ctx.health(ctx.target) * 20000000)\n    ctx.damage(ctx.target, 5)\n'
GOOD = "def on_hit(ctx, target):\n    ctx.damage(target, ctx.roll('1d4'))\n"
#: 2**40 comparisons inside one builtin: counted as none, stopped by the wall clock only.
HOG = ('def on_round_end(ctx, event):\n    a = [1]\n    b = [1]\n    for i in range(40):\n'
       '        a = [a, a]\n        b = [b, b]\n    return a == b\n')


def powers() -> dict[str, Any]:
    return {
        "bomb": parse_power("bomb", {"name": "Bomb", "description": "d", "range_ft": 30, "damage": "1d6",
                                     "script": "bomb.star"}, "test"),
        "good": parse_power("good", {"name": "Good", "description": "d", "range_ft": 30, "damage": "1d4",
                                     "script": "good.star"}, "test"),
    }


def play(battle: Battle) -> None:
    """Every round one creature uses the bomb and another the good script (the generator must line up)."""
    u = battle.spawn("user", 2, 2, team="a", health=30)
    v = battle.spawn("ally", 2, 3, team="a", health=30)
    t = battle.spawn("target", 4, 2, team="b", health=60)
    battle.start_combat()
    for _ in range(4):
        battle.use_power(u, "bomb", target=t)  # from round 2 on: out, not run again, no new ScriptFailed
        battle.use_power(v, "good", target=t)
        battle.tick()


@pytest.fixture()
def script_dir(tmp_path: Path) -> Path:
    (tmp_path / "bomb.star").write_text(BOMB)
    (tmp_path / "good.star").write_text(GOOD)
    return tmp_path


def events(battle: Battle) -> list[dict[str, Any]]:
    return [e.as_dict() for e in battle.events]


def test_a_memory_failure_is_recorded_and_replayed_without_running_again(script_dir: Path) -> None:
    options = {"powers": powers(), "script_dir": script_dir, "trusted_scripts": False, "script_limits": UNBOUNDED}
    with Battle(seed=3, **options) as battle:
        play(battle)
        failed = [e for e in battle.events if e.kind == "script_failed"]
        assert len(failed) == 1 and failed[0].script == "bomb.star"
        assert "stopped the script host" in failed[0].reason and "out for the rest of the battle" in failed[0].reason
        outs = [i for i, entry in enumerate(battle.command_log) if entry[0] == SCRIPT_OUT]
        assert len(outs) == 1 and battle.command_log[outs[0] + 1][0] == "tick"  # ahead of the tick it happened in
        assert battle.command_log[outs[0]][1][1:3] == ("bomb.star", "on_use")
        log, original = list(battle.command_log), events(battle)
    # Replayed in a worker: the bomb is not run again, so the worker never dies.
    with Battle.replay(3, 16, 16, None, log, **options) as replayed:
        assert events(replayed) == original
        assert replayed.command_log == log
        assert replayed.scripts.host.worker_starts == 1
        assert not any(name.startswith("bomb.star#") for name in replayed.scripts.host.stats()["load_counts"])


def _replay_in_process(log: list[Any], script_dir: str) -> list[dict[str, Any]]:
    """In a child process: the log replayed with the scripts in-process, where the bomb would abort."""
    with Battle.replay(3, 16, 16, None, log, powers=powers(), script_dir=script_dir, trusted_scripts=True,
                       script_limits=UNBOUNDED) as battle:
        return events(battle)


@pytest.mark.slow
def test_the_replay_agrees_even_where_the_bomb_would_take_the_process_down(script_dir: Path) -> None:
    with Battle(seed=3, powers=powers(), script_dir=script_dir, trusted_scripts=False,
                script_limits=UNBOUNDED) as battle:
        play(battle)
        log, original = list(battle.command_log), events(battle)
    with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:  # an abort breaks the pool, not us
        assert pool.submit(_replay_in_process, log, str(script_dir)).result(timeout=300) == original


@pytest.mark.slow
def test_two_battles_with_one_seed_agree_after_a_memory_failure(script_dir: Path) -> None:
    logs = []
    with new_hosts() as hosts:
        for _ in range(2):
            with Battle(seed=3, powers=powers(), script_dir=script_dir, trusted_scripts=False,
                        script_limits=UNBOUNDED, script_hosts=hosts) as battle:
                play(battle)
                logs.append((events(battle), list(battle.command_log)))
    assert logs[0] == logs[1]


SCENARIO = two_sided("hog", 'reactions = ["hog.star"]',
                     '[teams.a]\ncontrol = "computer"\n[teams.b]\ncontrol = "computer"\n')


@pytest.mark.slow
def test_a_timeout_survives_a_save_and_its_replay_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A time-out depends on the clock, so the log records it and a replay does not run the script again.

    No script within the step budget takes the worker's 2 s any more (a comparison pays for what it
    visits), so the worker's time-out is stood in for where the worker reports it.
    """
    real_call = WorkerHost.call

    def slow_call(self: WorkerHost, name: str, function: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("hog.star#"):  # the host knows a script by its name and a digest
            raise ScriptError(name, f"took longer than {self.limits.wall_seconds} s (script host restarted)",
                              function=function, kind="timeout")
        return real_call(self, name, function, *args, **kwargs)

    monkeypatch.setattr(WorkerHost, "call", slow_call)
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "hog.star").write_text(HOG)
    (tmp_path / "hog.toml").write_text(SCENARIO)
    scenario = load_scenario(tmp_path / "hog.toml")
    assert not scenario.trusted  # a stranger's scenario: the worker, with the default wall clock
    battle = scenario.build(seed=9)
    try:
        for _ in range(3):
            battle.tick()
        failed = [e for e in battle.events if e.kind == "script_failed"]
        assert len(failed) == 1 and "took longer than 2.0 s" in failed[0].reason
        save_game(tmp_path / "save.json", scenario, battle)
        write_replay(tmp_path / "replay.json", scenario, battle)
    finally:
        battle.close()
    restored = load_game(tmp_path / "save.json")  # raises unless the replay reproduces every event
    restored.close()
    replayed, matched, mismatch = play_replay(tmp_path / "replay.json")
    replayed.close()
    assert matched, mismatch


@pytest.mark.parametrize("entry", [
    (-1, "bomb.star", "on_use", "x"), (0, "bomb.star", "on_use", "x"), (True, "bomb.star", "on_use", "x"),
    (5, "bo\0mb.star", "on_use", "x"), (5, "../bomb.star", "on_use", "x"), (5, "bomb.star", 3, "x"),
])
def test_a_tampered_script_out_is_refused(script_dir: Path, entry: tuple[Any, ...]) -> None:
    with Battle(seed=3, powers=powers(), script_dir=script_dir) as battle:
        u = battle.spawn("user", 2, 2, team="a")
        t = battle.spawn("target", 4, 2, team="b")
        battle.use_power(u, "good", target=t)
        battle.tick()  # one script call made: index 0 is in the past
        with pytest.raises(IllegalCommand, match="script_out"):
            battle.script_out(*entry)
