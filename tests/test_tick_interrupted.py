"""An exception raised by the caller's own code inside a round (a turn controller, a ``Battle.on``
handler) leaves the round half played: the battle says so and refuses every command until a
snapshot taken before it is restored, rather than letting a log be finished by hand that cannot
replay, or a next tick silently skip the round's turns. What tick can check up front (a controller
that cannot be called, malformed recorded orders) is refused before the round begins.
"""

from __future__ import annotations

import pytest

from components.events import Damaged, TurnStarted
from game import Battle, IllegalCommand

HALF_PLAYED = r"an exception inside tick left round 1 half played: restore a snapshot taken before it"


def duel() -> tuple[Battle, int, int]:
    b = Battle(seed=5, width=10, height=10)
    hero = b.spawn("Hero", 2, 2, team="blue", powers=["strike"])
    orc = b.spawn("Orc", 3, 2, team="red", health=30)
    b.start_combat()
    return b, hero, orc


def untouched(b: Battle) -> tuple[object, ...]:
    return list(b.events), list(b.command_log), b.round, b.current_actor


@pytest.mark.parametrize("controller", [5, "ai", object(), True])
def test_a_controller_that_cannot_be_called_is_refused_before_the_round(controller: object) -> None:
    b, _, _ = duel()
    before = untouched(b)
    with pytest.raises(IllegalCommand, match=r"tick: a controller is called as controller\(battle, actor\)"):
        b.tick(controller=controller)  # type: ignore[arg-type]
    assert untouched(b) == before
    b.tick()  # nothing was left half played
    assert b.round == 1


@pytest.mark.parametrize(("orders", "words"), [
    ("x", "orders must be a list of"),
    (5, "orders must be a list of"),
    ([5], "each of orders must be"),
    ([[1]], "each of orders must be"),
    ([[True, []]], "an actor of orders must be a whole number"),
    ([[1, [["move"]]]], r"an order must be \(name, args, kwargs\)"),
    ([[1, [[5, [], {}]]]], r"an order must be \(name, args, kwargs\)"),
    ([[1, [["move", [], []]]]], r"an order must be \(name, args, kwargs\)"),
])
def test_malformed_orders_are_refused_before_the_round(orders: object, words: str) -> None:
    b, _, _ = duel()
    before = untouched(b)
    with pytest.raises(IllegalCommand, match=words):
        b.tick(orders=orders)  # type: ignore[arg-type]
    assert untouched(b) == before


def test_a_raising_controller_interrupts_the_battle_until_a_restore() -> None:
    b, hero, orc = duel()
    saved = b.snapshot()

    def controller(battle: Battle, actor: int) -> None:
        raise RuntimeError("bug in my controller")

    with pytest.raises(RuntimeError, match="bug in my controller"):
        b.tick(controller=controller)
    assert any(isinstance(e, TurnStarted) for e in b.events)  # the round had begun: it is half played
    for command in (lambda: b.tick(), lambda: b.end_turn(), lambda: b.damage(orc, 1), lambda: b.snapshot()):
        with pytest.raises(IllegalCommand, match=HALF_PLAYED):
            command()
    assert b.conditions(orc) == set() and b.forecast(hero, "strike", target=orc).legal  # queries still answer
    b.restore(saved)
    b.tick()
    assert b.round == 1
    replayed = Battle.replay(5, 10, 10, None, b.command_log)
    assert replayed.events == b.events


def test_a_raising_handler_interrupts_the_battle_until_a_restore() -> None:
    b, _, orc = duel()
    calls: list[int] = []

    def handler(battle: Battle, event: object) -> None:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("bug in my handler")

    b.on(Damaged, handler)
    b.damage(orc, 2)
    saved = b.snapshot()
    with pytest.raises(RuntimeError, match="bug in my handler"):
        b.tick()
    with pytest.raises(IllegalCommand, match=HALF_PLAYED):
        b.tick()
    with pytest.raises(IllegalCommand, match=HALF_PLAYED):
        b.begin_round()
    b.restore(saved)
    b.tick()
    b.tick()
    assert b.round == 2 and len(calls) == 2
    assert Battle.replay(5, 10, 10, None, b.command_log).events == b.events


def test_a_snapshot_taken_inside_the_interrupted_round_does_not_clear_it() -> None:
    b, _, _ = duel()
    inside = []

    def controller(battle: Battle, actor: int) -> None:
        inside.append(battle.snapshot())
        raise RuntimeError("bug")

    with pytest.raises(RuntimeError, match="^bug$"):
        b.tick(controller=controller)
    with pytest.raises(IllegalCommand, match=r"taken inside a command .* half played"):
        b.restore(inside[0])
    with pytest.raises(IllegalCommand, match=HALF_PLAYED):
        b.tick()


def test_a_raising_handler_in_a_step_by_step_round_interrupts_it_too() -> None:
    b, _, orc = duel()

    def handler(battle: Battle, event: object) -> None:
        raise RuntimeError("bug in my handler")

    saved = b.snapshot()
    b.on(TurnStarted, handler)
    with pytest.raises(RuntimeError, match="^bug in my handler$"):
        b.begin_round()
    with pytest.raises(IllegalCommand, match="an exception inside begin_round left round 1 half played"):
        b.end_turn()
    b.restore(saved)
    assert b.round == 0 and b.current_actor is None


def test_a_handler_that_cannot_be_called_is_refused_when_given() -> None:
    b, _, _ = duel()
    with pytest.raises(IllegalCommand, match=r"on: a handler is called as handler\(battle, event\)"):
        b.on(Damaged, 5)  # type: ignore[arg-type]
    with pytest.raises(IllegalCommand, match="on: the event type must be an event class"):
        b.on("Damaged", print)  # type: ignore[arg-type]
    b.tick()
    assert b.round == 1
