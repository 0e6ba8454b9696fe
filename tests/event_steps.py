"""What the rules and power tests read of a battle's events."""

from __future__ import annotations

from game import Battle


def kinds(b: Battle, kind: str, entity: int | None = None) -> list:
    """The battle's events of one kind (``"fell"``, ``"damaged"``...), only ``entity``'s when given."""
    return [e for e in b.events if e.kind == kind and (entity is None or getattr(e, "entity", None) == entity)]
