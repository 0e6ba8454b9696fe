"""``Battle.foresee_script``: a power's script asked what it would do, and the computer player weighing
it. The what-if changes nothing (events, dice, budgets), reads the dice at fixed quantiles, agrees
with what the use then really does, and lets the tactical player prefer a draining touch it can
only have guessed at before."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from components.events import AttackRolled
from game import Battle, ai
from game.battle.errors import IllegalCommand
from game.battle.foresight import quantile_roll, quantiles
from tests.event_steps import kinds
from tests.power_steps import custom, hp, powers


def _hurt_vampire(b: Battle, victim_health: int) -> tuple[int, int]:
    """A vampire with a vampiric touch, 20 of its 30 Health lost, beside a victim."""
    user = b.spawn("vampire", 2, 2, team="a", health=30)
    victim = b.spawn("victim", 3, 2, team="b", health=victim_health)
    b.damage(user, 20)
    b.tick()
    return user, victim


def test_a_draining_touch_is_foreseen_die_by_quantile_and_its_kill_dazzles_its_user():
    with Battle(seed=2) as b:
        user, victim = _hurt_vampire(b, 8)
        seen = b.foresee_script(user, "vampiric-touch", victim, hit=victim)
        rolled = [quantile_roll("2d6", q) for q in quantiles(5)]
        assert seen.known and len(seen.runs) == 5 and rolled == [4, 6, 7, 8, 10]
        hurt, healed, dazzled = seen.outcomes
        assert (hurt.target, hurt.ally, hurt.damage) == (victim, False, sum(rolled) / 5)
        # 2d6 at or over its 8 Health in two runs of five: it goes down in those
        assert hurt.downs == 0.4 and hurt.kills == 0.0
        # the user heals what the victim really loses (at most its 8), and the kill dazzles it
        assert (healed.target, healed.ally, healed.healing) == (user, True, (4 + 6 + 7 + 8 + 8) / 5)
        assert (dazzled.target, dazzled.conditions, dazzled.affected) == (user, ("dazzled",), 0.4)


def test_one_run_reads_the_dice_at_their_median_and_runs_are_range_checked():
    with Battle(seed=2) as b:
        user = b.spawn("mage", 2, 2, team="a")
        first = b.spawn("first", 6, 2, team="b", health=20)
        second = b.spawn("second", 8, 2, team="b", health=20)
        [jump] = b.foresee_script(user, "chain-lightning", first, hit=first, runs=1).outcomes
        assert (jump.target, jump.damage, jump.affected) == (second, quantile_roll("1d6", 0.5), 1.0)
        for runs in (0, 10, 2.5, True):
            with pytest.raises(IllegalCommand, match=r"runs(: expected| must be) a whole number( in 1\.\.9)?"):
                b.foresee_script(user, "chain-lightning", first, hit=first, runs=runs)
        assert len(b.foresee_script(user, "chain-lightning", first, hit=first, runs=np.int64(1)).outcomes) == 1


def test_a_what_if_changes_nothing_in_the_battle():
    with Battle(seed=5) as b:
        user = b.spawn("mage", 2, 2, team="a", powers=["chain-lightning"])
        first = b.spawn("first", 6, 2, team="b", health=20)
        b.spawn("second", 8, 2, team="b", health=20)
        b.start_combat()
        before = (len(b.events), b.state.rng.getstate(), b.scripts.calls, b.scripts.budget.battle_used)
        seen = b.foresee_script(user, "chain-lightning", first, hit=first)
        assert seen.known and [o.target for o in seen.outcomes] != []
        assert (len(b.events), b.state.rng.getstate(), b.scripts.calls, b.scripts.budget.battle_used) == before
        assert hp(b, first) == 20


def test_what_has_no_script_or_no_such_hook_foresees_nothing():
    with Battle(seed=1) as b:
        user = b.spawn("knight", 2, 2, team="a")
        target = b.spawn("t", 3, 2, team="b")
        plain = b.foresee_script(user, "strike", target, hit=target)
        no_hook = b.foresee_script(user, "vampiric-touch")  # it has on_hit only: its on_use asks nothing
        assert (plain.known, plain.runs, plain.outcomes) == (True, (), ())
        assert no_hook.known and no_hook.outcomes == () and no_hook.runs == ()


def test_a_script_that_fails_its_what_if_is_not_known_and_not_asked_again(tmp_path: Path):
    (tmp_path / "spin.star").write_text(
        "def on_hit(ctx, target):\n    n = 0\n    for i in range(100000000):\n        n += i\n"
        "    ctx.damage(target, 1)\n")
    spin = custom("spin", range_ft=30, script="spin.star")
    with Battle(seed=1, powers=powers(spin), script_dir=tmp_path) as b:
        user = b.spawn("mage", 2, 2, team="a")
        target = b.spawn("t", 5, 2, team="b")
        calls = b.scripts.calls
        assert not b.foresee_script(user, "spin", target, hit=target).known
        assert not b.foresee_script(user, "spin", target, hit=target).known  # (remembered: not run again)
        assert b.scripts.calls == calls and not kinds(b, "script_failed")


@settings(max_examples=25, deadline=None)
@given(amount=st.integers(0, 12), mend=st.integers(0, 6), health=st.integers(1, 12))
def test_a_script_without_dice_is_foreseen_exactly_as_it_then_resolves(tmp_path_factory, amount: int, mend: int,
                                                                       health: int):
    folder = tmp_path_factory.mktemp("scripts")
    (folder / "fixed.star").write_text(
        f"def on_hit(ctx, target):\n    ctx.damage(target, {amount})\n    ctx.heal(ctx.user, {mend})\n")
    sure = custom("sure", range_ft=30, targets="enemy", script="fixed.star")  # no roll: it always lands
    with Battle(seed=3, powers=powers(sure), script_dir=folder) as b:
        user = b.spawn("mage", 2, 2, team="a", health=20)
        target = b.spawn("t", 5, 2, team="b", health=health)
        b.damage(user, 10)
        b.tick()
        hurt, *healed = b.foresee_script(user, "sure", target, hit=target).outcomes
        b.use_power(user, "sure", target=target)
        b.tick()
        assert not kinds(b, AttackRolled)
        assert hp(b, target) == max(0, health - amount) and hurt.damage == (amount or None)
        assert hurt.downs == (1.0 if amount >= health else 0.0)
        assert hp(b, user) == 10 + mend and [o.healing for o in healed] == [mend or None]


def test_the_tactical_player_drains_rather_than_strikes_when_it_is_hurt():
    # a strike deals 1d8+2 (6.5), the touch 2d6 (7) and heals the user as much: weighed by the
    # battle's foresight of the script, not a guess of 2.5 a target
    with Battle(seed=4, width=8, height=6) as b:
        knight = b.spawn("knight", 2, 2, team="a", health=20, powers=["strike", "vampiric-touch"],
                         initiative_bonus=20)
        b.spawn("ogre", 3, 2, team="b", health=30, powers=["strike"])
        b.damage(knight, 10)
        b.start_combat()
        b.begin_round()
        decision = ai.decide(b, knight, "tactical")
        used = [args[1] for name, args, _ in decision.commands if name == "use_power"]
        assert used == ["vampiric-touch"], decision.why
        assert "knight" in decision.why  # the heal the script would give it is in the reason
        # the data's bare hit and the script's drain on the ogre are one clause: the ogre is named once
        touch = decision.why.split("Vampiric touch: ", 1)[1]
        assert touch.count("ogre") == 1 and "ogre 0%" not in touch and "0.0 expected" not in touch, decision.why


def test_a_what_if_is_asked_again_when_what_the_script_read_has_changed():
    with Battle(seed=2) as b:
        user = b.spawn("mage", 2, 2, team="a")
        first = b.spawn("first", 6, 2, team="b", health=20)
        second = b.spawn("second", 8, 2, team="b", health=20)
        near = b.foresee_script(user, "chain-lightning", first, hit=first, runs=1)
        b.move(second, 14, 2)  # (out of the jump's 15 ft: nothing to jump to)
        b.tick()
        away = b.foresee_script(user, "chain-lightning", first, hit=first, runs=1)
        b.move(second, 8, 2)
        b.tick()
        again = b.foresee_script(user, "chain-lightning", first, hit=first, runs=1)
        assert [o.target for o in near.outcomes] == [second] and away.outcomes == () and again == near


def test_a_creature_a_run_touches_twice_is_one_outcome_and_its_condition_one_more():
    # the victim's 3 Health: every run kills, so every run heals the user and dazzles it
    with Battle(seed=2) as b:
        user, victim = _hurt_vampire(b, 3)
        outcomes = b.foresee_script(user, "vampiric-touch", victim, hit=victim).outcomes
        assert [(o.target, o.conditions) for o in outcomes] == [(victim, ()), (user, ()), (user, ("dazzled",))]
        assert outcomes[1].healing == 3.0 and outcomes[2].affected == 1.0


def _scripted(tmp_path: Path, source: str, **table: object) -> dict:
    (tmp_path / "it.star").write_text(source)
    return powers(custom("it", script="it.star", **table))


def test_the_tactical_player_does_not_heal_an_enemy_it_wounds(tmp_path: Path):
    table = _scripted(tmp_path, "def on_hit(ctx, target):\n    ctx.damage(target, 8)\n    ctx.heal(target, 30)\n",
                      range_ft=5, targets="enemy")
    with Battle(seed=4, width=8, height=6, powers=table, script_dir=tmp_path) as b:
        knight = b.spawn("knight", 2, 2, team="a", health=20, powers=["strike", "it"], initiative_bonus=20)
        ogre = b.spawn("ogre", 3, 2, team="b", health=40, powers=["strike"])
        b.damage(ogre, 30)
        b.start_combat()
        b.begin_round()
        decision = ai.decide(b, knight, "tactical")
        assert [args[1] for name, args, _ in decision.commands if name == "use_power"] == ["strike"], decision.why


def test_on_use_reads_the_uses_aim(tmp_path: Path):
    source = ("def on_use(ctx):\n    ctx.damage(ctx.target, 3)\n"
              "    for e in ctx.creatures_in_area(ctx.x, ctx.y, 5):\n        ctx.damage(e, 1)\n")
    with Battle(seed=1, powers=_scripted(tmp_path, source, range_ft=30, targets="enemy"), script_dir=tmp_path) as b:
        user = b.spawn("mage", 2, 2, team="a", powers=["it"])
        target = b.spawn("t", 5, 2, team="b", health=20)
        seen = b.foresee_script(user, "it", target, point=(5, 2))
        assert seen.known and [(o.target, o.damage) for o in seen.outcomes] == [(target, 4.0)]


def test_a_command_refused_now_is_not_remembered_as_allowed(tmp_path: Path):
    source = "def on_hit(ctx, target):\n    ctx.damage(target, 5)\n    ctx.move(target, 6, 2)\n"
    with Battle(seed=1, powers=_scripted(tmp_path, source, range_ft=30, targets="enemy"), script_dir=tmp_path) as b:
        user = b.spawn("mage", 2, 2, team="a", powers=["it"])
        target = b.spawn("t", 5, 2, team="b", health=20)
        assert b.foresee_script(user, "it", target, hit=target).known
        blocker = b.spawn("blocker", 6, 2, team="b")  # the move's square is taken now: the real use would fail
        assert not b.foresee_script(user, "it", target, hit=target).known
        b.move(blocker, 7, 3)
        b.tick()
        assert b.foresee_script(user, "it", target, hit=target).known  # a refusal is not for good


def test_huge_dice_are_read_off_their_curve_within_their_range():
    assert quantile_roll("1000d1000", 0.5) == 500500
    assert 1000 <= quantile_roll("1000d1000", 0.1) < 500500 < quantile_roll("1000d1000", 0.9) <= 1_000_000
    assert quantile_roll("2d6", 0.5) == 7  # (small dice: their exact odds)
