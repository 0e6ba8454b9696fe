"""A combat log line's parts besides its sentence: the prefix that says when it happened, and its
tone, what kind of thing it tells (a death, a fall, a hit, ...), decided from its event when the line
is written, so that a reader showing kinds apart (the window's colours) never searches the line's
words, which hold creatures' and powers' names ("Hit Dies" is a name)."""

from __future__ import annotations

from enum import Enum
from typing import Any

from components.events import (
    AttackRolled,
    CombatStarted,
    ConditionGained,
    Damaged,
    Died,
    Downed,
    Fell,
    InitiativeRolled,
    Landed,
)


def round_prefix(round_: int) -> str:
    """What a log line starts with: its round ("Round 3: "), or "Setup: " for what happened before the
    first round. Every line of the log says it so, whoever writes the line (the log's formatter, the
    window's fog, the demo's cover notes)."""
    return f"Round {round_}: " if round_ else "Setup: "


class Tone(Enum):
    """What kind of thing a log line tells, for a reader that shows kinds apart (the window's colours):
    decided from the event, never from the line's words, which hold creatures' and powers' names."""

    PLAIN = "plain"
    DEATH = "death"  # downed, dead
    FALL = "fall"  # a fall, and the landing's damage folded into its line
    HIT = "hit"  # damage taken, an attack that hits
    ALERT = "alert"  # surprised, flat-footed, prone
    SETUP = "setup"  # combat starts, initiative
    NOTE = "note"  # a line put between the events' own (the computer player's reasons: --explain)


#: The conditions whose gain is an ALERT line.
ALERT_CONDITIONS = frozenset({"surprised", "flat-footed", "prone"})


class LogLine(str):
    """A log line (a ``str``, read and compared as its text) that carries the :class:`Tone` of the
    event it tells. A line built another way (a note, a window's own words) is a plain ``str``:
    :func:`tone_of` calls it PLAIN."""

    tone: Tone

    def __new__(cls, text: str, tone: Tone = Tone.PLAIN) -> LogLine:
        line = super().__new__(cls, text)
        line.tone = tone
        return line


def tone_of(line: str) -> Tone:
    """The tone of a log line: its event's for one :func:`format_events` wrote, else PLAIN."""
    return line.tone if isinstance(line, LogLine) else Tone.PLAIN


def event_tone(event: Any) -> Tone:
    """The tone of the line telling ``event``."""
    if isinstance(event, Died | Downed):
        return Tone.DEATH
    if isinstance(event, Fell | Landed):
        return Tone.FALL
    if isinstance(event, Damaged) or (isinstance(event, AttackRolled) and event.hit):
        return Tone.HIT
    if isinstance(event, ConditionGained) and event.condition in ALERT_CONDITIONS:
        return Tone.ALERT
    if isinstance(event, CombatStarted | InitiativeRolled):
        return Tone.SETUP
    return Tone.PLAIN
