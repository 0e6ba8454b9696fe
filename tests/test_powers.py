"""Using powers through ``Battle``: the "Power Properties" rules of targets and areas, attacks and
saves. Durations, users, shoves and scripts have test files of their own (test_power_*.py).

Rules under test (shared/rules/combat-rules.txt, "Power Properties"):
* no target and no area: one creature you can see within range;
* an area and no target: every creature in the area; with a range the area is centred on a point you
  can see within range, otherwise on you;
* when a duration ends the effect ends completely (permanent damage and healing stay), and it cannot
  be ended early unless the power says so.
"""

from __future__ import annotations

import random

import pytest

from components import Fatigue
from game import Battle
from tests.event_steps import kinds
from tests.power_steps import custom, hp, powers

# ================================================================ one creature you can see within range


def test_single_target_hits_the_creature_in_range():
    with Battle(seed=3) as b:
        u = b.spawn("archer", 2, 2, team="a")
        t = b.spawn("target", 8, 2, team="b", health=30, defense=1)
        b.use_power(u, "shoot", target=t)
        b.tick()
        [used] = kinds(b, "power_used")
        assert (used.entity, used.power, used.target) == (u, "shoot", t)
        [attack] = kinds(b, "attack_rolled")
        assert attack.target == t and attack.hit
        [hit] = kinds(b, "damaged", t)
        assert hit.source == "power:shoot" and 2 <= hit.amount <= 7 and hp(b, t) == 30 - hit.amount


def test_single_target_needs_a_target():
    with Battle(seed=1) as b:
        u = b.spawn("archer", 2, 2, team="a")
        with pytest.raises(ValueError, match="needs a target creature"):
            b.use_power(u, "shoot")


def test_out_of_range_is_refused():
    with Battle(seed=1) as b:
        u = b.spawn("archer", 0, 0, team="a")
        t = b.spawn("far", 13, 0, team="b")  # 65 ft
        with pytest.raises(ValueError, match="65 ft away and Shoot reaches 60 ft"):
            b.use_power(u, "shoot", target=t)
        near = b.spawn("near", 12, 0, team="b")  # exactly 60 ft
        b.use_power(u, "shoot", target=near)
        with pytest.raises(ValueError, match="reaches 5 ft"):
            b.use_power(u, "strike", target=near)


def test_behind_a_wall_is_refused():
    with Battle(seed=1) as b:
        u = b.spawn("archer", 2, 5, team="a")
        t = b.spawn("hidden", 7, 5, team="b")
        for y in range(16):
            b.add_wall(4, y)
        assert not b.can_see(u, t)
        with pytest.raises(ValueError, match="cannot see the target"):
            b.use_power(u, "shoot", target=t)


def test_target_in_a_no_vision_area_is_refused():
    with Battle(seed=1) as b:
        u = b.spawn("archer", 2, 5, team="a")
        t = b.spawn("in smoke", 8, 5, team="b")
        b.add_area(8, 5, 5, "no vision")
        with pytest.raises(ValueError, match="cannot see the target"):
            b.use_power(u, "shoot", target=t)


def test_a_blinded_user_is_refused():
    with Battle(seed=1) as b:
        u = b.spawn("archer", 2, 5, team="a")
        t = b.spawn("target", 4, 5, team="b")
        b.add_condition(u, "blinded")
        with pytest.raises(ValueError, match="cannot see the target"):
            b.use_power(u, "shoot", target=t)


def test_a_wall_raised_before_the_turn_refuses_the_use_when_it_resolves():
    with Battle(seed=1) as b:
        u = b.spawn("archer", 2, 5, team="a")
        t = b.spawn("target", 7, 5, team="b", health=20)
        b.use_power(u, "shoot", target=t)
        for y in range(16):
            b.add_wall(4, y)
        b.tick()
        [refused] = kinds(b, "command_refused", u)
        assert "cannot see" in refused.reason
        assert not kinds(b, "power_used") and not kinds(b, "attack_rolled") and hp(b, t) == 20


def test_target_team_restrictions():
    with Battle(seed=1) as b:
        u = b.spawn("cleric", 2, 2, team="a")
        friend = b.spawn("friend", 3, 2, team="a")
        foe = b.spawn("foe", 2, 3, team="b")
        with pytest.raises(ValueError, match="must be an enemy"):
            b.use_power(u, "strike", target=friend)
        with pytest.raises(ValueError, match="must be an ally"):
            b.use_power(u, "heal", target=foe)


# ================================================================ areas: every creature in the area


def test_burst_with_a_range_is_centred_on_the_point_and_includes_the_user_if_inside():
    with Battle(seed=5) as b:
        u = b.spawn("caster", 5, 5, team="a", health=50)
        near = b.spawn("near", 6, 6, team="b", health=50)
        far = b.spawn("far", 12, 12, team="b", health=50)
        b.use_power(u, "fireball", point=(6, 5))
        b.tick()
        assert {s.entity for s in kinds(b, "save_rolled")} == {u, near}
        assert {d.entity for d in kinds(b, "damaged")} <= {u, near}
        assert hp(b, far) == 50 and not kinds(b, "save_rolled", far)


def test_burst_point_must_be_in_range_and_seen():
    with Battle(seed=5) as b:
        u = b.spawn("caster", 0, 0, team="a")
        with pytest.raises(ValueError, match="reaches 60 ft"):
            b.use_power(u, "fireball", point=(15, 0))  # 75 ft
        with pytest.raises(ValueError, match="needs a point"):
            b.use_power(u, "fireball")
        for y in range(16):
            b.add_wall(3, y)
        with pytest.raises(ValueError, match="cannot see point"):
            b.use_power(u, "fireball", point=(6, 0))


def test_burst_without_a_range_is_centred_on_the_user():
    """Sanctuary light: a burst of 10 ft around the user healing allies (the user too)."""
    with Battle(seed=2) as b:
        u = b.spawn("cleric", 5, 5, team="a", health=20)
        ally = b.spawn("ally", 7, 5, team="a", health=20)
        far_ally = b.spawn("far ally", 10, 5, team="a", health=20)
        foe = b.spawn("foe", 5, 6, team="b", health=20)
        for e in (u, ally, far_ally, foe):
            b.damage(e, 10)
        b.tick()
        assert set(map(tuple, b.squares_in_area("sanctuary-light", u))) >= {(5, 5), (7, 5), (5, 6)}
        b.use_power(u, "sanctuary-light", point=(12, 12))  # the point is ignored: centred on the user
        b.tick()
        healed = {h.entity for h in kinds(b, "healed")}
        assert healed == {u, ally}
        assert hp(b, far_ally) == 10 and hp(b, foe) == 10


def test_cone_covers_a_widening_triangle_in_front_of_the_user():
    with Battle(seed=1) as b:
        u = b.spawn("caster", 5, 5)
        cone = set(b.squares_in_area("burning-hands", u, (8, 5)))
        assert cone == {(6, 5), (7, 4), (7, 5), (7, 6), (8, 4), (8, 5), (8, 6)}
        assert (5, 5) not in cone and all(x > 5 for x, _ in cone)  # never behind or on the user
        west = set(b.squares_in_area("burning-hands", u, (2, 5)))
        assert west == {(10 - x, y) for x, y in cone}  # the same shape turned around


def test_line_covers_a_5ft_wide_strip_of_its_length():
    with Battle(seed=1) as b:
        u = b.spawn("caster", 5, 5)
        assert sorted(b.squares_in_area("lightning", u, (8, 5))) == [(x, 5) for x in range(6, 12)]  # 30 ft
        assert sorted(b.squares_in_area("lightning", u, (5, 0))) == [(5, y) for y in range(0, 5)]  # grid edge


def test_cone_and_line_hit_every_creature_inside_and_nobody_else():
    with Battle(seed=4) as b:
        u = b.spawn("caster", 5, 5, team="a", health=40)
        ins = [b.spawn("in1", 6, 5, team="b", health=40), b.spawn("in2", 8, 6, team="a", health=40)]
        out = b.spawn("out", 9, 5, team="b", health=40)
        behind = b.spawn("behind", 4, 5, team="b", health=40)
        b.use_power(u, "burning-hands", point=(8, 5))
        b.tick()
        assert {s.entity for s in kinds(b, "save_rolled")} == set(ins)  # targets "all": an ally too
        assert hp(b, out) == 40 and hp(b, behind) == 40


def test_cone_needs_a_direction():
    with Battle(seed=1) as b:
        u = b.spawn("caster", 5, 5)
        with pytest.raises(ValueError, match="needs a direction"):
            b.use_power(u, "burning-hands", point=(5, 5))


def test_walls_shadow_areas():
    with Battle(seed=1) as b:
        u = b.spawn("caster", 5, 5, team="a", health=40)
        shadowed = b.spawn("shadowed", 9, 5, team="b", health=40)
        exposed = b.spawn("exposed", 7, 7, team="b", health=40)
        b.add_wall(8, 5)
        burst = set(b.squares_in_area("fireball", u, (7, 5)))
        assert (9, 5) not in burst and (8, 5) not in burst and (7, 7) in burst
        assert set(b.squares_in_area("lightning", u, (8, 5))) == {(6, 5), (7, 5)}
        b.use_power(u, "fireball", point=(7, 5))
        b.tick()
        assert {s.entity for s in kinds(b, "save_rolled")} == {u, exposed}  # the caster stands inside
        assert hp(b, shadowed) == 40


# ================================================================ attacks and saves


def test_attack_is_d20_plus_bonuses_against_defense():
    for seed in range(6):
        with Battle(seed=seed) as b:
            u = b.spawn("fighter", 2, 2, team="a", attack_bonus=3)
            t = b.spawn("target", 3, 2, team="b", defense=14, health=50)
            b.use_power(u, "strike", target=t)
            b.tick()
            [a] = kinds(b, "attack_rolled")
            assert a.mode == "normal" and 1 <= a.roll <= 20
            assert a.total == a.roll + 3 + 2 and a.defense == 14 and a.hit == (a.total >= 14)
            assert bool(kinds(b, "damaged", t)) == a.hit


def test_cover_makes_a_target_harder_to_hit():
    with Battle(seed=1) as b:
        u = b.spawn("archer", 0, 0, team="a")
        t = b.spawn("behind cover", 2, 4, team="b", defense=10)
        b.add_wall(1, 3)  # three of four corner lines blocked: cover, yet still seen
        assert b.can_see(u, t) and b.has_cover(t, u)
        expected = b.defense_against(t, u)
        assert expected == 15
        b.use_power(u, "shoot", target=t)
        b.tick()
        [a] = kinds(b, "attack_rolled")
        assert a.defense == expected


def test_a_flat_footed_target_is_easier_to_hit():
    with Battle(seed=1) as b:
        u = b.spawn("fighter", 2, 2, team="a")
        t = b.spawn("blind target", 3, 2, team="b", defense=12)
        b.add_condition(t, "blinded")  # no vision: flat-footed
        assert "flat-footed" in b.conditions(t)
        b.use_power(u, "strike", target=t)
        b.tick()
        [a] = kinds(b, "attack_rolled")
        assert a.defense == b.defense_against(t, u) == 10


@pytest.mark.parametrize("setup", ["terrible ambient", "dazzled user", "fatigue 4"])
def test_disadvantage_from_poor_sight_or_fatigue(setup):
    with Battle(seed=7) as b:
        u = b.spawn("archer", 2, 2, team="a")
        t = b.spawn("target", 6, 2, team="b", health=50)
        if setup == "terrible ambient":
            b.set_ambient("terrible")
        elif setup == "dazzled user":
            b.add_condition(u, "dazzled")
        else:
            b.add_fatigue(u, 4)
            b.tick()
            assert b.get(u, Fatigue).level == 4
        b.use_power(u, "shoot", target=t)
        b.tick()
        [a] = kinds(b, "attack_rolled")
        assert a.mode == "disadvantage"


def test_disadvantage_takes_the_lower_of_two_d20():
    with Battle(seed=11) as b:
        u = b.spawn("archer", 2, 2, team="a")
        t = b.spawn("target", 6, 2, team="b", health=50)
        b.set_ambient("terrible")
        b.use_power(u, "shoot", target=t)
        rng = random.Random()
        rng.setstate(b.state.rng.getstate())
        b.tick()
        [a] = kinds(b, "attack_rolled")
        assert a.roll == min(rng.randint(1, 20), rng.randint(1, 20))


@pytest.mark.slow
def test_fatigue_3_gives_no_disadvantage():
    with Battle(seed=7) as b:
        u = b.spawn("archer", 2, 2, team="a")
        t = b.spawn("target", 6, 2, team="b", health=50)
        b.add_fatigue(u, 3)
        b.tick()
        b.use_power(u, "shoot", target=t)
        b.tick()
        assert kinds(b, "attack_rolled")[0].mode == "normal"


def test_save_for_half_damage():
    blast = custom("blast", range_ft=60, area={"shape": "burst", "radius_ft": 15},
                   save={"dc": 11, "half": True},
                   damage=10)
    outcomes = set()
    for seed in range(3):
        with Battle(seed=seed, powers=powers(blast)) as b:
            u = b.spawn("caster", 0, 0, team="a")
            targets = [b.spawn(f"t{i}", 6 + i % 3, 6 + i // 3, team="b", health=50) for i in range(6)]
            b.use_power(u, "blast", point=(7, 7))
            b.tick()
            saves = {s.entity: s for s in kinds(b, "save_rolled")}
            assert set(saves) == set(targets)
            for t in targets:
                save = saves[t]
                assert save.dc == 11 and save.success == (save.total >= 11)
                assert hp(b, t) == 50 - (5 if save.success else 10)
                outcomes.add(save.success)
    assert outcomes == {True, False}


def test_a_successful_save_without_half_avoids_everything():
    glare = custom("glare-save", range_ft=30, save={"dc": 1}, damage=4, conditions=["dazzled"], duration=2)
    with Battle(seed=1, powers=powers(glare)) as b:
        u = b.spawn("caster", 0, 0, team="a")
        t = b.spawn("t", 3, 0, team="b", health=20)
        b.use_power(u, "glare-save", target=t)
        b.tick()
        [save] = kinds(b, "save_rolled")
        assert save.success
        assert hp(b, t) == 20 and "dazzled" not in b.conditions(t)
