"""The combat log: battle events turned into sentences a player reads.

Pure functions over ``battle.events`` (no pygame) so that the window, the headless demo, saves and
the simulation runner all print the same words. Events are matched by class name rather than
imported, so events added later (powers, scripts) degrade to a generic line instead of breaking the
log, and the log never has to be edited in step with ``components/events.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

#: Events that say nothing a reader needs (turn boundaries are implied by the lines themselves).
QUIET = frozenset({"RoundStarted", "RoundEnded", "TurnStarted"})

#: Field names that hold an entity id and are shown as the creature's name.
_ENTITY_FIELDS = ("entity", "target", "by", "user", "attacker")


def _names(battle: Any) -> dict[int, str]:
    """Entity id -> display name, read from the Spawned events (cheap, and works for the dead)."""
    return display_names(_raw_events(battle))


def display_names(events: Iterable[Any]) -> dict[int, str]:
    """Entity id -> the name a reader sees, from the Spawned events.

    Creatures that share a name ("Raider", "Raider") are numbered in the order they entered
    ("Raider 1", "Raider 2"), so that a line such as "Raider is no longer flat-footed" says which.
    """
    spawned = [(e.entity, str(e.name)) for e in events if type(e).__name__ == "Spawned"]
    counts: dict[str, int] = {}
    for _, name in spawned:
        counts[name] = counts.get(name, 0) + 1
    seen: dict[str, int] = {}
    names: dict[int, str] = {}
    for entity, name in spawned:
        if counts[name] > 1:
            seen[name] = seen.get(name, 0) + 1
            names[entity] = f"{name} {seen[name]}"
        else:
            names[entity] = name
    return names


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
    except Exception:
        return f"#{entity}"


def _ft(value: float) -> str:
    return f"{value:g} ft"


def _power_name(battle: Any, power_id: str) -> str:
    """The power's display name when the battle knows the power, else its id."""
    getter = getattr(battle, "power", None)
    if getter is not None:
        try:
            return str(getter(power_id).name)
        except Exception:
            pass
    return str(power_id).replace("_", " ")


def source_text(battle: Any, source: str) -> str:
    """What caused a hit, heal or condition, in words: ``power:strike`` -> "Strike"."""
    kind, _, rest = str(source).partition(":")
    if not rest:
        return str(source)
    if kind == "power":
        return _power_name(battle, rest)
    if kind == "script":
        return "a reaction script" if rest == "reaction" else f"{_power_name(battle, rest)} (script)"
    if kind == "effect":
        effects = getattr(battle, "effects", None)
        if effects is not None:
            try:
                for effect in effects():
                    if str(effect.get("id")) == rest:
                        return f"{_power_name(battle, str(effect.get('power')))} (lasting effect)"
            except Exception:
                pass
        return "a lasting effect"
    return str(source)


def describe(battle: Any, event: Any, names: dict[int, str] | None = None) -> str:
    """One event as a sentence, without the round prefix.

    Args:
        battle: the battle the event came from (for names and power names).
        event: any event from ``components.events``; unknown kinds get a generic line.
        names: optional id -> name cache (``format_log`` passes one so it reads names once).
    """
    n = lambda e: _name(battle, e, names)  # noqa: E731 - local shorthand keeps the table readable
    kind = type(event).__name__
    g = lambda field, default=None: getattr(event, field, default)  # noqa: E731
    if kind == "Spawned":
        height = f", {_ft(event.z)} up" if event.z else ""
        return f"{n(event.entity) if names else event.name} ({event.team}) enters at ({event.x}, {event.y}){height}"
    if kind == "CombatStarted":
        order = ", ".join(n(e) for e in event.order)
        return f"Combat starts. Turn order: {order}"
    if kind == "InitiativeRolled":
        return f"{n(event.entity)} rolls initiative: {event.roll} (total {event.total})"
    if kind == "RoundStarted":
        return "Round starts"
    if kind == "RoundEnded":
        return "Round ends"
    if kind == "TurnStarted":
        return f"{n(event.entity)}'s turn"
    if kind == "Moved":
        (fx, fy), (tx, ty) = event.from_square, event.to_square
        return f"{n(event.entity)} moves from ({fx}, {fy}) to ({tx}, {ty}) ({event.cost_ft} ft)"
    if kind == "StoodUp":
        return f"{n(event.entity)} stands up"
    if kind == "CommandRefused":
        command = str(event.command)
        if command.startswith("use "):
            command = "use " + _power_name(battle, command[4:])
        return f"{n(event.entity)} cannot {command}: {event.reason}"
    if kind == "Fell":
        return f"{n(event.entity)} falls {_ft(event.from_z - event.to_z)} (from {_ft(event.from_z)})"
    if kind == "Landed":
        surface = "on soft ground" if event.soft else "hard"
        dice = f"{event.dice} {'die' if event.dice == 1 else 'dice'}"
        return (f"{n(event.entity)} falls {_ft(event.distance_ft)} and lands {surface} ({dice}): "
                f"{event.damage} damage")
    if kind == "Damaged":
        source = "" if event.source in ("gm", "") else f" from {source_text(battle, event.source)}"
        return f"{n(event.entity)} takes {event.amount} damage{source} (health {event.health})"
    if kind == "Healed":
        return f"{n(event.entity)} heals {event.amount} (health {event.health})"
    if kind == "Downed":
        return f"{n(event.entity)} is DOWNED"
    if kind == "Revived":
        return f"{n(event.entity)} is back on their feet"
    if kind == "FatigueChanged":
        verb = "gains" if event.amount > 0 else "recovers"
        return f"{n(event.entity)} {verb} {abs(event.amount)} fatigue ({event.reason}): now {event.level}"
    if kind == "Unconscious":
        return f"{n(event.entity)} falls unconscious"
    if kind == "Died":
        return f"{n(event.entity)} DIES"
    if kind == "ConditionGained":
        why = f" ({source_text(battle, event.source)})" if event.source and event.source not in ("gm",) else ""
        return f"{n(event.entity)} is {event.condition}{why}"
    if kind == "ConditionLost":
        return f"{n(event.entity)} is no longer {event.condition}"
    if kind == "MapChanged":
        return f"The map changes: {event.what} at ({event.x}, {event.y})"
    if kind == "PowerUsed":
        power = _power_name(battle, event.power)
        if g("target") is not None:
            return f"{n(event.entity)} uses {power} on {n(event.target)}"
        if g("point") is not None:
            return f"{n(event.entity)} uses {power} at {tuple(event.point)}"
        return f"{n(event.entity)} uses {power}"
    if kind == "AttackRolled":
        mode = "" if event.mode == "normal" else f", {event.mode}"
        result = "HIT" if event.hit else "miss"
        cover = f" (cover behind a wall: +{battle.rules.cover_bonus})" if g("cover", False) else ""
        return (f"{n(event.entity)} attacks {n(event.target)} with {_power_name(battle, event.power)}: "
                f"{event.roll}{mode} -> {event.total} vs Defense {event.defense}{cover}: {result}")
    if kind == "SaveRolled":
        mode = "" if event.mode == "normal" else f", {event.mode}"
        result = "saves" if event.success else "fails"
        return (f"{n(event.entity)} {result} against {_power_name(battle, event.power)}: "
                f"{event.roll}{mode} -> {event.total} vs {event.dc}")
    if kind == "Pushed":
        (tx, ty) = event.to_square
        return f"{n(event.by)} pushes {n(event.entity)} to ({tx}, {ty})"
    if kind == "Teleported":
        (tx, ty) = event.to_square
        return f"{n(event.entity)} teleports to ({tx}, {ty})"
    if kind == "AreaCreated":
        return f"{str(event.what).capitalize()} fills {_ft(event.radius_ft)} around ({event.x}, {event.y})"
    if kind == "EffectEnded":
        return f"{_power_name(battle, event.power)} on {n(event.entity)} ends ({event.reason})"
    if kind == "ScriptFailed":
        return f"Script {event.script}.{event.function} failed: {event.reason}"
    return _generic(battle, event, names)


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
        if key in _ENTITY_FIELDS and isinstance(value, int):
            value = _name(battle, value, names)
        parts.append(f"{key}={value}")
    return f"{kind}: {', '.join(parts)}" if parts else kind


def format_events(battle: Any, events: Iterable[Any], names: dict[int, str] | None = None) -> list[str]:
    """Readable lines for ``events``, each prefixed with its round, merging what belongs together.

    A fall is one line: the ``Fell`` stretches before a ``Landed`` are folded into it, and the fall
    damage that follows is folded in too. Turn and round boundaries are left out.
    """
    names = names if names is not None else _names(battle)
    items = [e for e in events if type(e).__name__ not in QUIET]
    lines: list[str] = []
    for index, event in enumerate(items):
        kind = type(event).__name__
        if kind == "Fell" and _lands_later(items, index, event.entity):
            continue
        if kind == "Damaged" and event.source == "fall" and index and type(items[index - 1]).__name__ == "Landed" \
                and items[index - 1].entity == event.entity:
            lines[-1] += f", health {event.health}"
            continue
        text = describe(battle, event, names)
        prefix = f"Round {event.round}: " if event.round else "Setup: "
        lines.append(prefix + text)
    return lines


def _lands_later(items: Sequence[Any], index: int, entity: int) -> bool:
    """Whether a Fell at ``index`` is followed (this round) by that creature's Landed."""
    round_ = items[index].round
    for later in items[index + 1:]:
        if later.round != round_:
            return False
        if getattr(later, "entity", None) == entity:
            name = type(later).__name__
            if name == "Landed":
                return True
            if name != "Fell":
                return False
    return False


def format_log(battle: Any) -> list[str]:
    """The whole combat log of a battle, one readable line per thing that happened."""
    return format_events(battle, _raw_events(battle))
