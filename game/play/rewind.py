"""The GM's rewind: the battle as it was at the start of any round, rebuilt from the seed and the log.

Why rebuild rather than keep snapshots: a battle is its seed and its command log (the window's
turns, the person's orders and the computer's are all logged), so building the scenario again and
feeding it the log up to a round's start gives that moment exactly, however long ago it was, with
no memory kept per round. The computer players draw from generators derived from the seed, the
round and the actor (``game.ai.turn_rng``), so a rewound round played on with the same inputs
gives the same log again. Nothing here decides a rule: the rebuilt battle is the battle's own
replay.

Keys (see :mod:`game.play.controls`): R opens the round picker (digits type a round, PageUp and
PageDown step one round back or on), Enter rewinds, Esc cancels; PageUp or PageDown alone open it
one round back or on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from game.content.rebuild import rebuilt
from game.play.controls import keypad

if TYPE_CHECKING:
    from game.play.app import App

#: The log entries that begin a round: a window's turn steps, or a whole round played at once.
ROUND_STARTS = ("begin_round", "tick")


def round_starts(log: Sequence[Any], build: int = 0) -> list[int]:
    """Where each round begins in a command log: the index of round 1's entry first.

    Args:
        log: ``battle.command_log``.
        build: how many of its entries built the scenario (none of those begins a round).
    """
    return [i for i in range(build, len(log)) if log[i][0] in ROUND_STARTS]


def round_start_length(log: Sequence[Any], round_no: int, build: int = 0) -> int:
    """How much of the log to replay for the start of round ``round_no``: through its
    ``begin_round`` (its first turn begun, as the window shows a round), or up to its ``tick``
    (a round played whole is not yet played at its start).

    Raises:
        ValueError: the log has no such round.
    """
    starts = round_starts(log, build)
    if not 1 <= round_no <= len(starts):
        raise ValueError(f"no round {round_no} to rewind to: rounds 1 to {len(starts)} were begun"
                         if starts else "no round has begun yet: nothing to rewind to")
    index = starts[round_no - 1]
    return index + 1 if log[index][0] == "begin_round" else index


def rebuild(battle: Any, scenario: Any, build_commands: int, length: int) -> Any:
    """A new battle: the scenario built again on the battle's seed (or, with no scenario, an empty
    battle of its size and rules), fed the first ``length`` entries of the battle's command log.

    The old battle is only read. Raises what the replay raises (a refused command, a scenario
    that no longer builds) after closing the new battle.
    """
    log = list(battle.command_log[:length])
    if scenario is None:
        return type(battle).replay(battle.seed, battle.width, battle.height, battle.rules, log, powers=battle.powers)
    fresh = rebuilt(scenario, battle.seed, battle.powers if battle.power_overrides else None,
                    battle.power_overrides, build_commands)
    try:
        fresh.follow(log[build_commands:], first=build_commands)
    except BaseException:
        fresh.close()
        raise
    return fresh


def rewind(app: App, round_no: int) -> str:
    """Put the app's battle back to the start of round ``round_no`` (see :func:`rebuild`).

    The current battle is replaced only once the rebuilt one is ready; on any failure it is kept
    and the returned line says why. The computer's reasons for turns before that point are kept.

    Returns:
        What was done, or why not, in a line for the status bar.
    """
    old = app.battle
    try:
        length = round_start_length(old.command_log, round_no, app.build_commands)
        fresh = rebuild(old, app.scenario, app.build_commands, length)
    except ValueError as err:
        return f"Rewind refused: {err}"
    kept = {at: lines for at, lines in app.flow.reasons.items() if at < len(fresh.events)}
    app.fog.forget()
    app.replace_battle(fresh)
    app.flow.reasons.update(kept)
    if old is not fresh:
        old.close()
    return f"GM rewind: back to the start of round {round_no} (rebuilt from seed {fresh.seed} and the log)"


class RoundPicker:
    """The round the GM is choosing to rewind to, while the picker is open.

    Attributes:
        active: the picker has the keys (digits, PageUp/PageDown, Enter, Esc, Backspace).
        round: the round chosen so far.
        typed: the digits typed since it opened.
    """

    def __init__(self) -> None:
        self.active = False
        self.round = 1
        self.typed = ""

    def rounds(self, app: App) -> int:
        """How many rounds the battle has begun (the latest one may be picked)."""
        return len(round_starts(app.battle.command_log, app.build_commands))

    def open(self, app: App, step: int = 0) -> None:
        """Open on the current round, moved by ``step`` (PageUp: -1, PageDown: +1)."""
        most = self.rounds(app)
        if most == 0:
            app.ui.message = "Rewind: no round has begun yet"
            return
        self.active, self.typed = True, ""
        self.round = max(1, min(most, max(1, app.battle.round) + step))
        self._prompt(app)

    def key(self, app: App, name: str) -> None:
        """A key while the picker is open."""
        digit = keypad(name)
        most = self.rounds(app)
        if digit.isdigit() and len(digit) == 1:
            self.typed = (self.typed + digit)[-4:]
            self.round = int(self.typed) if int(self.typed) > 0 else self.round
        elif name == "backspace":
            self.typed = self.typed[:-1]
            if self.typed and int(self.typed) > 0:
                self.round = int(self.typed)
        elif name in ("page up", "pageup", "up"):
            self.typed, self.round = "", max(1, min(most, self.round - 1))
        elif name in ("page down", "pagedown", "down"):
            self.typed, self.round = "", max(1, min(most, self.round + 1))
        elif name in ("return", "enter"):
            self.active = False
            app.ui.message = rewind(app, self.round)
            return
        elif name == "escape":
            self.active = False
            app.ui.message = "Rewind cancelled"
            return
        self._prompt(app)

    def _prompt(self, app: App) -> None:
        """Say in the status bar what Enter would do."""
        most = self.rounds(app)
        where = f"round {self.round}" if self.round <= most else f"round {self.round} (only {most} begun)"
        app.ui.message = (f"GM rewind to the start of {where} of {most}: digits or PageUp/PageDown pick, "
                          f"Enter rewinds, Esc cancels")
