"""Scenarios attach reaction scripts, and a scenario from outside the project runs them sandboxed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from components import Position
from game.battle.log import format_events
from game.content.powers import runs_in_process
from game.content.scenario import ScenarioError, load_scenario, load_scenario_text

ROOT = Path(__file__).resolve().parent.parent

SMALL = """
name = "two on a field"
reactions = ["rally.star"]
[map]
rows = ["......", "......", "......"]
[map.legend]
"." = { ground = 0 }
[teams.a]
control = "computer"
[teams.b]
control = "computer"
[[creatures]]
key = "one"
team = "a"
x = 0
y = 0
[[creatures]]
key = "two"
team = "a"
x = 1
y = 0
reactions = ["rally.star"]
[[creatures]]
key = "foe"
team = "b"
x = 5
y = 2
"""


def test_the_ambush_rallies_allies_when_a_merchant_is_downed() -> None:
    scenario = load_scenario(ROOT / "assets/scenarios/ambush.toml")
    assert scenario.reactions == ("rally.star",) and scenario.trusted
    battle, ids = scenario.build_with_ids()
    merchant = ids["merchant"]
    allies = [ids[k] for k in ("guard", "crossbow")]
    near = [a for a in allies if max(abs(battle.get(a, Position).x - battle.get(merchant, Position).x),
                                     abs(battle.get(a, Position).y - battle.get(merchant, Position).y)) <= 3]
    for ally in near:
        battle.damage(ally, 3)
    battle.tick()
    battle.damage(merchant, 1000)
    battle.tick()
    healed = {e.entity for e in battle.events if e.kind == "healed" and e.source == "script:reaction"}
    assert near and healed == set(near)


def test_a_scenario_from_elsewhere_is_untrusted_and_reads_scripts_beside_it(tmp_path: Path) -> None:
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "rally.star").write_text("def on_downed(ctx, event):\n    ctx.heal(event['entity'], 1)\n")
    path = tmp_path / "field.toml"
    path.write_text(SMALL)
    scenario = load_scenario(path)
    assert not scenario.trusted and scenario.script_dir == tmp_path / "scripts"
    battle, ids = scenario.build_with_ids()
    assert battle.scripts.trusted is False  # the worker host: a stranger's script cannot crash us
    battle.damage(ids["two"], 100)
    battle.tick()
    # the battle-wide reaction and the creature's own both heal the downed creature by 1
    heals = [e for e in battle.events if e.kind == "healed" and e.entity == ids["two"]]
    assert len(heals) == 2
    assert "downed" not in battle.conditions(ids["two"])
    # the log says who was healed and by what: not "Two heals 1", which reads as Two healing someone
    told = [line for line in format_events(battle, heals)]
    assert all(re.search(r"is healed 1 by a reaction script \(health \d+\)", line) for line in told), told


def test_reactions_must_be_script_names() -> None:
    with pytest.raises(ScenarioError, match=r"reactions.*\.star"):
        load_scenario_text(SMALL.replace('reactions = ["rally.star"]\n[map]', 'reactions = ["../x.py"]\n[map]'))


@pytest.mark.parametrize("where", ["battle", "creature"])
def test_a_reaction_listed_twice_is_refused_as_a_power_listed_twice_is(where: str) -> None:
    """It used to be attached twice and fire twice on every event."""
    old = 'reactions = ["rally.star"]\n[map]' if where == "battle" else 'y = 0\nreactions = ["rally.star"]'
    text = SMALL.replace(old, old.replace('["rally.star"]', '["rally.star", "rally.star"]'))
    key = "reactions" if where == "battle" else "creatures[1].reactions"
    with pytest.raises(ScenarioError, match=rf"{re.escape(key)}: expected each script once, got 'rally\.star' more"):
        load_scenario_text(text)


@pytest.mark.parametrize(("entry", "why"), [
    ("../scripts/rally.star", "a path"), ("/etc/passwd", "a path"), (".", "not a file name ending in .star"),
    ("", "not a file name ending in .star"), (".star", "not a file name ending in .star"),
])
def test_a_bad_reaction_entry_is_named_with_the_reason(entry: str, why: str) -> None:
    text = SMALL.replace('reactions = ["rally.star"]\n[map]', f'reactions = ["rally.star", "{entry}"]\n[map]')
    with pytest.raises(ScenarioError, match=rf"reactions: .*got an array holding {re.escape(repr(entry))} \({why}"):
        load_scenario_text(text)


def test_terrain_blocking_a_thing_twice_names_it() -> None:
    keep = (ROOT / "assets/scenarios/keep.toml").read_text(encoding="utf-8")
    text = keep.replace('blocks = ["movement", "pushes", "fliers"]', 'blocks = ["movement", "pushes", "movement"]')
    with pytest.raises(ScenarioError, match=r"map\.legend\.':'\.blocks: expected each thing blocked once, "
                                            r"got 'movement' more than once"):
        load_scenario_text(text)


@pytest.mark.parametrize("name", [".star", "a\tb.star", "x" * 300 + ".star", "a\x1bb.star"])
def test_a_script_name_is_held_to_one_rule_wherever_it_is_given(name: str) -> None:
    """A scenario's reactions, a power file's script and a battle's attach_reaction refuse the same
    names: a name one of them took was refused by another later, with another message."""
    from game import Battle, IllegalCommand
    from game.content.power_parse import PowerError, parse_power

    text = SMALL.replace('reactions = ["rally.star"]\n[map]', 'reactions = ["rally.star", "NAME"]\n[map]')
    with pytest.raises(ScenarioError, match=r"reactions: .*\.star"):
        load_scenario_text(text.replace("NAME", name.replace("\t", "\\t").replace("\x1b", "\\u001b")))
    with pytest.raises(PowerError, match=r"script.*plain file name ending in \.star"):
        parse_power("zap", {"name": "Zap", "description": "d", "range_ft": 30, "damage": 3, "script": name}, "test")
    with Battle(seed=1) as b, pytest.raises(IllegalCommand, match=r"file name"):
        b.attach_reaction(name)


def test_a_scenarios_trust_is_its_files_unless_the_caller_says(tmp_path: Path) -> None:
    """One rule of the sandbox's boundary: the shipped scenario's scripts run in this process, a copy
    of it elsewhere runs them sandboxed; a caller (a sandboxed simulation worker) may say otherwise."""
    shipped = load_scenario(ROOT / "assets/scenarios/ambush.toml")
    copy = tmp_path / "ambush.toml"
    copy.write_text((ROOT / "assets/scenarios/ambush.toml").read_text(encoding="utf-8"), encoding="utf-8")
    elsewhere = load_scenario(copy)
    assert shipped.trusted and not elsewhere.trusted
    assert shipped.trusts(None) and not elsewhere.trusts(None) and elsewhere.trusts(True) and not shipped.trusts(False)
    for trusted in (True, None):
        battle = elsewhere.new_battle(trusted=trusted)
        try:
            assert battle.scripts.trusted is (trusted is True)
        finally:
            battle.close()
    assert not runs_in_process(None, False) and not runs_in_process(ROOT / "assets/scenarios/ambush.toml", True)
