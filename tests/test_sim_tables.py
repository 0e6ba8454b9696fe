"""What simulate's table says, checked against what the battles did: a team that shares a name with
a drawn battle, damage no power dealt, and notes that do not depend on the order rows arrive in."""

from __future__ import annotations

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
    text = text.replace('team = "keep"', f'team = "{team}"')
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


THORNS = '''
def on_round_end(ctx, event):
    for other in ctx.creatures_in_area(0, 0, 1000):
        if ctx.is_alive(other):
            ctx.damage(other, 1)
'''


def test_a_reaction_scripts_damage_is_no_power_of_the_table():
    """A reaction's hits say ``script:reaction``: the table listed "reaction" as a power with 0 uses and
    its damage, where battles.csv put the same damage in ``other``. Both say ``other`` now."""
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
    assert "reaction" not in row["dealt"] and row["dealt"]["other"] == 2
    assert row["taken"]["blue"]["other"] == 1 and row["taken"]["red"]["other"] == 1
    stats = VariantStats(0, (), ("blue", "red"), known_powers=("strike",))
    stats.add({"seed": 1, "battle": 0, "winner": "draw", "rounds": 1, **row})
    table = format_table([stats.summary()], ("blue", "red"))
    assert "reaction" not in table and "(others)" in table
