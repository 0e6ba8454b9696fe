"""The simulation's plots: win rates against a sweep, the paired differences, the length of battles.

Drawn with matplotlib's Agg backend (no display, never pygame) and written atomically as every
output is. Every text in them is drawn as written: team names and swept values come from a
scenario file and the command line, and matplotlib would read ``$...$`` in one as a formula; only a
character the font has no glyph for (an emoji) is spelt as its escape, ``\\U0001f43a``.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from components.values import spelt
from game.content.atomic import atomic_write
from game.content.toml_values import toml_value
from game.sim.outputs import PAIRED_PLOT, ROUNDS_PLOT, WINRATE_PLOT
from game.sim.report import VariantStats

__all__ = ["PANELS_A_ROW", "plot"]

#: The most team panels of ``winrate.png`` side by side; more teams go on further rows.
PANELS_A_ROW = 4
#: ``paired.png`` grows 1.6 inches a variant up to this width; past it the variants' labels stand upright.
PAIRED_MAX_INCHES = 30.0
#: The most variants whose labels ``paired.png`` writes across; more are turned upright.
PAIRED_LABELS_FLAT = 17


def plot(summaries: Sequence[Mapping[str, Any]], variants: Sequence[VariantStats], teams: Sequence[str],
         swept: Sequence[tuple[str, Sequence[Any]]], out_dir: Path, max_rounds: int | None = None) -> list[Path]:
    """``winrate.png`` (win rate against the first swept value, CI error bars, one panel per team and
    one line per combination of the other swept keys) and ``rounds.png`` (rounds per battle, a draw at
    ``max_rounds`` counted at the cap).

    Every text is drawn as it is written (but for a character the font has no glyph for, spelt as its
    escape): team names and swept values come from a scenario file and
    the command line, and matplotlib would read ``$...$`` in one as a formula (``"$\\frac{$"`` raised
    deep inside the drawing, and the run lost its table and summary with it)."""
    import matplotlib

    matplotlib.use("Agg")  # headless: never a window, never pygame
    with matplotlib.rc_context({"text.parse_math": False}):
        return _plots(summaries, variants, teams, swept, out_dir, max_rounds)


def _plots(summaries: Sequence[Mapping[str, Any]], variants: Sequence[VariantStats], teams: Sequence[str],
           swept: Sequence[tuple[str, Sequence[Any]]], out_dir: Path, max_rounds: int | None) -> list[Path]:
    """:func:`plot`'s figures, drawn and written."""
    import matplotlib.pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    # a panel per team, at most PANELS_A_ROW a row: in one row, a scenario's 50 teams made a figure
    # 27,500 pixels wide that took 11 s to draw (and 300 took 164 s and 500 MB)
    across = max(1, min(len(teams), PANELS_A_ROW))
    down = max(1, math.ceil(len(teams) / across))
    fig, axes = plt.subplots(down, across, figsize=(5.5 * across, 4.2 * down), squeeze=False, sharey=True)
    panels = list(axes.flat)
    for spare in panels[len(teams):]:
        spare.set_visible(False)
    panels = panels[:len(teams)]
    if swept:
        _plot_sweep(panels, summaries, variants, teams, swept[0])
    else:
        _plot_single(panels, summaries[0], teams)
    for row in axes:
        row[0].set_ylabel("win rate, % (95% Wilson CI)")
    for panel in panels:
        panel.set_ylim(0, 100)
        panel.grid(alpha=0.3)
    written = [_save(plt, fig, out_dir / WINRATE_PLOT)]
    fig, axis = plt.subplots(figsize=(7, 4.2))
    _plot_rounds(axis, variants, max_rounds)
    written.append(_save(plt, fig, out_dir / ROUNDS_PLOT))
    paired = [s for s in summaries if "paired" in s]
    if any(p["n"] for s in paired for p in s["paired"].values()):  # (no pair at all: no point to draw)
        fig, axis = plt.subplots(figsize=(min(max(7.0, 1.6 * len(paired) + 1.5), PAIRED_MAX_INCHES), 4.8))
        _plot_paired(axis, summaries[0], paired, teams)
        written.append(_save(plt, fig, out_dir / PAIRED_PLOT))
    return written


def _variant_lines(summary: Mapping[str, Any]) -> str:
    """A variant's label as the paired plot's ticks show it, one swept key a line (on one line, a
    grid's labels ran into each other: ``rules.cover_bonus=0 powers.shoot.damage=2d6`` over its
    neighbour's)."""
    overrides = summary.get("overrides")
    if not overrides:
        return str(summary["variant"])
    return "\n".join(f"{key}={toml_value(value)}" for key, value in overrides)


def _plot_paired(axis: Any, base: Mapping[str, Any], paired: Sequence[Mapping[str, Any]], teams: Sequence[str]) -> None:
    """Each variant's win rate minus the first's, per team, with the paired 95% interval: each team's
    point a little beside the others' over its variant's label, and each label its own slot (with one
    variant, matplotlib fitted the axis to the 0.1 between the teams' points: the second team's bar
    stood at the far right, under no label)."""
    for offset, team in enumerate(teams):
        # a difference over no seed both variants finished is none: left out, not drawn as 0 [-100, +100]
        slots = [i for i, s in enumerate(paired) if s["paired"][team]["n"]]
        xs = [i + 0.1 * (offset - (len(teams) - 1) / 2) for i in slots]
        d = [paired[i]["paired"][team] for i in slots]
        axis.errorbar(xs, [100 * p["diff"] for p in d], capsize=4, marker="o", label=team,
                      yerr=[[100 * (p["diff"] - p["low"]) for p in d], [100 * (p["high"] - p["diff"]) for p in d]])
    axis.axhline(0, color="grey", linewidth=1)
    crowded = len(paired) > PAIRED_LABELS_FLAT
    axis.set_xticks(range(len(paired)), [_variant_lines(s) for s in paired], fontsize=7,
                    rotation=90 if crowded else 0)
    axis.set_xlim(-0.5, len(paired) - 0.5)
    # the first variant is named in the title, on lines of its own: in the axis label, a grid's long
    # name ran off the figure's edge and the label read "les.cover_bonus=0 powers.shoot.damage=1d6, poi"
    axis.set_ylabel("win rate difference, points (paired 95% CI)")
    axis.set_title(f"Paired difference from the first variant (same seeds):\n{_variant_lines(base)}", fontsize=9)
    axis.legend(fontsize=7)
    axis.grid(alpha=0.3)


def _error_bar(summary: Mapping[str, Any], team: str) -> tuple[float, float, float]:
    """A team's win rate and the distances down and up to its CI bounds, in percent."""
    s = summary["teams"][team]
    return 100 * s["rate"], 100 * (s["rate"] - s["low"]), 100 * (s["high"] - s["rate"])


def _plot_sweep(panels: Sequence[Any], summaries: Sequence[Mapping[str, Any]], variants: Sequence[VariantStats],
                teams: Sequence[str], first: tuple[str, Sequence[Any]]) -> None:
    """Win rate against the first swept key's values, one line per combination of the other keys; each
    value spelt as ``--set`` and the table spell it (``true``, ``["strike"]``, not Python's ``True``)."""
    key, values = first
    labels = [toml_value(v) for v in values]
    groups: dict[str, list[tuple[int, Mapping[str, Any]]]] = {}
    for variant, s in zip(variants, summaries):
        rest = " ".join(f"{k}={toml_value(v)}" for k, v in variant.overrides[1:])
        position = labels.index(toml_value(variant.overrides[0][1]))
        if s["finished"]:  # a variant whose every battle failed has no rate: no point (it read as 0%)
            groups.setdefault(rest, []).append((position, s))
    for panel, team in zip(panels, teams):
        for rest, points in groups.items():
            bars = [_error_bar(s, team) for _, s in points]
            panel.errorbar([p for p, _ in points], [b[0] for b in bars], yerr=[[b[1] for b in bars],
                           [b[2] for b in bars]], marker="o", capsize=4, label=rest or None)
        panel.set_xticks(range(len(labels)), labels)
        panel.set_xlabel(key)
        panel.set_title(f"{team} wins")
        if any(groups):
            panel.legend(fontsize=7)


def _plot_single(panels: Sequence[Any], summary: Mapping[str, Any], teams: Sequence[str]) -> None:
    """One point per team: the scenario as written."""
    for panel, team in zip(panels, teams):
        if summary["finished"]:  # (no battle finished: no rate to draw)
            rate, low, high = _error_bar(summary, team)
            panel.errorbar([0], [rate], yerr=[[low], [high]], marker="o", capsize=6)
        panel.set_xticks([0], ["(as written)"])
        panel.set_title(f"{team} wins")


def _plot_rounds(axis: Any, variants: Sequence[VariantStats], max_rounds: int | None) -> None:
    """A step histogram of battle length per variant (a battle stopped at the cap sits at the cap)."""
    top = max((max(v.rounds_hist) for v in variants if v.rounds_hist), default=1)
    bins = range(0, top + 2)
    for variant in variants:
        if not variant.rounds_hist:
            continue
        rounds = sorted(variant.rounds_hist)
        axis.hist(rounds, bins=bins, weights=[variant.rounds_hist[r] for r in rounds], histtype="step",
                  linewidth=1.5, label=variant.label, align="left")
    axis.set_xlabel("rounds until one side could no longer act" + (
        "" if max_rounds is None else f", or the cap of {max_rounds} (a draw)"))
    axis.set_ylabel("battles")
    axis.set_title("Battle length")
    if len(variants) > 1:
        axis.legend(fontsize=7)
    axis.grid(alpha=0.3)


def _drawable(fig: Any) -> None:
    """Spell every character of the figure's texts that its font has no glyph for as its escape
    (``\\U0001f43a``): a team named with an emoji was drawn as an empty box, two such teams' panels
    alike, and matplotlib printed a warning naming this module for each missing glyph."""
    from matplotlib.font_manager import FontProperties, findfont, get_font
    from matplotlib.text import Text

    font = get_font(findfont(FontProperties()))
    for text in fig.findobj(Text):
        shown = text.get_text()
        if not shown.isascii():
            text.set_text(spelt(shown, lambda c: bool(font.get_char_index(ord(c)))))


def _save(plt: Any, fig: Any, path: Path) -> Path:
    """Write a figure as PNG and free it (pyplot keeps every open figure otherwise). Rendered to bytes
    and written atomically, as every output is: a symlink at ``path`` is replaced, never written through."""
    _drawable(fig)
    fig.tight_layout()
    png = io.BytesIO()
    try:
        fig.savefig(png, dpi=100, format="png")
    finally:
        plt.close(fig)
    atomic_write(path, png.getvalue())
    return path
