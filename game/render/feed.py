"""What the renderer takes from the battle's new events: log lines, display names, landings.

Each frame looks only at the events added since the last one. A ``Spawned`` refreshes the names
(and the two-letter token labels made from them); a ``Landed`` starts a short drop animation and a
"fell N ft" mark for the rest of the round; every event goes through the combat log formatter.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from components import Position
from components.events import (
    CREATURE_FIELDS,
    AreaCreated,
    CommandRefused,
    Landed,
    Moved,
    PowerUsed,
    Pushed,
    Spawned,
    Teleported,
)
from game.battle.log import area_centre_words, format_events, format_with_notes, point_words
from game.battle.log_lines import round_prefix
from game.battle.naming import display_names
from game.render.sight import sure_sight, veils_of

_LOG_KEEP, _LOG_MAX = 1000, 2000
#: how the log names a creature the person's team does not see
UNSEEN = "someone unseen"
#: a light or an area where it was made: ("light" | "area", x, y)
Place = tuple[str, int, int]


def named(event: Any) -> list[int]:
    """The creatures an event names."""
    return [
        v for v in (getattr(event, f, None) for f in CREATURE_FIELDS) if isinstance(v, int) and not isinstance(v, bool)
    ]


@dataclass(frozen=True, slots=True)
class Fall:
    """A landing to show: where, how far and in which round (the map marks it for that round; the
    token's drop itself is the animation timeline's, ``game.play.motion``)."""

    square: tuple[int, int]
    feet: float
    round: int


def token_label(name: str) -> str:
    """Two letters for a token: the last word tells creatures of one team apart ("Red sentry" /
    "Red slinger": Se / Sl); a numbered name keeps its number ("Raider 2": R2)."""
    words = name.split() or ["?"]
    if len(words) > 1 and words[-1].isdigit():
        return words[0][:1].upper() + words[-1][:2]
    return words[-1][:2].capitalize()


def token_labels(names: dict[int, str]) -> dict[int, str]:
    """Entity -> token label, different for every creature where the names allow: creatures whose
    last words clash ("West archer", "East archer") get the initials of their words (WA, EA), where
    those tell them apart. Initials that clash too are not taken: a knight numbered 3 on each side of
    18 "Sir Bartholomew ... number N" made every one of the 18 "SB", where "S3" and "S6" (one of each
    in a team's colour) had told all but the two of a number apart."""
    labels = {e: token_label(name) for e, name in names.items()}
    counts = Counter(labels.values())
    initials = {e: "".join(w[:1].upper() for w in names[e].split()[:2]) for e, label in labels.items()
                if counts[label] > 1 and len(names[e].split()) > 1}
    taken = Counter(label for e, label in labels.items() if e not in initials) + Counter(initials.values())
    labels.update({e: mark for e, mark in initials.items() if taken[mark] == 1})
    return labels


def _shared_start(old: Sequence[Any], new: Sequence[Any]) -> int:
    """How many events two records share from the first one on (a rewind's or a load's battle
    replays the same events up to where it parts from the old one)."""
    shared = 0
    for before, now in zip(old, new):
        if before != now:
            break
        shared += 1
    return shared


class _Mark(NamedTuple):
    """How far the log had got after one reading: events read, and lines written in all (the GM's
    and the team's), with the last event read (to know the record still holds it)."""

    events: int
    lines: int
    seen_lines: int
    last: Any


def told_as_seen(battle: Any, events: Sequence[Any], names: dict[int, str], arrived: frozenset[int],
                 unseen_at: frozenset[Place] = frozenset(), out: Sequence[frozenset[int]] | None = None,
                 sights: Sequence[Any] | None = None, theirs: frozenset[int] = frozenset()) -> list[str]:
    """The team's lines for ``events``: a creature that was out of its sight and walked into it
    (``arrived``) "comes into sight" where its last move ended. A move's own line would name the square
    it set off from and the feet it walked, where the team did not see it; its earlier moves (the
    first leg of a way round, through the fog) are not said at all. A light or an area made where the
    team did not see it made (``unseen_at``: kind and centre) is told without its centre, which was
    the square of the enemy out of sight that made it around itself.

    ``out``, one set before the events and one after each: the creatures out of the team's sight
    (named as someone unseen; an event about them alone is left out). One that is out of sight before and
    after these events but stepped into it between them (out of a darkness, to strike and back)
    "comes into sight" where it stepped, is named while it stands there, and "goes out of sight"
    when it steps away: it was someone unseen who struck, though the team watched it strike. One in
    sight before these events and out of it after them is named until it steps out of sight, and
    "goes out of sight" then.

    ``theirs``, the creatures not on the team, with ``sights`` (what the team surely saw before each
    event, ``game.render.sight.sure_sight``): one of them seen aiming a use at a square the team did not
    see is told using it "somewhere out of sight" (the log said "uses Blink at (12, 3)" of one that
    then went out of sight, and "uses Darkness at (8, 5)" before "Area fills 10 ft somewhere out of
    sight"), and an order of theirs the rules refused is told without the battle's reason, which may
    name a square or a creature out of sight ("its way steps off a ledge at (7, 4), where another
    creature stands")."""
    lines: list[str] = []
    run: list[Any] = []
    run_out: frozenset[int] = frozenset()
    last = {event.entity: i for i, event in enumerate(events) if isinstance(event, Moved) and event.entity in arrived}

    def flush() -> None:
        lines.extend(format_events(battle, run, {**names, **dict.fromkeys(run_out, UNSEEN)}))
        run.clear()

    for i, event in enumerate(events):
        before, now_out = (out[i], out[i + 1]) if out is not None else (frozenset(), frozenset())
        if now_out != run_out:
            flush()
            run_out = now_out
        who = set(named(event))
        if isinstance(event, Moved | Pushed | Teleported) and (event.entity in before) != (event.entity in now_out):
            name = names.get(event.entity) or battle.display_name(event.entity)
            x, y = event.to_square
            lines.append(f"{round_prefix(event.round)}{name} " + (
                f"comes into sight at ({x}, {y})" if event.entity in before else "goes out of sight"))
        elif who and who <= now_out:
            continue  # (only about creatures out of the team's sight)
        elif isinstance(event, AreaCreated) and (event.what, event.x, event.y) in unseen_at:
            flush()
            centre = area_centre_words(event)  # (a line that would not say it is left out: it could tell where)
            lines.extend(line.replace(centre, " somewhere out of sight")
                         for line in format_events(battle, [event], names) if centre in line)
        elif isinstance(event, PowerUsed) and event.entity in theirs and sights is not None \
                and event.point is not None and not sights[i][tuple(event.point)]:
            flush()
            aim = point_words(event)
            lines.extend(line.replace(aim, " somewhere out of sight")
                         for line in format_events(battle, [event], {**names, **dict.fromkeys(now_out, UNSEEN)}))
        elif isinstance(event, Moved) and event.entity in last:
            if last[event.entity] != i:
                continue  # (a leg before the one that ends where the team sees it)
            flush()
            x, y = event.to_square
            name = names.get(event.entity) or battle.display_name(event.entity)
            lines.append(f"{round_prefix(event.round)}{name} comes into sight at ({x}, {y})")
        else:
            run.append(without_reason(event) if isinstance(event, CommandRefused) and event.entity in theirs else event)
    flush()
    return lines


def without_reason(event: CommandRefused) -> CommandRefused:
    """A refused order as a team other than its creature's is told it: what kind of order it was
    ("move", "use darkness", "stand"), not where to, and not the battle's reason."""
    command = "move" if event.command.startswith("move") else event.command
    return replace(event, command=command, reason="the rules refused its order")


def out_of_sight(events: Sequence[Any], candidates: frozenset[int], sights: Any,
                 starts: Mapping[int, tuple[int, int]]) -> list[frozenset[int]]:
    """The creatures out of the team's sight before ``events`` and after each of them: of
    ``candidates`` (every creature not on the team), each one whose square at that moment (``starts``:
    where each stood before the events, then where its moves took it) the team did not surely see
    then (``sights``: one mask before the events and one after each, ``game.render.sight.sure_sight``).

    Its square alone decides, as it does for the fog now: an enemy that struck in plain sight and
    walked off into the fog was someone unseen who struck; one a darkness fell over is unseen from
    then on, as is one that walked into a darkness made over squares the team saw before it; one over
    which a darkness ended is named for what it then does where the team sees it, though it never
    moved; and one the team saw before and after these events is not named nor placed where it went
    out of sight between. Without ``sights`` (no fog), ``candidates`` throughout."""
    if sights is None:
        return [candidates] * (len(events) + 1)
    where = dict(starts)

    def unseen_in(sight: Any) -> frozenset[int]:
        return frozenset(e for e in candidates if not sight[where[e]])

    found = [unseen_in(sights[0])]
    # (the masks are shared, a few in a batch: each candidate is looked at again only where the mask
    # changes, so a long record read at once, after a load, costs a look per event, not one per creature)
    for sight, last, event in zip(sights[1:], sights, events, strict=False):
        moved = event.entity if isinstance(event, Moved | Pushed | Teleported) and event.entity in candidates else None
        if moved is not None:
            where[moved] = event.to_square
        if sight is not last:
            found.append(unseen_in(sight))
        elif moved is not None:
            found.append(found[-1] - {moved} if sight[where[moved]] else found[-1] | {moved})
        else:
            found.append(found[-1])
    return found


def starting_squares(battle: Any, events: Sequence[Any], creatures: frozenset[int]) -> dict[int, tuple[int, int]]:
    """Where each of ``creatures`` stood before ``events``: where its first move among them set off
    from, or where it stands now."""
    found: dict[int, tuple[int, int]] = {}
    for event in events:
        if isinstance(event, Moved | Pushed | Teleported) and event.entity in creatures:
            found.setdefault(event.entity, event.from_square)
    for e in creatures - found.keys():
        found[e] = battle.get(e, Position).square
    return found


def places(battle: Any, sources: frozenset[tuple[str, int]]) -> frozenset[Place]:
    """Where the map's lights and areas ``sources`` (``("light" | "area", map id)``) were made."""
    terrain = battle.terrain
    found = set()
    for kind, made_id in sources:
        made = (terrain.lights if kind == "light" else terrain.areas).get(made_id)
        if made is not None:
            found.add((kind, made.x, made.y))
    return frozenset(found)


class EventFeed:
    """The renderer's reading of one battle's event record, and of those that replace it.

    After an undo, a rewind or a load, the events both records share keep the lines written when
    they happened: the team's log says what its creatures saw then, not what they see now (a shot
    at an archer who has since stepped out of sight stays named)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        #: the log as the person's team may read it (fog of war): nothing about creatures it does not see
        self.seen_lines: list[str] = []
        self.names: dict[int, str] = {}
        self.labels: dict[int, str] = {}
        self.falls: dict[int, Fall] = {}
        self._record: list[Any] | None = None
        self._marks: list[_Mark] = []
        self._landed: dict[int, int] = {}  # each fall's landing, by its event's index (kept if an undo keeps it)
        self._dropped = (0, 0)  # lines and seen lines trimmed off the front
        #: who was hidden at the last reading: a move of one of them started where the team did not see
        self._hidden_before: frozenset[int] = frozenset()
        #: whether the last reading was of this record, its sight then the team's as these events began:
        #: not at the first reading (every creature then counted as seen), nor after a load or a rewind
        self._watching = False
        #: the squares the team saw at the last reading (``seen`` then), and whose sight that was: in a
        #: hot seat the next reading may be the other team's, which neither saw nor hid what this one did
        self._seen_before: Any = None
        self._team_before: str | None = None

    def update(
        self, battle: Any, hidden: frozenset[int] = frozenset(), notes: Mapping[int, Sequence[str]] | None = None,
        unseen_sources: frozenset[tuple[str, int]] = frozenset(), seen: Any = None, team: str | None = None,
    ) -> None:
        """Take in the events added since the last call; ``hidden`` are the creatures the person's
        team does not see now (an event only about them is left out of ``seen_lines``, and they
        are named as someone unseen in the rest). ``notes`` (event index -> lines: the computer
        player's reasons) go into the GM's ``lines`` only, before the event at their index: a
        reason names what the computer sees, which fog of war keeps from the person.
        ``unseen_sources``: the lights and areas the team did not see made (``ui.unseen_sources``),
        told in ``seen_lines`` without where they are. ``seen``: the squares the team sees now
        (``ui.team_visible``), where a creature it does not see stepped into its sight and out again;
        with those it saw at the last reading, for the turns read together since, each for the moments
        it surely held (``game.render.sight``: ``team``, whose sight it is, tells which events change it)."""
        events: list[Any] = battle.state.events
        last = self._marks[-1] if self._marks else None
        if events is not self._record or (last is not None and (
                len(events) < last.events or events[last.events - 1] is not last.last)):
            self._resync(events)
        start = self._marks[-1].events if self._marks else 0  # (the events read so far)
        new = events[start:]
        # (hidden from the team that read last: in a hot seat, this team's own creatures among them)
        before = self._hidden_before if team == self._team_before else frozenset()
        self._hidden_before = hidden
        arrived = before - hidden
        watched, self._watching = self._watching and team == self._team_before, True
        seen_before, self._seen_before, self._team_before = self._seen_before, seen, team
        if not new:
            return
        if any(isinstance(event, Spawned) for event in new):
            self.names = display_names(events)
            self.labels = token_labels(self.names)
        for at, event in enumerate(new, start=start):
            if isinstance(event, Landed):
                square = battle.get(event.entity, Position).square
                self.falls[event.entity] = Fall(square, float(event.distance_ft), event.round)
                self._landed[event.entity] = at
        lines = format_events(battle, new, self.names)
        self.lines.extend(format_with_notes(battle, events, notes, start, self.names) if notes else lines)
        unseen_at = places(battle, unseen_sources)
        if seen is None and not hidden and not arrived and not unseen_at:
            self.seen_lines.extend(lines)
        else:
            # a creature is named only while its square is surely in the team's sight: its sight before
            # these events, while nothing may have narrowed it, or after them, once nothing may widen it.
            # Several computer turns read at once (Enter) may end with a darkness over where the team
            # watched an orc strike, begin with one over squares it saw, into which an enemy it never saw
            # walked, or take an orc it sees before and after them behind a wall and back between
            # (without the team, any creature's move may change its sight)
            members = frozenset(e for e in battle.creatures() if team is None or battle.team(e) == team)
            sights = sure_sight(new, members.__contains__, seen_before if watched else None, seen, veils_of(events))
            unseen = hidden
            if sights is not None:  # (one that came into sight is told so as it comes into the sure sight)
                unseen = frozenset(battle.creatures()) - members if team is not None else hidden | arrived
                arrived = frozenset()
            out = out_of_sight(new, unseen, sights, starting_squares(battle, new, unseen))
            theirs = frozenset(battle.creatures()) - members if team is not None else unseen
            self.seen_lines.extend(told_as_seen(battle, new, self.names, arrived, unseen_at, out, sights, theirs))
        self._trim()
        self._marks.append(_Mark(len(events), self._dropped[0] + len(self.lines),
                                 self._dropped[1] + len(self.seen_lines), events[-1]))

    def _resync(self, events: list[Any]) -> None:
        """Back to the last reading that the record ``events`` still holds: the same list cut back (an
        undo) still holds a reading whose last event is there; another record (a rewind or a load)
        holds those of the events equal to the old record's from the first one on."""
        same_list = self._record is events
        shared = len(events) if same_list else _shared_start(self._record or [], events)
        self._record = events
        while self._marks and not (self._marks[-1].events <= shared and (
                not same_list or events[self._marks[-1].events - 1] is self._marks[-1].last)):
            self._marks.pop()
        if not same_list:  # the readings kept now end on this record's events (equal, not the same objects)
            self._watching = False
            self._marks = [m._replace(last=events[m.events - 1]) if m.events else m for m in self._marks]
        mark = self._marks[-1] if self._marks else _Mark(0, 0, 0, None)
        del self.lines[max(mark.lines - self._dropped[0], 0):]
        del self.seen_lines[max(mark.seen_lines - self._dropped[1], 0):]
        self.names = display_names(events[:mark.events])
        self.labels = token_labels(self.names)
        self.falls = {e: fall for e, fall in self.falls.items() if self._landed.get(e, mark.events) < mark.events}

    def _trim(self) -> None:
        """Keep the log panel's history bounded (its first lines go first)."""
        cut = (max(len(self.lines) - _LOG_KEEP, 0) if len(self.lines) > _LOG_MAX else 0,
               max(len(self.seen_lines) - _LOG_KEEP, 0) if len(self.seen_lines) > _LOG_MAX else 0)
        if cut != (0, 0):
            del self.lines[:cut[0]]
            del self.seen_lines[:cut[1]]
            self._dropped = (self._dropped[0] + cut[0], self._dropped[1] + cut[1])
            self._marks = [m for m in self._marks if m.lines >= self._dropped[0]][-_LOG_KEEP:]

    def name(self, battle: Any, entity: int) -> str:
        """The creature's display name ("Raider 2"), or the battle's name for it before it is known."""
        return self.names.get(entity) or battle.display_name(entity)
