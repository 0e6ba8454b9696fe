"""Snapshots: restore puts a battle back exactly, so what follows happens again the same way."""

from __future__ import annotations

import dataclasses

import pytest

from components import Conditions, Health, Position
from components.dice import Dice
from components.terrain import Blocks
from game import Battle, IllegalCommand, load_scenario
from game.ai import controller
from game.content.powers import default_powers


def played(seed: int = 4) -> Battle:
    battle, _ = load_scenario("assets/scenarios/ambush.toml").build_with_ids(seed, trusted=True)
    battle.start_combat()
    return battle


def state_of(b: Battle) -> list[tuple]:
    return [(e, b.get(e, Health).current, b.get(e, Position).square, b.get(e, Position).z,
             sorted(b.get(e, Conditions).active)) for e in b.creatures()]


def test_restoring_replays_what_follows_exactly() -> None:
    b = played()
    ai_player = controller("tactical")
    b.tick(controller=ai_player)
    mark = b.snapshot()
    saved = state_of(b), list(b.events), list(b.command_log)
    b.tick(controller=ai_player)
    b.tick(controller=ai_player)
    first = [e.as_dict() for e in b.events[len(saved[1]):]]
    b.restore(mark)
    assert (state_of(b), list(b.events), list(b.command_log)) == saved
    b.tick(controller=ai_player)
    b.tick(controller=ai_player)
    assert [e.as_dict() for e in b.events[len(saved[1]):]] == first
    b.close()


def test_a_restore_removes_creatures_spawned_after_the_snapshot() -> None:
    b = Battle(seed=1)
    a = b.spawn("A", 1, 1)
    mark = b.snapshot()
    late = b.spawn("Late", 2, 2)
    b.add_light(3, 3, 10)
    b.restore(mark)
    assert b.creatures() == [a] and not b.terrain.lights
    with pytest.raises(LookupError, match=rf"no creature with id {late} in this battle"):
        b.name(late)


def test_another_battles_snapshot_is_refused() -> None:
    a, b = Battle(seed=1), Battle(seed=2)
    with pytest.raises(ValueError, match="another battle"):
        b.restore(a.snapshot())


def test_what_ifs_cost_the_battles_scripts_nothing() -> None:
    """A forecast of a scripted power runs the script on a copy; the steps it used are not the
    battle's: after forty trials the real use in the same round still runs, and a replay of the
    command log (which forecasts nothing) gives the same events."""
    from components.events import Damaged, ScriptFailed
    from game.scripting import Limits

    limits = Limits(round_steps=60_000)  # a handful of calls a round
    b = Battle(seed=6, width=10, height=10, script_limits=limits)
    witch = b.spawn("Witch", 2, 2, team="blue", powers=["vampiric-touch"], attack_bonus=30)
    foe = b.spawn("Foe", 3, 2, team="red", health=50)
    b.start_combat()
    spent = (b.scripts.budget.round_used, b.scripts.budget.battle_used, b.scripts.calls)
    b.forecast(witch, "vampiric-touch", target=foe, trials=40)
    assert (b.scripts.budget.round_used, b.scripts.budget.battle_used, b.scripts.calls) == spent
    assert b.begin_round() == witch
    b.use_power(witch, "vampiric-touch", target=foe)
    b.end_turn()
    assert any(e.source == "script:vampiric-touch" for e in b.events if isinstance(e, Damaged))
    assert not [e for e in b.events if isinstance(e, ScriptFailed)]
    again = Battle.replay(6, 10, 10, None, b.command_log, script_limits=limits)
    assert again.events == b.events


def test_a_restore_puts_back_a_map_changed_to_another_at_the_same_version() -> None:
    # a restore gives the map an older version number, which a later change takes again for another
    # map: the snapshot taken at that number must still put its own walls back, paths included
    b = played()
    before = b.snapshot()
    b.add_wall(1, 9)
    with_wall = b.snapshot()
    version = b.terrain.version
    b.restore(before)
    b.add_wall(15, 9)
    assert b.terrain.version == version  # the same number, another map
    b.restore(with_wall)
    assert b.terrain.walls[1, 9] and not b.terrain.walls[15, 9]
    assert b.state.paths.cost((15, 8), (15, 9)) is not None and b.state.paths.cost((1, 8), (1, 9)) is None
    b.close()


def test_a_what_if_that_leaves_the_map_alone_keeps_the_masks_worked_out_from_it() -> None:
    b = played()
    mask = b.terrain.blocking(Blocks.SIGHT)
    mark = b.snapshot()
    b.add_condition(b.creatures()[0], "prone", source="what-if")
    b.restore(mark)
    assert b.terrain.blocking(Blocks.SIGHT) is mask
    assert "prone" not in b.conditions(b.creatures()[0])
    b.close()


def test_restore_puts_back_the_power_table_the_snapshot_was_taken_with() -> None:
    # A designer's what-if (snapshot, a stronger strike, forecasts, restore) used to keep the new table
    # after the restore: the strike's forecast stayed at 10d10 (up to 100) where the snapshot's table said 1d8+2.
    b = Battle(seed=1, width=8, height=4)
    hero = b.spawn("Hero", 1, 1, team="a", powers=["strike"])
    orc = b.spawn("Orc", 2, 1, team="b", health=50)
    b.start_combat()
    snap = b.snapshot()
    before = b.forecast(hero, "strike", target=orc).targets[0].damage
    table = default_powers()
    table["strike"] = dataclasses.replace(table["strike"], damage=Dice.parse("10d10"))
    b.powers, b.power_overrides = table, (("powers.strike.damage", "10d10"),)  # as a save's restore sets them
    assert b.forecast(hero, "strike", target=orc).targets[0].damage.high == 100
    b.restore(snap)
    assert str(b.powers["strike"].damage) == "1d8+2"
    assert b.power_overrides == ()  # a save made now records the table in force, not the undone overrides
    assert b.forecast(hero, "strike", target=orc).targets[0].damage == before
    b.powers = table  # and the restored battle, which has used no power, may take it again
    assert b.forecast(hero, "strike", target=orc).targets[0].damage.high == 100


def test_changed_since_counts_the_orders_and_says_whether_dice_were_rolled() -> None:
    """What a window's undo asks: orders given since a snapshot, and whether the generator moved."""
    b = Battle(seed=2)
    hero = b.spawn("Hero", 1, 1, team="blue", powers=["strike"])
    foe = b.spawn("Foe", 3, 1, team="red")
    b.begin_round()
    start = b.snapshot()
    assert b.changed_since(start) == (0, False)
    b.move(hero, 2, 1)
    assert b.changed_since(start) == (1, False)  # a move rolls nothing
    b.use_power(hero, "strike", target=foe)
    b.resolve_orders()
    orders, rolled = b.changed_since(start)
    assert orders >= 2 and rolled  # the strike rolled its attack
    other = Battle(seed=2)
    with pytest.raises(IllegalCommand, match="changed_since takes a snapshot"):
        other.changed_since(start)
    with pytest.raises(IllegalCommand, match="changed_since takes a snapshot"):
        b.changed_since("start")
