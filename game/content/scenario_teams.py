"""A scenario's teams: their tables, how many there may be, and the sides its creatures make.

Apart from the rest of the scenario's checks because a team is what the battle's outcome, the
simulation's table, its CSV columns and its plots are counted by: each declared team is a column of
win rates and of damage taken, and a panel of ``winrate.png``.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from typing import Any

from game.content import checks as c
from game.content.checks import FieldSpec, Problems
from game.content.scenario_model import MAX_CREATURES, CreatureSpec, TeamSpec

__all__ = ["CONTROLS", "MAX_TEAMS", "TEAM_FIELDS", "check_sides", "check_teams"]

CONTROLS = ("human", "computer")
#: The most teams a scenario declares: one for each creature it may hold (``MAX_CREATURES``). Every
#: declared team is a column of the simulation's table and CSV and a panel of its plot, so 300 teams
#: took 164 s and 500 MB to plot two battles, and 3,000 had used 800 MB after three minutes.
MAX_TEAMS = MAX_CREATURES
TEAM_FIELDS: FieldSpec = types.MappingProxyType({
    "control": (c.one_of(CONTROLS), "computer"), "colour": (c.colour, None),
})
def check_teams(data: Mapping[str, Any], problems: Problems) -> dict[str, TeamSpec]:
    """The ``[teams.NAME]`` tables, each checked, at most ``MAX_TEAMS`` of them (more are refused
    before any is read)."""
    if "teams" not in data:
        problems.add("teams", "missing (required): one [teams.NAME] table per side")
        return {}
    declared = c.table_of(data["teams"], "teams", problems) or {}
    if len(declared) > MAX_TEAMS:
        problems.add("teams", f"{len(declared):,} teams; expected at most {MAX_TEAMS}, one for each creature a "
                              f"scenario may hold (docs/limits.md)")
        return {}
    teams: dict[str, TeamSpec] = {}
    for team, table in declared.items():
        where = f"teams.{team}"
        try:
            c.team_name(team)
        except c.Bad as bad:
            problems.add(where, "a team needs a name that is not blank" if not team.strip() else str(bad))
            continue
        if c.table_of(table, where, problems) is None:
            continue
        checked = c.check_fields(table, TEAM_FIELDS, where, problems)
        if checked is not None:
            teams[team] = TeamSpec(team, checked["control"], checked["colour"])
    return teams


def check_sides(specs: list[CreatureSpec | None], teams: Mapping[str, TeamSpec], problems: Problems) -> None:
    """Creatures on at least two teams: with none, or all on one side, no side can win and every
    battle of it (a play, a whole simulation) would end undecided after its last round."""
    sides = sorted({spec.team for spec in specs if spec is not None})
    if len(sides) >= 2:
        return
    named = ", ".join(repr(t) for t in teams) or "(none)"
    found = "no creatures" if not sides else f"every creature is on team {sides[0]!r}"
    problems.add("creatures", f"{found}; expected creatures on at least two teams, or no side can win "
                              f"(teams: {named})")
