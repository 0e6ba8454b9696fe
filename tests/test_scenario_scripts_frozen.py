"""A scenario's battles run the script texts its load read and checked, not the disk's at first use.

``Scenario.build`` read a power's script from the folder when a creature first used the power: a
script edited or swapped between the load (which checked it) and that use, or before a GM rewind
rebuilt the battle, was played unchecked, so one battle ran two scripts and a rewound round
played differently from the round it claimed to rebuild exactly.
"""

from __future__ import annotations

from pathlib import Path

from components.events import Damaged
from game.battle.facade import Battle
from game.content.scenario import load_scenario
from game.sim.template import ScenarioTemplate
from tests.scenario_steps import SCRIPTED_ZAP

SCENARIO = """
name = "Frozen"
seed = 1
power_files = ["p.toml"]
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
health = 50
powers = ["zap"]
[[creatures]]
key = "y"
team = "b"
x = 1
y = 0
health = 50
powers = ["zap"]
"""


def _script(amount: int) -> str:
    return f"def on_hit(ctx, target):\n    ctx.damage(target, {amount})\n"


def _folder(tmp_path: Path) -> Path:
    (tmp_path / "scripts").mkdir()
    (tmp_path / "s.toml").write_text(SCENARIO)
    (tmp_path / "p.toml").write_text(SCRIPTED_ZAP)
    (tmp_path / "scripts" / "z.star").write_text(_script(3))
    return tmp_path / "s.toml"


def _zap(battle: Battle, ids: dict[str, int]) -> None:
    """The creature whose turn comes first zaps the other."""
    battle.start_combat()
    battle.begin_round()
    actor = battle.current_actor
    assert actor is not None
    battle.use_power(actor, "zap", next(e for e in ids.values() if e != actor))
    battle.resolve_orders()


def test_a_script_edited_after_the_load_changes_none_of_its_battles(tmp_path: Path) -> None:
    scenario = load_scenario(_folder(tmp_path))
    (tmp_path / "scripts" / "z.star").write_text(_script(40))  # swapped after the load checked it
    battle, ids = scenario.build_with_ids(trusted=True)
    try:
        _zap(battle, ids)
        assert [e.amount for e in battle.events if isinstance(e, Damaged)] == [3]
        assert battle.scripts.sources() == {"z.star": _script(3)}
    finally:
        battle.close()


def test_a_script_deleted_after_the_load_still_plays(tmp_path: Path) -> None:
    scenario = load_scenario(_folder(tmp_path))
    (tmp_path / "scripts" / "z.star").unlink()
    battle, ids = scenario.build_with_ids(trusted=True)
    try:
        _zap(battle, ids)
        assert [e.amount for e in battle.events if isinstance(e, Damaged)] == [3]
    finally:
        battle.close()


def test_a_simulation_template_copy_keeps_the_loaded_text(tmp_path: Path) -> None:
    scenario = load_scenario(_folder(tmp_path))
    template = ScenarioTemplate(scenario, trusted=True)
    (tmp_path / "scripts" / "z.star").write_text(_script(40))
    battle, ids = template.battle(1)
    try:
        _zap(battle, ids)
        assert [e.amount for e in battle.events if isinstance(e, Damaged)] == [3]
    finally:
        battle.close()
