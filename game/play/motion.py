"""The timeline of animations the window plays from the battle's new events: pure presentation.

When the battle has moved on (a click, a computer turn), its state is already final; this module
reads the events added since it last looked and lays them out on its own clock: a ``Moved`` token
walks its path square by square (the path is the core's answer, ``battle.state.paths``, for the
move's two ends and its cost: the same search the move resolved with), a push slides, a teleport
jumps; hits, misses, heals and falls become short floating marks ("-7", "miss", "+4", "fall -3")
that rise and fade. One thing happens after another, so a computer's move plays before its blow
lands, but the timeline never lags more than :data:`MAX_LAG_S` behind the clock. The clock is
advanced by whoever owns the timeline (``App.tick_clock``; a test steps it), never read from the
wall, and nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from components import Position
from components.events import AttackRolled, Damaged, Downed, Healed, Landed, Moved, Pushed, Teleported
from components.powers import FALL
from game.render.frames import Mark, MotionFrame, Point
from game.render.sight import sure_sight, veils_of

Square = tuple[int, int]
#: Speed settings, slowest first: name -> how much longer (or shorter) than normal everything takes.
SPEEDS: tuple[tuple[str, float], ...] = (("slow", 2.0), ("normal", 1.0), ("fast", 0.4))
#: Seconds a token takes per square at normal speed.
STEP_S = 0.12
#: Seconds a floating mark shows at normal speed.
FLOAT_S = 0.8
#: The pause after a blow lands before the next creature moves, at normal speed.
BEAT_S = 0.25
#: Seconds a token takes to drop onto its square after a fall, at normal speed (more for a longer fall).
DROP_S = 0.35
#: At most this many seconds of animation wait to start: older work overlaps rather than lags.
MAX_LAG_S = 2.0


@dataclass(frozen=True, slots=True)
class Track:
    """A token's way, square by square, starting at ``start`` on the timeline's clock."""

    entity: int
    squares: tuple[Square, ...]
    start: float
    step: float
    #: the squares the person's team surely saw while it went (None: not known, every square)
    seen: Any = None

    @property
    def end(self) -> float:
        return self.start + self.step * max(len(self.squares) - 1, 0)

    def at(self, t: float) -> Point:
        """Where the token is at ``t``: its first square before the start, between two squares on
        the way, the last square after the end."""
        steps = len(self.squares) - 1
        progress = (t - self.start) / self.step if self.step > 0 else steps
        if progress <= 0 or progress >= steps:
            x, y = self.squares[0 if progress <= 0 else -1]
            return float(x), float(y)
        i = int(progress)
        f = progress - i
        (x0, y0), (x1, y1) = self.squares[i], self.squares[i + 1]
        return x0 + (x1 - x0) * f, y0 + (y1 - y0) * f


@dataclass(frozen=True, slots=True)
class Floater:
    """A floating mark over a creature's square, from ``start`` for ``duration`` seconds."""

    entity: int
    square: Square
    text: str
    kind: str
    start: float
    duration: float
    lane: int = 0

    @property
    def end(self) -> float:
        return self.start + self.duration


@dataclass(frozen=True, slots=True)
class Drop:
    """A token dropping onto its square at the end of a fall, ``height`` squares at first, from
    ``start`` for ``duration`` seconds (faster at the end, as a fall is)."""

    entity: int
    height: float
    start: float
    duration: float

    @property
    def end(self) -> float:
        return self.start + self.duration

    def at(self, t: float) -> float:
        """How many squares above its square the token is at ``t`` (0 outside the drop)."""
        progress = (t - self.start) / self.duration if self.duration > 0 else 1.0
        return 0.0 if not 0 <= progress < 1 else self.height * (1 - progress * progress)


def drop_of(landed: Landed, square_ft: float, factor: float, start: float) -> Drop:
    """The drop a landing shows: up to six squares' worth of lift (60% of its height in squares),
    longer for a longer fall, at the speed setting's ``factor``."""
    feet = float(landed.distance_ft)
    return Drop(landed.entity, min(feet / square_ft, 6) * 0.6, start, (DROP_S + min(feet, 100) / 200) * factor)


def path_of(battle: Any, moved: Moved) -> tuple[Square, ...]:
    """The squares a move went through, both ends included: the core's cheapest path between the
    move's ends whose cost is the move's (a walker's, else a flier's); the two ends if none is."""
    start, stop = moved.from_square, moved.to_square
    if start == stop:
        return (start,)
    paths = battle.state.paths
    for flying in (False, True):
        found = paths.find(start, stop, limit_ft=moved.cost_ft, flying=flying)
        if found is not None and found[1] == moved.cost_ft:
            return tuple(found[0])
    return start, stop


def _square(battle: Any, entity: int) -> Square | None:
    """Where a creature stands (None: the battle no longer has it)."""
    try:
        square: Square = battle.get(entity, Position).square
    except (KeyError, LookupError, ValueError):
        return None
    return square


def _mark(event: Any) -> tuple[str, str] | None:
    """The floating mark an event shows (text, kind), or None for an event that shows none."""
    if isinstance(event, Damaged):
        return (f"fall -{event.amount}", "fall") if event.source == FALL else (f"-{event.amount}", "hit")
    if isinstance(event, Healed):
        return (f"+{event.amount}", "heal") if event.amount else None  # a heal at full health did nothing
    if isinstance(event, AttackRolled) and not event.hit:
        return "miss", "miss"
    if isinstance(event, Landed) and event.damage == 0:
        return "fall", "fall"  # a soft landing: no Damaged follows
    if isinstance(event, Downed):
        return "down", "down"
    return None


class Motion:
    """One window's timeline of animations, on a clock its owner advances.

    Args:
        speed: the name of the starting speed (see :data:`SPEEDS`).
    """

    def __init__(self, speed: str = "normal") -> None:
        self.clock = 0.0
        self.speed_index = [name for name, _ in SPEEDS].index(speed)
        self.tracks: list[Track] = []
        self.floaters: list[Floater] = []
        self.drops: list[Drop] = []
        #: when the next animation may start (the end of the last one laid out)
        self.cursor = 0.0
        self._seen = 0
        self._battle: Any = None
        self._sight: tuple[str | None, Any] = (None, None)  # the team whose sight, and its squares, at the last take

    # ------------------------------------------------------------------ settings and the clock

    @property
    def speed(self) -> str:
        return SPEEDS[self.speed_index][0]

    @property
    def factor(self) -> float:
        """How much longer than normal each animation takes at this speed."""
        return SPEEDS[self.speed_index][1]

    def faster(self) -> str:
        """One speed faster (it stays at the fastest); returns the new speed's name."""
        self.speed_index = min(self.speed_index + 1, len(SPEEDS) - 1)
        return self.speed

    def slower(self) -> str:
        """One speed slower (it stays at the slowest); returns the new speed's name."""
        self.speed_index = max(self.speed_index - 1, 0)
        return self.speed

    def advance(self, elapsed: float) -> None:
        """The clock moves on ``elapsed`` seconds; what has finished is dropped."""
        self.clock += max(elapsed, 0.0)
        now = self.clock
        if self.tracks and any(t.end <= now for t in self.tracks):
            self.tracks = [t for t in self.tracks if t.end > now]
        if self.floaters and any(f.end <= now for f in self.floaters):
            self.floaters = [f for f in self.floaters if f.end > now]
        if self.drops and any(d.end <= now for d in self.drops):
            self.drops = [d for d in self.drops if d.end > now]

    def skip(self) -> None:
        """End every animation at once: tokens stand on their squares, marks are gone."""
        self.tracks.clear()
        self.floaters.clear()
        self.drops.clear()
        self.cursor = self.clock

    @property
    def walking(self) -> bool:
        """Whether a token is still on its way (the window's next computer turn waits for it)."""
        return bool(self.tracks)

    @property
    def busy(self) -> bool:
        return bool(self.tracks or self.floaters or self.drops)

    def reset(self, battle: Any) -> None:
        """Start over from the battle as it is now (a load, an undo): nothing of it animates."""
        self.skip()
        self._battle, self._seen, self._sight = battle, len(battle.state.events), (None, None)

    # ------------------------------------------------------------------ laying out

    def add_track(self, entity: int, squares: tuple[Square, ...], start: float, step: float,
                  seen: Any = None) -> Track:
        """Put a token's way on the timeline (the battle's events do; a benchmark may)."""
        track = Track(entity, squares, start, step, seen)
        self.tracks.append(track)
        return track

    def add_floater(self, entity: int, square: Square, text: str, kind: str, start: float) -> Floater:
        """Put a floating mark on the timeline, in the lane above the others shown with it."""
        lane = sum(1 for f in self.floaters if f.entity == entity and abs(f.start - start) < FLOAT_S / 2)
        floater = Floater(entity, square, text, kind, start, FLOAT_S * self.factor, lane)
        self.floaters.append(floater)
        return floater

    def take(self, battle: Any, shows: Callable[[int], bool] = lambda e: True,
             sight: tuple[str | None, Any] = (None, None), ours: Callable[[int], bool] = lambda e: True) -> None:
        """Lay out the events the battle added since the last call, one after another; those of a
        creature the person may not see (``shows``: fog of war) are not laid out at all. Never drawn,
        an unseen creature's walk still held the next computer turn and the next blow seen for as
        long as it walked: the window went still for a while, as long as the unseen walk was.

        ``sight``: the team whose sight the fog is and the squares it sees now (``ui.team_visible``;
        ``ours``: its creatures). Each walk keeps the squares the team surely saw as it went
        (``game.render.sight``, with its sight at the last call): an orc it watched walk off into the
        dark was drawn going all the way, where a light made later in the turns read together showed
        the squares it had crossed unseen."""
        last, self._sight = self._sight, sight
        events = battle.state.events
        if battle is not self._battle or len(events) < self._seen:  # another record (undo, load): no animation
            self.reset(battle)
            return
        new, self._seen = events[self._seen:], len(events)
        if not new:
            return
        veils = veils_of(events) if sight[1] is not None else None  # (what each effect's end takes away)
        sights = sure_sight(new, ours, last[1] if last[0] == sight[0] else None, sight[1], veils) or \
            [None] * (len(new) + 1)
        f = self.factor
        t = min(max(self.clock, self.cursor), self.clock + MAX_LAG_S)
        where: dict[int, Square] = {}  # where a creature stands after its moves laid out so far
        landed = False
        for before, seen, event in zip(sights[:-1], sights[1:], new, strict=True):
            if isinstance(event, Moved | Pushed | Teleported):
                if not shows(event.entity):
                    continue
                if landed:  # the blow shows before the next creature moves
                    t, landed = t + BEAT_S * f, False
                if isinstance(event, Moved):
                    squares, step = path_of(battle, event), STEP_S * f
                elif isinstance(event, Teleported) and seen is not None and not seen[event.to_square] \
                        and not ours(event.entity):
                    squares, step = (event.from_square,), 0.0  # (gone from where it stood: it glided a
                    # third of the way toward a square out of the team's sight, which told where it went)
                elif isinstance(event, Teleported) and before is not None and not before[event.from_square] \
                        and not ours(event.entity):
                    squares, step = (event.to_square,), 0.0  # (there at once: it glided in from the
                    # direction of the square out of the team's sight where it had stood)
                else:
                    squares = (event.from_square, event.to_square)
                    step = STEP_S * f * (2 if isinstance(event, Pushed) else 0.5)
                t = self.add_track(event.entity, squares, t, step, seen).end
                where[event.entity] = squares[-1]
                continue
            landed = self._mark_at(battle, event, t, where, shows) or landed
        self.cursor = t + (BEAT_S * f if landed else 0.0)

    def _mark_at(self, battle: Any, event: Any, t: float, where: dict[int, Square],
                 shows: Callable[[int], bool]) -> bool:
        """Lay out at ``t`` what an event other than a move shows over a creature: a floating mark,
        and for a landing the token's drop onto its square, once the walk or shove there has been
        shown (it dropped on the wall clock as soon as the turn was played, on the square it was
        then shown on). Returns whether a mark was laid out (the next move waits a beat)."""
        if isinstance(event, Landed) and event.distance_ft > 0 and shows(event.entity):
            self.drops.append(drop_of(event, battle.rules.square_ft, self.factor, t))
        shown = _mark(event)
        if shown is None:
            return False
        entity = event.target if isinstance(event, AttackRolled) else event.entity
        square = where.get(entity) or _square(battle, entity)
        if square is None or not shows(entity):
            return False
        self.add_floater(entity, square, shown[0], shown[1], t)
        return True

    # ------------------------------------------------------------------ one instant

    def frame(self, shows: Callable[[int], bool] = lambda e: True, visible: Any = None,
              ours: Callable[[int], bool] = lambda e: False) -> MotionFrame:
        """The animations at the clock's instant, for the creatures the person may see (``shows``);
        with ``visible`` (the squares the person's team sees now), a token not of the person's team
        (``ours``) is not drawn while it is on a square out of sight, or one its team did not surely see
        as it walked there (``Track.seen``), and one the person does not see now is drawn on its way
        while it is on a square in sight: an enemy the team watched strike and walk off vanished as its
        turn was played, before its blow was shown."""
        now = self.clock
        positions: dict[int, Point | None] = {}
        for track in sorted(self.tracks, key=lambda t: t.start):
            e = track.entity
            if e in positions or track.end <= now or (not shows(e) and visible is None):
                continue
            at = track.at(now)
            square = int(at[0] + 0.5), int(at[1] + 0.5)
            unseen = visible is not None and not (visible[square] and (track.seen is None or track.seen[square]))
            if unseen and not ours(e):
                positions[e] = None
            else:
                positions[e] = at
        marks = []
        for f in self.floaters:
            if f.start > now or not shows(f.entity):
                continue
            at = positions.get(f.entity) or (float(f.square[0]), float(f.square[1]))
            marks.append(Mark(at, f.text, f.kind, (now - f.start) / f.duration, f.lane))
        drops = {d.entity: d.at(now) for d in self.drops if shows(d.entity) and d.start <= now < d.end}
        return MotionFrame(positions, tuple(marks), self.speed, drops)
