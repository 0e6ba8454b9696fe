"""A replay as a timeline: where each round, turn and event falls, and the battle at any point of it.

A replay file is a scenario, a seed and the commands given after the build. One pass plays them
forward and notes, after each command, how many events there are and which round and turn it
is (a :class:`Stop`); the round and turn marks are the events that begin them. A cursor is an
event count: the battle shown for it is the one after the first command whose events reach it.
Going forward applies the next commands to the battle shown; going back rebuilds it from the seed
and the first commands, so every point is exact (no state is kept per point, and nothing here
knows a rule: the battle replays itself).

What a point can show is bounded by the log's grain: a window's save steps turn by turn, so every
turn is a point; a replay played with whole ``tick`` rounds (simulations, the demo) has one point
per round, and its turn marks then show the round's end board.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from components.events import RoundStarted, TurnStarted
from game.content.rebuild import past_the_file, rebuilt


@dataclass(frozen=True, slots=True)
class Stop:
    """The battle after some of a replay's commands.

    Attributes:
        commands: how many of the post-build commands were applied.
        events: how many events the battle had then.
    """

    commands: int
    events: int


@dataclass(frozen=True, slots=True)
class Position:
    """Where the cursor is, as the window's timeline shows it (drawn by ``game.render.notice``)."""

    event: int
    events: int
    round: int
    turn: int
    playing: bool
    round_marks: tuple[int, ...]


def _marks(events: Sequence[Any]) -> tuple[list[int], list[int]]:
    """Event counts at which each round and each turn begin (the count just after its event).

    A round begins, as the window shows one, with its first turn begun (its start's events
    resolved); a round in which nobody took a turn begins at its ``RoundStarted``.
    """
    turns = [i + 1 for i, e in enumerate(events) if isinstance(e, TurnStarted)]
    rounds, pending = [], None
    for i, e in enumerate(events):
        if isinstance(e, RoundStarted):
            if pending is not None:
                rounds.append(pending)
            pending = i + 1
        elif isinstance(e, TurnStarted) and pending is not None:
            rounds.append(i + 1)
            pending = None
    if pending is not None:
        rounds.append(pending)
    return rounds, turns


class Timeline:
    """A replay's commands, the points between them, and the battle at the cursor.

    Args:
        scenario: the scenario the replay was made on (``game.content.saves.read_replay``).
        seed: the battle's seed.
        commands: the commands given after the build, as ``(name, args, kwargs)``.
        powers: the power table the battle was played with, when a sweep changed it (its
            ``powers.ID.KEY`` overrides are ``power_overrides``); None for the scenario's own.
        build_commands: how many commands the recorded battle was built with, when known.
        most_events: how many events the file holds, when known: the timeline ends at the command
            whose events pass it (nothing after could match the file, and a file of millions of
            ticks after its battle's end played them all before the window showed anything).

    Raises:
        ValueError: the scenario does not build (or builds with other than ``build_commands``
            commands), or a command is refused on replay.
    """

    def __init__(self, scenario: Any, seed: int, commands: Sequence[Any], powers: Mapping[str, Any] | None = None,
                 power_overrides: tuple[tuple[str, Any], ...] = (), build_commands: int | None = None,
                 most_events: int | None = None) -> None:
        self.scenario, self.seed, self.commands = scenario, seed, list(commands)
        self.build_commands = build_commands
        #: the whole log's index of the first command after the build (errors name entries by it, as a save does)
        self.first_entry = build_commands or 0
        #: each command's signature, worked out once for all the entries the cursor plays (Battle.follow)
        self.signatures: dict[str, Any] = {}
        self.powers, self.power_overrides = (None if powers is None else dict(powers)), power_overrides
        battle = self._build()
        try:
            self.stops = [Stop(0, len(battle.state.events))]
            for index, command in enumerate(self.commands, start=1):
                battle.follow([command], first=self.first_entry + index - 1, signatures=self.signatures)
                self.stops.append(Stop(index, len(battle.state.events)))
                if past_the_file(battle, most_events):
                    del self.commands[index:]
                    break
            self.final_events = list(battle.state.events)
        finally:
            battle.close()
        self.round_marks, self.turn_marks = _marks(self.final_events)
        self.battle = self._build()
        self.shown = 0  # how many commands the shown battle has had
        self.event = self.stops[0].events
        self.playing = False

    # ------------------------------------------------------------------ building

    def _build(self) -> Any:
        """The scenario built on the seed, with the power table the recorded battle was played with."""
        return rebuilt(self.scenario, self.seed, self.powers, self.power_overrides, self.build_commands)

    def battle_after(self, commands: int) -> Any:
        """A new battle: the scenario built on the seed and fed the first ``commands`` commands
        (what the window shows for that point; the caller closes it; closed here if a command fails)."""
        battle = self._build()
        try:
            battle.follow(self.commands[:commands], first=self.first_entry, signatures=self.signatures)
        except BaseException:
            battle.close()
            raise
        return battle

    # ------------------------------------------------------------------ where the cursor is

    @property
    def first(self) -> int:
        """The first event a cursor can show: the build's events."""
        return self.stops[0].events

    @property
    def total(self) -> int:
        """Every event of the replay."""
        return len(self.final_events)

    def stop_for(self, event: int) -> int:
        """How many commands the battle needs to have had event ``event`` (the first such point)."""
        counts = [s.events for s in self.stops]
        return self.stops[min(len(self.stops) - 1, bisect_left(counts, event))].commands

    def position(self) -> Position:
        """The cursor as the timeline shows it: the round and the turn it is in."""
        rounds = bisect_right(self.round_marks, self.event)
        start = self.round_marks[rounds - 1] if rounds else 0
        turn = sum(1 for m in self.turn_marks if start <= m <= self.event) if rounds else 0
        return Position(self.event, self.total, rounds, turn, self.playing, tuple(self.round_marks))

    def event_line(self) -> Any:
        """The event just before the cursor (what the status bar describes), None before any."""
        return self.final_events[self.event - 1] if self.event > 0 else None

    # ------------------------------------------------------------------ moving

    def go(self, event: int) -> None:
        """Put the cursor on ``event`` (clamped) and the battle at its point: forward by applying
        the next commands, back by a rebuild from the seed."""
        self.event = max(self.first, min(self.total, event))
        wanted = self.stop_for(self.event)
        if wanted < self.shown:
            old, self.battle = self.battle, self.battle_after(wanted)
            old.close()
        else:
            self.battle.follow(self.commands[self.shown:wanted], first=self.first_entry + self.shown,
                               signatures=self.signatures)
        self.shown = wanted

    def step_event(self, step: int) -> None:
        """One event on (1) or back (-1)."""
        self.go(self.event + step)

    def _step_marks(self, marks: Sequence[int], step: int) -> None:
        if step > 0:
            later = [m for m in marks if m > self.event]
            self.go(later[0] if later else self.total)
        else:
            earlier = [m for m in marks if m < self.event]
            self.go(earlier[-1] if earlier else self.first)

    def step_turn(self, step: int) -> None:
        """To the next turn's start (1), or back to the previous one (-1)."""
        self._step_marks(self.turn_marks, step)

    def step_round(self, step: int) -> None:
        """To the next round's start (1), or back to the previous one (-1)."""
        self._step_marks(self.round_marks, step)

    def close(self) -> None:
        self.battle.close()
