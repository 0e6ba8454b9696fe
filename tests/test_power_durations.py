"""Power durations through ``Battle``: lights, darkness, fog, conditions and flight end completely when
their power ends (damage and healing stay), and only powers that say so may be ended early.
"""

from __future__ import annotations

import pytest

from components import Position, Visibility
from game import Battle
from tests.event_steps import kinds
from tests.power_steps import custom, hp, powers

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
        assert effect["power"] == "light" and effect["ends_after_round"] == 1 + 3 and not effect["ends_this_round"]
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


def test_the_log_names_whose_power_ended_not_a_creature_it_touched():
    """EffectEnded names the power's user: the log said "Blind on caster ends", as if the caster had been
    blinded, while the line after it said the target was no longer blinded."""
    from game.battle.log import format_log

    for seed in range(8):
        with Battle(seed=seed) as b:
            u = b.spawn("caster", 2, 2, team="a")
            t = b.spawn("target", 5, 2, team="b")
            b.use_power(u, "blind", target=t)
            b.tick()
            if "blinded" not in b.conditions(t):
                continue
            b.run(1)
            lines = format_log(b)
            ended = [line for line in lines if "Blind" in line and "ends" in line]
            assert ended == ["Round 2: caster's Blind ends (duration over)"], lines
            assert any(line.endswith("target is no longer blinded") for line in lines)
            # a log written once the effect is over still names the power that blinded it (it said
            # "a lasting effect", as headless play's combat-log.txt did for every effect over by then)
            assert "Round 1: target is blinded (Blind (lasting effect))" in lines, lines
            return
    raise AssertionError("blind never landed in 8 seeds")


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


@pytest.mark.parametrize("helpless", ["dead", "unconscious"])
def test_a_user_that_cannot_act_cannot_end_its_power_early(helpless):
    """"You can't end an ongoing power early unless it specifies that": ending it is its user's
    choice, so a dead or unconscious user's Light runs its duration (the refusal changes nothing)."""
    with Battle(seed=1) as b:
        mage = b.spawn("Mage", 1, 1, team="a", powers=["light"], health=5)
        b.spawn("Foe", 8, 5, team="b")
        b.start_combat()
        b.use_power(mage, "light", point=(2, 2))
        b.tick()
        [light] = b.effects()
        if helpless == "dead":
            b.damage(mage, 5)
        b.add_fatigue(mage, 5 if helpless == "unconscious" else 4)
        b.tick()
        assert helpless in b.conditions(mage)
        refusal = f"Mage \\(#{mage}\\): it is {helpless} and cannot end Light early; it runs its duration"
        with pytest.raises(ValueError, match=refusal):
            b.end_power(mage, light["id"])
        assert b.effects() == [light] and not kinds(b, "effect_ended")
        b.run(2)
        [ended] = kinds(b, "effect_ended")
        assert ended.reason == "duration over" and not b.effects()


def test_whose_effect_it_was_is_told_while_it_lasts_and_once_it_is_over() -> None:
    """``naming.effect_powers``, the one answer the log and simulate's table name an effect's hits by:
    the power of an effect under way (from the battle's effects) and of one over (from its EffectEnded)."""
    from game.battle.naming import effect_powers

    with Battle(seed=1) as b:
        u = b.spawn("caster", 2, 2, team="a")
        b.use_power(u, "light", point=(4, 2))
        b.tick()
        [effect] = [e for e in b.effects() if e["power"] == "light"]
        assert effect_powers(b.effects(), b.events)[effect["id"]] == "light"
        b.run(b.power("light").duration + 1)
        assert not b.effects()
        assert effect_powers(b.effects(), b.events) == {effect["id"]: "light"}


class _Unscannable(list):  # type: ignore[type-arg]
    """An event record that may not be read through (a long battle's: each scan is O(record))."""

    def __iter__(self):  # type: ignore[no-untyped-def]
        raise AssertionError("the whole event record was scanned")


def test_a_live_effects_line_is_named_without_scanning_the_event_record() -> None:
    """Every log line naming a live effect's hit built the map of every effect over the whole record
    (the window's feed each frame, the headless player's combat-log.txt): the live effects answer first.
    An effect no longer live is still named from the event that ended it."""
    from types import SimpleNamespace

    from game.battle.log import source_text

    with Battle(seed=1) as b:
        u = b.spawn("caster", 2, 2, team="a")
        b.use_power(u, "light", point=(4, 2))
        b.tick()
        [effect] = [e for e in b.effects() if e["power"] == "light"]
        live = SimpleNamespace(effects=b.effects, power=b.power, state=SimpleNamespace(events=_Unscannable()))
        assert source_text(live, f"effect:{effect['id']}") == "Light (lasting effect)"
        b.run(b.power("light").duration + 1)
        assert not b.effects()
        assert source_text(b, f"effect:{effect['id']}") == "Light (lasting effect)"
