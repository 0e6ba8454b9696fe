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
from components.events import AreaCreated
from game.render.sight import sure_sight, veils_of

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
        #: the lights and areas an enemy made where the team saw it made ("light" | "area", map id,
        #: centre): a darkness cast onto the team's own square puts its centre out of the team's sight,
        #: and was then drawn nowhere and logged "somewhere out of sight" after "uses Darkness at (2, 2)".
        #: Each team's own (a hot seat's next team was shown a light the other team saw made, and told
        #: where): ``witnessed`` is the team's whose sight the fog last read
        self._witnessed: dict[str, set[tuple[str, int, int, int]]] = {}
        self._made: dict[str, frozenset[tuple[str, int, int, int]]] = {}  # those on the map at its last reading
        #: each team's last-seen squares of the creatures it does not see now (``ui.seen_at``, its "?"
        #: rings): one for every seat drew the next team a ring where only the other team saw a creature
        self._seen_at: dict[str, dict[int, tuple[int, int]]] = {}
        #: each team's sight at its own last reading and how many events there were then: a hot seat's
        #: team reads the other seat's turns against what it saw when it last looked (the last reading
        #: of all, the other team's, told it nothing, and a darkness cast onto squares it saw went unseen)
        self._read: dict[str, tuple[Any, int]] = {}

    def note_turn(self, ui: UiState, new_turn: bool) -> None:
        """At a turn's start remember who is hidden; later, note whether any of them came into sight
        (the GM view, which shows everyone, does not count)."""
        if new_turn:
            self.turn_hidden, self.revealed = ui.hidden, False
        elif ui.visible is not None and self.turn_hidden - ui.hidden:
            self.revealed = True

    @property
    def witnessed(self) -> frozenset[tuple[str, int, int, int]]:
        """What the team the fog last read saw made (see ``_witnessed``): a copy, read only."""
        return frozenset(self._witnessed.get(self.team or "", ()))

    def forget(self) -> None:
        """Ask the battle again next time (after an undo its counters may come round again, and no
        team's last reading is of the events the record now holds)."""
        self._key = self._mask = None
        self._read.clear()

    def start_over(self) -> None:
        """Another battle (a load, a reload, a rewind): what the team saw made was the old one's."""
        self.forget()
        self._witnessed.clear()
        self._made.clear()
        self._seen_at.clear()

    def _witness(self, battle: Any, team: str, ours: frozenset[int], since: int | None, before: Any,
                 after: Any) -> None:
        """Note the lights and areas made since the last reading (the events from ``since`` on) whose
        centre the team surely saw as each was made (``game.render.sight``: ``before``, its sight at
        the last reading, only while nothing since may have narrowed it; ``after``, its sight now, once
        nothing may widen it); they are known to it wherever its sight is now. Its sight before alone
        counted a light as seen that an enemy it never saw cast around itself in a darkness made over
        squares the team saw before: the light was drawn whole and told where, on that enemy's square."""
        terrain, witnessed = battle.terrain, self._witnessed.setdefault(team, set())
        made = frozenset(made_key(battle, (kind, made_id)) for kind, held in (("light", terrain.lights),
                         ("area", terrain.areas)) for made_id in held)
        events = battle.state.events
        if before is not None and since is not None and since <= len(events):
            new = events[since:]
            sights = sure_sight(new, ours.__contains__, before, after, veils_of(events))
            assert sights is not None
            seen: dict[tuple[str, int, int], bool] = {}  # each place made at: seen every time it was made there
            for sight, event in zip(sights, new):  # (the sight just before the event)
                if isinstance(event, AreaCreated):
                    place = (event.what, event.x, event.y)
                    seen[place] = seen.get(place, True) and bool(sight[event.x, event.y])
            new_made = made - self._made.get(team, frozenset())
            witnessed.update(m for m in new_made if seen.get((m[0], m[2], m[3]), False))
        witnessed &= made
        self._made[team] = made

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
            ui.team_visible, ui.sight_team = None, None
            return
        state = b.state
        ours = frozenset(e for e in b.creatures() if b.team(e) == team)  # (asked once a frame, for all below)
        key = (team, len(state.events), state.positions_version, b.round, len(b.command_log), b.terrain.version)
        if key != self._key or self._mask is None:
            # the sight before these events and how many there were, at this team's own last reading
            before, since = self._read.get(team, (None, None))
            # a team the scenario names but gives no creature sees nothing (the battle knows no such team)
            self._key, self._mask = key, b.visible_squares(team) if ours else np.zeros((b.width, b.height), dtype=bool)
            self._witness(b, team, ours, since, before, self._mask)
            self._read[team] = (self._mask, len(state.events))
        mask = self._mask
        ui.seen_at = self._seen_at.setdefault(team, {})  # (the seated team's)
        hidden = set()
        for e in b.creatures():
            if e in ours:
                continue
            square = b.get(e, Position).square
            if mask[square]:
                ui.seen_at[e] = square
                continue
            hidden.add(e)
            last = ui.seen_at.get(e)
            if last is not None and mask[last]:  # that square is in sight now, and it is not there
                del ui.seen_at[e]
        ui.team_hidden, ui.team_visible, ui.sight_team = frozenset(hidden), mask, team
        witnessed = self._witnessed.get(team, set())
        ui.unseen_sources = frozenset(source for source in unseen_sources(b, ours, mask)
                                      if made_key(b, source) not in witnessed)
        # the GM view shows everything; the team's log and last-seen marks go on as the team sees
        ui.visible, ui.hidden = (None, frozenset()) if ui.gm_view else (mask, ui.team_hidden)


def made_key(battle: Any, source: tuple[str, int]) -> tuple[str, int, int, int]:
    """A light or an area on the map (``("light" | "area", map id)``) with its centre: an id an undone
    or rewound one had may come round again for another."""
    kind, made_id = source
    made = (battle.terrain.lights if kind == "light" else battle.terrain.areas)[made_id]
    return kind, made_id, made.x, made.y


def unseen_sources(battle: Any, ours: frozenset[int], seen: Any) -> frozenset[tuple[str, int]]:
    """The lights and areas on the map (``("light" | "area", map id)``) that a team (``ours``: its
    creatures) did not see made: a power's or a script's, of a creature not on the team, centred on a
    square the team does not see (``seen``: its sight now), as ``battle.veil_makers`` tells who made
    which. The map's own (the scenario's, the GM's) are known to every side. Drawn whole, such a light
    put a torch and a glow on the square of the enemy out of sight that made it around itself, and
    the log said where."""
    return frozenset(made for made, (maker, (x, y)) in battle.veil_makers().items()
                     if maker not in ours and not seen[x, y])
