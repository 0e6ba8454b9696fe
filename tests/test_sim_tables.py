"""What simulate's table says, checked against what the battles did: a team that shares a name with
a drawn battle, damage no power dealt, and notes that do not depend on the order rows arrive in."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from game.play import cli
from game.sim.config import SimConfig
from game.sim.simulate import check_config

ROOT = Path(__file__).resolve().parent.parent
KEEP = ROOT / "assets" / "scenarios" / "keep.toml"


def _keep_with_team(tmp_path: Path, team: str) -> Path:
    """The shipped keep, its defenders' team renamed (the scenario's text is its own: a copy)."""
    text = KEEP.read_text(encoding="utf-8").replace("[teams.keep]", f"[teams.{team}]")
    text = text.replace('team = "keep"', f'team = {team}' if team.startswith('"') else f'team = "{team}"')
    path = tmp_path / "keep.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_team_named_draw_is_refused_before_any_battle(tmp_path, capsys):
    """A row's winner says "draw" for a drawn battle, so a team named "draw" had its wins counted as
    draws (and its draws as wins): "draw win 40%" beside "draw 40%", a first-mover rate over the wrong
    battles, paired differences of the wrong thing. Refused, in one line naming the key."""
    scenario = _keep_with_team(tmp_path, "draw")
    with pytest.raises(ValueError, match=r"teams\.draw: a team named 'draw' cannot be told apart from a drawn "
                                         r"battle .*rename the team"):
        check_config(SimConfig(scenario=str(scenario), battles=1))
    code = cli.main(["simulate", str(scenario), "--battles", "1", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "teams.draw" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "o").exists()


def test_a_team_with_another_name_is_played(tmp_path):
    check_config(SimConfig(scenario=str(_keep_with_team(tmp_path, "drawbridge")), battles=1))


@pytest.mark.parametrize("team", ["@SUM(1+1)", "-2+3+cmd|' /C calc'!A0", "+1"])
def test_a_team_a_spreadsheet_would_run_as_a_formula_is_refused_before_any_battle(tmp_path, capsys, team):
    """battles.csv's winner and first columns hold team names: a stranger's team named "@SUM(1+1)" (or a
    DDE command starting with "-" or "+") was written there as it was, and a spreadsheet opening the
    table ran it. Refused before any battle, in one line naming the key ("=" no team name holds)."""
    scenario = _keep_with_team(tmp_path, json.dumps(team))  # a TOML basic string: quoted, escapes as JSON's
    with pytest.raises(ValueError, match=rf"teams\.{re.escape(team)}: a team name starting with "
                                         rf"'{re.escape(team[0])}' would be run as a formula .*rename the team"):
        check_config(SimConfig(scenario=str(scenario), battles=1))
    code = cli.main(["simulate", str(scenario), "--battles", "1", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "would be run as a formula" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "o").exists()


def test_a_team_with_a_sign_inside_its_name_is_played(tmp_path):
    check_config(SimConfig(scenario=str(_keep_with_team(tmp_path, '"keep+1"')), battles=1))


THORNS = '''
def on_round_end(ctx, event):
    for other in ctx.creatures_in_area(0, 0, 1000):
        if ctx.is_alive(other):
            ctx.damage(other, 1)
'''


def test_a_reaction_scripts_damage_is_no_power_of_the_table():
    """A reaction's hits say ``script:reaction``: the table listed "reaction" as a power with 0 uses and
    its damage, where battles.csv put the same damage in ``other``. Both say ``reaction`` now, a row
    of its own, ``(reactions)``, as ``(falls)`` is."""
    from game import Battle
    from game.sim.report import VariantStats, format_table
    from game.sim.tally import tally

    b = Battle(seed=1, width=8, height=8, script_texts={"thorns.star": THORNS})
    hero = b.spawn("Hero", 1, 1, team="blue", health=20, powers=["strike"])
    orc = b.spawn("Orc", 2, 1, team="red", health=20)
    b.attach_reaction("thorns.star")
    b.start_combat()
    b.use_power(hero, "strike", target=orc)
    b.run(2)  # (what a reaction asks at a round's end resolves at the next one's start)
    row = tally(b)
    assert "other" not in row["dealt"] and row["dealt"]["reaction"] == 2
    assert row["taken"]["blue"]["reaction"] == 1 and row["taken"]["red"]["reaction"] == 1
    stats = VariantStats(0, (), ("blue", "red"), known_powers=("strike",))
    stats.add({"seed": 1, "battle": 0, "winner": "draw", "rounds": 1, **row})
    table = format_table([stats.summary()], ("blue", "red"))
    assert "(reactions)" in table and "(others)" not in table
    assert not [line for line in table.splitlines() if line.split()[1:2] == ["reaction"]]  # (no power row)


def _refusing_rows() -> list[dict[str, object]]:
    """Battles 0-5 of one variant; 2 and 4 had orders refused, 1 and 5 a script failure."""
    rows: list[dict[str, object]] = []
    for battle in range(6):
        row: dict[str, object] = {"variant": 0, "battle": battle, "seed": 100 + battle, "winner": "blue", "rounds": 3}
        if battle in (2, 4):
            row.update(refused=1, refusal=f"round 1: refused in battle {battle}")
        if battle in (1, 5):
            row.update(script_failures=1, script_error=f"failed in battle {battle}")
        rows.append(row)
    return rows


@pytest.mark.parametrize("order", [[0, 1, 2, 3, 4, 5], [5, 4, 3, 2, 1, 0], [4, 5, 0, 3, 1, 2]])
def test_the_notes_name_the_same_first_battle_whatever_order_rows_arrive_in(order):
    """Rows come back in the order chunks finish, which differs between runs, worker counts and
    engines; the notes under the table named the first refusal and script failure to *arrive*."""
    from game.sim.report import VariantStats

    rows = _refusing_rows()
    stats = VariantStats(0, (), ("blue", "red"))
    for index in order:
        stats.add(rows[index])
    assert stats.refused == 2 and stats.first_refusal == "seed 102: round 1: refused in battle 2"
    assert stats.script_battles == 2 and stats.first_script_failure == "seed 101: failed in battle 1"


@pytest.mark.parametrize("order", [[0, 1, 2, 3, 4, 5], [5, 4, 3, 2, 1, 0], [3, 5, 1, 0, 4, 2]])
def test_the_failures_kept_are_the_first_battles_whatever_order_rows_arrive_in(monkeypatch, order):
    """Past MAX_KEPT_FAILURES a run keeps only some failures for the report: the first by battle, not
    the first to arrive (which the report's re-run line then named)."""
    from game.sim import simulate

    monkeypatch.setattr(simulate, "MAX_KEPT_FAILURES", 3)
    collect = simulate._Collector(SimConfig(scenario=str(KEEP), battles=6), [], None, None, None)
    for index in order:
        collect._keep({"variant": 0, "battle": index, "seed": 100 + index, "error": f"boom {index}"})
    assert collect.failed == 6 and [f.battle for f in collect.failures] == [0, 1, 2]


@pytest.mark.parametrize("variants", [1, 3])
def test_each_teams_paired_bar_stands_over_its_variants_label(variants):
    """With one variant after the first, the paired plot's axis was fitted to the 0.1 between the two
    teams' points: the first team's bar at the left edge over the label, the second's at the right
    edge under no label at all."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from game.sim import plots

    base = {"variant": "rules.cover_bonus=0"}
    paired = [{"variant": f"rules.cover_bonus={i + 1}",
               "paired": {t: {"diff": 0.05 * i, "low": -0.1, "high": 0.2, "n": 10} for t in ("keep", "raiders")}}
              for i in range(variants)]
    fig, axis = plt.subplots()
    try:
        plots._plot_paired(axis, base, paired, ("keep", "raiders"))
        low, high = axis.get_xlim()
        ticks = list(axis.get_xticks())
        assert ticks == list(range(variants)) and low <= -0.4 and high >= variants - 0.6
        points = [line for line in axis.lines if line.get_marker() == "o"]  # (not the line at 0)
        assert len(points) == 2
        for line in points:
            for x in line.get_xdata():
                assert min(abs(x - t) for t in ticks) <= 0.1  # beside its own label, never between two
    finally:
        plt.close(fig)


def _first_refusal(monkeypatch, goblins_round: int) -> tuple[int, str]:
    """A battle in which the knight's strike after a jump that downs it is refused as it resolves (round
    1, first in turn order), and the goblin's walk into the wall when given (``goblins_round``): the
    count of refusals and the one named first."""
    from game import Battle, ai
    from game.sim import runner

    b = Battle(seed=2, width=8, height=4)
    for y in range(4):
        b.set_ground(0, y, 40)
        b.set_ground(1, y, 40)
    b.add_wall(6, 1)
    knight = b.spawn("Knight", 1, 1, team="hill", powers=["strike"], health=1, initiative_bonus=50)
    goblin = b.spawn("Goblin", 3, 1, team="vale", health=8, initiative_bonus=-50)
    b.spawn("Squire", 0, 3, team="hill", health=8)  # (so that the battle goes on once the knight is down)

    def plans(battle, entity, policy, rng):
        if entity == knight and battle.round == 1:
            return [("move", (entity, 2, 1), {}), ("use_power", (entity, "strike"), {"target": goblin})]
        if entity == goblin and battle.round == goblins_round:
            return [("move", (entity, 6, 1), {})]
        return []

    # (the runner plays a turn by ``ai.decisions``, which asks ``decide`` for the plan)
    monkeypatch.setattr("game.ai.policy.decide", lambda battle, entity, policy, rng, *_: ai.Decision(
        tuple(plans(battle, entity, policy, rng)), ""))
    _, _, refused, first_refusal, _ = runner.play(b, "tactical", ai.turn_rng(2, 1, knight), 3)
    return refused, first_refusal


def test_the_first_refusal_of_a_battle_is_the_earliest_of_either_kind(monkeypatch):
    """An order refused when given was always named "first" over one the battle refused when it
    resolved, even a round later: the knight's strike is refused in round 1, the goblin's walk in 2."""
    refused, first_refusal = _first_refusal(monkeypatch, 2)
    assert refused == 2 and first_refusal.startswith("round 1: Knight cannot use Strike: ")


def test_two_refusals_in_one_round_are_ordered_by_their_turns(monkeypatch):
    """The knight's strike is refused as it resolves in its turn, then the goblin's walk when given,
    later in the same round: the knight's is first (rounds alone named the goblin's)."""
    refused, first_refusal = _first_refusal(monkeypatch, 1)
    assert refused == 2 and first_refusal.startswith("round 1: Knight cannot use Strike: ")


def test_the_sweep_plot_spells_values_as_the_table_does():
    """The win-rate plot labelled a swept flag ``True``/``False`` and a list ``['strike']``, where the
    table, ``--set`` and the scenario file say ``true`` and ``["strike"]``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from game.sim import plots
    from game.sim.report import VariantStats

    variants = []
    grid = [(True, ["strike"]), (False, ["strike"]), (True, ["shoot"]), (False, ["shoot"])]
    for i, (flag, powers) in enumerate(grid):
        v = VariantStats(i, (("rules.cover_enabled", flag), ("creatures.ram_a.powers", powers)), ("keep", "raiders"))
        v.add({"seed": 1, "battle": 0, "winner": "keep", "rounds": 3})
        variants.append(v)
    fig, axes = plt.subplots(1, 2, squeeze=False)
    try:
        plots._plot_sweep(axes[0], [v.summary() for v in variants], variants, ("keep", "raiders"),
                          ("rules.cover_enabled", [True, False]))
        assert [t.get_text() for t in axes[0][0].get_xticklabels()] == ["true", "false"]
        legend = axes[0][0].get_legend()
        assert [t.get_text() for t in legend.get_texts()] == ['creatures.ram_a.powers=["strike"]',
                                                             'creatures.ram_a.powers=["shoot"]']
    finally:
        plt.close(fig)


def test_a_paired_difference_over_no_seed_is_not_drawn():
    """A variant whose every battle failed pairs no seed with the first: its difference was drawn as a
    point at 0 with a bar from -100 to +100, a measurement of nothing."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from game.sim import plots

    none = {"diff": 0.0, "low": -1.0, "high": 1.0, "n": 0}
    some = {"diff": 0.2, "low": 0.1, "high": 0.3, "n": 8}
    paired = [{"variant": "v1", "paired": {"keep": none, "raiders": none}},
              {"variant": "v2", "paired": {"keep": some, "raiders": some}}]
    fig, axis = plt.subplots()
    try:
        plots._plot_paired(axis, {"variant": "v0"}, paired, ("keep", "raiders"))
        points = [line for line in axis.lines if line.get_marker() == "o"]
        assert [list(line.get_ydata()) for line in points] == [[pytest.approx(20.0)], [pytest.approx(20.0)]]
        assert all(abs(x - 1) <= 0.1 for line in points for x in line.get_xdata())
    finally:
        plt.close(fig)


def test_a_variant_whose_every_figure_is_the_first_ones_is_warned_about():
    """Sweeping rules.soft_landing_divisor on the ledge with a greedy hill (which never jumps down), 2,000
    battles a variant came out as two identical rows and a paired +0.0 [-0.1, +0.1]: read as a measured
    no-effect, where the swept rule never came into play. Said now; a variant that differs is not named."""
    from game.sim.notes import notes
    from game.sim.report import VariantStats
    from game.sim.simulate import SimResult

    teams = ("hill", "vale")
    variants = [VariantStats(i, (("rules.soft_landing_divisor", i + 1),), teams, known_powers=("strike",))
                for i in range(3)]
    for seed in range(1, 5):
        row = {"seed": seed, "battle": seed, "winner": teams[seed % 2], "rounds": 3, "uses": {"strike": 2}}
        variants[0].add(row)
        variants[1].add(row)
        variants[2].add({**row, "rounds": 4 if seed == 1 else 3})
    result = SimResult(SimConfig("ledge.toml"), variants, teams, [], 0, 12, 12, 1.0, False)
    assert notes(result) == ["warning: rules.soft_landing_divisor=2: every figure is the same as "
                             "rules.soft_landing_divisor=1's: the swept value changed nothing these battles counted "
                             "(did the computer players ever use what it changes?)"]


def test_a_variant_that_only_adds_a_power_no_one_used_is_warned_about_too():
    """Sweeping creatures.archer.powers=["shoot"],["shoot","shove"] on demo.toml (30 battles, seed 3): two
    identical rows but Shove's, 0.00 beside '-' (the computer players never shove), and a paired +0.0,
    with no warning: the power the variant added counted as a figure that changed."""
    from game.sim.notes import notes
    from game.sim.report import VariantStats
    from game.sim.simulate import SimResult

    teams = ("blue", "red")
    variants = [VariantStats(0, (("creatures.archer.powers", ["shoot"]),), teams, known_powers=("shoot",)),
                VariantStats(1, (("creatures.archer.powers", ["shoot", "shove"]),), teams,
                             known_powers=("shoot", "shove"))]
    for seed in range(1, 5):
        row = {"seed": seed, "battle": seed, "winner": teams[seed % 2], "rounds": 3, "uses": {"shoot": 2}}
        for variant in variants:
            variant.add(row)
    result = SimResult(SimConfig("demo.toml"), variants, teams, [], 0, 8, 8, 1.0, False)
    assert [line for line in notes(result) if "every figure is the same" in line] == [
        f"warning: {variants[1].label}: every figure is the same as {variants[0].label}'s: the swept value changed "
        "nothing these battles counted (did the computer players ever use what it changes?)"]
