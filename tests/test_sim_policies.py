"""Per-team policies, paired differences between variants, and a power table that shows unused powers."""

from __future__ import annotations

from pathlib import Path

import pytest

from game import ai
from game.play import cli
from game.sim.config import SimConfig
from game.sim.report import VariantStats, paired_difference, winners_difference, with_paired
from game.sim.simulate import check_config
from tests.event_steps import kinds

ROOT = Path(__file__).resolve().parent.parent
KEEP = ROOT / "assets" / "scenarios" / "keep.toml"


def test_a_policy_for_every_team_or_per_team():
    assert ai.parse_policies("greedy") == {"": "greedy"}
    policies = ai.parse_policies("keep=tactical, raiders=greedy")
    assert ai.policy_of(policies, "raiders") == "greedy" and ai.policy_of(policies, "anyone") == "tactical"


@pytest.mark.parametrize("spec, words", [("smart", "unknown AI policy"), ("keep=smart", "TEAM=POLICY"),
                                         ("keep=greedy,keep=random", "given twice"), ("=greedy", "TEAM=POLICY"),
                                         ("", "expected one of")])
def test_bad_policies_are_refused_in_one_line(spec, words):
    with pytest.raises(ValueError, match=words):
        ai.parse_policies(spec)


def test_simulate_refuses_a_team_the_scenario_does_not_have(tmp_path):
    with pytest.raises(ValueError, match="does not have; its teams: keep, raiders"):
        check_config(SimConfig(scenario=str(KEEP), battles=1, policy="keep=tactical,orcs=greedy"))


def test_the_cli_refuses_a_bad_policy_before_any_battle(tmp_path, capsys):
    code = cli.main(["simulate", str(KEEP), "--battles", "1", "--policy", "keep=clever", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "--policy" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "o").exists()


def _stats(index: int, winners: dict[int, str]) -> VariantStats:
    v = VariantStats(index, (("rules.cover_bonus", index),), ("keep", "raiders"), known_powers=("fly", "shoot"))
    for seed, winner in winners.items():
        v.add({"seed": seed, "winner": winner, "rounds": 3})
    return v


def test_paired_difference_counts_the_seeds_both_variants_played():
    base = _stats(0, {1: "keep", 2: "raiders", 3: "raiders", 4: "keep"})
    other = _stats(1, {1: "keep", 2: "keep", 3: "keep", 4: "keep", 5: "raiders"})
    d = paired_difference(base, other, "keep")
    assert d["n"] == 4 and d["diff"] == pytest.approx(0.5)
    assert d["low"] < 0.5 < d["high"]
    same = paired_difference(base, base, "keep")
    assert same["diff"] == 0.0 and same["low"] == -same["high"] < 0.0  # 4 alike: not proof of no difference
    summaries = with_paired([base.summary(), other.summary()], [base, other])
    assert "paired" not in summaries[0] and summaries[1]["paired"]["keep"]["diff"] == pytest.approx(0.5)


def test_the_power_table_lists_powers_never_used():
    v = _stats(0, {1: "keep"})
    v.uses.update({"shoot": 3})
    powers = v.summary()["powers"]
    assert powers["fly"]["uses"] == 0 and powers["shoot"]["uses"] == 3


def test_the_paired_interval_is_honest_when_every_pair_agrees():
    """Four battles that came out alike under both variants say little: the interval is wide at small
    n (it was +0 [+0, +0]), narrows as the battles grow, and always holds the observed difference."""
    widths = []
    for n in (4, 40, 400):
        d = winners_difference(["keep"] * (n // 2) + ["raiders"] * (n - n // 2),
                               ["keep"] * (n // 2) + ["raiders"] * (n - n // 2), "keep")
        assert d["diff"] == 0.0 and d["low"] < 0.0 < d["high"]
        widths.append(d["high"] - d["low"])
    assert widths[0] > 0.5 and widths[0] > widths[1] > widths[2]
    # a clear gain stays clear, and the interval holds it
    d = winners_difference(["raiders"] * 30, ["keep"] * 24 + ["raiders"] * 6, "keep")
    assert d["diff"] == pytest.approx(0.8) and 0.55 < d["low"] < 0.8 < d["high"] <= 1.0


def test_an_ai_order_the_battle_refuses_when_it_resolves_is_counted(monkeypatch):
    """simulate's note counts 'AI commands refused by the rules': it counted only those refused when
    given, and an order refused when it resolved (a strike after a jump whose fall downed the jumper:
    'it cannot act') went into no count and no note."""
    from game import Battle
    from game.sim import runner

    b = Battle(seed=2, width=8, height=4)
    for y in range(4):
        b.set_ground(0, y, 40)
        b.set_ground(1, y, 40)
    knight = b.spawn("Knight", 1, 1, team="hill", powers=["strike"], health=1, initiative_bonus=50)
    b.spawn("Goblin", 3, 1, team="vale", health=8, initiative_bonus=-50)

    def jump_and_strike(battle, entity, policy, rng):
        if entity != knight or battle.round > 1:
            return []
        return [("move", (entity, 2, 1), {}), ("use_power", (entity, "strike"), {"target": 2})]

    # (the runner plays a turn by ``ai.decisions``, which asks ``decide`` for the plan)
    monkeypatch.setattr("game.ai.policy.decide", lambda battle, entity, policy, rng, *_: ai.Decision(
        tuple(jump_and_strike(battle, entity, policy, rng)), ""))
    winner, rounds, refused, first_refusal, first = runner.play(b, "tactical", ai.turn_rng(2, 1, knight), 3)
    assert refused == 1
    assert first_refusal.startswith("round 1: Knight cannot use Strike: ")


def test_a_controller_naming_a_team_the_battle_lacks_is_refused_before_the_round():
    """``ai.controller("bleu=random")`` once left blue to the default tactical player unnoticed: ``tick``
    refuses it before its round begins, naming the battle's teams, and the battle plays on."""
    from game import Battle, IllegalCommand

    with Battle(seed=1, width=8, height=8) as b:
        b.spawn("A", 1, 1, team="blue", powers=["strike"])
        b.spawn("C", 6, 6, team="red", powers=["strike"])
        b.start_combat()
        with pytest.raises(IllegalCommand, match="team 'bleu', which the battle does not have; its teams: blue, red"):
            b.tick(controller=ai.controller("bleu=random"))
        assert b.round == 0 and not kinds(b, "command_refused")
        b.tick(controller=ai.controller("blue=random,red=greedy"))
        assert b.round == 1 and not kinds(b, "command_refused")


def test_refused_ai_commands_are_a_warning_that_says_in_how_many_battles():
    """Issue 13 asks for a warning line when the rules refuse AI commands (a power the computer cannot
    use is a finding): it was a "note:", and "6 AI commands refused" did not say whether one battle or
    six had them."""
    from game.sim.notes import notes
    from game.sim.simulate import SimResult

    variant = VariantStats(0, (), ("hill", "vale"), known_powers=("strike",))
    for seed, refused in [(1, 0), (2, 4), (3, 0), (4, 2)]:
        variant.add({"seed": seed, "battle": seed, "winner": "hill", "rounds": 3, "refused": refused,
                     "refusal": "round 4: Squire cannot move to (9, 5): it is downed and cannot move"})
    result = SimResult(SimConfig("ledge.toml"), [variant], ("hill", "vale"), [], 0, 4, 4, 1.0, False)
    said = notes(result)
    assert said == ["warning: (as written): 6 AI commands refused by the rules in 2 of 4 battles, when given or "
                    "when they resolved (a fall or a blow between an order and its turn can undo it; first: "
                    "seed 2: round 4: Squire cannot move to (9, 5): it is downed and cannot move)"]
    assert variant.summary()["refused_battles"] == 2


@pytest.mark.parametrize("command", ["simulate", "play", "demo"])
def test_help_lists_every_policy_with_what_it_does(command, capsys):
    """Issue 13 asks for the policies documented where --policy is chosen, what each does in two lines:
    ``--help`` named them (simulate: "tactical, greedy, random ... see README") and said no more."""
    assert cli.main([command, "--help"]) == 0
    said = capsys.readouterr().out
    assert "computer players (--policy):" in said
    for name, text in ai.POLICY_HELP.items():
        first, second = text.split("\n")
        assert f"  {name.ljust(8)}  {first}\n" in said and f"  {'':8}  {second}" in said
