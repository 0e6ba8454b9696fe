"""Using powers through ``Battle``: the "Power Properties" rules, attacks and saves, durations,
who may use a power, events for every step, shoving off ledges, and scripted powers.

Rules under test (shared/rules/combat-rules.txt, "Power Properties"):
* no target and no area: one creature you can see within range;
* an area and no target: every creature in the area; with a range the area is centred on a point you
  can see within range, otherwise on you;
* when a duration ends the effect ends completely (permanent damage and healing stay), and it cannot
  be ended early unless the power says so.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from components import Fatigue, Health, Position, Visibility
from components.events import AttackRolled, PowerUsed
from game import Battle
from game.content.powers import SCRIPTS_DIR, default_powers, parse_power


def custom(power_id: str, **table) -> object:
    return parse_power(power_id, {"name": power_id.title(), "description": "test power", **table}, "test")


def powers(*extra) -> dict:
    table = dict(default_powers())
    table.update({p.id: p for p in extra})
    return table


def kinds(b: Battle, kind: str, entity: int | None = None) -> list:
    return [e for e in b.events
            if e.kind == kind and (entity is None or getattr(e, "entity", None) == entity)]


def hp(b: Battle, e: int) -> int:
    return b.get(e, Health).current


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


# ================================================================ durations


def test_light_lasts_its_duration_then_visibility_is_back():
    with Battle(seed=1) as b:
        u = b.spawn("caster", 2, 2, team="a")
        b.set_ambient("terrible")
        b.use_power(u, "light", point=(6, 2))
        b.tick()
        [made] = kinds(b, "area_created")
        assert (made.what, made.x, made.y, made.radius_ft, made.level) == ("light", 6, 2, 20.0, "normal")
        assert b.visibility_at(6, 2) == Visibility.NORMAL and b.visibility_at(2, 2) == Visibility.NORMAL
        [effect] = b.effects()
        assert effect["power"] == "light" and effect["ends_after_round"] == 1 + 3
        while b.round < 4:
            b.tick()
            if b.round < 4:
                assert b.visibility_at(6, 2) == Visibility.NORMAL
        [ended] = kinds(b, "effect_ended")
        assert (ended.effect, ended.power, ended.reason) == (effect["id"], "light", "duration over")
        assert b.visibility_at(6, 2) == Visibility.TERRIBLE and not b.terrain.lights and not b.effects()


def test_darkness_blocks_sight_until_it_ends():
    with Battle(seed=1) as b:
        u = b.spawn("archer", 2, 2, team="a")
        t = b.spawn("target", 8, 2, team="b", health=40, defense=1)
        b.use_power(u, "darkness", point=(8, 2))
        b.tick()
        [made] = kinds(b, "area_created")
        assert made.what == "area" and made.level == "no_vision"
        assert b.visibility_at(8, 2) == Visibility.NO_VISION
        with pytest.raises(ValueError, match="cannot see"):
            b.use_power(u, "shoot", target=t)
        b.run(2)
        assert [e.power for e in kinds(b, "effect_ended")] == ["darkness"]
        assert b.visibility_at(8, 2) == Visibility.NORMAL and not b.terrain.areas
        b.use_power(u, "shoot", target=t)  # seen again


def test_fog_cloud_gives_terrible_visibility_inside_and_ends():
    with Battle(seed=1) as b:
        u = b.spawn("caster", 2, 2, team="a")
        b.use_power(u, "fog-cloud", point=(8, 8))
        b.tick()
        assert b.visibility_at(8, 8) == Visibility.TERRIBLE and b.visibility_at(0, 15) == Visibility.NORMAL
        b.run(3)
        assert b.visibility_at(8, 8) == Visibility.NORMAL


def test_a_condition_ends_with_its_power_but_damage_stays():
    sear = custom("sear", range_ft=30, damage=3, conditions=["dazzled"], duration=1)
    with Battle(seed=1, powers=powers(sear)) as b:
        u = b.spawn("caster", 2, 2, team="a")
        t = b.spawn("t", 5, 2, team="b", health=20)
        b.use_power(u, "sear", target=t)
        b.tick()
        assert "dazzled" in b.conditions(t) and hp(b, t) == 17
        [gained] = kinds(b, "condition_gained", t)
        assert gained.condition == "dazzled" and gained.source.startswith("effect:")
        b.tick()
        assert "dazzled" not in b.conditions(t)
        [lost] = kinds(b, "condition_lost", t)
        assert lost.condition == "dazzled"
        assert hp(b, t) == 17  # permanent


def test_healing_stays_after_the_light_it_came_with_ends():
    with Battle(seed=2) as b:
        u = b.spawn("cleric", 5, 5, team="a", health=20)
        b.damage(u, 10)
        b.tick()
        b.use_power(u, "sanctuary-light")
        b.tick()
        healed = hp(b, u)
        assert healed > 10 and b.terrain.lights
        b.run(3)
        assert kinds(b, "effect_ended") and not b.terrain.lights
        assert hp(b, u) == healed


def test_shipped_dazzle_and_blind_end_completely():
    for power_id, condition in (("dazzle", "dazzled"), ("blind", "blinded")):
        applied = 0
        for seed in range(8):
            with Battle(seed=seed) as b:
                u = b.spawn("caster", 2, 2, team="a")
                t = b.spawn("t", 5, 2, team="b")
                b.use_power(u, power_id, target=t)
                b.tick()
                [save] = kinds(b, "save_rolled")
                assert (condition in b.conditions(t)) is not save.success
                applied += not save.success
                b.run(b.power(power_id).duration)
                assert condition not in b.conditions(t) and not b.effects()
                if condition == "blinded":
                    assert "flat-footed" not in b.conditions(t)
        assert applied, f"{power_id} never landed in 8 seeds"


def test_flight_ending_above_a_pit_drops_the_creature():
    with Battle(seed=3) as b:
        b.set_ground(5, 5, 30)
        f = b.spawn("flier", 5, 5, health=100)
        assert b.get(f, Position).z == 30
        b.use_power(f, "fly")
        b.tick()
        assert "flying" in b.conditions(f)
        b.move(f, 6, 5)  # out over the pit (ground 0), still at 30 ft while it flies
        b.tick()
        [ended] = kinds(b, "effect_ended")
        assert ended.power == "fly" and "flying" not in b.conditions(f)
        assert [e.condition for e in kinds(b, "condition_lost", f)] == ["flying"]
        assert kinds(b, "moved", f)[0].z == 30
        b.tick()
        [fell] = kinds(b, "fell", f)
        # nobody acts between the end of the flight and the fall
        between = b.events[b.events.index(ended) + 1:b.events.index(fell)]
        assert {e.kind for e in between} <= {"condition_lost", "round_ended", "round_started"}, between
        assert (fell.from_z, fell.to_z) == (30.0, 0.0)
        [landed] = kinds(b, "landed", f)
        assert landed.distance_ft == 30 and landed.dice == 3
        assert hp(b, f) == 100 - landed.damage and b.get(f, Position).z == 0
        assert "prone" in b.conditions(f)


def test_flight_that_ends_on_the_ground_is_no_fall():
    with Battle(seed=3) as b:
        f = b.spawn("flier", 5, 5, health=100)
        b.use_power(f, "fly")
        b.run(3)
        assert not kinds(b, "fell") and hp(b, f) == 100 and "flying" not in b.conditions(f)


def test_overlapping_dazzles_last_until_the_later_ends():
    short = custom("glare-1", range_ft=30, conditions=["dazzled"], duration=1)
    long = custom("glare-3", range_ft=30, conditions=["dazzled"], duration=3)
    with Battle(seed=2, powers=powers(short, long)) as b:
        u1 = b.spawn("long caster", 1, 1, team="a")
        u2 = b.spawn("short caster", 1, 3, team="a")
        t = b.spawn("t", 4, 2, team="b")
        b.use_power(u1, "glare-3", target=t)
        b.use_power(u2, "glare-1", target=t)
        b.tick()
        seen = []
        for _ in range(4):
            b.tick()
            seen.append("dazzled" in b.conditions(t))
        assert seen == [True, True, False, False]  # the short one ended after round 2, the long after 4
        assert [e.power for e in kinds(b, "effect_ended")] == ["glare-1", "glare-3"]
        assert len(kinds(b, "condition_lost", t)) == 1


def test_a_gm_granted_condition_survives_the_powers_end():
    glare = custom("glare", range_ft=30, conditions=["dazzled"], duration=1)
    with Battle(seed=2, powers=powers(glare)) as b:
        u = b.spawn("caster", 1, 1, team="a")
        t = b.spawn("t", 4, 2, team="b")
        b.add_condition(t, "dazzled")
        b.use_power(u, "glare", target=t)
        b.run(3)
        assert kinds(b, "effect_ended") and "dazzled" in b.conditions(t)
        b.remove_condition(t, "dazzled")
        assert "dazzled" not in b.conditions(t)


def test_light_may_be_ended_early_darkness_may_not():
    with Battle(seed=1) as b:
        u = b.spawn("caster", 2, 2, team="a")
        other = b.spawn("other", 3, 3, team="a")
        b.set_ambient("terrible")
        b.use_power(u, "light", point=(6, 2))
        b.tick()
        [light] = b.effects()
        with pytest.raises(ValueError, match="no ongoing effect"):
            b.end_power(other, light["id"])
        with pytest.raises(ValueError, match="no ongoing effect"):
            b.end_power(u, 9999)
        b.end_power(u, light["id"])
        assert b.visibility_at(6, 2) == Visibility.TERRIBLE and not b.effects()
        [ended] = kinds(b, "effect_ended")
        assert ended.reason == "ended early"
        b.use_power(u, "darkness", point=(8, 8))
        b.tick()
        [dark] = b.effects()
        with pytest.raises(ValueError, match="cannot be ended early"):
            b.end_power(u, dark["id"])
        assert b.visibility_at(8, 8) == Visibility.NO_VISION and b.effects() == [dark]


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


# ================================================================ scripted powers


def test_chain_lightning_jumps_to_a_second_enemy():
    with Battle(seed=1) as b:
        u = b.spawn("mage", 2, 2, team="a", attack_bonus=30)
        first = b.spawn("first", 8, 2, team="b", health=40)
        second = b.spawn("second", 10, 2, team="b", health=40)
        ally = b.spawn("ally", 8, 3, team="a", health=40)
        far = b.spawn("far", 15, 15, team="b", health=40)
        b.use_power(u, "chain-lightning", target=first)
        b.tick()
        assert kinds(b, "attack_rolled")[0].hit
        [jump] = kinds(b, "damaged", second)
        assert jump.source == "script:chain-lightning" and 1 <= jump.amount <= 6
        [bolt] = kinds(b, "damaged", first)
        assert bolt.source == "power:chain-lightning" and 2 <= bolt.amount <= 12
        assert hp(b, ally) == 40 and hp(b, far) == 40 and not kinds(b, "script_failed")


def test_chain_lightning_that_misses_does_not_jump():
    with Battle(seed=1) as b:
        u = b.spawn("mage", 2, 2, team="a", attack_bonus=-40)
        first = b.spawn("first", 8, 2, team="b", health=40)
        second = b.spawn("second", 10, 2, team="b", health=40)
        b.use_power(u, "chain-lightning", target=first)
        b.tick()
        assert not kinds(b, "attack_rolled")[0].hit
        assert hp(b, first) == 40 and hp(b, second) == 40


def test_vampiric_touch_heals_the_user_by_the_damage_dealt():
    with Battle(seed=2) as b:
        u = b.spawn("vampire", 2, 2, team="a", health=40, attack_bonus=30)
        t = b.spawn("victim", 3, 2, team="b", health=40)
        b.damage(u, 20)
        b.tick()
        b.use_power(u, "vampiric-touch", target=t)
        b.tick()
        [drain] = kinds(b, "damaged", t)
        [heal] = kinds(b, "healed", u)
        assert drain.source == heal.source == "script:vampiric-touch"
        assert heal.amount == drain.amount and 2 <= drain.amount <= 12
        assert hp(b, u) == 20 + drain.amount and hp(b, t) == 40 - drain.amount


def test_vampiric_touch_kill_leaves_the_user_dazzled():
    with Battle(seed=2) as b:
        u = b.spawn("vampire", 2, 2, team="a", attack_bonus=30)
        t = b.spawn("victim", 3, 2, team="b", health=1)
        b.use_power(u, "vampiric-touch", target=t)
        b.tick()
        assert "downed" in b.conditions(t) and "dazzled" in b.conditions(u)


def test_rally_reaction_heals_allies_when_one_is_downed():
    with Battle(seed=1) as b:
        a1 = b.spawn("a1", 2, 2, team="a", health=10)
        a2 = b.spawn("a2", 3, 2, team="a", health=10)
        far = b.spawn("far ally", 14, 14, team="a", health=10)
        foe = b.spawn("foe", 2, 3, team="b", health=10)
        for e in (a1, far, foe):
            b.damage(e, 5)
        b.tick()
        b.attach_reaction("rally.star")
        b.damage(a2, 10)
        b.tick()
        assert "downed" in b.conditions(a2)
        assert [(h.entity, h.amount, h.source) for h in kinds(b, "healed")] == [(a1, 2, "script:reaction")]
        assert hp(b, a1) == 7 and hp(b, far) == 5 and hp(b, foe) == 5


def test_attach_reaction_refuses_scripts_without_reactions():
    with Battle(seed=1) as b:
        with pytest.raises(ValueError, match="defines no reaction"):
            b.attach_reaction("chain_lightning.star")
        with pytest.raises(ValueError, match="cannot attach"):
            b.attach_reaction("no_such_script.star")


def _chain(seed: int) -> list:
    b = Battle(seed=seed)
    try:
        u = b.spawn("mage", 2, 2, team="a", attack_bonus=5)
        first = b.spawn("first", 8, 2, team="b", health=40)
        b.spawn("second", 10, 2, team="b", health=40)
        for _ in range(3):
            b.use_power(u, "chain-lightning", target=first)
            b.tick()
        return b.events
    finally:
        b.close()


def test_a_scripted_use_is_deterministic():
    assert _chain(9) == _chain(9)
    assert any(e.source == "script:chain-lightning" for e in _chain(9) if e.kind == "damaged")
    assert any(_chain(9) != _chain(s) for s in (10, 11, 12))


class CountingRandom(random.Random):
    """The battle's generator, recording every randint it answers."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.rolled: list[int] = []

    def randint(self, a: int, b: int) -> int:
        value = super().randint(a, b)
        self.rolled.append(value)
        return value


def test_dice_in_scripts_come_from_the_battles_generator(tmp_path: Path):
    (tmp_path / "three.star").write_text(
        'def on_hit(ctx, target):\n    ctx.damage(target, ctx.roll("3d6"))\n')
    zap = custom("zap", range_ft=30, script="three.star")
    with Battle(seed=1, powers=powers(zap), script_dir=tmp_path) as b:
        u = b.spawn("mage", 2, 2, team="a")
        t = b.spawn("t", 5, 2, team="b", health=100)
        b.state.rng = rng = CountingRandom(77)
        b.use_power(u, "zap", target=t)
        b.tick()
        [hit] = kinds(b, "damaged", t)
        assert len(rng.rolled) == 3 and hit.amount == sum(rng.rolled)
        assert hit.source == "script:zap"


def test_a_broken_power_script_is_a_script_failed_event_and_the_data_part_still_applies(tmp_path: Path):
    (tmp_path / "broken.star").write_text(
        'def on_hit(ctx, target):\n    ctx.damage(target, 1)\n    fail("nope")\n')
    zap = custom("zap", range_ft=30, damage=4, script="broken.star")
    with Battle(seed=1, powers=powers(zap), script_dir=tmp_path) as b:
        u = b.spawn("mage", 2, 2, team="a")
        t = b.spawn("t", 5, 2, team="b", health=20)
        b.use_power(u, "zap", target=t)
        b.tick()
        [failed] = kinds(b, "script_failed")
        assert failed.script.endswith("broken.star") and failed.function == "on_hit"
        assert "nope" in failed.reason
        assert hp(b, t) == 16 and [d.amount for d in kinds(b, "damaged", t)] == [4]


def test_power_scripts_are_read_from_the_scripts_directory_by_default():
    assert (SCRIPTS_DIR / "chain_lightning.star").is_file()
    with Battle(seed=1) as b:
        assert b.scripts.script_dir == SCRIPTS_DIR


def test_a_python_handler_sees_power_events():
    seen: list[PowerUsed] = []
    with Battle(seed=1) as b:
        u = b.spawn("a", 2, 2, team="a")
        t = b.spawn("b", 3, 2, team="b", health=30)
        b.on(PowerUsed, lambda battle, event: seen.append(event))
        b.on(AttackRolled, lambda battle, event: battle.damage(event.target, 1) if event.hit else None)
        b.use_power(u, "strike", target=t)
        b.tick()
        assert [e.power for e in seen] == ["strike"]


def test_a_scripted_use_with_custom_powers_replays_to_the_same_events(tmp_path: Path):
    (tmp_path / "three.star").write_text(
        'def on_hit(ctx, target):\n    ctx.damage(target, ctx.roll("3d6"))\n')
    table = powers(custom("zap", range_ft=30, attack={"bonus": 2}, script="three.star"))
    with Battle(seed=4, powers=table, script_dir=tmp_path) as b:
        u = b.spawn("mage", 2, 2, team="a")
        t = b.spawn("t", 5, 2, team="b", health=100)
        for _ in range(3):
            b.use_power(u, "zap", target=t)
            b.tick()
        assert any(e.kind == "damaged" and e.source == "script:zap" for e in b.events)
        replayed = Battle.replay(b.seed, b.width, b.height, None, b.command_log,
                                 powers=table, script_dir=tmp_path)
        try:
            assert replayed.events == b.events
        finally:
            replayed.close()
