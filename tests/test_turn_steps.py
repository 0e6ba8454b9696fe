"""A round played turn by turn (begin_round, current_actor, resolve_orders, end_turn) is the round tick()
plays, and a stepped battle replays from its command log."""

from __future__ import annotations

import random

import pytest

from components import Position
from components.events import Moved, PowerUsed, RoundEnded, TurnStarted
from game import Battle, IllegalCommand, ai, load_scenario

SCENARIO = "assets/scenarios/demo.toml"


def build(seed: int) -> Battle:
    battle, _ = load_scenario(SCENARIO).build_with_ids(seed, trusted=True)
    battle.start_combat()
    return battle


def plan(battle: Battle, actor: int, seed: int) -> None:
    rng = random.Random(f"{seed}:{battle.round}:{actor}")
    ai.act(battle, actor, "tactical", rng)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_stepping_gives_the_events_tick_gives(seed: int) -> None:
    ticked, stepped = build(seed), build(seed)
    for _ in range(6):
        ticked.tick(controller=lambda b, actor: plan(b, actor, seed) if b.can_act(actor) else None)
        actor = stepped.begin_round()
        while actor is not None:
            assert stepped.current_actor == actor
            if stepped.can_act(actor):
                plan(stepped, actor, seed)
            actor = stepped.end_turn()
        assert stepped.current_actor is None
    assert [e.as_dict() for e in stepped.events] == [e.as_dict() for e in ticked.events]
    again = Battle.replay(stepped.seed, stepped.width, stepped.height, stepped.rules, stepped.command_log)
    assert [e.as_dict() for e in again.events] == [e.as_dict() for e in stepped.events]


def test_a_creature_moves_then_acts_seeing_where_it_went() -> None:
    b = Battle(seed=1, width=10, height=5)
    hero = b.spawn("Hero", 1, 2, team="blue", powers=["strike"])
    foe = b.spawn("Foe", 4, 2, team="red", prepared=False)
    b.start_combat()
    assert b.begin_round() == hero
    b.move(hero, 3, 2)
    b.resolve_orders()
    assert b.get(hero, Position).square == (3, 2)
    assert isinstance(b.events[-1], Moved) or any(isinstance(e, Moved) for e in b.events[-3:])
    b.use_power(hero, "strike", target=foe)  # only legal from where it now stands
    assert b.end_turn() == foe
    assert any(isinstance(e, PowerUsed) for e in b.events)
    assert b.turns_left() == []
    assert b.end_turn() is None and isinstance(b.events[-1], RoundEnded)


def test_steps_out_of_order_are_refused() -> None:
    b = Battle(seed=1)
    b.spawn("Solo", 1, 1)
    with pytest.raises(IllegalCommand, match="begin a round first"):
        b.end_turn()
    b.begin_round()
    with pytest.raises(IllegalCommand, match="still under way"):
        b.begin_round()


def test_the_turn_strip_knows_who_is_next() -> None:
    b = Battle(seed=2)
    ids = [b.spawn(f"c{i}", i, 0, team=f"t{i}") for i in range(3)]
    order = b.start_combat()
    first = b.begin_round()
    assert first == order[0] and b.turns_left() == order[1:]
    assert sum(isinstance(e, TurnStarted) for e in b.events) == 1
    assert set(ids) == set(order)
