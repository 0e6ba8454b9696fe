"""Saves and replays: values and battles round-trip exactly, and replays give the same events.

Failed saves and bad files are tested in test_save_failures.py.
"""

from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from components import Health, Visibility
from game.content import saves
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
from game.content.scenario import Scenario, load_scenario
from tests.save_steps import played, small_scenario, state_of

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def small() -> Scenario:
    return small_scenario()


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
    with pytest.raises(SaveError, match=r"\{'\$weird': 1\} is not an encoded value"):
        decode_value({"$weird": 1})


# ---------------------------------------------------------------------------------------------- round trips


def test_save_and_load_round_trip(tmp_path: Path, small: Scenario) -> None:
    battle, count, _ids = played(small)
    path = tmp_path / "game.json"
    save_game(path, small, battle, build_commands=count)
    document = json.loads(path.read_text())
    assert document["format"] == "gridbattle-save" and document["version"] == saves.FORMAT_VERSION
    assert document["build_commands"] == count
    assert len(document["commands"]) == len(battle.command_log) - count
    restored = load_game(path)
    assert restored.events == battle.events
    assert state_of(restored) == state_of(battle)
    assert restored.command_log == battle.command_log
    # the restored battle plays on exactly like the original
    for b in (battle, restored):
        b.damage(b.creatures()[0], 3)
        b.tick()
    assert restored.events == battle.events
    battle.close()
    restored.close()


def test_the_largest_numbers_a_command_accepts_are_saved(tmp_path: Path, small: Scenario) -> None:
    """Every number the API accepts fits a save: past its range a command is refused up front, not at
    the save after an hour of play (a damage of 10**12 had played, then no save could keep it)."""
    battle, _count, _ids = played(small)
    with battle:
        giant = battle.spawn("Giant", 5, 4, z=10_000, health=100_000, defense=-1000, attack_bonus=1000,
                             initiative_bonus=-1000, speed=10_000, team="titans")
        battle.set_ground(5, 0, -10_000)
        battle.heal(giant, 1_000_000)
        battle.damage(giant, 1_000_000)
        battle.run(2)
        save_game(tmp_path / "big.json", small, battle)
        assert load_game(tmp_path / "big.json").events == battle.events


def test_build_commands_is_worked_out_and_checked(tmp_path: Path, small: Scenario) -> None:
    battle, count, _ids = played(small)
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
    battle, _count, _ids = played(small)
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


@pytest.mark.slow
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
                assert state_of(restored) == state_of(battle)
            write_replay(Path(folder) / "replay.json", small, battle, build_commands=count)
            replayed, matched, mismatch = play_replay(Path(folder) / "replay.json")
            with replayed:
                assert matched and mismatch is None
                assert replayed.events == battle.events
    finally:
        battle.close()


# ---------------------------------------------------------------------------------------------- replays


def test_replay_of_a_saved_game_gives_the_same_events(tmp_path: Path, small: Scenario) -> None:
    battle, count, _ids = played(small)
    with battle:
        save_game(tmp_path / "s.json", small, battle, build_commands=count)
        replayed, matched, mismatch = play_replay(tmp_path / "s.json")
        with replayed:
            assert (matched, mismatch) == (True, None)
            assert replayed.events == battle.events


def test_replay_reports_a_mismatch_instead_of_failing(tmp_path: Path, small: Scenario) -> None:
    battle, count, _ids = played(small)
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
