"""Who may use a power and how often (surprise, downed, one action a round), the events every step
emits, and powers that move creatures: shoves over ledges and against walls, blinks.
"""

from __future__ import annotations

import pytest

from components import Position
from game import Battle
from tests.event_steps import kinds
from tests.power_steps import custom, hp, powers

# ================================================================ who may use a power, and how often


def test_surprised_creatures_cannot_use_powers():
    with Battle(seed=1) as b:
        u = b.spawn("sleeper", 2, 2, team="a", prepared=False)
        t = b.spawn("foe", 3, 2, team="b")
        b.start_combat()
        with pytest.raises(ValueError, match="surprised"):
            b.use_power(u, "strike", target=t)
        b.tick()  # surprise lasts the first round only
        assert "surprised" not in b.conditions(u)
        b.use_power(u, "strike", target=t)


@pytest.mark.parametrize("state", ["downed", "unconscious"])
def test_downed_or_unconscious_creatures_cannot_use_powers(state):
    with Battle(seed=1) as b:
        u = b.spawn("hurt", 2, 2, team="a", health=5)
        t = b.spawn("foe", 3, 2, team="b")
        if state == "downed":
            b.damage(u, 5)
        else:
            b.add_fatigue(u, 5)
        b.tick()
        assert state in b.conditions(u)
        with pytest.raises(ValueError, match="cannot act"):
            b.use_power(u, "strike", target=t)


def test_unknown_power_is_refused():
    with Battle(seed=1) as b:
        u = b.spawn("a", 2, 2)
        with pytest.raises(ValueError, match="unknown power 'meteor'"):
            b.use_power(u, "meteor")


def test_a_creature_given_powers_uses_only_those():
    with Battle(seed=1) as b:
        u = b.spawn("a", 2, 2, team="a", powers=["strike"])
        t = b.spawn("b", 3, 2, team="b")
        with pytest.raises(ValueError, match="does not have the power 'shoot'"):
            b.use_power(u, "shoot", target=t)


def test_one_action_per_round_in_combat():
    with Battle(seed=1) as b:
        u = b.spawn("a", 2, 2, team="a")
        t = b.spawn("b", 3, 2, team="b", health=100)
        b.start_combat()
        b.use_power(u, "strike", target=t)
        with pytest.raises(ValueError, match="already used its action"):
            b.use_power(u, "shoot", target=t)
        b.use_power(u, "fly")  # a bonus action is another matter
        with pytest.raises(ValueError, match="already used its bonus"):
            b.use_power(u, "light", point=(5, 5))
        b.tick()
        assert [e.power for e in kinds(b, "power_used", u)] == ["strike", "fly"]
        b.use_power(u, "strike", target=t)  # a new round
        b.tick()
        assert len(kinds(b, "power_used", u)) == 3


def test_outside_combat_uses_are_not_rationed():
    with Battle(seed=1) as b:
        u = b.spawn("a", 2, 2, team="a")
        t = b.spawn("b", 3, 2, team="b", health=100)
        b.use_power(u, "strike", target=t)
        b.use_power(u, "strike", target=t)
        b.tick()
        assert len(kinds(b, "power_used", u)) == 2


# ================================================================ events, shoving, teleport


def test_every_step_is_an_event():
    sear = custom("sear", range_ft=60, damage=2, conditions=["dazzled"], duration=1)
    with Battle(seed=4, powers=powers(sear)) as b:
        cleric = b.spawn("cleric", 2, 2, team="a", health=30)
        fighter = b.spawn("fighter", 6, 6, team="a", attack_bonus=20)
        foe = b.spawn("foe", 7, 6, team="b", health=60)
        b.damage(cleric, 10)
        b.tick()
        b.use_power(fighter, "shove", target=foe)
        b.use_power(cleric, "heal", target=cleric)
        b.tick()
        b.use_power(cleric, "sear", target=foe)
        b.use_power(fighter, "fireball", point=(9, 8))
        b.tick()
        b.use_power(cleric, "darkness", point=(2, 12))
        b.run(3)
        seen = {e.kind for e in b.events}
        for kind in ("power_used", "attack_rolled", "save_rolled", "damaged", "healed", "condition_gained",
                     "condition_lost", "area_created", "effect_ended", "pushed"):
            assert kind in seen, kind
        [push] = kinds(b, "pushed")
        assert (push.entity, push.from_square, push.to_square, push.by) == (foe, (7, 6), (9, 6), fighter)


def test_shove_over_a_ledge_makes_the_target_fall():
    with Battle(seed=5) as b:
        for x in range(0, 6):
            b.set_ground(x, 5, 20)
        u = b.spawn("shover", 4, 5, team="a")
        t = b.spawn("victim", 5, 5, team="b", health=50, defense=1)
        assert b.get(t, Position).z == 20
        b.use_power(u, "shove", target=t)
        b.tick()
        [a] = kinds(b, "attack_rolled")
        assert a.hit
        [push] = kinds(b, "pushed", t)
        # it goes over the edge at the first square with nothing under it, and falls there
        assert push.from_square == (5, 5) and push.to_square == (6, 5)
        [landed] = kinds(b, "landed", t)
        assert landed.distance_ft == 20 and landed.dice == 2
        assert kinds(b, "fell", t)
        assert hp(b, t) == 50 - landed.damage and b.get(t, Position).z == 0 and "prone" in b.conditions(t)


def test_shove_stops_at_a_cliff_face_and_a_wall():
    with Battle(seed=5) as b:
        b.set_ground(7, 5, 20)
        u = b.spawn("shover", 4, 5, team="a")
        t = b.spawn("victim", 5, 5, team="b", defense=1)
        b.use_power(u, "shove", target=t)
        b.tick()
        assert b.get(t, Position).square == (6, 5) and not kinds(b, "fell")
        b.add_wall(6, 6)
        b.move(u, 6, 4)
        b.tick()
        b.use_power(u, "shove", target=t)  # straight south into the wall: it does not move
        b.tick()
        assert b.get(t, Position).square == (6, 5) and len(kinds(b, "pushed")) == 1


def test_blink_teleports_within_range_to_a_seen_free_square():
    with Battle(seed=1) as b:
        u = b.spawn("mage", 2, 2)
        other = b.spawn("other", 4, 2)
        with pytest.raises(ValueError, match="reaches 30 ft"):
            b.use_power(u, "blink", point=(15, 15))
        with pytest.raises(ValueError, match="taken"):
            b.use_power(u, "blink", point=(4, 2))
        b.use_power(u, "blink", point=(6, 4))
        b.tick()
        assert b.get(u, Position).square == (6, 4) and b.get(other, Position).square == (4, 2)
