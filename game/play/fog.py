"""Fog of war: a person's team sees only what its creatures see.

The squares a team sees are the battle's answer (``battle.visible_squares``), asked again only when
the battle changed. Enemies off those squares are hidden: not drawn, not clickable, not named in
the log or the turn strip; where one was last seen is remembered and drawn dimmed. The GM view (a
key) shows everything. A battle the computer plays on every side is shown whole.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from components import Position

if TYPE_CHECKING:
    from game.play.app import App
    from game.render.ui import UiState


class Fog:
    """One window's fog: the viewing team's sight, cached, and where hidden enemies were last seen."""

    def __init__(self) -> None:
        self._key: tuple[Any, ...] | None = None
        self._mask: Any = None
        #: the team the person last looked through (hot seat: the team whose creature acted last)
        self.team: str | None = None
        #: who was hidden when the current turn began, and whether any of them has been seen since
        #: (an undo would then take back a look the person has had: it is refused)
        self.turn_hidden: frozenset[int] = frozenset()
        self.revealed = False

    def note_turn(self, ui: UiState, new_turn: bool) -> None:
        """At a turn's start remember who is hidden; later, note whether any of them came into sight
        (the GM view, which shows everyone, does not count)."""
        if new_turn:
            self.turn_hidden, self.revealed = ui.hidden, False
        elif ui.visible is not None and self.turn_hidden - ui.hidden:
            self.revealed = True

    def forget(self) -> None:
        """Ask the battle again next time (after an undo its counters may come round again)."""
        self._key = self._mask = None

    def team_of(self, app: App) -> str | None:
        """The person's team whose sight the fog is (None: no person), the GM view or not."""
        if not app.ui.human_teams:
            return None
        actor = app.battle.current_actor
        if actor is not None and app.controls(actor):
            self.team = app.battle.team(actor)
        if self.team not in app.ui.human_teams:
            self.team = sorted(app.ui.human_teams)[0]
        return self.team

    def update(self, app: App) -> None:
        """Set the UI's visible squares, hidden creatures and last-seen squares for the battle now."""
        ui, b = app.ui, app.battle
        team = self.team_of(app)
        if team is None:
            ui.visible, ui.hidden, ui.team_hidden, ui.unseen_sources = None, frozenset(), frozenset(), frozenset()
            ui.team_visible = None
            return
        state = b.state
        key = (team, len(state.events), state.positions_version, b.round, len(b.command_log), b.terrain.version)
        if key != self._key or self._mask is None:
            # a team the scenario names but gives no creature sees nothing (the battle knows no such team)
            mine = any(b.team(e) == team for e in b.creatures())
            self._key, self._mask = key, b.visible_squares(team) if mine else np.zeros((b.width, b.height), dtype=bool)
        mask = self._mask
        hidden = set()
        for e in b.creatures():
            if b.team(e) == team:
                continue
            square = b.get(e, Position).square
            if mask[square]:
                ui.seen_at[e] = square
                continue
            hidden.add(e)
            last = ui.seen_at.get(e)
            if last is not None and mask[last]:  # that square is in sight now, and it is not there
                del ui.seen_at[e]
        ui.team_hidden, ui.team_visible = frozenset(hidden), mask
        ui.unseen_sources = unseen_sources(b, team, mask)
        # the GM view shows everything; the team's log and last-seen marks go on as the team sees
        ui.visible, ui.hidden = (None, frozenset()) if ui.gm_view else (mask, ui.team_hidden)


def unseen_sources(battle: Any, team: str, seen: Any) -> frozenset[tuple[str, int]]:
    """The lights and areas on the map (``("light" | "area", map id)``) that ``team`` did not see made:
    a power's or a script's, of a creature not on the team, centred on a square the team does not see
    (``seen``: its sight now), as ``battle.veil_makers`` tells who made which. The map's own (the
    scenario's, the GM's) are known to every side. Drawn
    whole, such a light put a torch and a glow on the square of the enemy out of sight that made it
    around itself, and the log said where."""
    ours = {e for e in battle.creatures() if battle.team(e) == team}
    return frozenset(made for made, (maker, (x, y)) in battle.veil_makers().items()
                     if maker not in ours and not seen[x, y])
