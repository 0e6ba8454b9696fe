"""Surprise and initiative: the unprepared are surprised in round 1 (no initiative, last, flat-footed);
the prepared roll d20 + bonus; ties are settled by the seeded generator.
"""

from __future__ import annotations

import pytest

from components import Position
from game import Battle
from tests.event_steps import kinds


@pytest.fixture
def ambush(battle):
    """Three prepared creatures and two caught unprepared; combat started."""
    ready = [battle.spawn(f"ready{i}", i, 0, initiative_bonus=i) for i in range(3)]
    caught = [battle.spawn(f"caught{i}", i, 5, prepared=False, defense=12) for i in range(2)]
    battle.start_combat()
    return battle, ready, caught


def test_unprepared_creatures_are_surprised_and_flat_footed(ambush):
    b, ready, caught = ambush
    for e in caught:
        assert {"surprised", "flat-footed"} <= b.conditions(e)
        assert b.defense_against(e, ready[0]) == 10
    for e in ready:
        assert b.conditions(e).isdisjoint({"surprised", "flat-footed"})


def test_surprised_creatures_roll_no_initiative(ambush):
    b, ready, caught = ambush
    rolled = {ev.entity for ev in kinds(b, "initiative_rolled")}
    assert rolled == set(ready)


def test_surprised_creatures_act_after_everyone_who_rolled(ambush):
    b, ready, caught = ambush
    order = b.turn_order()
    assert sorted(order) == sorted(ready + caught)
    assert set(order[: len(ready)]) == set(ready)
    assert set(order[len(ready):]) == set(caught)
    b.tick()
    turns = [ev.entity for ev in kinds(b, "turn_started")]
    assert turns == order


def test_prepared_creatures_are_ordered_by_d20_plus_bonus(ambush):
    b, ready, caught = ambush
    totals = {ev.entity: ev.total for ev in kinds(b, "initiative_rolled")}
    for ev in kinds(b, "initiative_rolled"):
        assert 1 <= ev.roll <= 20
        assert ev.total == ev.roll + ready.index(ev.entity)  # bonus i for ready[i]
    order = [e for e in b.turn_order() if e in totals]
    assert [totals[e] for e in order] == sorted(totals.values(), reverse=True)
    [started] = kinds(b, "combat_started")
    assert list(started.order) == b.turn_order()


def test_surprise_lasts_through_the_first_round(ambush):
    b, ready, caught = ambush
    b.tick()  # round 1
    ended = [ev for ev in kinds(b, "condition_lost") if ev.condition == "surprised"]
    assert {ev.entity for ev in ended} == set(caught)
    assert all(ev.round == 1 for ev in ended)
    # it was lost at the end of round 1: after every turn of that round
    last_turn = max(i for i, ev in enumerate(b.events) if ev.kind == "turn_started")
    assert all(b.events.index(ev) > last_turn for ev in ended)


def test_surprise_ends_when_the_first_round_ends(ambush):
    b, ready, caught = ambush
    b.tick()
    for e in caught:
        assert b.conditions(e).isdisjoint({"surprised", "flat-footed"})
        assert b.defense_against(e, ready[0]) == 12
    b.tick()
    for e in caught:
        assert "surprised" not in b.conditions(e)


def test_surprised_creatures_keep_their_place_after_the_first_round(ambush):
    b, ready, caught = ambush
    order = b.turn_order()
    b.run(2)
    assert b.turn_order() == order


def test_surprise_round_counts_from_when_combat_starts(battle):
    """Combat started after some rounds of exploration: surprise covers the next round, not round 1."""
    a = battle.spawn("a", 0, 0)
    c = battle.spawn("c", 5, 5, prepared=False)
    battle.run(3)
    battle.start_combat()
    assert "surprised" in battle.conditions(c)
    battle.tick()
    assert "surprised" not in battle.conditions(c)
    assert a in battle.turn_order()


def test_all_surprised_still_get_an_order(battle):
    es = [battle.spawn(f"c{i}", i, 0, prepared=False) for i in range(3)]
    order = battle.start_combat()
    assert sorted(order) == es
    assert not kinds(battle, "initiative_rolled")


def test_initiative_bonus_orders_when_the_die_cannot_differ():
    b = Battle(seed=3, width=8, height=8, rules={"initiative_die": 1})
    low = b.spawn("low", 0, 0, initiative_bonus=0)
    high = b.spawn("high", 1, 0, initiative_bonus=5)
    mid = b.spawn("mid", 2, 0, initiative_bonus=3)
    assert b.start_combat() == [high, mid, low]
    b.close()


def _tied_order(seed: int) -> list[int]:
    b = Battle(seed=seed, width=8, height=8, rules={"initiative_die": 1})  # every creature rolls 1: all tie
    for i in range(5):
        b.spawn(f"c{i}", i, 0)
    order = b.start_combat()
    b.close()
    return order


def test_initiative_ties_are_settled_by_the_generator():
    orders = {seed: _tied_order(seed) for seed in range(12)}
    # the same seed gives the same order ...
    assert all(_tied_order(seed) == order for seed, order in orders.items())
    # ... and it is the generator that decides, not spawn order or entity id
    assert len({tuple(o) for o in orders.values()}) > 1


def test_same_seed_same_initiative_order():
    def order(seed: int) -> list[int]:
        b = Battle(seed=seed, width=8, height=8)
        for i in range(6):
            b.spawn(f"c{i}", i, 0, prepared=i % 3 != 0)
        result = b.start_combat()
        b.close()
        return result

    assert order(42) == order(42)


def test_start_combat_twice_is_refused(ambush):
    b, ready, caught = ambush
    n = len(b.events)
    with pytest.raises(ValueError, match="already"):
        b.start_combat()
    assert len(b.events) == n


def test_start_combat_in_the_middle_of_a_round_is_refused(battle):
    """Surprise lasts the first round of combat: a start while a round is under way (its turns already
    fixed in spawn order) left the unprepared surprised, and unable to use powers, for the rest of that
    round and the whole next one. It is refused, and nothing changes."""
    battle.spawn("a", 0, 0, powers=["strike"])
    c = battle.spawn("c", 1, 0, prepared=False, powers=["strike"])
    battle.begin_round()
    n, log = len(battle.events), len(battle.command_log)
    with pytest.raises(ValueError, match=r"cannot start combat while round 1 is under way: end its turns first"):
        battle.start_combat()
    assert len(battle.events) == n and len(battle.command_log) == log
    assert "surprised" not in battle.conditions(c) and battle.turn_order() == [1, 2]
    while battle.current_actor is not None:
        battle.end_turn()
    battle.start_combat()  # between rounds: the next round is combat's first, and surprise ends with it
    battle.tick()
    assert "surprised" not in battle.conditions(c)


def test_creatures_act_in_turn_order_in_combat(battle):
    """A creature's own commands resolve on its turn: moves appear in initiative order, not issue order."""
    es = [battle.spawn(f"c{i}", 2 * i, 0) for i in range(4)]
    order = battle.start_combat()
    for e in reversed(es):
        battle.move(e, battle.get(e, Position).x, 3)
    battle.tick()
    moved = [ev.entity for ev in kinds(battle, "moved")]
    assert moved == order
    sequence = [(ev.kind, ev.entity) for ev in battle.events if ev.kind in ("turn_started", "moved")]
    expected = [pair for e in order for pair in (("turn_started", e), ("moved", e))]
    assert sequence == expected


def test_surprised_creatures_cannot_use_powers_until_the_round_ends(battle):
    a = battle.spawn("a", 0, 0)
    c = battle.spawn("c", 1, 0, prepared=False)
    battle.start_combat()
    n = len(battle.events)
    with pytest.raises(ValueError, match="surprised"):
        battle.use_power(c, "strike", target=a)
    assert len(battle.events) == n
    battle.use_power(a, "strike", target=c)  # the prepared one can
    battle.tick()
    battle.use_power(c, "strike", target=a)  # surprise is over


def test_the_dead_keep_their_surprise_when_it_wears_off_and_lose_it_when_combat_ends(ambush):
    """Surprise wearing off spares the dead (a record), combat's end does not: one function
    (systems.grants.end_surprise) for both keeps each as it was."""
    from components import Conditions

    b, _, caught = ambush
    b.begin_round()
    b.damage(caught[0], 100)
    b.add_fatigue(caught[0], 5)
    b.resolve_orders()
    while b.current_actor is not None:
        b.end_turn()
    assert not b.is_alive(caught[0])
    assert "surprised" in b.get(caught[0], Conditions).granted and "surprised" not in b.conditions(caught[1])
    b.end_combat()
    assert "surprised" not in b.get(caught[0], Conditions).granted
