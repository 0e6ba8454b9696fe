"""When the GM's damage, heals and fatigue resolve, as their docstrings and the README say: at the start
of the next round, or, issued while a turn is under way (a round stepped turn by turn), with that
turn's orders. (They said "at the start of the next tick" only: a test in step mode that read Health
after end_turn found the hit already taken.)"""

from __future__ import annotations

from components import Fatigue, Health
from components.events import Damaged, FatigueChanged, Healed, RoundStarted, TurnStarted
from game import Battle


def _three() -> tuple[Battle, int, int, int]:
    b = Battle(seed=1, width=8, height=8)
    a = b.spawn("A", 1, 1, team="x", health=10)
    c = b.spawn("C", 5, 5, team="y", health=10)
    d = b.spawn("D", 6, 6, team="y", health=10)
    b.start_combat()
    return b, a, c, d


def test_issued_between_rounds_they_resolve_at_the_start_of_the_next():
    b, a, c, d = _three()
    b.damage(c, 3)
    b.heal(a, 1)
    b.add_fatigue(d, 1)
    assert b.get(c, Health).current == 10
    b.begin_round()
    kinds = [type(e) for e in b.events]
    start = kinds.index(RoundStarted)
    assert kinds[start + 1:start + 3] == [Damaged, FatigueChanged] and TurnStarted in kinds[start + 3:]
    assert b.get(c, Health).current == 7 and b.get(d, Fatigue).level == 1


def test_issued_during_a_turn_they_resolve_with_its_orders():
    b, a, c, d = _three()
    b.damage(a, 4)
    b.tick()
    actor = b.begin_round()
    b.damage(c, 3)
    b.heal(a, 2)
    assert b.get(c, Health).current == 10 and b.get(a, Health).current == 6  # queued, not yet resolved
    n = len(b.events)
    b.resolve_orders()
    assert [type(e) for e in b.events[n:]] == [Damaged, Healed]
    assert b.get(c, Health).current == 7 and b.get(a, Health).current == 8
    assert b.current_actor == actor  # the turn goes on
