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


@pytest.mark.slow
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


def _grid_stats(teams: tuple[str, ...], played: bool) -> list[VariantStats]:
    """A 2x2 grid of long keys, as ``--set rules.cover_bonus=0,10 --set powers.shoot.damage=1d6,2d6``
    makes, each variant having played seeds 1-4 (``played``) or no battle at all."""
    stats = []
    for index, (cover, damage) in enumerate([(0, "1d6"), (0, "2d6"), (10, "1d6"), (10, "2d6")]):
        v = VariantStats(index, (("rules.cover_bonus", cover), ("powers.shoot.damage", damage)), teams)
        for seed in range(1, 5) if played else ():
            v.add({"seed": seed, "battle": seed, "winner": teams[(seed + index) % 2], "rounds": 3})
        stats.append(v)
    return stats


def _texts_drawn(monkeypatch: pytest.MonkeyPatch, name: str) -> list[tuple[str, Any, Any]]:
    """Each text of the figure saved as ``name`` with its extent and the figure's, as drawn."""
    found: list[tuple[str, Any, Any]] = []
    original = matplotlib.figure.Figure.savefig

    def measure(fig: matplotlib.figure.Figure, *args: object, **kwargs: object) -> None:
        original(fig, *args, **kwargs)
        if fig.axes and fig.axes[0].get_title().startswith(name):
            renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
            axis = fig.axes[0]
            found.extend((t.get_text(), t.get_window_extent(renderer), fig.bbox)
                         for t in [axis.title, axis.yaxis.label, *axis.get_xticklabels()])

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", measure)
    return found


@pytest.mark.slow
def test_a_grids_paired_plot_shows_each_label_whole_and_apart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 2x2 grid's paired plot ran its variants' labels into each other on one line, and its axis
    label, which named the first variant, ran off the figure: "les.cover_bonus=0 powers.shoot.d..."."""
    from game.sim.report import with_paired

    teams = ("keep", "raiders")
    stats = _grid_stats(teams, played=True)
    found = _texts_drawn(monkeypatch, "Paired difference")
    plot(with_paired([s.summary() for s in stats], stats), stats, teams,
         [("rules.cover_bonus", [0, 10]), ("powers.shoot.damage", ["1d6", "2d6"])], tmp_path)
    assert (tmp_path / "paired.png").is_file() and found
    for text, box, figure in found:  # every text inside the picture
        assert box.x0 >= figure.x0 - 1 and box.x1 <= figure.x1 + 1 and box.y0 >= figure.y0 - 1 \
            and box.y1 <= figure.y1 + 1, text
    title, ylabel, *ticks = found
    assert title[0].endswith("rules.cover_bonus=0\npowers.shoot.damage=1d6")  # the first variant, whole
    assert [text for text, _, _ in ticks] == ["rules.cover_bonus=0\npowers.shoot.damage=2d6",
                                            "rules.cover_bonus=10\npowers.shoot.damage=1d6",
                                            "rules.cover_bonus=10\npowers.shoot.damage=2d6"]
    for i, (_, a, _) in enumerate(ticks):
        for _, b, _ in ticks[i + 1:]:
            assert a.x1 <= b.x0 or b.x1 <= a.x0  # side by side, not over each other


@pytest.mark.slow
def test_a_sweep_with_no_seed_played_by_two_variants_writes_no_empty_paired_plot(tmp_path: Path) -> None:
    """A sweep stopped before a second variant finished a battle wrote a paired.png with axes and no point."""
    from game.sim.report import with_paired

    teams = ("keep", "raiders")
    stats = _grid_stats(teams, played=False)
    stats[0].add({"seed": 1, "battle": 1, "winner": "keep", "rounds": 3})  # the first variant alone played
    (tmp_path / "paired.png").write_bytes(b"an earlier run's")
    written = plot(with_paired([s.summary() for s in stats], stats), stats, teams,
                   [("rules.cover_bonus", [0, 10]), ("powers.shoot.damage", ["1d6", "2d6"])], tmp_path)
    assert [p.name for p in written] == ["winrate.png", "rounds.png"]
