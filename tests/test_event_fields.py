"""The event fields that name a creature are listed once, and each names one in some event: the log
shows them as names and the window's fog drops events about creatures its team does not see."""

from __future__ import annotations

import dataclasses
import inspect

import components.events as events
from components.events import CREATURE_FIELDS, Event


def _event_classes() -> list[type[Event]]:
    return [c for _, c in inspect.getmembers(events, inspect.isclass) if issubclass(c, Event) and c is not Event]


def test_every_listed_field_holds_a_creature_id_in_some_event() -> None:
    typed = {(f.name, str(f.type)) for c in _event_classes() for f in dataclasses.fields(c)}
    for name in CREATURE_FIELDS:
        assert {t for n, t in typed if n == name} <= {"int", "int | None"}, name
        assert any(n == name for n, _ in typed), f"{name} names no event's field"

