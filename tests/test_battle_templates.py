"""Battle templates: a simulation's battle copied from a scenario built once is the battle a fresh
build makes with the same seed (state, events, command log, replay), and copies share nothing a
battle changes."""

from __future__ import annotations

import enum
from collections import deque
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

import esper
import numpy as np
import pytest

from game import Battle
from game.battle.template import BattleTemplate
from game.content.powers import apply_power_overrides
from game.content.saves import play_replay
from game.content.scenario import Scenario, ScenarioError, load_scenario
from game.sim.context import WorkerContext
from game.sim.runner import ai_rng, battle_seed, play, run_battle
from game.sim.template import ScenarioTemplate, build
from systems.state import SNAPSHOT_FIELDS

ROOT = Path(__file__).resolve().parent.parent
#: ambush has reaction scripts; keep and ledge lights and heights; the golden gauntlet every power
SCENARIOS = ("ambush", "keep", "ledge", "gauntlet")


def scenario(name: str) -> Scenario:
    if name == "gauntlet":
        return load_scenario(ROOT / "tests" / "golden" / "gauntlet.toml", trusted=True)
    return load_scenario(ROOT / "assets" / "scenarios" / f"{name}.toml")


def plain(value: Any) -> Any:
    """A value as plain, comparable data: dataclasses by their fields, arrays by their bytes.

    Private fields are left out: they are what the map derives and keeps (``Terrain``'s masks),
    which depend on what the shared caches already knew, in fresh builds as in copies."""
    if isinstance(value, enum.Enum):
        return (type(value).__name__, value.value)
    if isinstance(value, np.ndarray):
        return (str(value.dtype), value.shape, value.tobytes())
    if is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, tuple(plain(getattr(value, f.name)) for f in fields(value)
                                            if not f.name.startswith("_")))
    if isinstance(value, dict):
        return ("dict", tuple((plain(k), plain(v)) for k, v in value.items()))
    if isinstance(value, (set, frozenset)):
        return (type(value).__name__, tuple(sorted(map(repr, value))))
    if isinstance(value, (list, tuple, deque)):
        return (type(value).__name__, tuple(plain(v) for v in value))
    return value


def parts(battle: Battle) -> dict[str, Any]:
    """Everything a battle is, as the template copies it (components, state, log) and more."""
    battle.make_current()
    state = battle.state
    return {
        "components": [esper.components_for_entity(e) for e in state.creatures],
        "state": {name: getattr(state, name) for name in SNAPSHOT_FIELDS},
        "log": battle.command_log, "ids": battle.ids, "names": battle.display_names,
    }


def fingerprint(battle: Battle) -> Any:
    state = battle.state
    return plain({**parts(battle), "rng": state.rng.getstate(), "powers": state.powers, "rules": state.rules,
                  "overrides": battle.power_overrides, "seen": battle.scripts.seen,
                  "reactions": battle.scripts.reactions, "entities": list(esper.get_entities())})


def mutable_ids(value: Any, found: set[int]) -> set[int]:
    """The ids of every changeable object reachable from ``value`` through containers and fields."""
    if isinstance(value, (int, float, str, bytes, type(None), enum.Enum)) or id(value) in found:
        return found
    if isinstance(value, np.ndarray):
        if value.flags.writeable:
            found.add(id(value))
        return found
    if isinstance(value, (dict, list, set, deque)) or (is_dataclass(value)
                                                       and not value.__dataclass_params__.frozen):  # type: ignore[union-attr]
        found.add(id(value))
    items: Any = ()
    if isinstance(value, dict):
        items = [*value.keys(), *value.values()]
    elif isinstance(value, (list, tuple, set, frozenset, deque)):
        items = value
    elif is_dataclass(value):
        items = [getattr(value, f.name) for f in fields(value)]
    for item in items:
        mutable_ids(item, found)
    return found


@pytest.mark.parametrize("name", SCENARIOS)
def test_a_battle_from_the_template_is_the_fresh_build_with_that_seed(name: str) -> None:
    source = scenario(name)
    template = ScenarioTemplate(source, trusted=True)
    assert template.refusal == ""
    for index in range(3):
        seed = battle_seed(11, index)
        copied, ids = template.battle(seed)
        fresh, fresh_ids = build(source, seed, None, trusted=True)
        assert ids == fresh_ids
        assert fingerprint(copied) == fingerprint(fresh), "the battles differ before the first round"
        for battle in (copied, fresh):
            play(battle, "greedy", ai_rng(seed), max_rounds=50)
        assert copied.events == fresh.events and len(copied.events) > 20
        assert copied.command_log == fresh.command_log
        assert fingerprint(copied) == fingerprint(fresh), "the battles differ at the end"
        copied.close()
        fresh.close()


def test_a_power_table_and_its_overrides_are_the_fresh_builds() -> None:
    source = scenario("ledge")
    overrides = (("powers.shoot.damage", "3d6"),)
    powers = apply_power_overrides(overrides, source.library, source.script_dir)
    copied, _ = ScenarioTemplate(source, powers, overrides, trusted=True).battle(5)
    fresh, _ = build(source, 5, powers, overrides, trusted=True)
    assert copied.power_overrides == overrides and str(copied.power("shoot").damage) == "3d6"
    assert fingerprint(copied) == fingerprint(fresh)


def test_two_battles_from_one_template_share_nothing_a_battle_changes() -> None:
    template = ScenarioTemplate(scenario("ambush"), trusted=True)
    first, _ = template.battle(1)
    second, _ = template.battle(2)
    assert mutable_ids(parts(first), set()).isdisjoint(mutable_ids(parts(second), set()))
    assert first.world_name != second.world_name and first.state.rng is not second.state.rng
    assert first.state.paths.terrain is first.state.terrain  # the copy's own map, not the template's
    assert first.scripts.reactions is not second.scripts.reactions
    before = fingerprint(second)
    play(first, "greedy", ai_rng(1), max_rounds=50)
    first.add_wall(0, 0)
    assert fingerprint(second) == before, "playing one battle changed another"
    third, _ = template.battle(2)
    assert fingerprint(third) == before, "playing a battle changed the template"
    for battle in (first, second, third):
        battle.close()


@pytest.mark.slow
def test_a_template_battle_replays_from_its_file(tmp_path: Path) -> None:
    context = WorkerContext()
    path = str(ROOT / "assets" / "scenarios" / "ambush.toml")
    rows = [run_battle(path, (), battle_seed(3, i), replay_dir=str(tmp_path), always_replay=True, context=context)
            for i in range(2)]
    assert len(context.templates) == 1 and next(iter(context.templates.values())).refusal == ""
    for row in rows:
        assert not row["error"] and row["replay"]
        _, matched, mismatch = play_replay(row["replay"])
        assert matched, mismatch


def _drawn(battle: Battle) -> None:
    battle.state.rng.random()


def _in_combat(battle: Battle) -> None:
    battle.start_combat()


def _reacting(battle: Battle) -> None:
    battle.attach_reaction("rally.star")


@pytest.mark.parametrize("change", [_drawn, _in_combat, _reacting], ids=lambda f: f.__name__)
def test_a_battle_that_cannot_be_copied_exactly_is_refused(change: Any) -> None:
    battle = Battle(seed=4)
    battle.spawn("a", 0, 0, team="a")
    battle.spawn("b", 3, 3, team="b")
    BattleTemplate(battle)  # as built: fine
    change(battle)
    with pytest.raises(ValueError, match="cannot be a template"):
        BattleTemplate(battle)
    battle.close()


def test_a_scenario_that_cannot_be_templated_is_built_afresh_for_each_battle(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: BattleTemplate, battle: Battle) -> None:
        raise ValueError("this battle cannot be a template: for the test")

    monkeypatch.setattr(BattleTemplate, "__init__", refuse)
    source = scenario("ambush")
    template = ScenarioTemplate(source, trusted=True)
    assert "for the test" in template.refusal
    copied, _ = template.battle(7)
    fresh, _ = build(source, 7, None, trusted=True)
    assert fingerprint(copied) == fingerprint(fresh)


def test_a_context_keeps_one_template_per_variant() -> None:
    context = WorkerContext()
    path = str(ROOT / "assets" / "scenarios" / "ledge.toml")
    plain_variant = context.template_for(path, ())
    listed = (("creatures.ogre.powers", ["strike", "shoot"]),)  # a list: not hashable as it is
    assert context.template_for(path, ()) is plain_variant
    assert context.template_for(path, listed) is context.template_for(path, listed) is not plain_variant
    assert context.template_for(path, listed).scenario.creature("ogre").powers == ("strike", "shoot")
    powered = context.template_for(path, (("powers.shoot.damage", "3d6"),))
    battle, _ = powered.battle(1)
    assert powered is not plain_variant and str(battle.power("shoot").damage) == "3d6"
    battle.close()


def test_overrides_that_compare_equal_but_differ_are_different_variants() -> None:
    context = WorkerContext()
    path = str(ROOT / "assets" / "scenarios" / "ledge.toml")
    assert context.template_for(path, (("creatures.ogre.flying", True),)).scenario.creature("ogre").flying
    with pytest.raises(ScenarioError, match="expected true or false"):  # 1 == True in Python, not here
        context.template_for(path, (("creatures.ogre.flying", 1),))
