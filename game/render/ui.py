"""What the player is doing, as plain data the renderer shows: no pygame here.

The window application (``game.play.app``) owns a :class:`UiState` and changes it as the player
clicks; the renderer only reads it. ``shown_powers`` answers a question both sides ask (which powers
a creature shows on keys 1-9) the same way, so what is drawn and what a key does can never disagree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: A square of the map, ``(x, y)``.
Square = tuple[int, int]


#: What the end banner says can still be done: it named only Ctrl+L (a save there may be none of)
#: and closing the window, not the rewind and the reload that play a decided battle on.
BANNER_HINT = "R: rewind to a round   F5: play it again   Ctrl+L: load the last save   Ctrl+Q: quit"


def banner_hint(reloads: bool, saved: bool) -> str:
    """:data:`BANNER_HINT`, less what this window cannot do: F5 without a scenario file to read
    again, Ctrl+L without a save to load."""
    return "   ".join(word for word in BANNER_HINT.split("   ")
                      if (reloads or not word.startswith("F5")) and (saved or not word.startswith("Ctrl+L")))


@dataclass
class UiState:
    """What the player is doing, which the renderer shows (the window application owns and changes it)."""

    selected: int | None = None
    power: str | None = None
    hover: Square | None = None
    message: str = ""
    #: lines of the combat log scrolled back from the newest (0: the newest lines show)
    log_scroll: int = 0
    #: shown across the map when set (the battle is over)
    banner: str = ""
    #: under the banner, what can still be done (:func:`banner_hint`)
    banner_hint: str = ""
    show_help: bool = False
    #: the file Ctrl+S writes (the help names it)
    save_path: str = ""
    #: an error to show in a box over the map until dismissed (a hot reload that failed)
    error: str = ""
    #: a replay's position (``game.play.timeline.Position``), drawn as a timeline; None: no replay
    timeline: Any = None
    human_teams: frozenset[str] = frozenset()
    title: str = ""
    #: whose turn it is and who acts after it this round (the turn strip's "now" and "next")
    actor: int | None = None
    up_next: tuple[int, ...] = ()
    #: ``battle.forecast`` of the chosen power at the hovered target or point (None: none asked)
    forecast: Any = None
    #: ``battle.foresee_script`` of that use's script: on_use, then on_hit on each target (None: none)
    foresight: Any = None
    #: ``battle.forecast_move`` of the selected creature to the hovered square
    move_preview: Any = None
    #: fog of war: the squares the person's team sees (None: everything is shown) ...
    visible: Any = None
    #: ... the creatures off them (not drawn, not named), and where those were last seen
    hidden: frozenset[int] = frozenset()
    #: the creatures the person's team does not see, in the GM view too (which shows them, and has
    #: ``hidden`` empty): what the team's own log leaves out, so that a look in the GM view never
    #: writes into it what the team did not see
    team_hidden: frozenset[int] = frozenset()
    #: the squares the person's team sees, in the GM view too (None: no fog): where the team's log
    #: finds an enemy it does not see now standing in its sight for a while (out of a darkness and back)
    team_visible: Any = None
    #: the team whose sight ``team_visible`` is (None: no fog): which creatures' moves change it
    sight_team: str | None = None
    #: the lights and areas (``("light" | "area", map id)``) the team did not see made: a power's or a
    #: script's of a creature not on the team, centred on a square it does not see (the squares out of
    #: its sight are drawn without them, and the log does not say where they are)
    unseen_sources: frozenset[tuple[str, int]] = frozenset()
    #: the computer's reasons to show in the GM's log (event index -> lines), or None (``--explain`` off)
    notes: Mapping[int, Sequence[str]] | None = None
    seen_at: dict[int, Square] = field(default_factory=dict)
    #: the GM view: fog lifted, everything shown
    gm_view: bool = False
    #: the buttons shown under the side panel, by name (what a click on one sends)
    buttons: tuple[str, ...] = ()
    #: the animations at this instant (a ``game.render.frames.MotionFrame``; None: none shown)
    motion: Any = None

    def shows(self, entity: int) -> bool:
        """Whether the person may see this creature now (fog of war)."""
        return entity not in self.hidden



def shown_powers(battle: Any, entity: int, powers: Mapping[int, tuple[str, ...]] | None) -> list[str]:
    """The powers shown (and bound to keys 1-9) for a creature: the scenario's list when it gives one.

    Args:
        battle: the battle (its ``powers_of`` says what the creature knows).
        entity: the creature.
        powers: a scenario's entity -> power ids, or None to show everything the creature knows.
    """
    own = battle.powers_of(entity)
    if powers is not None and entity in powers:
        own = [p for p in own if p in powers[entity]] or list(powers[entity])
    return own
