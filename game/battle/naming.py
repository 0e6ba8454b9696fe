"""The names a reader sees for creatures (their own, numbered where several share one) and for a
lasting effect (the power that made it).

Shared by the combat log (from its Spawned events) and by ``Battle.display_name`` (from the live
creatures), so that the AI's reasons, the window and the log call a creature the same thing; and by
the log and ``simulate``'s table, which name an effect's hits by its power alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from components.events import EffectEnded, Spawned

#: The team of a creature spawned with none: one of its own, named by its id.
_LONE = re.compile(r"solo-[1-9][0-9]*")  # (an id as the battle writes it: "solo-02" is no lone team)


def lone_team(entity: int) -> str:
    """The team a creature spawned with no team fights on alone (``solo-`` and its id)."""
    return f"solo-{entity}"


def lone_team_problem(team: str) -> str | None:
    """Why a team may not be named ``team``, or None: a name spelt as :func:`lone_team` spells one
    would put its creatures on a lone creature's side (``team="solo-2"`` beside the creature with
    id 2 spawned with no team: "it fights alone" was false, and neither could harm the other)."""
    if _LONE.fullmatch(team):
        return (f"{team!r} is how the battle names the team of a creature spawned with none ('solo-' and "
                "its id): a team of that name would be that creature's side; name it otherwise")
    return None


def display_names(events: Iterable[Any]) -> dict[int, str]:
    """Entity id -> the name a reader sees, from the Spawned events (see :func:`numbered`)."""
    return numbered([(e.entity, str(e.name)) for e in events if isinstance(e, Spawned)])


def numbered(spawned: Sequence[tuple[int, str]]) -> dict[int, str]:
    """Entity id -> the name a reader sees, from ``(entity, name)`` in the order they entered.

    Creatures that share a name ("Raider", "Raider") are numbered in that order ("Raider 1",
    "Raider 2"), so that a line such as "Raider is no longer flat-footed" says which.
    """
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


def effect_powers(effects: Iterable[Mapping[str, Any]], record: Iterable[Any]) -> dict[int, str]:
    """Effect id -> the id of the power that made it: the effects under way (``Battle.effects()``, each
    with its ``id`` and ``power``), and those over, by their ``EffectEnded`` in the event ``record``.
    What the combat log names an effect's hits by and what ``simulate``'s table counts them under (an
    effect's id is used once in a battle: a live one has not ended, an ended one is live no more)."""
    found = {int(effect["id"]): str(effect["power"]) for effect in effects}
    for event in record:
        if isinstance(event, EffectEnded):
            found.setdefault(event.effect, event.power)
    return found


def effect_power(effects: Sequence[Mapping[str, Any]], record: Iterable[Any], effect_id: str) -> str | None:
    """The power that made the effect ``effect_id`` (as a source names it: ``effect:3`` -> ``"3"``), as
    :func:`effect_powers` says, or None; the ``record`` is read only for an effect no longer under way
    (a log line names a live effect's hits every round: each used to scan the whole record)."""
    for read in ((), record):
        power = next((p for made, p in effect_powers(effects, read).items() if str(made) == effect_id), None)
        if power is not None:
            return power
    return None
