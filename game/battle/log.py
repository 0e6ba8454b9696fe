"""The combat log: battle events turned into sentences a player reads.

Pure functions over ``battle.events`` (no pygame) so that the window, the headless demo, saves and
the simulation runner all print the same words. Each event class of ``components.events`` has one
small formatter in ``FORMATTERS``, looked up by the event's class (its base classes too), so an
event class added later without a formatter degrades to a generic line instead of breaking the log.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from components.events import (
    CREATURE_FIELDS,
    AreaCreated,
    AttackRolled,
    CombatStarted,
    CommandRefused,
    ConditionGained,
    ConditionLost,
    Damaged,
    Died,
    Downed,
    EffectEnded,
    Event,
    FatigueChanged,
    Fell,
    Healed,
    InitiativeRolled,
    Landed,
    MapChanged,
    Moved,
    PowerUsed,
    Pushed,
    Revived,
    RoundEnded,
    RoundStarted,
    SaveRolled,
    ScriptFailed,
    Spawned,
    StoodUp,
    Teleported,
    TurnStarted,
    Unconscious,
)
from components.powers import FALL, REACTION, source_parts
from game.battle.log_lines import LogLine, Tone, event_tone, round_prefix, tone_of
from game.battle.naming import display_names, effect_power

#: Events that say nothing a reader needs (turn boundaries are implied by the lines themselves).
QUIET: tuple[type[Event], ...] = (RoundStarted, RoundEnded, TurnStarted)


def _raw_events(battle: Any) -> Sequence[Any]:
    """The battle's event record without copying it (``battle.events`` copies on every call)."""
    state = getattr(battle, "state", None)
    events = getattr(state, "events", None)
    return events if events is not None else battle.events


def _name(battle: Any, entity: int | None, names: dict[int, str] | None = None) -> str:
    if entity is None:
        return "nobody"
    if names and entity in names:
        return names[entity]
    try:
        return str(battle.name(entity))
    except Exception:  # any battle-like object: a name we cannot read is shown as its id
        return f"#{entity}"


def _ft(value: float) -> str:
    return f"{value:g} ft"


def _power_of(battle: Any, power_id: str) -> Any:
    """The battle's power, or None when it does not know it (an unknown or removed power)."""
    try:
        return battle.power(power_id)
    except Exception:  # (a battle stand-in without powers, too: its id still says what it was)
        return None


def _power_name(battle: Any, power_id: str) -> str:
    """The power's display name when the battle knows the power, else its id."""
    power = _power_of(battle, power_id)
    return str(power.name) if power is not None else str(power_id).replace("_", " ")


def source_text(battle: Any, source: str) -> str:
    """What caused a hit, heal or condition, in words: ``power:strike`` -> "Strike"."""
    kind, rest = source_parts(str(source))
    if not rest:
        return str(source)
    if kind == "power":
        return _power_name(battle, rest)
    if kind == "script":
        return "a reaction script" if rest == REACTION else f"{_power_name(battle, rest)} (script)"
    if kind == "effect":
        return _effect_text(battle, rest)
    return str(source)


def _effect_text(battle: Any, effect_id: str) -> str:
    """A lasting effect named by the power that made it (``naming.effect_power``): from the battle's
    live effects, else from the event that ended it (a log written after the battle, as the headless
    player's combat-log.txt is, said "a lasting effect" for every effect over by then, where the window
    had named the power); the record is scanned only for an effect no longer live."""
    try:
        live = battle.effects()
    except Exception:  # a battle-like object without readable effects: say what we can
        live = []
    try:
        record = _raw_events(battle)
    except Exception:  # a battle-like object without readable events: say what we can
        record = ()
    power = effect_power(live, record, effect_id)
    return "a lasting effect" if power is None else f"{_power_name(battle, power)} (lasting effect)"


@dataclass(frozen=True, slots=True)
class _Context:
    """What a formatter needs besides its event: the battle (names, powers, rules) and a name cache."""

    battle: Any
    names: dict[int, str] | None

    def name(self, entity: int | None) -> str:
        return _name(self.battle, entity, self.names)

    def power(self, power_id: str) -> str:
        return _power_name(self.battle, power_id)

    def source(self, source: str) -> str:
        return source_text(self.battle, source)


# ---------------------------------------------------------------------- one formatter per event class


def _spawned(c: _Context, e: Spawned) -> str:
    height = f", at height {_ft(e.z)}" if e.z else ""  # its feet, on the ground or aloft: not "up" from it
    return f"{c.name(e.entity) if c.names else e.name} ({e.team}) enters at ({e.x}, {e.y}){height}"


def _combat_started(c: _Context, e: CombatStarted) -> str:
    return f"Combat starts. Turn order: {', '.join(c.name(x) for x in e.order)}"


def _initiative(c: _Context, e: InitiativeRolled) -> str:
    return f"{c.name(e.entity)} rolls initiative: {e.roll} (total {e.total})"


def _moved(c: _Context, e: Moved) -> str:
    (fx, fy), (tx, ty) = e.from_square, e.to_square
    return f"{c.name(e.entity)} moves from ({fx}, {fy}) to ({tx}, {ty}) ({e.cost_ft} ft)"


def _refused(c: _Context, e: CommandRefused) -> str:
    command = str(e.command)
    if command.startswith("use "):
        command = "use " + c.power(command[4:])
    return f"{c.name(e.entity)} cannot {command}: {e.reason}"


def _fell(c: _Context, e: Fell) -> str:
    return f"{c.name(e.entity)} falls {_ft(e.from_z - e.to_z)} (from {_ft(e.from_z)})"


def _landed(c: _Context, e: Landed) -> str:
    surface = "on soft ground" if e.soft else "hard"
    dice = f"{e.dice} {'die' if e.dice == 1 else 'dice'}"
    return f"{c.name(e.entity)} falls {_ft(e.distance_ft)} and lands {surface} ({dice}): {e.damage} damage"


def _damaged(c: _Context, e: Damaged) -> str:
    source = "" if e.source in ("gm", "") else f" from {c.source(e.source)}"
    return f"{c.name(e.entity)} takes {e.amount} damage{source} (health {e.health})"


def _healed(c: _Context, e: Healed) -> str:
    source = "" if e.source in ("gm", "") else f" by {c.source(e.source)}"
    return f"{c.name(e.entity)} is healed {e.amount}{source} (health {e.health})"


def _fatigue(c: _Context, e: FatigueChanged) -> str:
    verb = "gains" if e.amount > 0 else "recovers"
    return f"{c.name(e.entity)} {verb} {abs(e.amount)} fatigue ({e.reason}): now {e.level}"


def _condition_gained(c: _Context, e: ConditionGained) -> str:
    why = f" ({c.source(e.source)})" if e.source and e.source not in ("gm",) else ""
    return f"{c.name(e.entity)} is {e.condition}{why}"


def _power_used(c: _Context, e: PowerUsed) -> str:  # names only the aim the power reads (the event has it all)
    power, data = c.power(e.power), _power_of(c.battle, e.power)
    if e.target is not None and (data is None or data.single_target):
        return f"{c.name(e.entity)} uses {power} on {c.name(e.target)}"
    if e.point is not None and (data is None or data.takes_point):
        return f"{c.name(e.entity)} uses {power}{point_words(e)}"
    return f"{c.name(e.entity)} uses {power}"


def _attack(c: _Context, e: AttackRolled) -> str:
    mode = "" if e.mode == "normal" else f", {e.mode}"
    result = "HIT" if e.hit else "miss"
    cover = f" (in cover: +{c.battle.rules.cover_bonus})" if e.cover else ""
    return (
        f"{c.name(e.entity)} attacks {c.name(e.target)} with {c.power(e.power)}: "
        f"{e.roll}{mode}{_bonus(e.total - e.roll)} = {e.total} vs Defense {e.defense}{cover}: {result}"
    )


def _bonus(amount: int) -> str:
    """The modifier added to a d20 roll, as the total's arithmetic shows it (nothing for +0)."""
    return f" + {amount}" if amount > 0 else (f" - {-amount}" if amount < 0 else "")


def _save(c: _Context, e: SaveRolled) -> str:
    mode = "" if e.mode == "normal" else f", {e.mode}"
    result = "saves" if e.success else "fails"
    return (
        f"{c.name(e.entity)} {result} against {c.power(e.power)}: {e.roll}{mode}{_bonus(e.total - e.roll)} = "
        f"{e.total} vs DC {e.dc}"  # (named, as an attack's Defense is: "19 = 19 vs 14" read as two rolls)
    )


def _pushed(c: _Context, e: Pushed) -> str:
    tx, ty = e.to_square
    return f"{c.name(e.by)} pushes {c.name(e.entity)} to ({tx}, {ty})"


def _teleported(c: _Context, e: Teleported) -> str:
    tx, ty = e.to_square
    return f"{c.name(e.entity)} teleports to ({tx}, {ty})"


def point_words(e: PowerUsed) -> str:
    """Where a use was aimed, as its log line says it: a window's fog replaces exactly these words for
    a use an enemy aimed at a square out of the team's sight."""
    return f" at {tuple(e.point or ())}"


def area_centre_words(e: AreaCreated) -> str:
    """Where an area or light was made, as its log line says it: a window's fog replaces exactly these
    words for one an enemy made out of the team's sight."""
    return f" around ({e.x}, {e.y})"


def _area(c: _Context, e: AreaCreated) -> str:
    return f"{str(e.what).capitalize()} fills {_ft(e.radius_ft)}{area_centre_words(e)}"


def _effect_ended(c: _Context, e: EffectEnded) -> str:
    # its user, not whom it touched ("Blind on the bearer ends" read as sight back); -1: a reaction's
    whose = f"{c.name(e.entity)}'s {c.power(e.power)}" if e.entity >= 0 else "What a reaction script made"
    return f"{whose} ends ({e.reason})"


Formatter = Callable[[_Context, Any], str]

#: Event class -> its sentence (without the round prefix). Read-only: the table is the module's
#: vocabulary, not state.
FORMATTERS: Mapping[type[Event], Formatter] = MappingProxyType(
    {
        Spawned: _spawned,
        CombatStarted: _combat_started,
        InitiativeRolled: _initiative,
        RoundStarted: lambda c, e: "Round starts",
        RoundEnded: lambda c, e: "Round ends",
        TurnStarted: lambda c, e: f"{c.name(e.entity)}'s turn",
        Moved: _moved,
        StoodUp: lambda c, e: f"{c.name(e.entity)} stands up",
        CommandRefused: _refused,
        Fell: _fell,
        Landed: _landed,
        Damaged: _damaged,
        Healed: _healed,
        Downed: lambda c, e: f"{c.name(e.entity)} is DOWNED",
        # healed above 0 Health: no longer downed, but not "back on their feet" (a fall that downed it
        # left it prone, and rules that knock one out before 5 fatigue leave it unconscious)
        Revived: lambda c, e: f"{c.name(e.entity)} is no longer downed",
        FatigueChanged: _fatigue,
        Unconscious: lambda c, e: f"{c.name(e.entity)} falls unconscious",
        Died: lambda c, e: f"{c.name(e.entity)} DIES",
        ConditionGained: _condition_gained,
        ConditionLost: lambda c, e: f"{c.name(e.entity)} is no longer {e.condition}",
        MapChanged: lambda c, e: f"The map changes: {e.what} at ({e.x}, {e.y})",
        PowerUsed: _power_used,
        AttackRolled: _attack,
        SaveRolled: _save,
        Pushed: _pushed,
        Teleported: _teleported,
        AreaCreated: _area,
        EffectEnded: _effect_ended,
        ScriptFailed: lambda c, e: f"Script {e.script}.{e.function} failed: {e.reason}",
    }
)


def _formatter(event: Any) -> Formatter | None:
    """The formatter of the event's class, or of the nearest base class that has one."""
    for cls in type(event).__mro__:
        found = FORMATTERS.get(cls)
        if found is not None:
            return found
    return None


def describe(battle: Any, event: Any, names: dict[int, str] | None = None) -> str:
    """One event as a sentence, without the round prefix.

    Args:
        battle: the battle the event came from (for names and power names).
        event: any event from ``components.events``; unknown kinds get a generic line.
        names: optional id -> name cache (``format_log`` passes one so it reads names once).
    """
    formatter = _formatter(event)
    return _generic(battle, event, names) if formatter is None else formatter(_Context(battle, names), event)


def _generic(battle: Any, event: Any, names: dict[int, str] | None) -> str:
    """An event this module does not know yet: its kind and fields, entity ids shown as names."""
    try:
        data = event.as_dict()
    except AttributeError:
        return repr(event)
    data.pop("round", None)
    kind = str(data.pop("kind", type(event).__name__)).replace("_", " ")
    parts = []
    for key, value in data.items():
        if key in CREATURE_FIELDS and isinstance(value, int):
            value = _name(battle, value, names)
        parts.append(f"{key}={value}")
    return f"{kind}: {', '.join(parts)}" if parts else kind


def format_events(battle: Any, events: Iterable[Any], names: dict[int, str] | None = None) -> list[str]:
    """Readable lines (``LogLine``s: with their events' tones) for ``events``, each prefixed with its round.

    It merges what belongs together. A fall is one line: the ``Fell`` stretches before a ``Landed`` are
    folded into it, and the fall damage that follows too. Turn and round boundaries are left out.
    """
    names = names if names is not None else display_names(_raw_events(battle))  # (from Spawned: the dead too)
    items = [e for e in events if not isinstance(e, QUIET)]
    lines: list[str] = []
    for index, event in enumerate(items):
        if isinstance(event, Fell) and _lands_later(items, index, event.entity):
            continue
        if _is_fall_damage(items, index):
            lines[-1] = LogLine(f"{lines[-1]}, health {event.health}", tone_of(lines[-1]))
            continue
        lines.append(LogLine(round_prefix(event.round) + describe(battle, event, names), event_tone(event)))
    return lines


def _is_fall_damage(items: Sequence[Any], index: int) -> bool:
    """Whether the event at ``index`` is the damage of the landing just before it (one line, not two)."""
    event = items[index]
    if not (isinstance(event, Damaged) and event.source == FALL and index):
        return False
    before = items[index - 1]
    return isinstance(before, Landed) and before.entity == event.entity


def _lands_later(items: Sequence[Any], index: int, entity: int) -> bool:
    """Whether a Fell at ``index`` is followed (this round) by that creature's Landed."""
    round_ = items[index].round
    for later in items[index + 1 :]:
        if later.round != round_:
            return False
        if getattr(later, "entity", None) == entity:
            if isinstance(later, Landed):
                return True
            if not isinstance(later, Fell):
                return False
    return False


def format_log(battle: Any) -> list[str]:
    """The whole combat log of a battle, one readable line per thing that happened."""
    return format_events(battle, _raw_events(battle))


def format_with_notes(battle: Any, events: Sequence[Any], notes: Mapping[int, Sequence[str]], start: int = 0,
                      names: dict[int, str] | None = None) -> list[str]:
    """:func:`format_events` for ``events[start:]``, with each note's lines (tone NOTE) put before the
    event at its index (the computer player's reasons, written just before the turn they explain)."""
    cuts = sorted(k for k in notes if start <= k < len(events))
    bounds = [start, *[k for k in cuts if k != start], len(events)]
    lines: list[str] = []
    for a, b in zip(bounds, bounds[1:]):
        lines.extend(LogLine(note, Tone.NOTE) for note in notes.get(a, ()))
        lines.extend(format_events(battle, events[a:b], names))
    return lines
