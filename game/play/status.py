"""The status bar's line while the computer plays: what the person's own last input said stays in
front of the computer's turns for a few seconds, and each computer step says what it did.

The computer plays on the window's clock, a turn every ``COMPUTER_DELAY`` seconds. A line that a
person's key or click put in the status bar (saved, loaded, the animation speed, the GM view, a
refusal) used to be written over by the next computer turn's line, so a person who pressed Ctrl+S
while the computer played never read that the battle was saved. :class:`StatusLine` holds such a
line for :data:`HOLD_S` seconds of the window's clock, and :func:`step_line` says what one step of
the computer did: a turn (or "someone unseen" took one), a round begun, and the person's creatures
whose turns passed because they cannot act; :func:`start_line`, what the person is told as combat
starts. No pygame here, and nothing decides a rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from systems.rounds import surprise_rounds

#: Seconds a line of the person's own input stays in front of the computer's turns.
HOLD_S = 4.0
#: Between the person's held line and the computer's.
JOIN = " | "


class StatusLine:
    """The person's last line, held against the computer's narration until a clock time."""

    def __init__(self) -> None:
        self.held = ""
        self.until = 0.0
        #: how many times the person passed the turn to the computer (an input that did is not held)
        self.releases = 0

    def hold(self, line: str, now: float) -> None:
        """Keep ``line`` (what the person's input just said) in front until ``now + HOLD_S``."""
        self.held, self.until = line, now + HOLD_S

    def release(self) -> None:
        """Hold nothing: the person ended a turn or asked the computer to play, so what it does now is
        the news."""
        self.held = ""
        self.releases += 1

    def compose(self, line: str, now: float) -> str:
        """``line`` (the computer's) behind the held one while it is held, else ``line`` alone."""
        if self.held and now < self.until:
            return f"{self.held}{JOIN}{line}" if line else self.held
        self.held = ""
        return line


def step_line(flow: Any, round_no: int, shows: Callable[[int], bool], sees_all: bool = True) -> str:
    """What the computer's last step did, in a line: a round begun, or the turn it played (by a
    creature the person does not see: someone unseen), then the person's creatures whose turns passed.

    Args:
        flow: the window's ``game.play.flow.TurnFlow`` after its step.
        round_no: the battle's round now.
        shows: whether the person may see a creature (fog of war).
        sees_all: whether the person sees the whole battle (no fog of war, or the GM view): only then
            does a refused order's line give the battle's reason, which may name a square or a
            creature out of the team's sight (a refused move "to (8, 4): square (8, 4) is taken by
            another creature" told the team where it could not see, and that someone stood there).
    """
    if flow.began_round:
        parts = [f"Round {round_no} begins"]
    else:
        last = flow.last
        said = flow.said if sees_all or not flow.refused else flow.refused
        parts = [said if last is None or shows(last) else "Someone unseen took a turn"]
    parts += flow.passed
    return ". ".join(part for part in parts if part)


def start_line(battle: Any, surprised: Sequence[str]) -> str:
    """What the person is told as combat starts: which of its creatures (``surprised``: their names) are
    surprised and in which rounds they cannot use powers (the rules' count, ``systems.rounds``: it said
    "in round 1" under a scenario's ``surprise_rounds = 2``), or that its creatures act on their turns."""
    if not surprised:
        return "Combat starts: your creatures act on their turns"
    first, last = surprise_rounds(battle.state)
    rounds = f"round {first}" if first == last else f"rounds {first}-{last}"
    return f"Surprised: {', '.join(surprised)} cannot use powers in {rounds}"


def decided_line(won: str, round_no: int) -> str:
    """What a decided battle's banner says, the same in the play window and the replay window:
    "Red won in round 6", or that nobody is left standing (``won`` is "": every team is down). The
    team's first letter is raised and the rest kept as written ("NorthWatch", not "Northwatch")."""
    if won == "":
        return f"Nobody is left standing (round {round_no})"
    return f"{won[:1].upper()}{won[1:]} won in round {round_no}"
