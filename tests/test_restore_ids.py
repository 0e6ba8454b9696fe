"""A restore takes away the creatures spawned after its snapshot, never the ids they used (esper's
counter does not go back): the command log says so, so that the same seed and commands replay the
battle, and its save loads. (The log held only the spawns kept: a replay gave the next creature the
id the removed one had, and every later command naming it named no creature.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from game import Battle, IllegalCommand
from game.content import saves
from game.content.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent


def _events(b: Battle) -> list[str]:
    return [repr(e) for e in b.events]


def test_a_creature_spawned_after_a_restore_replays_under_its_id():
    b = Battle(seed=1, width=8, height=8)
    hero = b.spawn("Hero", 1, 1, team="x", powers=["strike"])
    before = b.snapshot()
    b.spawn("Tried", 5, 5, team="y")
    b.restore(before)
    late = b.spawn("Late", 2, 1, team="y", health=30)
    b.start_combat()
    b.use_power(hero, "strike", target=late)
    b.damage(late, 2)
    b.tick()
    again = Battle.replay(1, 8, 8, None, b.command_log)
    assert again.creatures() == b.creatures() == [hero, late]
    assert _events(again) == _events(b) and again.command_log == b.command_log


def test_restoring_one_snapshot_twice_counts_every_id_used():
    b = Battle(seed=4, width=8, height=8)
    b.spawn("Hero", 1, 1, team="x")
    before = b.snapshot()
    b.spawn("First try", 5, 5, team="y")
    b.restore(before)
    b.spawn("Second try", 5, 5, team="y")
    b.restore(before)
    late = b.spawn("Late", 6, 6, team="y")
    b.damage(late, 1)
    b.tick()
    again = Battle.replay(4, 8, 8, None, b.command_log)
    assert late in again.creatures() and _events(again) == _events(b)


def test_a_save_of_such_a_battle_loads(tmp_path):
    scenario = load_scenario(ROOT / "assets" / "scenarios" / "demo.toml")
    b, _ = scenario.build_with_ids()
    before = b.snapshot()
    b.spawn("Ghost", 0, 0, team="red")
    b.restore(before)
    late = b.spawn("Late", 0, 0, team="red", health=20)
    b.start_combat()
    b.damage(late, 3)
    b.tick()
    saves.save_game(tmp_path / "s.json", scenario, b)
    loaded = saves.load_game(tmp_path / "s.json")
    assert loaded.creatures() == b.creatures() and _events(loaded) == _events(b)


def test_a_restore_that_took_no_creature_away_logs_nothing():
    b = Battle(seed=1, width=8, height=8)
    b.spawn("Hero", 1, 1, team="x")
    before = b.snapshot()
    b.damage(1, 2)
    b.restore(before)
    assert [name for name, _, _ in b.command_log] == ["spawn"]


@pytest.mark.parametrize("count", [0, -1, True, 1.5, "2", 10**7])
def test_skip_ids_takes_a_whole_number_of_ids(count):
    b = Battle(seed=1, width=8, height=8)
    with pytest.raises(IllegalCommand, match="count"):
        b.skip_ids(count)
    assert b.command_log == []


def test_a_restore_takes_back_reactions_attached_since_but_not_trusted_python():
    """What restore puts back, as its docstring says: a reaction script attached after the snapshot
    goes with it; an ``on`` handler, the caller's own code, stays."""
    from components.events import Damaged

    texts = {"ouch.star": "def on_damaged(ctx, event):\n    ctx.heal(event[\"entity\"], 1)\n"}
    b = Battle(seed=1, width=8, height=8, script_texts=texts)
    hero = b.spawn("Hero", 1, 1, team="x", health=20)
    before = b.snapshot()
    heard: list[int] = []
    b.on(Damaged, lambda battle, event: heard.append(event.amount))
    b.attach_reaction("ouch.star")
    b.restore(before)
    b.damage(hero, 3)
    b.run(2)
    assert heard == [3]  # the handler stays
    assert not [e for e in b.events if type(e).__name__ == "Healed"]  # the reaction went
