"""The forecast of a scenario's reaction scripts: what they would do if a creature went down now."""

from __future__ import annotations

import pytest

from components import Health
from game import Battle, IllegalCommand, load_scenario
from game.battle.errors import UnknownEntity


def rallied() -> Battle:
    """Three friends and a foe with the rally reaction (allies within 15 ft of a downed one heal 2)."""
    b = Battle(seed=2, width=12, height=8)
    b.attach_reaction("rally.star")
    b.spawn("A", 2, 2, team="blue", health=10)
    b.spawn("B", 3, 2, team="blue", health=10)   # 5 ft from A
    b.spawn("C", 9, 2, team="blue", health=10)   # 35 ft from A
    b.spawn("Foe", 2, 3, team="red", health=10)
    b.start_combat()
    return b


def test_a_rally_heals_the_downed_ones_friends_nearby_and_nobody_else() -> None:
    b = rallied()
    a, near, far, foe = b.creatures()
    f = b.forecast_reactions(a)
    assert f.known and f.heard and f.healed == {near: 2} and b.reacts_to_downs()
    assert far not in f.healed and foe not in f.healed and a not in f.healed


def test_a_creature_read_as_standing_elsewhere_is_healed_there() -> None:
    b = rallied()
    a, near, far, _ = b.creatures()
    f = b.forecast_reactions(a, moved={far: (4, 3), near: (11, 7)})
    assert f.healed == {far: 2}


def test_foreseeing_changes_nothing_and_agrees_with_what_happens() -> None:
    b = rallied()
    a, near, _, _ = b.creatures()
    b.begin_round()  # commands resolve within a turn
    b.damage(near, 5)
    b.resolve_orders()
    before = (list(b.events), b.state.rng.getstate(), b.scripts.calls, b.scripts.budget.battle_used,
              [b.get(c, Health).current for c in b.creatures()])
    f = b.forecast_reactions(a)
    assert before == (list(b.events), b.state.rng.getstate(), b.scripts.calls, b.scripts.budget.battle_used,
                      [b.get(c, Health).current for c in b.creatures()])
    b.damage(a, 10)  # downed for real: the rally heals what was forecast
    b.resolve_orders()
    b.resolve_orders()  # the heals the reaction asked for
    assert b.get(near, Health).current == 5 + f.healed[near]


def test_no_reactions_no_commands_and_bad_input_is_refused() -> None:
    b = Battle(seed=1, width=6, height=6)
    hero = b.spawn("Hero", 1, 1, team="blue")
    assert b.forecast_reactions(hero).commands == () and not b.forecast_reactions(hero).heard
    assert not b.reacts_to_downs()
    with pytest.raises(UnknownEntity, match="no creature with id 999"):
        b.forecast_reactions(999)
    r = rallied()
    with pytest.raises(IllegalCommand, match="square"):
        r.forecast_reactions(r.creatures()[0], moved={r.creatures()[1]: (40, 40)})


def test_a_battle_without_reactions_still_refuses_a_bad_moved() -> None:
    """The answer without reactions came before the check of ``moved``: another battle's creature, or a
    square off the grid, was answered as if it were a question, where a battle with a rally refused it."""
    b = Battle(seed=1, width=6, height=6)
    hero = b.spawn("Hero", 1, 1, team="blue")
    with pytest.raises(UnknownEntity, match="no creature with id 999"):
        b.forecast_reactions(hero, moved={999: (2, 2)})
    with pytest.raises(IllegalCommand, match=r"square.*\(40, 40\)"):
        b.forecast_reactions(hero, moved={hero: (40, 40)})


def test_the_ambush_rally_is_foreseen_for_its_merchants() -> None:
    battle, ids = load_scenario("assets/scenarios/ambush.toml").build_with_ids(1, trusted=True)
    merchant, guard = ids["merchant"], ids["guard"]
    f = battle.forecast_reactions(merchant, moved={guard: battle.square_of(merchant)})
    assert f.known and guard in f.healed


def test_a_remembered_answer_is_given_only_while_its_reads_answer_the_same() -> None:
    b = rallied()
    a, near, far, _ = b.creatures()
    here = b.forecast_reactions(a).healed
    away = {near: (11, 7)}
    for _ in range(3):  # asked again and again, as a planner does: each answer as if asked fresh
        assert b.forecast_reactions(a).healed == here == {near: 2}
        assert b.forecast_reactions(a, moved=away).healed == {}
        assert b.forecast_reactions(a, moved={far: (2, 3)}).healed == {near: 2, far: 2}
    b.begin_round()
    b.damage(near, 10)
    b.add_fatigue(near, 5)  # the friend beside it dies: a read the answer rested on now differs
    b.resolve_orders()
    assert not b.is_alive(near)
    assert b.forecast_reactions(a).healed == {}


def test_a_reaction_that_never_ends_is_unknown_costs_nothing_and_is_not_asked_again(tmp_path) -> None:  # type: ignore[no-untyped-def]
    spin = "def on_downed(ctx, event):\n    for i in range(10000):\n        for j in range(10000):\n            pass\n"
    (tmp_path / "spin.star").write_text(spin)
    b = Battle(seed=2, width=8, height=8, script_dir=tmp_path)
    b.attach_reaction("spin.star")
    hero = b.spawn("Hero", 1, 1, team="blue")
    b.start_combat()
    before = (list(b.events), b.scripts.calls, b.scripts.budget.battle_used, dict(b.scripts.out))
    first = b.forecast_reactions(hero)
    assert not first.known and first.heard is True
    again = b.forecast_reactions(hero)  # not run again: the first failure is remembered
    assert not again.known
    assert before == (list(b.events), b.scripts.calls, b.scripts.budget.battle_used, dict(b.scripts.out))


def test_a_creature_read_as_standing_elsewhere_sees_from_there(tmp_path) -> None:
    """``ctx.can_see`` reads a what-if's squares as the distances do: a friend behind a wall, foreseen
    as standing in the open, sees the downed one and is healed; foreseen behind the wall, it is not."""
    (tmp_path / "watch.star").write_text(
        "def on_downed(ctx, event):\n"
        "    fallen = event['entity']\n"
        "    for other in ctx.creatures_in_area(0, 0, 100):\n"
        "        if other != fallen and ctx.team(other) == ctx.team(fallen) and ctx.can_see(other, fallen):\n"
        "            ctx.heal(other, 2)\n")
    b = Battle(seed=2, width=12, height=8, script_dir=tmp_path)
    b.attach_reaction("watch.star")
    for y in range(8):
        b.add_wall(6, y)
    a = b.spawn("A", 2, 2, team="blue", health=10)
    hid = b.spawn("Hid", 9, 2, team="blue", health=10)   # beyond the wall
    b.spawn("Foe", 2, 3, team="red", health=10)
    b.start_combat()
    assert b.forecast_reactions(a).healed == {}
    assert b.forecast_reactions(a, moved={hid: (4, 2)}).healed == {hid: 2}
    assert b.forecast_reactions(a, moved={a: (8, 2)}).healed == {hid: 2}


def test_a_reaction_whose_command_is_refused_now_is_foreseen_again_at_the_next_ask(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A refused command (a square walled off now) is no lasting failure, as a power's what-if's is not:
    the reaction was switched off for the battle, and with it a planner's forecast of it."""
    (tmp_path / "step.star").write_text("def on_downed(ctx, event):\n    ctx.move(event['entity'], 3, 1)\n")
    b = Battle(seed=2, width=8, height=8, script_dir=tmp_path)
    b.attach_reaction("step.star")
    hero = b.spawn("Hero", 1, 1, team="blue")
    b.add_wall(3, 1)
    b.start_combat()
    refused = b.forecast_reactions(hero)
    assert not refused.known and refused.heard and refused.commands == ()
    b.remove_wall(3, 1)
    allowed = b.forecast_reactions(hero)
    assert allowed.known and allowed.commands == (("move", (hero, 3, 1)),)


def test_the_hosts_count_is_what_stops_a_call_of_too_many_commands(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The battle's bridge had its own count of commands a call, which the hosts' count (made before the
    bridge is asked) always met first: the call and its what-if fail on the hosts' count alone."""
    from game.scripting import Limits

    (tmp_path / "three.star").write_text("def on_downed(ctx, event):\n" + "    ctx.heal(event['entity'], 1)\n" * 3)
    b = Battle(seed=2, width=8, height=8, script_dir=tmp_path, script_limits=Limits(max_commands=2))
    b.attach_reaction("three.star")
    hero = b.spawn("Hero", 1, 1, team="blue", health=5)
    b.start_combat()
    assert not b.forecast_reactions(hero).known
    b.begin_round()
    b.damage(hero, 5)
    b.resolve_orders()
    [failed] = [e for e in b.events if e.kind == "script_failed"]
    assert "more than 2 commands in one call" in failed.reason and b.get(hero, Health).current == 0
