"""What a designer should know before trusting a simulation's table, printed under it: a swept power
no creature has, a swept value that changed nothing, wins by a team the table has no column for, AI
commands the rules refused and scripts that failed. Apart from the CLI that prints them, so that the
report's wording can be read (and tested) in one place.
"""

from __future__ import annotations

from typing import Any

from components.values import counted
from game.sim.runner import DRAW
from game.sim.simulate import SimResult


def notes(result: SimResult) -> list[str]:
    """What a designer should know before trusting the table: a swept power no creature has (the
    sweep changes nothing), AI commands the rules refused, scripts that failed."""
    lines = []
    held = {power for variant in result.variants for power in variant.known_powers}
    unheld = sorted({key.split(".")[1] for variant in result.variants for key, _ in variant.overrides
                     if key.startswith("powers.") and key.split(".")[1] not in held})
    for power in unheld:
        lines.append(f"warning: no creature of {result.config.scenario} has the power {power!r}: changing it "
                     f"changes nothing in these battles")
    if result.unlisted:
        lines.append(f"note: battles.csv has no column for {'; '.join(result.unlisted)}; a --hook brought them in")
    lines += _unchanged(result)
    for variant in result.variants:
        others = {team: n for team, n in variant.wins.items() if team not in result.teams and team != DRAW}
        if others:  # a side a hook brought in: its wins are in no column, and the rates above do not add up
            lines.append(f"note: {variant.label}: {counted(sum(others.values()), 'battle')} won by "
                         f"{', '.join(repr(t) for t in sorted(others))}, a team the scenario does not declare "
                         f"(a --hook's), which the table has no column for")
        if variant.refused:  # a warning, as issue 13 asks: a power the computer cannot use is a finding
            lines.append(f"warning: {variant.label}: {counted(variant.refused, 'AI command')} refused by the rules in "
                         f"{variant.refused_battles} of {variant.finished} battles, when given or when they "
                         f"resolved (a fall or a blow between an order and its turn can undo it; "
                         f"first: {variant.first_refusal})")
        if variant.script_battles:
            lines.append(f"note: {variant.label}: scripts failed in {counted(variant.script_battles, 'battle')}, "
                         f"which went on without them (--strict-scripts fails them); "
                         f"first: {variant.first_script_failure}")
    return lines


def _unchanged(result: SimResult) -> list[str]:
    """A warning for each variant whose every figure is the first variant's: its swept value changed
    nothing the battles counted (``rules.soft_landing_divisor`` swept where nobody ever falls: 2,000
    battles a variant, two identical rows and a paired +0.0 that read as a measured no-effect)."""
    def figures(summary: dict[str, Any]) -> dict[str, Any]:
        # a power no one used and no one took damage from is as good as none (one variant has Shove, which
        # the computer players never use: its row of zeros beside the other's '-' is no figure that changed)
        powers = {k: p for k, p in summary["powers"].items() if p["uses"] or p["dealt"] or any(p["taken"].values())}
        return {k: v for k, v in summary.items() if k not in ("variant", "overrides", "paired")} | {"powers": powers}

    summaries = result.summaries()
    if not summaries or not summaries[0]["finished"]:
        return []
    first = figures(summaries[0])
    return [f"warning: {s['variant']}: every figure is the same as {summaries[0]['variant']}'s: the swept value "
            f"changed nothing these battles counted (did the computer players ever use what it changes?)"
            for s in summaries[1:] if figures(s) == first]
