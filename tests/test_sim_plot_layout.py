"""``winrate.png`` lays its team panels out in rows of at most ``PANELS_A_ROW``: in one row, 50 teams
made a figure 27,500 pixels wide (11 s to draw), and 300 teams one of 165,000 (164 s, 500 MB)."""

from __future__ import annotations

from pathlib import Path

import matplotlib.image

from game.sim.config import SimConfig
from game.sim.plots import PANELS_A_ROW
from game.sim.simulate import simulate


def scenario(tmp_path: Path, teams: int) -> str:
    out = ['name = "many sides"', "[map]", 'rows = ["............", "............"]', "[map.legend]",
           '"." = { ground = 0 }']
    out += [f"[teams.t{i}]" for i in range(teams)]
    for i in range(teams):
        out += ["[[creatures]]", f'key = "c{i}"', f'team = "t{i}"', f"x = {2 * i}", "y = 0", 'powers = ["strike"]']
    path = tmp_path / "sides.toml"
    path.write_text("\n".join(out) + "\n")
    return str(path)


def test_team_panels_wrap_into_rows(tmp_path: Path) -> None:
    teams = PANELS_A_ROW + 2  # two rows: a full one and one of two panels
    result = simulate(SimConfig(scenario(tmp_path, teams), battles=1, workers=1, max_rounds=2,
                                out_dir=str(tmp_path / "out")), progress=False)
    assert result.done == 1 and result.failed == 0
    height, width = matplotlib.image.imread(tmp_path / "out" / "winrate.png").shape[:2]
    assert width == 100 * 5.5 * PANELS_A_ROW and height == 100 * 4.2 * 2
