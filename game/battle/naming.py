"""The names a reader sees for creatures: their own, numbered where several share one.

Shared by the combat log (from its Spawned events) and by ``Battle.display_name`` (from the live
creatures), so that the AI's reasons, the window and the log call a creature the same thing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from components.events import Spawned


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
