"""Scripted powers through ``Battle``: chain lightning, vampiric touch, the rally reaction, dice from
the battle's own generator, broken scripts and replays of scripted uses.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from components.events import AttackRolled, PowerUsed
from game import Battle
from game.content.powers import SCRIPTS_DIR
from tests.event_steps import kinds
from tests.power_steps import custom, hp, powers

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



def test_chain_lightning_does_not_jump_to_an_enemy_high_above_the_first():
    """Heights count in every area: a flier 60 ft over the square beside the first target is 60 ft
    from it, not 5, so the bolt has no second enemy within 15 ft to jump to."""
    with Battle(seed=1) as b:
        u = b.spawn("mage", 2, 2, team="a", attack_bonus=30)
        first = b.spawn("first", 8, 2, team="b", health=40)
        high = b.spawn("high", 9, 2, z=60, flying=True, team="b", health=40)
        b.use_power(u, "chain-lightning", target=first)
        b.tick()
        assert kinds(b, "attack_rolled")[0].hit and kinds(b, "damaged", first)
        assert hp(b, high) == 40 and not kinds(b, "script_failed")


def test_a_scripts_creatures_in_area_counts_heights_and_the_fallen(tmp_path: Path):
    """``ctx.creatures_in_area`` measures from the ground at the square, as a burst aimed there does."""
    (tmp_path / "probe.star").write_text(
        "def on_use(ctx):\n"
        "    for e in ctx.creatures_in_area(5, 5, 10):\n"
        "        ctx.damage(e, 1)\n", encoding="utf-8")
    probe = custom("probe", action="action", targets="self", script="probe.star")
    with Battle(seed=1, powers=powers(probe), script_dir=tmp_path) as b:
        u = b.spawn("user", 1, 1, team="a", powers=["probe"])
        near = b.spawn("near", 6, 5, team="b", health=20)
        fallen = b.spawn("fallen", 5, 6, team="b", health=20)
        above = b.spawn("above", 5, 5, z=30, flying=True, team="b", health=20)
        b.damage(fallen, 40)
        b.tick()
        b.use_power(u, "probe")
        b.tick()
        hurt = {d.entity for d in kinds(b, "damaged") if d.source == "script:probe"}
        assert hurt == {near, fallen} and hp(b, above) == 20 and hp(b, u) == 10


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


def test_attach_reaction_names_a_misspelt_reaction_with_the_one_it_looks_like(tmp_path):
    (tmp_path / "slip.star").write_text("def on_dowend(ctx, event):\n    pass\n")
    with Battle(seed=1, script_dir=tmp_path) as b:
        with pytest.raises(ValueError, match=r"slip\.star defines no reaction; it defines on_dowend \(did you mean "
                                             r"'on_downed'\?\); expected one of on_damaged, on_downed"):
            b.attach_reaction("slip.star")
        assert b.command_log == []


def test_attach_reaction_refuses_scripts_without_reactions():
    with Battle(seed=1) as b:
        with pytest.raises(ValueError, match=r"defines no reaction; it defines on_hit \(a power's entry point: "
                                             r"name it as a power's script\); expected one of"):
            b.attach_reaction("chain_lightning.star")  # (once: "did you mean 'on_fell'?", a slip it is not)
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


def test_a_battle_with_a_python_handler_replays_the_same_given_the_handler_again():
    """A handler's commands are not logged apart: the replay attaches the handler (``extend``) and
    the handler issues them again, at the same moments."""
    def bleed(battle: Battle, event: AttackRolled) -> None:
        if event.hit:
            battle.damage(event.target, 1)

    with Battle(seed=7, width=10, height=10) as b:
        h = b.spawn("Hero", 2, 2, team="blue", powers=["strike"], health=20, attack_bonus=30)
        o = b.spawn("Orc", 3, 2, team="red", health=20)
        b.start_combat()
        b.on(AttackRolled, bleed)
        b.use_power(h, "strike", target=o)
        b.run(2)
        with Battle.replay(7, 10, 10, None, b.command_log) as bare:
            assert bare.events != b.events  # without the handler the bleeding is missing
        with Battle.replay(7, 10, 10, None, b.command_log, extend=lambda r: r.on(AttackRolled, bleed)) as again:
            assert again.events == b.events and hp(again, o) == hp(b, o) < 20
