"""Helpers shared by the power tests (test_powers.py and test_power_*.py): a custom power, the
default power table with extras, events of one kind, and a creature's hit points."""

from __future__ import annotations

from components import Health
from game import Battle
from game.content.powers import default_powers, parse_power


def custom(power_id: str, **table) -> object:
    return parse_power(power_id, {"name": power_id.title(), "description": "test power", **table}, "test")


def powers(*extra) -> dict:
    table = dict(default_powers())
    table.update({p.id: p for p in extra})
    return table


def kinds(b: Battle, kind: str, entity: int | None = None) -> list:
    return [e for e in b.events
            if e.kind == kind and (entity is None or getattr(e, "entity", None) == entity)]


def hp(b: Battle, e: int) -> int:
    return b.get(e, Health).current
