"""``Battle.on`` hears an event of the class it names or of any subclass: ``on(Event, ...)`` hears
every event, as a developer logging a battle writes it (it was taken and then heard nothing at all,
since handlers were looked up by the event's exact class)."""

from __future__ import annotations

from components.events import Damaged, Event, RoundStarted
from game import Battle


def _duel() -> tuple[Battle, int, int]:
    b = Battle(seed=5, width=8, height=4)
    knight = b.spawn("Knight", 1, 1, team="x", powers=["strike"], health=20)
    orc = b.spawn("Orc", 2, 1, team="y", health=20)
    return b, knight, orc


def test_a_handler_of_the_base_event_class_hears_every_event_of_the_tick():
    b, _, orc = _duel()
    heard: list[Event] = []
    b.on(Event, lambda battle, event: heard.append(event))
    b.start_combat()
    b.damage(orc, 3)
    b.tick()
    assert heard == list(b.events)
    assert any(isinstance(e, Damaged) for e in heard) and any(isinstance(e, RoundStarted) for e in heard)


def test_its_own_class_handlers_come_first_then_the_base_class_ones_each_once():
    b, _, orc = _duel()
    calls: list[tuple[str, str]] = []
    b.on(Event, lambda battle, event: calls.append(("any", type(event).__name__)))
    b.on(Damaged, lambda battle, event: calls.append(("damaged", type(event).__name__)))
    b.start_combat()
    b.damage(orc, 3)
    b.tick()
    at = calls.index(("damaged", "Damaged"))
    assert calls[at + 1] == ("any", "Damaged")
    assert calls.count(("damaged", "Damaged")) == calls.count(("any", "Damaged")) == 1
