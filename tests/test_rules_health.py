"""Health and dying: the pool, downed, fatigue from hits at 0, and the dead as a fixed record."""

from __future__ import annotations

import copy

import pytest

from components import Fatigue, Health, Position, Vision
from game import Battle
from tests.event_steps import kinds


def make_dead(b: Battle, e: int) -> None:
    """0 Health and 5 fatigue: a 10-Health creature dropped to 0 (1 fatigue) then hit four more times."""
    b.damage(e, 100)
    for _ in range(4):
        b.damage(e, 1)
    b.tick()
    assert b.get(e, Health).current == 0 and b.get(e, Fatigue).level == 5
    assert "dead" in b.conditions(e)


def test_damage_is_applied_at_the_next_tick(battle):
    e = battle.spawn("a", 1, 1, health=10)
    battle.damage(e, 3)
    assert battle.get(e, Health).current == 10  # only queued
    battle.tick()
    assert battle.get(e, Health) == Health(7, 10)
    [hit] = kinds(battle, "damaged", e)
    assert (hit.amount, hit.health) == (3, 7)


def test_health_starts_full_and_not_downed(battle):
    e = battle.spawn("a", 1, 1, health=12)
    assert battle.get(e, Health) == Health(12, 12)
    assert battle.get(e, Fatigue).level == 0
    assert "downed" not in battle.conditions(e)


def test_overkill_caps_health_at_zero(battle):
    e = battle.spawn("a", 1, 1, health=10)
    battle.damage(e, 25)
    battle.tick()
    assert battle.get(e, Health).current == 0
    assert kinds(battle, "damaged", e)[0].health == 0


def test_zero_health_is_downed(battle):
    e = battle.spawn("a", 1, 1, health=10)
    battle.damage(e, 10)
    battle.tick()
    assert "downed" in battle.conditions(e)
    assert kinds(battle, "downed", e)


def test_dropping_to_zero_gains_one_fatigue(battle):
    e = battle.spawn("a", 1, 1, health=10)
    battle.damage(e, 9)
    battle.tick()
    assert battle.get(e, Fatigue).level == 0  # above 0: no fatigue
    battle.damage(e, 50)
    battle.tick()
    assert battle.get(e, Fatigue).level == 1  # overkill is still one fall to 0


def test_two_damage_calls_at_zero_are_two_fatigue(battle):
    e = battle.spawn("a", 1, 1, health=10)
    battle.damage(e, 10)
    battle.tick()
    assert battle.get(e, Fatigue).level == 1
    battle.damage(e, 1)
    battle.damage(e, 1)
    battle.tick()
    assert battle.get(e, Fatigue).level == 3
    assert [f.level for f in kinds(battle, "fatigue_changed", e)] == [1, 2, 3]


def test_each_damage_call_is_its_own_hit_in_one_tick(battle):
    """Dropping to 0 and a second hit in the same tick: two fatigue, not one combined hit."""
    e = battle.spawn("a", 1, 1, health=10)
    battle.damage(e, 10)
    battle.damage(e, 3)
    battle.tick()
    assert [d.amount for d in kinds(battle, "damaged", e)] == [10, 3]
    assert battle.get(e, Fatigue).level == 2


def test_hits_and_heals_resolve_in_the_order_issued(battle):
    e = battle.spawn("a", 1, 1, health=10)
    battle.damage(e, 10)   # -> 0, +1 fatigue
    battle.heal(e, 4)      # -> 4
    battle.damage(e, 3)    # -> 1, no fatigue
    battle.tick()
    assert battle.get(e, Health).current == 1
    assert battle.get(e, Fatigue).level == 1
    assert [(ev.kind, ev.health) for ev in battle.events if ev.kind in ("damaged", "healed")] == [
        ("damaged", 0), ("healed", 4), ("damaged", 1)]


def test_heal_caps_at_the_maximum(battle):
    e = battle.spawn("a", 1, 1, health=10)
    battle.damage(e, 3)
    battle.heal(e, 50)
    battle.tick()
    assert battle.get(e, Health) == Health(10, 10)


def test_healing_above_zero_lifts_downed_but_keeps_fatigue(battle):
    e = battle.spawn("a", 1, 1, health=10)
    battle.damage(e, 10)
    battle.tick()
    assert "downed" in battle.conditions(e)
    battle.heal(e, 2)
    battle.tick()
    assert battle.get(e, Health).current == 2
    assert "downed" not in battle.conditions(e)
    assert kinds(battle, "revived", e)
    assert battle.get(e, Fatigue).level == 1  # healing Health does not remove fatigue


def test_gm_damage_resolves_at_the_start_of_the_tick(battle):
    """In combat, GM damage lands before anyone's turn."""
    a = battle.spawn("a", 1, 1)
    b = battle.spawn("b", 5, 5)
    battle.start_combat()
    battle.damage(b, 4)
    battle.tick()
    names = [ev.kind for ev in battle.events if ev.kind in ("round_started", "damaged", "turn_started")]
    assert names[:3] == ["round_started", "damaged", "turn_started"]
    assert {ev.entity for ev in kinds(battle, "turn_started")} == {a, b}


# ---------------------------------------------------------------- dying


def test_dead_at_zero_health_and_five_fatigue(battle):
    e = battle.spawn("a", 1, 1, health=10)
    make_dead(battle, e)
    assert kinds(battle, "died", e)
    assert not battle.is_alive(e)


def test_five_fatigue_above_zero_health_is_unconscious_not_dead(battle):
    e = battle.spawn("a", 1, 1, health=10)
    battle.add_fatigue(e, 5)
    battle.tick()
    conds = battle.conditions(e)
    assert "unconscious" in conds and "dead" not in conds
    battle.damage(e, 10)  # now 0 Health at 5 fatigue
    battle.tick()
    assert "dead" in battle.conditions(e)


def test_zero_health_below_five_fatigue_is_not_dead(battle):
    e = battle.spawn("a", 1, 1, health=10)
    battle.damage(e, 10)
    for _ in range(3):
        battle.damage(e, 1)
    battle.tick()
    assert battle.get(e, Fatigue).level == 4
    assert "dead" not in battle.conditions(e) and battle.is_alive(e)


def test_the_dead_stay_in_the_world(battle):
    e = battle.spawn("a", 1, 1, health=10)
    make_dead(battle, e)
    battle.tick()
    assert e in battle.creatures()
    assert battle.get(e, Position).square == (1, 1)


def test_nothing_changes_the_dead(battle):
    e = battle.spawn("a", 3, 3, health=10)
    other = battle.spawn("b", 8, 8)
    make_dead(battle, e)
    before = tuple(copy.copy(v) for v in (battle.get(e, Health), battle.get(e, Fatigue), battle.get(e, Position),
                                          battle.get(e, Vision), battle.conditions(e)))
    n_events = len(battle.events)

    battle.damage(e, 5)
    battle.heal(e, 5)
    battle.add_fatigue(e, 1)
    battle.recover_fatigue(e, 5)
    battle.add_condition(e, "dazzled")
    battle.add_condition(e, "blinded")
    battle.remove_condition(e, "prone")
    battle.set_ground(3, 3, 0)
    battle.set_ambient("no vision")
    battle.start_combat()
    battle.damage(other, 1)
    battle.run(3)

    after = (battle.get(e, Health), battle.get(e, Fatigue), battle.get(e, Position), battle.get(e, Vision),
             battle.conditions(e))
    assert after == before
    about_e = [ev for ev in battle.events[n_events:] if getattr(ev, "entity", None) == e]
    assert about_e == [], f"events about the dead creature: {about_e}"
    assert e not in battle.turn_order()


def test_the_dead_do_not_fall(battle):
    battle.set_ground(3, 3, 40)
    e = battle.spawn("a", 3, 3, health=10)
    make_dead(battle, e)
    battle.set_ground(3, 3, 0)  # the floor gives way under the body
    battle.run(2)
    assert battle.get(e, Position).z == 40
    assert not kinds(battle, "fell", e)


def test_a_dead_creature_cannot_move(battle):
    e = battle.spawn("a", 3, 3, health=10)
    make_dead(battle, e)
    with pytest.raises(ValueError, match="dead"):
        battle.move(e, 4, 4)
