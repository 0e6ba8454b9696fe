"""Turn controllers: a computer player decides at the start of each creature's own turn.

Deciding then, rather than for everyone before the round, means an attack aims at where its target
is now; and what the controller issued is kept in the tick's log entry so that a replay (which has
no controller) reproduces the battle exactly.
"""

from __future__ import annotations

import random

from components import Position
from game import Battle
from game.ai import act


def _duel(seed: int) -> tuple[Battle, int, int]:
    b = Battle(seed=seed)
    a = b.spawn("A", 2, 2, team="red", powers=["strike"])
    c = b.spawn("B", 6, 2, team="blue", powers=["strike"])
    b.start_combat()
    return b, a, c


def test_the_controller_is_asked_once_per_living_creature_per_turn_in_order() -> None:
    b, a, c = _duel(3)
    asked: list[tuple[int, int, tuple[int, int]]] = []

    def controller(battle: Battle, actor: int) -> None:
        asked.append((battle.round, actor, battle.get(actor, Position).square))

    b.tick(controller=controller)
    assert [actor for _, actor, _ in asked] == b.turn_order()
    assert all(r == 1 for r, _, _ in asked)


def test_orders_issued_on_a_turn_resolve_in_that_turn_against_the_present_board() -> None:
    b, a, c = _duel(5)
    first = b.turn_order()[0]
    second = c if first == a else a

    def controller(battle: Battle, actor: int) -> None:
        if actor == first:
            battle.move(actor, 5 if actor == a else 3, 2)   # close in, next to the other
        elif actor == second:
            target_square = battle.get(first, Position).square  # it sees the move already made
            assert abs(target_square[0] - battle.get(actor, Position).x) == 1
            battle.use_power(actor, "strike", target=first)

    b.tick(controller=controller)
    kinds = [e.kind for e in b.events]
    assert kinds.index("moved") < kinds.index("attack_rolled")
    assert "command_refused" not in kinds


def test_a_controlled_battle_replays_exactly_without_its_controller() -> None:
    b, _, _ = _duel(11)
    rng = random.Random(1)
    for _ in range(6):
        b.tick(controller=lambda battle, actor: act(battle, actor, "tactical", rng))
    assert any(entry[0] == "tick" and entry[2].get("orders") for entry in b.command_log)
    replayed = Battle.replay(b.seed, b.width, b.height, None, b.command_log)
    assert replayed.events == b.events
    replayed.close()


def test_an_illegal_order_from_the_controller_is_refused_and_the_round_completes() -> None:
    b, a, _ = _duel(2)

    def controller(battle: Battle, actor: int) -> None:
        battle.move(actor, 99, 99)

    b.tick(controller=controller)
    refused = [e for e in b.events if e.kind == "command_refused"]
    assert len(refused) == 2 and all("off the" in e.reason for e in refused)
    assert b.events[-1].kind == "round_ended" and b.round == 1
    assert b.get(a, Position).square == (2, 2)
    replayed = Battle.replay(b.seed, b.width, b.height, None, b.command_log)
    assert replayed.events == b.events
    replayed.close()


def test_a_log_that_names_something_other_than_a_command_is_refused() -> None:
    import pytest

    for log in ([("close", (), {})], [("tick", (), {"orders": [[1, [["_settle", [], {}]]]]})]):
        with pytest.raises(ValueError, match="not a battle command"):
            Battle.replay(1, 8, 8, None, [("spawn", ("x", 1, 1), {}), *log])
