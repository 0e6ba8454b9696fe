"""Each system alone: a world holding only the components it reads, one processor, one call.

No Battle and no schedule: a system's behaviour is what it does to those components and the events
it emits, given the shared state. Building the bare world here is also what a developer writing a
new system would do to test it.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator

import esper
import numpy as np
import pytest

from components import (
    Abilities,
    Conditions,
    Cover,
    Creature,
    Defense,
    Falling,
    Fatigue,
    Health,
    Movement,
    Position,
    Readiness,
    Rules,
    Terrain,
    Visibility,
    Vision,
)
from components.commands import ChangeFatigue, EndEffect, GrantCondition, Hit, Move, StartCombat, UsePower
from components.dice import Dice
from components.effects import ActiveEffect
from components.events import (
    AttackRolled,
    CombatStarted,
    ConditionGained,
    Damaged,
    Downed,
    EffectEnded,
    FatigueChanged,
    InitiativeRolled,
    Landed,
    Moved,
    RoundEnded,
    RoundStarted,
)
from components.powers import Power
from components.terrain import Light
from systems.actions import ActionSystem
from systems.conditions import ConditionSystem
from systems.cover import CoverSystem
from systems.damage import DamageSystem
from systems.effects import EffectSystem
from systems.falling import FallingSystem
from systems.fatigue import FatigueSystem
from systems.gm import GmSystem
from systems.powers import PowerSystem
from systems.round_end import RoundEndSystem
from systems.rounds import RoundSystem
from systems.state import BattleState, Phase
from systems.visibility import VisibilitySystem


@pytest.fixture
def state() -> Iterator[BattleState]:
    """A bare world of its own and the shared state of a 10x10 map."""
    esper.switch_world("system-alone")
    yield BattleState(rules=Rules(), terrain=Terrain(10, 10), rng=random.Random(7))
    esper.switch_world("default")
    esper.delete_world("system-alone")


def placed(state: BattleState, x: int, y: int, *parts: object) -> int:
    position = Position(x, y)
    entity = esper.create_entity(position, *parts)
    state.place(entity, position, (x, y))
    state.moved.clear()
    return entity


def test_the_round_system_starts_rounds_and_refills_movement(state: BattleState) -> None:
    mover = esper.create_entity(Movement(30, 25), Falling(None, 40))
    RoundSystem(state).process(Phase.START)
    assert state.round == 1 and state.events == [RoundStarted(1)]
    assert esper.component_for_entity(mover, Movement).used_ft == 0
    assert esper.component_for_entity(mover, Falling).fallen_this_round == 0


def test_the_round_end_system_closes_the_round(state: BattleState) -> None:
    state.round = 3
    RoundEndSystem(state).process(Phase.END)
    assert state.events == [RoundEnded(3)]


def test_the_damage_system_applies_hits_in_order_and_fatigue_at_zero(state: BattleState) -> None:
    target = esper.create_entity(Health(5, 10), Fatigue(0, 5))
    state.health_queue.extend([Hit(target, 4), Hit(target, 4), Hit(target, 4)])
    DamageSystem(state).process(Phase.TURN)
    assert esper.component_for_entity(target, Health).current == 0
    assert esper.component_for_entity(target, Fatigue).level == 2  # fell to 0, then hit at 0
    assert [type(e) for e in state.events] == [Damaged, Damaged, FatigueChanged, Damaged, FatigueChanged]


def test_the_fatigue_system_keeps_the_track_in_range(state: BattleState) -> None:
    tired = esper.create_entity(Health(10, 10), Fatigue(4, 5))
    state.fatigue_queue.extend([ChangeFatigue(tired, 3), ChangeFatigue(tired, -1)])
    FatigueSystem(state).process(Phase.START)
    assert esper.component_for_entity(tired, Fatigue).level == 4
    assert [(e.amount, e.level) for e in state.events if isinstance(e, FatigueChanged)] == [(1, 5), (-1, 4)]


def test_the_falling_system_drops_the_unsupported_and_lands_them_as_a_hit(state: BattleState) -> None:
    state.terrain.soft[3, 3] = True
    faller = placed(state, 3, 3, Falling(), Movement(), Health(30, 30), Fatigue(), Conditions())
    esper.component_for_entity(faller, Position).z = 40
    state.moved.add(faller)
    FallingSystem(state).process(Phase.TURN)
    landed = [e for e in state.events if isinstance(e, Landed)]
    assert landed == [Landed(0, faller, 40, 2, landed[0].damage, True)]  # 4 dice halved on hay
    hurt = landed[0].damage
    assert list(state.health_queue) == ([Hit(faller, hurt, "fall", landing=True)] if hurt else [])


def test_the_visibility_system_lights_the_map_and_worsens_vision_by_conditions(state: BattleState) -> None:
    state.terrain.ambient = Visibility.TERRIBLE
    state.terrain.add_light(Light(2, 2, 5, Visibility.NORMAL))
    system = VisibilitySystem(state)
    lit = placed(state, 2, 2, Vision(), Conditions())
    dazzled = placed(state, 3, 2, Vision(), Conditions())
    esper.component_for_entity(dazzled, Conditions).grant("dazzled", "gm")
    system.process(Phase.GM)
    assert state.levels is not None and state.levels[2, 2] == Visibility.NORMAL and state.levels[9, 9] == 1
    assert esper.component_for_entity(lit, Vision).level == Visibility.NORMAL
    assert esper.component_for_entity(dazzled, Vision).level == Visibility.TERRIBLE


def test_the_cover_system_finds_the_nearest_enemy_and_the_walls_between(state: BattleState) -> None:
    state.terrain.walls[1, 3] = True
    archer = placed(state, 0, 0, Cover(), Creature("Archer", "red"), Conditions())
    hidden = placed(state, 2, 4, Cover(), Creature("Hidden", "blue"), Conditions())
    CoverSystem(state).process(Phase.END)  # cover is worked out only when asked
    assert esper.component_for_entity(hidden, Cover).against is None
    CoverSystem(state).process(Phase.REFRESH)
    cover = esper.component_for_entity(hidden, Cover)
    assert (cover.against, cover.blocked, cover.covered) == (archer, 3, True)


def test_the_condition_system_derives_and_announces(state: BattleState) -> None:
    down = esper.create_entity(Conditions(), Health(0, 10), Fatigue(3, 5), Vision(Visibility.NO_VISION))
    state.dirty.add(down)
    ConditionSystem(state).process(Phase.END)
    assert esper.component_for_entity(down, Conditions).active == {"downed", "slowed", "flat-footed"}
    assert Downed(0, down) in state.events
    assert {e.condition for e in state.events if isinstance(e, ConditionGained)} == {"slowed", "flat-footed"}


def test_the_action_system_walks_a_path_and_spends_movement(state: BattleState) -> None:
    state.terrain.walls[2, 0:3] = True
    walker = placed(state, 1, 1, Movement(30), Conditions(), Falling())
    state.actions[walker] = deque([Move(walker, 3, 1)])
    ActionSystem(state).process(Phase.TURN, walker)
    moved = [e for e in state.events if isinstance(e, Moved)]
    assert moved == [Moved(0, walker, (1, 1), (3, 1), 20, 0.0)]  # around the wall: 4 squares
    assert esper.component_for_entity(walker, Movement).used_ft == 20


def fighter(team: str) -> tuple[object, ...]:
    """What a creature needs for the power system: who it is, its state, its Defense and powers."""
    return (Creature(team, team), Conditions(), Health(10, 10), Fatigue(), Defense(10, 0), Vision(),
            Abilities(("jab",)), Movement(), Readiness())


def test_the_power_system_rolls_and_queues_the_hit(state: BattleState) -> None:
    state.powers = {"jab": Power("jab", "Jab", "", range_ft=5, targets="enemy", attack_bonus=50,
                                 damage=Dice(0, 0, 3))}
    state.levels = np.full((10, 10), 3, dtype=np.int8)
    user = placed(state, 1, 1, *fighter("a"))
    target = placed(state, 2, 1, *fighter("b"))
    PowerSystem(state).resolve(UsePower(user, "jab", target))
    rolled = [e for e in state.events if isinstance(e, AttackRolled)]
    assert len(rolled) == 1 and rolled[0].hit
    assert list(state.health_queue) == [Hit(target, 3, "power:jab")]


def test_the_effect_system_ends_what_ran_out_and_takes_back_its_grants(state: BattleState) -> None:
    held = esper.create_entity(Conditions())
    esper.component_for_entity(held, Conditions).grant("dazzled", "effect:1")
    state.effects[1] = ActiveEffect(1, "dazzle", held, "effect:1", 2, conditions=[(held, "dazzled")])
    state.round = 2
    EffectSystem(state).process(Phase.END)
    assert not esper.component_for_entity(held, Conditions).has_granted("dazzled")
    assert [type(e) for e in state.events] == [EffectEnded] and not state.effects


def test_the_gm_system_applies_grants_starts_combat_and_ends_effects(state: BattleState) -> None:
    first = esper.create_entity(Conditions(), Health(10, 10), Fatigue(), Readiness(True, 5), Vision())
    second = esper.create_entity(Conditions(), Health(10, 10), Fatigue(), Readiness(False), Vision())
    state.creatures = [first, second]
    state.effects[4] = ActiveEffect(4, "light", first, "effect:4", 99, can_end_early=True)
    state.gm_queue.extend([GrantCondition(first, "prone"), StartCombat(), EndEffect(4)])
    GmSystem(state).process(Phase.GM)
    assert esper.component_for_entity(first, Conditions).has_granted("prone")
    assert esper.component_for_entity(second, Conditions).has_granted("surprised")
    assert state.order == [first, second] and state.in_combat
    kinds = [type(e) for e in state.events]
    assert kinds == [InitiativeRolled, CombatStarted, EffectEnded] and not state.effects
