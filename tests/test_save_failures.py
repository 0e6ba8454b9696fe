"""Saves that fail or files that are bad: a save that dies at any point leaves the old file whole and
no temporary behind, and a corrupt or tampered file is refused with the current battle untouched.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Self

import pytest

from game.battle.facade import Battle
from game.content import atomic
from game.content.saves import SaveError, load_game, save_game
from game.content.scenario import Scenario, load_scenario
from tests.save_steps import played, small_scenario, state_of

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def small() -> Scenario:
    return small_scenario()


# ---------------------------------------------------------------------------------------------- atomic writes


def _old_save(tmp_path: Path, small: Scenario) -> tuple[Path, bytes, Battle]:
    battle, count, _ids = played(small)
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


@pytest.mark.slow
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
    ("negative seed", _tamper(lambda d: d.update(seed=-d["seed"] - 1)), "seed: expected a whole number in 0.."),
    ("bad build count", _tamper(lambda d: d.update(build_commands=3)), "the battle was built with 3 (build_commands)"),
]


@pytest.mark.parametrize("corrupt, expected", [pytest.param(c, e, id=i) for i, c, e in CORRUPT])
def test_corrupt_or_tampered_file_fails_and_leaves_the_current_battle_alone(
        tmp_path: Path, small: Scenario, corrupt: Callable[[bytes], bytes], expected: str) -> None:
    battle, count, ids = played(small)
    path = tmp_path / "bad.json"
    save_game(path, small, battle, build_commands=count)
    path.write_bytes(corrupt(path.read_bytes()))
    events, log, state = battle.events, list(battle.command_log), state_of(battle)
    with battle:
        with pytest.raises(SaveError) as caught:
            load_game(path)
        assert str(path) in str(caught.value) and expected in str(caught.value), str(caught.value)
        assert battle.events == events and battle.command_log == log and state_of(battle) == state
        battle.damage(ids["foe"], 1)  # and it still plays
        battle.tick()
        assert len(battle.events) > len(events)


def test_missing_file_is_a_save_error(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match="nothing.json: cannot read"):
        load_game(tmp_path / "nothing.json")


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
            assert state_of(restored) == state_of(battle)


@pytest.mark.slow
@pytest.mark.parametrize("edit", ["broken", "deleted"])
def test_a_script_broken_on_disk_since_does_not_stop_a_save(tmp_path: Path, edit: str) -> None:
    """A designer mid-edit saves: the save is checked against the scripts the battle read (and
    records them), so a script broken or deleted on disk since neither fails it nor changes it."""
    shutil.copy(ROOT / "assets/scenarios/ambush.toml", tmp_path / "ambush.toml")
    (tmp_path / "scripts").mkdir()
    script = tmp_path / "scripts/rally.star"
    shutil.copy(ROOT / "assets/scripts/rally.star", script)
    scenario = load_scenario(tmp_path / "ambush.toml")
    with scenario.build() as battle:
        battle.tick()
        if edit == "broken":
            script.write_text('def on_downed(ctx, event):\n    fallen = event["entity"\n')
        else:
            script.unlink()
        save_game(tmp_path / "slot.json", scenario, battle)
        restored = load_game(tmp_path / "slot.json")
        assert restored.events == battle.events
        restored.close()
    assert json.loads((tmp_path / "slot.json").read_text())["files"]["scripts"]["rally.star"] == \
        (ROOT / "assets/scripts/rally.star").read_text()
