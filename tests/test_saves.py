"""Saves and replays: exact round trips, atomic writes that survive a kill, and refusal of bad files."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Self

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from components import Health, Position, Visibility
from game.battle.facade import Battle
from game.content import atomic, saves
from game.content.saves import (
    SaveError,
    decode_value,
    encode_value,
    load_game,
    play_replay,
    read_replay,
    save_game,
    write_replay,
)
from game.content.scenario import Scenario, load_scenario, load_scenario_text

ROOT = Path(__file__).resolve().parents[1]

SMALL = """\
name = "Small"
seed = 4

[map]
rows = [
  "^^....",
  "^^h.#.",
  "^^....",
  "......",
  "..#...",
]

[map.legend]
"." = { ground = 0 }
"^" = { ground = 20 }
"h" = { ground = 0, soft = true }
"#" = { wall = true }

[teams.a]
control = "human"

[teams.b]

[[creatures]]
key = "hero"
team = "a"
x = 1
y = 1
health = 12
powers = ["strike"]

[[creatures]]
key = "foe"
team = "b"
x = 5
y = 3
health = 9
powers = ["shoot"]

[[creatures]]
key = "sleeper"
team = "b"
x = 3
y = 4
prepared = false
powers = ["strike"]
"""


@pytest.fixture(scope="module")
def small() -> Scenario:
    return load_scenario_text(SMALL, "small.toml")


def _state(battle: Battle) -> list[tuple[int, int, tuple[int, int], float]]:
    return [(e, battle.get(e, Health).current, battle.get(e, Position).square, battle.get(e, Position).z)
            for e in battle.creatures()]


def _played(scenario: Scenario) -> tuple[Battle, int, dict[str, int]]:
    battle, ids = scenario.build_with_ids()
    count = len(battle.command_log)
    battle.start_combat()
    battle.move(ids["hero"], 2, 1)  # off the ledge onto the hay
    battle.damage(ids["foe"], 4)
    battle.add_light(3, 3, 10.0, Visibility.POOR)
    battle.tick()
    battle.heal(ids["hero"], 2)
    battle.move(ids["foe"], 3, 3)
    battle.tick()
    return battle, count, ids


# ---------------------------------------------------------------------------------------------- values


@pytest.mark.parametrize("value", [
    0, -3, 2.5, -0.0, 1e300, True, False, None, "x", "", (3, 4), [1, (2, 3)], Visibility.NO_VISION,
    Visibility.POOR, {"point": (1, 2)}, math.inf, -math.inf, ((1, 2), (3, 4)), [],
])
def test_values_round_trip_exactly(value: Any) -> None:
    back = decode_value(json.loads(json.dumps(encode_value(value))))
    assert back == value and type(back) is type(value)
    if isinstance(value, Visibility):
        assert back is value


def test_numpy_scalars_become_plain_numbers() -> None:
    assert type(decode_value(encode_value(np.int64(5)))) is int
    assert type(decode_value(encode_value(np.float64(0.5)))) is float


def test_unknown_argument_types_are_refused_at_save_time() -> None:
    with pytest.raises(SaveError, match="set"):
        encode_value({1, 2})
    with pytest.raises(SaveError):
        decode_value({"$weird": 1})


# ---------------------------------------------------------------------------------------------- round trips


def test_save_and_load_round_trip(tmp_path: Path, small: Scenario) -> None:
    battle, count, _ids = _played(small)
    path = tmp_path / "game.json"
    save_game(path, small, battle, build_commands=count)
    document = json.loads(path.read_text())
    assert document["format"] == "gridbattle-save" and document["version"] == saves.FORMAT_VERSION
    assert document["build_commands"] == count
    assert len(document["commands"]) == len(battle.command_log) - count
    restored = load_game(path)
    assert restored.events == battle.events
    assert _state(restored) == _state(battle)
    assert restored.command_log == battle.command_log
    # the restored battle plays on exactly like the original
    for b in (battle, restored):
        b.damage(b.creatures()[0], 3)
        b.tick()
    assert restored.events == battle.events
    battle.close()
    restored.close()


def test_build_commands_is_worked_out_and_checked(tmp_path: Path, small: Scenario) -> None:
    battle, count, _ids = _played(small)
    with battle:
        save_game(tmp_path / "a.json", small, battle)  # worked out by building again
        assert json.loads((tmp_path / "a.json").read_text())["build_commands"] == count
        with pytest.raises(SaveError, match="build_commands"):
            save_game(tmp_path / "b.json", small, battle, build_commands=count - 1)
        other = load_scenario(ROOT / "assets/scenarios/demo.toml")
        with pytest.raises(SaveError, match="not built from scenario"):
            save_game(tmp_path / "c.json", other.with_overrides({"seed": battle.seed}), battle)
        assert not (tmp_path / "b.json").exists() and not (tmp_path / "c.json").exists()


def test_loaded_game_can_be_saved_again(tmp_path: Path, small: Scenario) -> None:
    battle, _count, _ids = _played(small)
    save_game(tmp_path / "one.json", small, battle)
    found = read_replay(tmp_path / "one.json")
    scenario, seed, commands = found.scenario, found.seed, found.commands
    assert seed == battle.seed and commands == battle.command_log[len(commands) * -1:]
    assert found.powers is None and found.power_overrides == ()  # no sweep changed its powers
    restored = load_game(tmp_path / "one.json")
    restored.tick()
    save_game(tmp_path / "two.json", scenario, restored)
    again = load_game(tmp_path / "two.json")
    assert again.events == restored.events
    for b in (battle, restored, again):
        b.close()


def test_scenario_with_overrides_is_saved_with_them(tmp_path: Path, small: Scenario) -> None:
    changed = small.with_overrides({"creatures.foe.health": 25, "rules.fall_die_sides": 8})
    battle, ids = changed.build_with_ids()
    with battle:
        battle.damage(ids["foe"], 20)
        battle.tick()
        save_game(tmp_path / "o.json", changed, battle)
        with load_game(tmp_path / "o.json") as restored:
            assert restored.get(ids["foe"], Health).current == 5
            assert restored.rules.fall_die_sides == 8


def test_shipped_scenario_path_is_kept(tmp_path: Path) -> None:
    scenario = load_scenario(ROOT / "assets/scenarios/demo.toml")
    battle = scenario.build()
    with battle:
        battle.start_combat()
        battle.tick()
        save_game(tmp_path / "d.json", scenario, battle)
        assert json.loads((tmp_path / "d.json").read_text())["scenario"]["path"].endswith("demo.toml")
        with load_game(tmp_path / "d.json") as restored:
            assert restored.events == battle.events


_ops = st.lists(st.one_of(
    st.tuples(st.just("damage"), st.integers(0, 2), st.integers(0, 14)),
    st.tuples(st.just("heal"), st.integers(0, 2), st.integers(0, 8)),
    st.tuples(st.just("move"), st.integers(0, 2), st.integers(0, 5), st.integers(0, 4)),
    st.tuples(st.just("tick")),
    st.tuples(st.just("fatigue"), st.integers(0, 2), st.integers(1, 2)),
    st.tuples(st.just("combat")),
    st.tuples(st.just("light"), st.integers(0, 5), st.integers(0, 4), st.sampled_from(list(Visibility))),
), max_size=25)


@settings(max_examples=60, deadline=None, database=None)
@given(ops=_ops, seed=st.integers(0, 2**31))
def test_random_battles_round_trip(small: Scenario, ops: list[tuple[Any, ...]], seed: int) -> None:
    battle, ids = small.build_with_ids(seed=seed)
    count = len(battle.command_log)
    entities = list(ids.values())
    try:
        for op in ops:
            try:
                if op[0] == "damage":
                    battle.damage(entities[op[1]], op[2])
                elif op[0] == "heal":
                    battle.heal(entities[op[1]], op[2])
                elif op[0] == "move":
                    battle.move(entities[op[1]], op[2], op[3])
                elif op[0] == "tick":
                    battle.tick()
                elif op[0] == "fatigue":
                    battle.add_fatigue(entities[op[1]], op[2])
                elif op[0] == "combat":
                    battle.start_combat()
                else:
                    battle.add_light(op[1], op[2], 10, op[3])
            except ValueError:
                pass  # refused commands are not logged and change nothing
        battle.tick()
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "save.json"
            save_game(path, small, battle, build_commands=count)
            with load_game(path) as restored:
                assert [e.as_dict() for e in restored.events] == [e.as_dict() for e in battle.events]
                assert _state(restored) == _state(battle)
            write_replay(Path(folder) / "replay.json", small, battle, build_commands=count)
            replayed, matched, mismatch = play_replay(Path(folder) / "replay.json")
            with replayed:
                assert matched and mismatch is None
                assert replayed.events == battle.events
    finally:
        battle.close()


# ---------------------------------------------------------------------------------------------- replays


def test_replay_of_a_saved_game_gives_the_same_events(tmp_path: Path, small: Scenario) -> None:
    battle, count, _ids = _played(small)
    with battle:
        save_game(tmp_path / "s.json", small, battle, build_commands=count)
        replayed, matched, mismatch = play_replay(tmp_path / "s.json")
        with replayed:
            assert (matched, mismatch) == (True, None)
            assert replayed.events == battle.events


def test_replay_reports_a_mismatch_instead_of_failing(tmp_path: Path, small: Scenario) -> None:
    battle, count, _ids = _played(small)
    with battle:
        write_replay(tmp_path / "r.json", small, battle, build_commands=count)
    document = json.loads((tmp_path / "r.json").read_text())
    damage = next(c for c in document["commands"] if c["method"] == "damage")
    damage["args"][1] = 1
    (tmp_path / "r.json").write_text(json.dumps(document))
    replayed, matched, mismatch = play_replay(tmp_path / "r.json")
    with replayed:
        assert not matched and mismatch and "event #" in mismatch
    with pytest.raises(SaveError, match="this is a replay"):
        load_game(tmp_path / "r.json")


# ---------------------------------------------------------------------------------------------- atomic writes


def _old_save(tmp_path: Path, small: Scenario) -> tuple[Path, bytes, Battle]:
    battle, count, _ids = _played(small)
    path = tmp_path / "slot.json"
    save_game(path, small, battle, build_commands=count)
    battle.tick()  # something new to save
    return path, path.read_bytes(), battle


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name != "slot.json")


def test_failed_replace_leaves_the_old_file(tmp_path: Path, small: Scenario, monkeypatch: pytest.MonkeyPatch) -> None:
    path, before, battle = _old_save(tmp_path, small)

    def crash(*args: Any) -> None:
        raise OSError("simulated crash before the rename")

    monkeypatch.setattr(atomic.os, "replace", crash)
    with battle, pytest.raises(SaveError, match="slot.json"):
        save_game(path, small, battle)
    assert path.read_bytes() == before
    assert _leftovers(tmp_path) == []
    monkeypatch.undo()
    load_game(path).close()


def test_write_that_dies_halfway_leaves_the_old_file(tmp_path: Path, small: Scenario,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    path, before, battle = _old_save(tmp_path, small)
    real_fdopen = os.fdopen

    class HalfWriter:
        def __init__(self, handle: Any) -> None:
            self.handle = handle

        def __enter__(self) -> Self:
            return self

        def __exit__(self, *exc: object) -> None:
            self.handle.close()

        def write(self, data: bytes) -> int:
            self.handle.write(data[: len(data) // 2])
            self.handle.flush()
            raise OSError("disk full (simulated)")

    monkeypatch.setattr(atomic.os, "fdopen", lambda fd, mode: HalfWriter(real_fdopen(fd, mode)))
    with battle, pytest.raises(SaveError, match="disk full"):
        save_game(path, small, battle)
    assert path.read_bytes() == before
    assert _leftovers(tmp_path) == []


def test_interrupt_mid_save_leaves_the_old_file(tmp_path: Path, small: Scenario,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    path, before, battle = _old_save(tmp_path, small)

    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic.os, "fsync", interrupted)
    with battle, pytest.raises(KeyboardInterrupt):
        save_game(path, small, battle)
    assert path.read_bytes() == before
    assert _leftovers(tmp_path) == []


_SAVER = """
import sys
from game.content.scenario import load_scenario
from game.content.saves import save_game
scenario = load_scenario(sys.argv[1])
battle, ids = scenario.build_with_ids()
count = len(battle.command_log)
battle.start_combat()
keys = list(ids)
i = 0
while True:
    entity = ids[keys[i % len(keys)]]
    battle.damage(entity, 1)
    battle.heal(entity, 1)
    battle.tick()
    save_game(sys.argv[2], scenario, battle, build_commands=count)
    if i == 0:
        print("saved", flush=True)
    i += 1
"""


def test_saver_killed_with_sigkill_leaves_a_loadable_file(tmp_path: Path) -> None:
    path = tmp_path / "killed.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    for delay in (0.15, 0.4):
        child = subprocess.Popen([sys.executable, "-c", _SAVER, str(ROOT / "assets/scenarios/demo.toml"),
                                  str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
        try:
            assert child.stdout is not None
            line = child.stdout.readline()
            assert line.strip() == b"saved", child.stderr.read() if child.stderr else line
            time.sleep(delay)
        finally:
            os.kill(child.pid, signal.SIGKILL)
            child.wait(timeout=10)
            child.stdout.close() if child.stdout else None
            child.stderr.close() if child.stderr else None
        assert child.returncode == -signal.SIGKILL
        json.loads(path.read_text())  # whole JSON, never half a file
        with load_game(path) as restored:
            assert restored.round >= 1


# ---------------------------------------------------------------------------------------------- bad files


def _tamper(change: Callable[[dict[str, Any]], Any]) -> Callable[[bytes], bytes]:
    def apply(raw: bytes) -> bytes:
        document = json.loads(raw)
        change(document)
        return json.dumps(document).encode()
    return apply


def _first(kind: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    return lambda d: next(c for c in d["commands"] if c["method"] == kind)


CORRUPT: list[tuple[str, Callable[[bytes], bytes], str]] = [
    ("truncated", lambda raw: raw[: len(raw) // 2], "not valid JSON"),
    ("empty", lambda raw: b"", "not valid JSON"),
    ("garbage", lambda raw: b"\xff\xfe\x00garbage", "not UTF-8"),
    ("not an object", lambda raw: b"[1, 2]", "JSON object"),
    ("newer version", _tamper(lambda d: d.update(version=99)), "version 99 is newer"),
    ("wrong format", _tamper(lambda d: d.update(format="something")), "format is 'something'"),
    ("missing key", _tamper(lambda d: d.pop("events")), "missing key 'events'"),
    ("unknown key", _tamper(lambda d: d.update(cheat=True)), "unknown key 'cheat'"),
    ("tampered event", _tamper(lambda d: d["events"][-1].update(round=999)), "does not replay"),
    ("dropped event", _tamper(lambda d: d["events"].pop()), "does not replay"),
    ("tampered command", _tamper(lambda d: _first("damage")(d)["args"].__setitem__(1, 0)), "does not replay"),
    ("tampered health", _tamper(lambda d: d["creatures"][0].update(health=1)), "creature #0 differs"),
    ("illegal command", _tamper(lambda d: _first("move")(d)["args"].__setitem__(1, 99)), "failed on replay"),
    ("private method", _tamper(lambda d: _first("tick")(d).update(method="_settle")), "not a battle command"),
    ("close", _tamper(lambda d: _first("tick")(d).update(method="close")), "not a battle command"),
    ("bad value", _tamper(lambda d: _first("damage")(d)["args"].__setitem__(1, {"$weird": 2})), "not an encoded"),
    ("broken scenario", _tamper(lambda d: d["scenario"].update(text="seed = = 1")), "scenario does not load"),
    ("other seed", _tamper(lambda d: d.update(seed=d["seed"] + 1)), "does not replay"),
    ("bad build count", _tamper(lambda d: d.update(build_commands=3)), "build_commands is 3"),
]


@pytest.mark.parametrize("corrupt, expected", [pytest.param(c, e, id=i) for i, c, e in CORRUPT])
def test_corrupt_or_tampered_file_fails_and_leaves_the_current_battle_alone(
        tmp_path: Path, small: Scenario, corrupt: Callable[[bytes], bytes], expected: str) -> None:
    battle, count, ids = _played(small)
    path = tmp_path / "bad.json"
    save_game(path, small, battle, build_commands=count)
    path.write_bytes(corrupt(path.read_bytes()))
    events, log, state = battle.events, list(battle.command_log), _state(battle)
    with battle:
        with pytest.raises(SaveError) as caught:
            load_game(path)
        assert str(path) in str(caught.value) and expected in str(caught.value), str(caught.value)
        assert battle.events == events and battle.command_log == log and _state(battle) == state
        battle.damage(ids["foe"], 1)  # and it still plays
        battle.tick()
        assert len(battle.events) > len(events)


def test_missing_file_is_a_save_error(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match="nothing.json: cannot read"):
        load_game(tmp_path / "nothing.json")


@pytest.mark.skipif(not hasattr(Battle, "use_power"), reason="the battle has no powers yet")
def test_powers_with_targets_and_points_round_trip(tmp_path: Path, small: Scenario) -> None:
    scenario = small.with_overrides({"creatures.hero.powers": ["shoot", "fireball"]})
    battle, ids = scenario.build_with_ids(seed=9)
    with battle:
        battle.start_combat()
        battle.use_power(ids["hero"], "shoot", target=ids["foe"])
        battle.tick()
        battle.use_power(ids["hero"], "fireball", point=(4, 3))
        battle.tick()
        assert any(kwargs.get("point") == (4, 3) for _name, _args, kwargs in battle.command_log)
        save_game(tmp_path / "p.json", scenario, battle)
        with load_game(tmp_path / "p.json") as restored:
            assert restored.events == battle.events
            assert restored.command_log == battle.command_log
            assert _state(restored) == _state(battle)
