"""Fuzzing the loaders: a stranger's scenario, power file, override or save never crashes anything.

Each target starts from a valid file (the shipped scenarios and powers, a save of a short battle)
and mutates it: bytes flipped, the file cut short, a value anywhere replaced by a hostile one (huge
whole numbers, 5000-digit numbers, nan, infinities, 1e308, wrong types, deep nesting, unicode),
keys dropped or added. The loader must either return a valid object or raise its one documented
error (ScenarioError, PowerError, SaveError) whose message names the file. What loads is then built
and played for a round or two, because most crashes found were not in the loaders but deep in the
rules (an OverflowError in movement from a speed of 10**30 ft, in geometry from a 1e308 ft radius).

Hypothesis runs derandomized with a fixed number of examples, so CI costs the same every time
(about 15 s for all of them together, 1,600 examples) and a failure reproduces. Crashes found are kept as data
files under tests/data/hostile/ (see test_hostile_inputs.py).
"""

from __future__ import annotations

import json
import math
import os
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import IllegalCommand
from game.content.powers import POWERS_DIR, PowerError, apply_power_overrides, read_power_file
from game.content.saves import SaveError, load_game, save_game
from game.content.scenario import Scenario, ScenarioError, load_scenario
from game.sim.runner import ai_rng, play

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "assets" / "scenarios").glob("*.toml"))
POWER_FILES = sorted(POWERS_DIR.glob("*.toml"))
FUZZ = settings(deadline=None, derandomize=True, database=None, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.data_too_large])


def fuzz(examples: int) -> settings:
    """The fuzz settings with this fixed budget of examples (times GRIDBATTLE_FUZZ_SCALE, for a
    longer hunt by hand: ``GRIDBATTLE_FUZZ_SCALE=20 pytest tests/test_fuzz_loaders.py``)."""
    return settings(FUZZ, max_examples=examples * max(1, int(os.environ.get("GRIDBATTLE_FUZZ_SCALE", "1"))))

# ---------------------------------------------------------------------------------------------- values


def _deep(levels: int) -> Any:
    value: Any = 1
    for i in range(levels):
        value = [value] if i % 2 else {"k": value}
    return value


HOSTILE: list[Any] = [
    10**30, -10**30, 2**63, -2**63 - 1, 2**64, 10**400, 1e308, -1e308, 5e-324, math.inf, -math.inf, math.nan,
    0, -1, 1, 1023, 1024, 10_001, -0.0, 0.5, True, False, "", "  ", "x" * 2000, "🐉 ☠ \u202e\u0000", "1d6",
    "9" * 60, "99999d99999", [], {}, [1, "a", {}], {"shape": "burst", "radius_ft": 1e308}, _deep(40), _deep(400),
]
HOSTILE_PYTHON: list[Any] = [*HOSTILE, 10**5000, -(10**5000), {1, 2}, b"bytes", object(), None, (1, 2),
                             [10**5000], {"a": 10**5000}]


def hostile(python: bool = False) -> st.SearchStrategy[Any]:
    pool = HOSTILE_PYTHON if python else HOSTILE
    return st.one_of(st.sampled_from(pool), st.integers(), st.floats(), st.text(max_size=12), st.booleans())


# ---------------------------------------------------------------------------------------------- TOML out


def _toml_string(text: str) -> str:
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def toml_value(value: Any) -> str:
    """A value as TOML (inline tables and arrays), for mutated data written back as a file."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return "nan" if math.isnan(value) else "inf" if value == math.inf else "-inf" if value == -math.inf \
            else repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_string(str(k))} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(type(value))


def to_toml(data: dict[str, Any]) -> str:
    return "\n".join(f"{_toml_string(str(k))} = {toml_value(v)}" for k, v in data.items()) + "\n"


# ---------------------------------------------------------------------------------------------- mutations


def _mutate_data(data: Any, draw: Any, value: st.SearchStrategy[Any]) -> Any:
    """Replace, drop or add one entry somewhere in ``data`` (a copy)."""
    data = json.loads(json.dumps(data, allow_nan=True))
    node: Any = data
    for _ in range(6):
        keys = list(node) if isinstance(node, dict) else list(range(len(node))) if isinstance(node, list) else []
        if not keys:
            break
        key = draw(st.sampled_from(keys))
        child = node[key]
        if not isinstance(child, (dict, list)) or not child or draw(st.booleans()):
            action = draw(st.sampled_from(["replace", "replace", "replace", "drop", "add"]))
            if action == "replace":
                node[key] = draw(value)
            elif action == "drop":
                del node[key]
            elif isinstance(node, dict):
                node[draw(st.sampled_from(["helth", "radius", "x", "powers", "zz", str(key) + "s"]))] = draw(value)
            else:
                node.append(draw(value))
            return data
        node = child
    return data


_NUMBER = re.compile(rb"(?<![\w.])\d+(?![\w.])")


def mutate_text(raw: bytes, data: dict[str, Any], draw: Any) -> bytes:
    """One of: bytes flipped, cut short, a number made 5000 digits long, or a value replaced."""
    kind = draw(st.sampled_from(["flip", "cut", "digits", "value", "value", "value"]))
    if kind == "flip":
        out = bytearray(raw)
        for _ in range(draw(st.integers(1, 8))):
            out[draw(st.integers(0, len(out) - 1))] = draw(st.integers(0, 255))
        return bytes(out)
    if kind == "cut":
        return raw[:draw(st.integers(0, len(raw)))]
    if kind == "digits":
        numbers = list(_NUMBER.finditer(raw))
        match = numbers[draw(st.integers(0, len(numbers) - 1))]
        return raw[:match.start()] + b"9" * draw(st.sampled_from([19, 400, 5000])) + raw[match.end():]
    return to_toml(_mutate_data(data, draw, hostile())).encode("utf-8")


# ---------------------------------------------------------------------------------------------- playing


def play_briefly(scenario: Scenario, seed: int, policy: str = "tactical", rounds: int = 2) -> None:
    """Build and play what loaded: the rules must take any valid scenario without a crash."""
    battle = scenario.build(seed=seed, trusted=True)  # the fuzzed scripts are the shipped ones
    try:
        play(battle, policy, ai_rng(seed), rounds)
    finally:
        battle.close()


def _names_file(err: Exception, path: Path) -> None:
    assert str(path) in str(err), f"{type(err).__name__} does not name {path}: {err}"


# ---------------------------------------------------------------------------------------------- targets


@pytest.mark.slow
@fuzz(400)
@given(st.sampled_from(SCENARIOS), st.data())
def test_fuzzed_scenario_files_load_or_are_refused_naming_the_file(tmp_path_factory: pytest.TempPathFactory,
                                                                   original: Path, data: st.DataObject) -> None:
    raw = original.read_bytes()
    import tomllib
    mutated = mutate_text(raw, tomllib.loads(raw.decode()), data.draw)
    path = tmp_path_factory.mktemp("fuzz") / original.name
    path.write_bytes(mutated)
    try:
        scenario = load_scenario(path)
    except ScenarioError as err:
        _names_file(err, path)
        return
    play_briefly(scenario, seed=1)


KEYS = sorted({
    *("name", "description", "seed", "ambient"),
    *(f"rules.{f}" for f in ("square_ft", "speed_ft", "slowed_speed_factor", "max_fatigue", "fall_ft_per_round",
                             "fall_ft_per_die", "fall_die_sides", "fall_max_dice", "cover_bonus", "initiative_die",
                             "surprise_rounds", "diagonal", "cover_enabled", "soft_landing_divisor")),
    *(f"creatures.ogre.{f}" for f in ("health", "defense", "attack_bonus", "speed", "initiative_bonus", "z", "x",
                                      "y", "fatigue", "powers", "prepared", "flying", "reactions", "team", "name")),
    *(f"map.legend.{c}.{f}" for c in "^.v" for f in ("ground", "wall", "soft")),
    "teams.vale.control", "teams.vale.colour", "creatures.ogre.key", "lights.0.radius_ft", "map.legend.^^.ground",
    "rules", "creatures..health", "powers.strike.damage", "", "map.rows",
})


@pytest.mark.slow
@fuzz(400)
@given(st.dictionaries(st.sampled_from(KEYS), hostile(python=True), min_size=1, max_size=3))
def test_fuzzed_overrides_apply_or_are_refused_naming_the_file(overrides: dict[str, Any]) -> None:
    base = _LEDGE
    try:
        scenario = base.with_overrides(overrides)
    except ScenarioError as err:
        _names_file(err, Path(base.source))
        return
    play_briefly(scenario, seed=2)


_LEDGE = load_scenario(ROOT / "assets" / "scenarios" / "ledge.toml")
POWER_KEYS = sorted({
    *(f"powers.fireball.{k}" for k in ("range_ft", "area.radius_ft", "area.shape", "save.dc", "damage", "targets",
                                       "duration", "area_effect", "script", "teleport", "push_ft")),
    *(f"powers.shove.{k}" for k in ("push_ft", "pull_ft", "attack.bonus", "range_ft", "area.length_ft")),
    *(f"powers.lightning.{k}" for k in ("area.length_ft", "area.width_ft", "damage")),
    *(f"powers.darkness.{k}" for k in ("area_effect.radius_ft", "area_effect.level", "duration", "range_ft")),
    *(f"powers.blink.{k}" for k in ("range_ft", "targets", "teleport")),
    "powers.fireball.dmage", "powers.firebal.damage", "powers.heal.healing", "powers.fly.duration", "powers.x",
})


@pytest.mark.slow
@fuzz(300)
@given(st.lists(st.tuples(st.sampled_from(POWER_KEYS), hostile(python=True)), min_size=1, max_size=3))
def test_fuzzed_power_overrides_apply_or_are_refused_naming_the_file(overrides: list[tuple[str, Any]]) -> None:
    try:
        powers = apply_power_overrides(overrides)
    except PowerError as err:
        power_id = overrides[-1][0].split(".")[1] if overrides[-1][0].count(".") >= 2 else ""
        assert any(key in str(err) for key, _ in overrides) or ".toml" in str(err) or power_id in str(err), err
        return
    battle = _GAUNTLET.build(seed=3, trusted=True)
    try:
        battle.powers = powers
        play(battle, "random", ai_rng(3), 2)
    finally:
        battle.close()


_GAUNTLET = load_scenario(ROOT / "tests" / "golden" / "gauntlet.toml", trusted=True)


@pytest.mark.slow
@fuzz(300)
@given(st.sampled_from(POWER_FILES), st.data())
def test_fuzzed_power_files_load_or_are_refused_naming_the_file(tmp_path_factory: pytest.TempPathFactory,
                                                                original: Path, data: st.DataObject) -> None:
    import tomllib
    raw = original.read_bytes()
    folder = tmp_path_factory.mktemp("powers")
    path = folder / original.name
    path.write_bytes(mutate_text(raw, tomllib.loads(raw.decode()), data.draw))
    file = read_power_file(path)
    if file.error is not None:
        assert isinstance(file.error, PowerError)
        _names_file(file.error, path)
        return
    battle = _GAUNTLET.build(seed=4, trusted=True)
    try:
        # the file's powers over the battle's own: a table must keep every power a creature has
        battle.powers = {**battle.powers, **file.powers}
        play(battle, "random", ai_rng(4), 2)
    finally:
        battle.close()


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("save") / "game.json"
    scenario = load_scenario(ROOT / "assets" / "scenarios" / "ledge.toml")
    with scenario.build(seed=5) as battle:
        play(battle, "tactical", ai_rng(5), 2)
        save_game(path, scenario, battle)
    document: dict[str, Any] = json.loads(path.read_text())
    return document


_JSON_HOSTILE = st.one_of(st.sampled_from([10**30, -10**30, 2**63, 1e308, -1e308, math.inf, math.nan, "", "x" * 500,
                                           [], {}, None, True, _deep(40), {"$float": "inf"}, {"$tuple": [1e300]},
                                           {"$visibility": "BRIGHT"}, {"$dict": {"a": 10**20}}, "tick", "__init__"]),
                          st.integers(), st.floats(), st.text(max_size=8))


@pytest.mark.slow
@fuzz(200)
@given(st.data())
def test_fuzzed_saves_load_or_are_refused_naming_the_file(tmp_path_factory: pytest.TempPathFactory,
                                                          saved: dict[str, Any], data: st.DataObject) -> None:
    path = tmp_path_factory.mktemp("saves") / "game.json"
    kind = data.draw(st.sampled_from(["flip", "digits", "value", "value", "value"]))
    raw = json.dumps(saved, indent=1).encode()
    if kind == "flip":
        out = bytearray(raw)
        for _ in range(data.draw(st.integers(1, 6))):
            out[data.draw(st.integers(0, len(out) - 1))] = data.draw(st.integers(0, 255))
        raw = bytes(out)
    elif kind == "digits":
        numbers = list(_NUMBER.finditer(raw))
        match = numbers[data.draw(st.integers(0, len(numbers) - 1))]
        raw = raw[:match.start()] + b"9" * data.draw(st.sampled_from([19, 5000])) + raw[match.end():]
    else:
        raw = json.dumps(_mutate_data(saved, data.draw, _JSON_HOSTILE), allow_nan=True).encode()
    path.write_bytes(raw)
    try:
        battle = load_game(path)
    except SaveError as err:
        _names_file(err, path)
        return
    try:
        rng = random.Random(6)
        for _ in range(2):
            try:
                battle.tick()
            except IllegalCommand:
                break
            if rng.random() < 0.5:
                break
    finally:
        battle.close()
