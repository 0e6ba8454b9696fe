"""Snapshots: the whole battle at one moment, put back exactly by ``restore``.

A battle is its components and its state (the systems keep nothing of their own), so a snapshot is
a copy of those, of the generator's state, of what reactions have heard, of the command log's
length and the power table in force (a table given after it goes on restore). What-ifs (a script's
forecast), a window's undo and stepping back all restore one; none of them needs a second copy of
the rules. Restoring puts values back into the live objects, so esper's caches and every reference
stay valid.

One thing is not put back: esper numbers entities from a counter of its own, so a creature spawned
after a restore gets a fresh id rather than the one a creature spawned before it had. The command log
says so (``skip_ids``), so that a replay numbers its creatures as the battle did.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any

import esper
import numpy as np

from components import Conditions, Cover, Defense, Falling, Fatigue, Health, Movement, Position, Vision
from components.powers import Power
from components.terrain import Terrain
from components.values import Bound, shown
from game.battle import validate, validate_whole
from game.battle.copies import ATOMIC
from game.battle.errors import IllegalCommand
from game.battle.world import BattleCore, command, entry
from systems.state import SNAPSHOT_FIELDS

#: The components that change during a battle (the others are frozen values).
_CHANGING = (Health, Fatigue, Position, Defense, Movement, Falling, Conditions, Vision, Cover)
#: Each changing component's field names, in ``_CHANGING``'s order: a snapshot keeps their values.
_FIELDS = tuple(tuple(f.name for f in fields(kind)) for kind in _CHANGING)

@dataclass(frozen=True, slots=True)
class Snapshot:
    """A battle at one moment (opaque: hand it back to the battle's ``restore``)."""

    #: the battle's own world name (a uuid): never another battle's, even once this one is gone (its
    #: ``id()`` was: CPython gives a freed battle's address to the next, which then took its snapshots)
    owner: str
    #: per creature, per changing component (``_CHANGING``'s order), its field values
    components: dict[int, tuple[tuple[Any, ...], ...]]
    state: dict[str, Any]
    rng: tuple[Any, ...]
    heard: int
    out: dict[str, Any]
    reactions: int
    log_length: int
    round: int
    scripts_spent: tuple[int | None, int, int, int] = (None, 0, 0, 0)  # the budget's round and counts, the calls
    #: orders a turn controller had issued in the tick under way (a planner's trials on a snapshot
    #: inside a tick must not be recorded for the replay): -1 outside a controller's turn
    orders_length: int = -1
    #: taken between commands (not inside a tick or another command): after an exception left a round
    #: half played, only such a snapshot is taken before it
    between_commands: bool = True
    #: the power table in force (the setter replaces it whole and never changes it in place, so the
    #: object itself is kept): None in a snapshot made without one
    powers: Mapping[str, Power] | None = None
    #: the ``--set`` overrides that made that table (a save records them beside it)
    power_overrides: tuple[tuple[str, Any], ...] = ()
    #: the last entity id handed out (a restore that takes creatures away logs the ids they used up)
    last_entity: int = 0
    #: taken inside a command (a tick's controller or handler): that command's serial, round and turn;
    #: None between commands. A restore made inside a command takes only a snapshot of its own turn
    turn: tuple[int, int, int] | None = None
    #: the script failures a ``script_out`` set to come, by call (one given after the snapshot goes with its
    #: log entry: it failed a call the restored battle's log no longer said would fail)
    expected: dict[int, tuple[str, str, str]] = field(default_factory=dict)


def _clone(value: Any, memo: dict[int, Any]) -> Any:
    """A deep copy of a value, as ``copy.deepcopy(value, memo)`` makes it, but without its generic
    machinery for the plain values a battle holds (numbers, names, enums, frozensets and tuples of
    them, dicts, lists and sets): snapshots are taken on every planner's trial, and deepcopy was
    most of their cost. Anything else still goes through ``copy.deepcopy``. ``memo`` is deepcopy's
    own: a container met twice is copied once, so values that shared it still share its copy."""
    kind = type(value)
    if kind in ATOMIC or isinstance(value, Enum):
        return value
    if (kind is frozenset or kind is tuple) and all(type(v) in ATOMIC for v in value):
        return value  # immutable, of immutable values: a copy would be equal and never differ
    found = memo.get(id(value))
    if found is not None:
        return found
    if kind is dict:
        copied: Any = {}
        memo[id(value)] = copied
        for k, v in value.items():
            copied[_clone(k, memo)] = _clone(v, memo)
        return copied
    if kind is list:
        copied = memo[id(value)] = []
        copied.extend(_clone(v, memo) for v in value)
        return copied
    if kind is set and all(type(v) in ATOMIC for v in value):
        copied = memo[id(value)] = set(value)
        return copied
    return copy.deepcopy(value, memo)


def _values(component: Any, names: tuple[str, ...]) -> tuple[Any, ...]:
    """A component's field values, copied (what a snapshot keeps of it) with one memo for the
    component, as a deepcopy of it made them: fields that shared a container still share one."""
    memo: dict[int, Any] = {}
    return tuple(_clone(getattr(component, name), memo) for name in names)


def _copy_into(live: Any, names: tuple[str, ...], saved: tuple[Any, ...]) -> None:
    """Put a component's saved values into the live one (slots dataclasses: field by field; one
    memo for the component, as in :func:`_values`)."""
    memo: dict[int, Any] = {}
    for name, value in zip(names, saved):
        setattr(live, name, _clone(value, memo))


#: How many entity ids one ``skip_ids`` may use up (a battle spawns far fewer creatures).
SKIPPED = Bound(1, 1_000_000, unit="ids")

#: The map's arrays a snapshot keeps (lights and areas are frozen values: their dicts are copied).
_MAP_ARRAYS = ("ground", "walls", "blockers", "soft")


@dataclass(frozen=True, slots=True)
class _SavedMap:
    """What a snapshot keeps of the map: its arrays, copied, and its sources, versions and light."""

    arrays: tuple[np.ndarray, ...]
    ambient: Any
    version: int
    last_id: int
    lights: dict[int, Any]
    areas: dict[int, Any]


def _save_terrain(live: Terrain) -> _SavedMap:
    """The map's data, copied (not its derived masks and layout key, which restore works out again)."""
    return _SavedMap(tuple(getattr(live, name).copy() for name in _MAP_ARRAYS), live.ambient, live.version,
                     live.last_id, dict(live.lights), dict(live.areas))


def _restore_terrain(live: Terrain, saved: _SavedMap) -> None:
    """The map put back in place: the systems' helpers hold the live object.

    A what-if that left the map alone (a trial move, a condition granted) leaves it as it was, at
    the same version: then nothing is copied and the masks derived from it stay valid (a version
    alone would not say so, since a restore can give an older number to another map).
    """
    unchanged = (live.version == saved.version and live.last_id == saved.last_id and live.ambient == saved.ambient
                 and live.lights == saved.lights and live.areas == saved.areas
                 and all(np.array_equal(getattr(live, name), array) for name, array in zip(_MAP_ARRAYS, saved.arrays)))
    if unchanged:
        return
    for name, array in zip(_MAP_ARRAYS, saved.arrays):
        np.copyto(getattr(live, name), array)
    live.forget_derived()
    live.ambient, live.version, live.last_id = saved.ambient, saved.version, saved.last_id
    live.lights, live.areas = dict(saved.lights), dict(saved.areas)


class Snapshots(BattleCore):
    """``snapshot()`` and ``restore()``."""

    @entry
    def snapshot(self) -> Snapshot:
        """The battle as it is now.

        Raises:
            IllegalCommand: inside a supposing block (it would keep the what-if, not the battle), or
                after an exception left a round half played (there is no battle worth keeping).
        """
        validate_whole.snapshot_allowed(self.recording, "snapshot")
        return self._snapshot_now()

    def _snapshot_now(self) -> Snapshot:
        """:meth:`snapshot`, unchecked: for the battle's own what-ifs, which restore it before they end."""
        state = self.state
        parts = {e: tuple(_values(esper.component_for_entity(e, kind), names)
                          for kind, names in zip(_CHANGING, _FIELDS)) for e in state.creatures}
        saved = {name: getattr(state, name) for name in SNAPSHOT_FIELDS if name not in ("events", "terrain")}
        saved = _clone(saved, {})
        saved["events"] = list(state.events)
        saved["terrain"] = _save_terrain(state.terrain)
        budget = self.scripts.budget
        spent = (budget.round, budget.round_used, budget.battle_used, self.scripts.calls)
        return Snapshot(self.world_name, parts, saved, state.rng.getstate(), self.scripts.seen, dict(self.scripts.out),
                        len(self.scripts.reactions), len(self.recording.log), state.round, spent,
                        -1 if self.recording.orders is None else len(self.recording.orders),
                        self.recording.depth == 0, state.powers, self.power_overrides, self.last_entity,
                        self._turn_now(), dict(self.scripts.expected))

    @entry
    def changed_since(self, snapshot: Snapshot) -> tuple[int, bool]:
        """What the battle has done since ``snapshot``: how many commands it has logged, and whether
        a die was rolled (its generator moved). A window's undo asks it: orders given and no dice
        rolled since a turn began can be taken back by restoring it, and nothing is rolled again.

        Raises:
            IllegalCommand: not a snapshot of this battle.
        """
        if not isinstance(snapshot, Snapshot) or snapshot.owner != self.world_name:
            raise IllegalCommand(f"changed_since takes a snapshot() of this battle, not {shown(snapshot)}")
        return len(self.recording.log) - snapshot.log_length, self.state.rng.getstate() != snapshot.rng

    def _turn_now(self) -> tuple[int, int, int] | None:
        """The command under way and the turn it is playing (None between commands): what a snapshot
        taken now, or a restore made now, is inside."""
        recording = self.recording
        return None if recording.depth == 0 else (recording.serial, self.state.round, self.state.turn_index)

    @entry
    def restore(self, snapshot: Snapshot) -> None:
        """Put the battle back as it was when ``snapshot`` was taken (it can be restored again): its
        creatures, map, light, effects, turn order, generator, power table, the reaction scripts
        attached and what they have heard, and the script failures ``script_out`` set to come. Trusted
        Python added since (``on`` handlers, ``add_system`` processors) stays: it is the caller's code,
        outside the battle's log as it is outside a snapshot.

        Raises:
            IllegalCommand: not a snapshot, or another battle's; inside a supposing block (the block puts
                the battle back when it ends); after an exception left a round half played, a snapshot
                taken inside that round; while a command runs (from an ``on`` handler or a ``tick``
                controller), a snapshot not taken in that command's turn (the tick would play on from
                a battle it no longer describes: its turns again, or none); between commands, one taken
                inside a command (its round would be left half played, and the log could not replay it).
        """
        validate_whole.restorable(self.recording, snapshot, Snapshot, self.world_name, self._turn_now())
        self._restore_to(snapshot)
        self.recording.interrupted = None

    def _restore_to(self, snapshot: Snapshot) -> None:
        """:meth:`restore`, unchecked: for the battle's own what-ifs."""
        state = self.state
        for entity in [e for e in state.creatures if e not in snapshot.components]:
            esper.delete_entity(entity, immediate=True)
            self.ids.discard(entity)
        for entity, saved in snapshot.components.items():
            for kind, names, part in zip(_CHANGING, _FIELDS, saved):
                _copy_into(esper.component_for_entity(entity, kind), names, part)
        values = _clone({k: v for k, v in snapshot.state.items() if k not in ("events", "terrain")}, {})
        for name, value in values.items():
            setattr(state, name, value)
        state.events[:] = snapshot.state["events"]
        _restore_terrain(state.terrain, snapshot.state["terrain"])
        state.sight = None  # a level-grid version that may now mean another grid: look the answers up again
        self.memo.forget()  # the same stamp may now stand for another history
        state.rng.setstate(snapshot.rng)
        if snapshot.powers is not None and state.powers is not snapshot.powers:
            # a table given after the snapshot (b.powers = {...}) goes with the rest of what came after;
            # a new version, not the old number, so that no answer kept about either table is read again
            state.powers = snapshot.powers
            state.powers_version += 1
        if snapshot.powers is not None:
            self.power_overrides = snapshot.power_overrides
        self.scripts.seen, self.scripts.out = snapshot.heard, dict(snapshot.out)
        # the steps scripts used after the snapshot never happened: a what-if (a scripted power's
        # forecast) is not charged to the battle, and a replay, which forecasts nothing, agrees
        budget = self.scripts.budget
        budget.round, budget.round_used, budget.battle_used, self.scripts.calls = snapshot.scripts_spent
        self.scripts.expected = dict(snapshot.expected)
        del self.scripts.reactions[snapshot.reactions:]
        del self.recording.log[snapshot.log_length:]
        if snapshot.orders_length >= 0 and self.recording.orders is not None:
            del self.recording.orders[snapshot.orders_length:]
        self._log_skipped(snapshot)

    def _log_skipped(self, snapshot: Snapshot) -> None:
        """Log the ids that creatures spawned after ``snapshot`` used up, once the log is cut back to it.

        Why: esper's counter never goes back, so the next spawn gets a fresh id; a replay of the log
        without this entry would give that creature the id the removed one had, and every later
        command naming it would name no creature (a save of the battle would not load)."""
        skipped = self.last_entity - snapshot.last_entity
        if skipped <= 0:
            return
        if snapshot.orders_length >= 0 and self.recording.orders is not None:  # inside a controller's turn
            self.recording.orders.append(["skip_ids", [skipped], {}])
        else:
            self.recording.note("skip_ids", (skipped,))

    @command
    def skip_ids(self, count: int) -> None:
        """Use up ``count`` entity ids, as creatures spawned and then taken away by a restore used them
        up: a battle logs it at such a restore, so that its replay numbers later creatures alike.

        Raises:
            IllegalCommand: ``count`` is not a whole number in 1..1,000,000.
        """
        count = validate.within(count, SKIPPED, "count")
        for _ in range(count):
            esper.delete_entity(esper.create_entity(), immediate=True)
        self.last_entity += count
