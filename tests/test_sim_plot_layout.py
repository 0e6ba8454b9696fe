"""``winrate.png`` lays its team panels out in rows of at most ``PANELS_A_ROW``: in one row, 50 teams
made a figure 27,500 pixels wide (11 s to draw), and 300 teams one of 165,000 (164 s, 500 MB)."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import matplotlib.figure
import matplotlib.image
import matplotlib.text
import pytest

from game.sim.config import SimConfig
from game.sim.plots import PANELS_A_ROW, plot
from game.sim.report import VariantStats
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


def test_team_panels_wrap_into_rows(tmp_path: Path, warm_pool: Any) -> None:
    teams = PANELS_A_ROW + 2  # two rows: a full one and one of two panels
    result = simulate(SimConfig(scenario(tmp_path, teams), battles=1, workers=1, max_rounds=2,
                                out_dir=str(tmp_path / "out")), progress=False,
                      executor=warm_pool)  # conftest's warm worker: the plot is what is tested
    assert result.done == 1 and result.failed == 0
    height, width = matplotlib.image.imread(tmp_path / "out" / "winrate.png").shape[:2]
    assert width == 100 * 5.5 * PANELS_A_ROW and height == 100 * 4.2 * 2


def test_a_team_named_with_a_character_the_font_lacks_is_drawn_as_its_escape(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An emoji team name was drawn as an empty box (two such teams' panels alike), with a warning on
    stderr naming game/sim/plots.py for each missing glyph; now it is spelt ``\\U0001f43a``."""
    teams = ("\U0001f43a", "\u00e9t\u00e9")  # no glyph in the plots' font; glyphs it has, kept as written
    stats = VariantStats(0, (), teams, known_powers=("strike",))
    stats.add({"seed": 1, "battle": 0, "winner": teams[0], "rounds": 2})
    drawn: list[str] = []
    original = matplotlib.figure.Figure.savefig

    def remember(fig: matplotlib.figure.Figure, *args: object, **kwargs: object) -> None:
        drawn.extend(t.get_text() for t in fig.findobj(matplotlib.text.Text))
        original(fig, *args, **kwargs)

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", remember)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        written = plot([stats.summary()], [stats], teams, [], tmp_path)
    assert written and all(path.is_file() for path in written)
    assert not [w for w in seen if "missing from font" in str(w.message)]
    assert "\\U0001f43a wins" in drawn and "\u00e9t\u00e9 wins" in drawn
