"""The tactical computer player's ways of getting there: jumping onto hay and walking on, walking
and striking while prone, planning with the speed the rules give it now, veiling archers, blinking over a river and
walking round a brute. Fixed boards and seeds, no timing.
"""

from __future__ import annotations

import random

import pytest

from components.events import AttackRolled, Fell, Moved
from game import ai
from game.battle.facade import Battle
from tests.ai_steps import moves_and_uses


def ledge_with_hay(seed: int = 12) -> tuple[Battle, int, int]:
    """A knight 30 ft up on a ledge, hay at its foot, and a slinger below shooting up at it."""
    b = Battle(seed=seed, width=12, height=8)
    for x in range(12):
        for y in range(8):
            b.set_ground(x, y, 30 if x <= 5 else 0, soft=x == 6)
    me = b.spawn("knight", 5, 4, team="hill", powers=["strike"], health=20, defense=15)
    slinger = b.spawn("goblin", 10, 4, team="vale", powers=["shoot"], health=8)
    b.start_combat()
    return b, me, slinger


def test_it_jumps_onto_the_hay_to_reach_a_slinger_it_cannot_otherwise_fight():
    """Staying up top it would be shot turn after turn with no blow back: a soft drop that brings the
    slinger within next turn's walk is worth its 1d6."""
    b, me, _ = ledge_with_hay()
    decision = ai.decide(b, me, "tactical")
    moves, _ = moves_and_uses(decision)
    assert moves, decision.why
    forecast = b.forecast_move(me, moves[-1])
    assert forecast.fall is not None and forecast.fall.soft and forecast.stops_at[0] == 6, decision.why


def test_it_jumps_walks_on_and_strikes_now_rather_than_wait_up_top_for_the_brute():
    """A brute whose blows are at hand would come up to it, but the fall settles before its next
    order: down onto the hay (1d6), the rest of the way, and a blow at the slinger this turn."""
    b, me, slinger = ledge_with_hay()
    brute = b.spawn("ogre", 8, 4, team="vale", powers=["strike"], health=30, speed=40)
    assert any(s.enemy == brute for s in b.threat(me).sources)
    decision = ai.decide(b, me, "tactical")
    moves, uses = moves_and_uses(decision)
    assert len(moves) == 2 and uses == [("strike", {"target": slinger})], decision.why
    assert "jumps down at" in decision.why
    seen = len(b.events)
    b.tick(controller=ai.controller("tactical", controls=lambda e: e == me))  # (its turn settles the fall)
    mine = [type(e).__name__ for e in b.events[seen:] if isinstance(e, (Fell, Moved, AttackRolled))
            and (getattr(e, "entity", None) == me)]
    assert mine[:4] == ["Moved", "Fell", "Moved", "AttackRolled"], mine


def test_a_prone_creature_walks_its_whole_speed_and_strikes_without_standing():
    """The rules give prone no effect but the half of its speed a stand costs: lying down it walks and
    strikes as one standing. Six squares off, the walk takes all 25 ft of its 30; the planner stood up
    first (as if prone stopped it moving), had 15 ft left and could not reach the orc this turn."""
    b = Battle(seed=13, width=12, height=6)
    me = b.spawn("knight", 2, 2, z=20, team="a", powers=["strike"], health=30)
    foe = b.spawn("orc", 8, 2, team="b", powers=["strike"], health=20)
    b.start_combat()
    b.tick(controller=lambda battle, entity: None)  # it falls and lands prone
    assert "prone" in b.conditions(me) and b.square_of(me) == (2, 2)
    before = len(b.command_log)
    decision = ai.decide(b, me, "tactical")
    assert all(name != "stand" for name, _, _ in decision.commands), decision.why
    moves, uses = moves_and_uses(decision)
    assert moves and uses == [("strike", {"target": foe})], decision.why
    assert "prone" in b.conditions(me) and len(b.command_log) == before
    ai.issue(b, decision.commands)  # legal as planned
    b.tick()
    assert [e for e in b.events if isinstance(e, AttackRolled) and e.entity == me]


def test_it_shoots_the_enemy_that_can_hit_back_before_one_stuck_out_of_reach():
    """A slinger below a ledge: the squire up top hits harder but could reach nobody of its side this
    round (a 30 ft drop in between), the archer could: the archer is the one to shoot."""
    b = Battle(seed=14, width=12, height=8)
    for x in range(12):
        for y in range(8):
            b.set_ground(x, y, 30 if x <= 5 else 0)
    me = b.spawn("goblin", 10, 4, team="vale", powers=["shoot"], health=8)
    squire = b.spawn("squire", 5, 5, team="hill", powers=["strike"], health=12, defense=12)
    archer = b.spawn("archer", 3, 1, team="hill", powers=["shoot"], health=12, defense=12)
    b.start_combat()
    assert all(b.forecast(me, "shoot", target=t).legal for t in (squire, archer))
    decision = ai.decide(b, me, "tactical")
    assert ("shoot", {"target": archer}) in moves_and_uses(decision)[1], decision.why


@pytest.mark.parametrize("feet_per_die, jumps", [(10, False), (30, True)])
def test_a_drop_counts_as_hurtful_by_the_rules_fall_dice_not_by_a_fixed_height(feet_per_die: int, jumps: bool):
    """A 20 ft drop costs 2d6 by default, so it closes in only along the top; where a scenario deals a
    die per 30 ft, the same drop is harmless and it jumps down the short way."""
    b = Battle(seed=3, width=30, height=5, rules={"fall_ft_per_die": feet_per_die})
    for x in range(30):
        for y in range(5):
            b.set_ground(x, y, 20 if x <= 3 else 0)
    me = b.spawn("scout", 3, 2, team="a", powers=["strike"])
    b.spawn("foe", 28, 2, team="b", powers=["strike"])
    b.start_combat()
    decision = ai.decide(b, me, "tactical")
    moves, _ = moves_and_uses(decision)
    down = [f for f in (b.forecast_move(me, square) for square in moves)
            if f.fall is not None or b.state.terrain.ground[f.stops_at] < 20]
    assert bool(down) == jumps, decision.why
    # a drop that cannot hurt is part of the walk: no fall on the way down
    assert all(f.fall is None for f in down)


@pytest.mark.parametrize("condition, feet", [(None, 30.0), ("slowed", 15.0), ("restrained", 0.0)])
def test_it_plans_its_next_walk_with_the_speed_the_rules_give_it_now(condition: str | None, feet: float):
    """Slowed (fatigue, a power) halves the walk it counts on for next turn's blow; restrained, none."""
    from game.ai.tactical_turn import DEFAULT, Turn

    b = Battle(seed=1, width=10, height=5)
    me = b.spawn("scout", 1, 2, team="a", powers=["strike"], speed=30)
    b.spawn("foe", 8, 2, team="b", powers=["strike"])
    if condition is not None:
        b.add_condition(me, condition)
    b.start_combat()
    assert Turn(b, me, None, DEFAULT).speed == feet


def _veil_duel() -> tuple[Battle, int]:
    """A mage with only darkness and fog, and a friend archer, facing two archers across open ground."""
    b = Battle(seed=1, width=14, height=7)
    me = b.spawn("mage", 1, 3, team="a", powers=["darkness", "fog-cloud"], initiative_bonus=20, health=8)
    b.spawn("archer", 1, 5, team="a", powers=["shoot"])
    b.spawn("archer", 12, 2, team="b", powers=["shoot"])
    b.spawn("archer", 12, 4, team="b", powers=["shoot"])
    b.start_combat()
    b.begin_round()
    return b, me


def test_it_veils_the_enemy_archers_when_that_spares_its_side_more_than_it_costs():
    b, me = _veil_duel()
    before = b.threat(me).expected
    decision = ai.decide(b, me, "tactical")
    _, uses = moves_and_uses(decision)
    assert [power for power, _ in uses] in (["darkness"], ["fog-cloud"]), decision.why
    for name, args, kwargs in decision.commands:
        getattr(b, name)(*args, **kwargs)
    b.resolve_orders()
    assert b.threat(me).expected < before, decision.why    # the veil really cut their odds on it


def test_trying_a_veil_leaves_the_battle_as_it_was():
    b, me = _veil_duel()
    log, events, effects = list(b.command_log), list(b.events), dict(b.state.effects)
    threat = b.threat(me)
    ai.decide(b, me, "tactical")
    assert b.command_log == log and b.events == events and b.state.effects == effects
    assert b.threat(me) == threat


def test_it_blinks_across_a_river_it_cannot_walk_over_and_strikes_from_the_far_bank():
    b = Battle(seed=2, width=12, height=7)
    for x in (5, 6):
        for y in range(7):
            b.set_terrain(x, y, blocks=["movement", "pushes", "fliers"])  # seen across, never crossed
    me = b.spawn("blinker", 3, 3, team="a", powers=["blink", "strike"], initiative_bonus=20)
    foe = b.spawn("archer", 9, 3, team="b", powers=["shoot"], health=8)
    b.start_combat()
    b.begin_round()
    decision = ai.decide(b, me, "tactical")
    _, uses = moves_and_uses(decision)
    assert [power for power, _ in uses] == ["blink", "strike"], decision.why
    for name, args, kwargs in decision.commands:  # every command is legal in the order given
        getattr(b, name)(*args, **kwargs)
    b.end_turn()
    assert b.square_of(me)[0] > 6 and any(e.target == foe for e in b.events if isinstance(e, AttackRolled))


def test_it_walks_round_a_brute_to_strike_the_archer_behind_it():
    """The squares nearest by path are all beside the brute: the archer behind it is still weighed
    (a square in reach of every enemy still standing is on the list), and a blow that likely downs
    the archer beats one the brute shrugs off."""
    b = Battle(seed=5, width=12, height=9)
    me = b.spawn("knight", 2, 4, team="a", powers=["strike"], health=30, attack_bonus=6)
    b.spawn("brute", 4, 4, team="b", powers=["strike"], health=30)
    archer = b.spawn("archer", 7, 4, team="b", powers=["shoot"], health=10)
    b.start_combat()
    b.damage(archer, 7)  # 3 left: a strike that lands downs it
    b.tick()
    decision = ai.decide(b, me, "tactical")
    moves, uses = moves_and_uses(decision)
    assert uses == [("strike", {"target": archer})], decision.why
    assert max(abs(moves[-1][0] - 7), abs(moves[-1][1] - 4)) == 1, decision.why


def _caught(distance: int) -> tuple[Battle, int]:
    """A knight caught unprepared (surprised in round 1: no powers, it acts last) ``distance`` squares
    from an orc that is ready; the orc has had its turn."""
    b = Battle(seed=15, width=24, height=6)
    me = b.spawn("knight", 2, 2, team="a", powers=["strike"], health=30, prepared=False)
    b.spawn("orc", 2 + distance, 2, team="b", powers=["strike"], health=20)
    b.start_combat()
    assert "surprised" in b.conditions(me)
    return b, me


def test_surprised_it_holds_when_every_enemy_is_in_its_reach_next_turn_anyway():
    """A step could bring no enemy into next turn's reach: the orc acts first next round, so walking
    up to it only meets its blow sooner. Without the rule it would have walked up."""
    from dataclasses import replace

    from game.ai import tactical
    from game.ai.tactical_turn import DEFAULT

    b, me = _caught(5)
    decision = ai.decide(b, me, "tactical")
    assert decision.commands == (), decision.why
    assert "holds (2, 2)" in decision.why and "surprised" in decision.why
    walking = tactical.plan(b, me, weights=replace(DEFAULT, hold_when_surprised=False))
    assert moves_and_uses(walking)[0], walking.why


def test_surprised_it_still_closes_in_on_enemies_out_of_next_turns_reach():
    b, me = _caught(15)
    moves, uses = moves_and_uses(ai.decide(b, me, "tactical"))
    assert moves and not uses
    assert moves[-1][0] > 2


def test_its_move_goes_round_a_pit_where_a_way_as_short_does_to_strike_the_slinger_beyond():
    """Every square beside the slinger has a way as short through the pit (a 20 ft drop) as round
    it: the battle's move takes the dry one, so the knight gets there in one move and strikes."""
    b = Battle(seed=3, width=12, height=8)
    for x in range(6, 9):
        for y in range(5, 7):
            b.set_ground(x, y, -20)
    me = b.spawn("knight", 6, 3, team="hill", powers=["strike"], health=20, defense=15, initiative_bonus=20)
    slinger = b.spawn("goblin", 10, 6, team="vale", powers=["shoot"], health=8)
    b.start_combat()
    b.begin_round()
    decision = ai.decide(b, me, "tactical")
    moves, uses = moves_and_uses(decision)
    assert uses == [("strike", {"target": slinger})] and len(moves) == 1, decision.why
    for name, args, kwargs in decision.commands:
        getattr(b, name)(*args, **kwargs)
    b.end_turn()
    assert b.square_of(me) == moves[-1]
    assert not any(isinstance(e, Fell) for e in b.events)
    assert any(isinstance(e, AttackRolled) and e.target == slinger for e in b.events)


def _pit_in_the_way(knight_first: bool) -> tuple[Battle, int, int]:
    """A 20 ft pit over (3, 1)-(5, 3) between the knight at (2, 5) and the slinger at (6, 0): the
    cheapest way to the square below the slinger runs through it, every dry way is longer."""
    b = Battle(seed=3, width=10, height=8)
    for x in range(3, 6):
        for y in range(1, 4):
            b.set_ground(x, y, -20)
    knight = b.spawn("knight", 2, 5, team="hill", powers=["strike"], health=20, defense=15,
                     initiative_bonus=20 if knight_first else 0)
    slinger = b.spawn("goblin", 6, 0, team="vale", powers=["shoot"], health=8,
                      initiative_bonus=0 if knight_first else 20)
    b.start_combat()
    b.begin_round()
    return b, knight, slinger


def test_it_walks_round_a_pit_in_two_legs_where_the_dry_way_is_longer():
    """The battle's move to a square beside the slinger drops into the pit (the cheapest way): the
    knight goes round in two legs, each one the forecasts show dry, and strikes, instead of staying
    to be shot with no blow back (the ledge's knight on the hay)."""
    b, me, slinger = _pit_in_the_way(knight_first=True)
    decision = ai.decide(b, me, "tactical")
    moves, uses = moves_and_uses(decision)
    assert uses == [("strike", {"target": slinger})] and len(moves) == 2, decision.why
    assert b.forecast_move(me, moves[-1]).fall is not None  # in one move it would drop into the pit
    for name, args, kwargs in decision.commands:  # every command is legal in the order given
        getattr(b, name)(*args, **kwargs)
    b.end_turn()
    assert b.square_of(me) == moves[-1]
    assert not any(isinstance(e, Fell) for e in b.events)
    assert any(isinstance(e, AttackRolled) and e.target == slinger for e in b.events)


def test_its_way_round_the_pit_is_planned_off_its_turn_and_inside_a_what_if_alike():
    """The way round is the battle's forecast, not a move tried on the battle: the knight's plan is the
    same whoever's turn it is (a designer's hover, a test, a side planned at once) and inside a
    ``supposing`` block, where no command may be issued, and asking it changes nothing."""
    b, knight, slinger = _pit_in_the_way(knight_first=False)
    assert b.current_actor == slinger
    seen = len(b.events)
    off_turn = ai.decide(b, knight, "tactical").commands
    with b.supposing(slinger, "dazzled"):
        supposed = ai.decide(b, knight, "tactical").commands
    assert len(b.events) == seen  # nothing was tried on the battle
    b.end_turn()  # the slinger holds
    assert b.current_actor == knight
    decision = ai.decide(b, knight, "tactical")
    moves, uses = moves_and_uses(decision)
    assert uses == [("strike", {"target": slinger})] and len(moves) == 2, decision.why
    assert off_turn == decision.commands
    assert [c for c in supposed if c[0] == "move"] == [c for c in off_turn if c[0] == "move"]


def test_closing_in_never_walks_a_way_that_steps_into_a_chasm() -> None:
    """An enemy falling down a 1,200 ft chasm is nearest by path across it: the orc's closing in
    must not take the way over the edge (it stepped in, fell three rounds and was downed)."""
    b = Battle(seed=9, width=12, height=5)
    for x in range(2, 5):
        for y in range(5):
            b.set_ground(x, y, -1200)
    climber = b.spawn("Climber", 1, 2, team="blue", health=300, initiative_bonus=50)
    orc = b.spawn("Orc", 5, 0, team="red", health=12, powers=["strike"])
    b.start_combat()
    b.move(climber, 2, 2)  # steps into the chasm: it falls for three rounds
    b.tick(controller=ai.controller("tactical", seed=9, controls=lambda e: e == orc))
    for _ in range(3):
        b.tick(controller=ai.controller("tactical", seed=9, controls=lambda e: e == orc))
        assert b.square_of(orc)[0] >= 5 and "downed" not in b.conditions(orc), b.square_of(orc)
    assert not [e for e in b.events if isinstance(e, Fell) and e.entity == orc]


def test_a_prone_restrained_creature_strikes_where_it_lies() -> None:
    """Restrained, it cannot walk; prone changes none of its blows nor the blows at it (the rules
    give prone no effect but what a stand costs), so it strikes lying down and spends nothing on a
    stand (it stood first, as if lying prone gave attackers the easier blow)."""
    b = Battle(seed=2, width=8, height=5)
    hero = b.spawn("Hero", 2, 2, team="blue", powers=["strike"])
    orc = b.spawn("Orc", 3, 2, team="red", powers=["strike"])
    b.start_combat()
    b.add_condition(hero, "prone")
    b.add_condition(hero, "restrained")
    plan = ai.plan_turn(b, hero, "tactical", random.Random(0))
    assert plan == [("use_power", (hero, "strike"), {"target": orc})], plan


def test_a_veil_aimed_as_far_as_its_range_goes_is_in_range_when_diagonals_alternate():
    """The far point toward the nearest enemy was placed by counting a diagonal as one square, so
    with 5-10-5 diagonals it fell out of the power's range and the forecast refused that try."""
    from game.ai.tactical_turn import DEFAULT, Turn
    from game.ai.tactical_veils import points_toward_enemy
    from systems.geometry import distance_ft

    b = Battle(seed=1, width=16, height=16, rules={"diagonal": "alternating"})
    me = b.spawn("mage", 0, 0, team="a", powers=["darkness"], initiative_bonus=20)
    b.spawn("archer", 14, 14, team="b", powers=["shoot"])
    b.start_combat()
    b.begin_round()
    turn = Turn(b, me, None, DEFAULT)
    darkness = b.power("darkness")
    assert darkness.range_ft is not None
    points = points_toward_enemy(turn, (0, 0), darkness)
    far = max(points, key=lambda p: distance_ft((0, 0), p, b.rules))
    assert distance_ft((0, 0), far, b.rules) == darkness.range_ft  # as far as the range goes, not past it
    assert b.forecast(me, "darkness", point=far).legal


@pytest.mark.parametrize("enemy", [(3, 11), (11, 3), (5, 13), (13, 9), (1, 14)])
def test_the_far_veil_point_is_in_range_in_every_direction_when_diagonals_alternate(enemy):
    """Rounding the far point put it past the range in some directions (enemy at (3, 11): (2, 6), 35 ft
    for a 30 ft power): it is kept within the range."""
    from dataclasses import replace

    from game.ai.tactical_turn import DEFAULT, Turn
    from game.ai.tactical_veils import points_toward_enemy
    from systems.geometry import distance_ft

    b = Battle(seed=1, width=16, height=16, rules={"diagonal": "alternating"})
    me = b.spawn("mage", 0, 0, team="a", powers=["darkness"], initiative_bonus=20)
    b.spawn("archer", *enemy, team="b", powers=["shoot"])
    b.start_combat()
    b.begin_round()
    reach = 30
    darkness = replace(b.power("darkness"), range_ft=reach)
    points = points_toward_enemy(Turn(b, me, None, DEFAULT), (0, 0), darkness)
    far = points[-1]  # (the halfway point before it may lie past the range: the forecast says so)
    assert len(points) == 2 and distance_ft((0, 0), far, b.rules) <= reach, points
