"""The tactical computer player understands the rules it plays by: cover, ledges, shoves, areas,
heals and falling back, all read from the battle's forecasts. Fixed boards and seeds, no timing."""

from __future__ import annotations

import random

import pytest

from components import Fatigue
from components.events import Fell, Pushed
from game import ai
from game.ai.tactical import DEFAULT, shortlist
from game.ai.tactical_turn import Turn
from game.battle.facade import Battle
from systems.geometry import distance_3d_ft
from tests.ai_steps import end_square, moves_and_uses


def slit_duel(cover_bonus: int = 5, seed: int = 1) -> tuple[Battle, int, list[int]]:
    """An archer behind a wall with one arrow slit, two archers in the open beyond it."""
    b = Battle(seed=seed, width=12, height=9, rules={"cover_bonus": cover_bonus})
    for y in range(9):
        if y == 4:
            b.set_terrain(4, y, blocks=["movement", "pushes", "fliers", "areas"])  # the slit: see through it
        else:
            b.add_wall(4, y)
    me = b.spawn("keeper", 1, 1, team="keep", powers=["shoot"], health=12)
    raiders = [b.spawn("raider", 10, 3, team="raiders", powers=["shoot"]),
               b.spawn("raider", 10, 6, team="raiders", powers=["shoot"])]
    b.start_combat()
    return b, me, raiders


def test_it_shoots_from_behind_the_slit_where_the_raiders_have_no_cover():
    b, me, raiders = slit_duel()
    decision = ai.decide(b, me, "tactical")
    end = end_square(b, me, decision)
    _, uses = moves_and_uses(decision)
    assert uses and uses[0][0] == "shoot", decision.why
    assert end == (3, 4), decision.why  # right behind the slit: it leans out to shoot
    threat = b.threat(me, end)
    assert threat.covered_from == len(threat.sources) == 2  # both raiders see it mostly hidden
    target = uses[0][1]["target"]
    forecast = b.forecast(me, "shoot", target=target, from_square=end)
    assert forecast.legal and not forecast.targets[0].attack.defense.cover
    assert "cover from 2 of 2" in decision.why


def test_it_weighs_the_cover_bonus_it_is_given():
    """Cover worth nothing leaves the threat at the slit as high as in the open: the forecasts say so."""
    plain, me, _ = slit_duel(cover_bonus=0)
    covered, me2, _ = slit_duel(cover_bonus=10)
    assert covered.threat(me2, (3, 4)).expected < plain.threat(me, (3, 4)).expected


def cliff(seed: int = 3, enemy_at: tuple[int, int] = (6, 4)) -> tuple[Battle, int, int]:
    """Two brawlers on a cliff top 30 ft above a ravine to the east."""
    b = Battle(seed=seed, width=12, height=9)
    for x in range(12):
        for y in range(9):
            b.set_ground(x, y, 30 if x <= 6 else 0)
    me = b.spawn("brawler", 5, 4, team="a", powers=["strike", "shove"], health=20)
    enemy = b.spawn("brute", *enemy_at, team="b", powers=["strike"], health=20)
    b.start_combat()
    return b, me, enemy


def test_it_shoves_an_enemy_off_the_cliff_when_the_fall_is_worth_more_than_a_blow():
    b, me, enemy = cliff()
    decision = ai.decide(b, me, "tactical")
    _, uses = moves_and_uses(decision)
    assert uses == [("shove", {"target": enemy})], decision.why
    odds = b.forecast(me, "shove", target=enemy).targets[0]
    assert odds.fall is not None and odds.fall.damage.mean > 6  # the forecast's fall, not a guess
    assert "fall" in decision.why


def test_shoves_happen_and_enemies_fall_in_cliff_battles():
    falls = shoves = 0
    for seed in range(6):
        b, me, enemy = cliff(seed)
        for _ in range(4):
            if len(b.standing_teams()) <= 1:
                break
            b.tick(controller=ai.controller("tactical", random.Random(seed)))
        falls += sum(isinstance(e, Fell) for e in b.events)
        shoves += sum(isinstance(e, Pushed) for e in b.events)
    assert shoves >= 3 and falls >= 3


def ledge(start: tuple[int, int]) -> tuple[Battle, int]:
    """An archer with 8 Health on a cliff top 40 ft above its foe: a 4d6 fall would down it."""
    b = Battle(seed=5, width=10, height=5)
    for x in range(10):
        for y in range(5):
            b.set_ground(x, y, 40 if x <= 3 else 0)  # a sheer 40 ft drop east of x = 3
    me = b.spawn("archer", *start, team="a", powers=["strike"], health=8)
    b.spawn("foe", 8, 2, team="b", powers=["strike"])
    b.start_combat()
    return b, me


def test_it_never_walks_off_a_ledge_that_would_down_it():
    """From the back of the cliff top it walks to the edge, as near its foe as the top goes, and stops
    there; standing at the edge already, it stays on the top."""
    b, me = ledge((0, 2))
    decision = ai.decide(b, me, "tactical")
    moves, _ = moves_and_uses(decision)
    assert moves, decision.why
    assert end_square(b, me, decision)[0] == 3, decision.why  # the edge: still 40 ft up
    for square in moves:
        fall = b.forecast_move(me, square).fall
        assert fall is None or fall.damage.mean < 8, decision.why
    b, me = ledge((3, 2))
    decision = ai.decide(b, me, "tactical")
    assert b.terrain.ground[end_square(b, me, decision)] == 40, decision.why


def test_an_area_never_catches_a_friend_for_nothing():
    b = Battle(seed=2, width=14, height=9)
    me = b.spawn("mage", 1, 4, team="a", powers=["fireball"], health=12)
    friend = b.spawn("squire", 9, 4, team="a", powers=["strike"])
    foes = [b.spawn("orc", 10, 4, team="b"), b.spawn("orc", 10, 5, team="b"), b.spawn("orc", 13, 8, team="b")]
    b.start_combat()
    decision = ai.decide(b, me, "tactical")
    for power, aim in moves_and_uses(decision)[1]:
        caught = {t.target for t in b.forecast(me, power, **aim, from_square=end_square(b, me, decision)).targets}
        assert friend not in caught, decision.why
        assert caught & set(foes)


def _caught(b: Battle, me: int, decision: ai.Decision, power: str) -> set[int]:
    """Whom ``power``'s use in the decision would reach, from where the creature ends."""
    uses = [aim for p, aim in moves_and_uses(decision)[1] if p == power]
    assert uses, decision.why
    return {t.target for t in b.forecast(me, power, **uses[0], from_square=end_square(b, me, decision)).targets}


def test_a_burst_is_aimed_between_enemies_to_catch_them_all():
    """No orc's own square holds all three in the fireball's 10 ft, the square between them does."""
    b = Battle(seed=2, width=16, height=9)
    me = b.spawn("mage", 1, 4, team="a", powers=["fireball"], health=12)
    foes = [b.spawn("orc", 8, 4, team="b"), b.spawn("orc", 12, 4, team="b"), b.spawn("orc", 10, 7, team="b")]
    b.start_combat()
    decision = ai.decide(b, me, "tactical")
    assert _caught(b, me, decision, "fireball") == set(foes)


def test_a_burst_is_aimed_past_an_enemy_away_from_a_friend_beside_it():
    """Aimed at the orc it would burn the squire beside it too; aimed beyond the orc it does not."""
    b = Battle(seed=2, width=16, height=9)
    me = b.spawn("mage", 1, 4, team="a", powers=["fireball"], health=12)
    b.spawn("squire", 9, 4, team="a", powers=["strike"])
    foe = b.spawn("orc", 10, 4, team="b")
    b.start_combat()
    decision = ai.decide(b, me, "tactical")
    assert _caught(b, me, decision, "fireball") == {foe}


def test_a_cone_is_aimed_between_two_enemies_it_could_not_catch_aimed_at_either():
    """Rooted to its square, the mage catches both orcs only by facing the gap between them."""
    b = Battle(seed=9, width=12, height=7)
    me = b.spawn("mage", 2, 3, team="a", powers=["burning-hands"], health=15, speed=0)
    foes = [b.spawn("orc", 5, 2, team="b"), b.spawn("orc", 5, 4, team="b")]
    b.start_combat()
    for foe in foes:
        assert len(b.forecast(me, "burning-hands", point=b.square_of(foe)).targets) == 1
    decision = ai.decide(b, me, "tactical")
    assert _caught(b, me, decision, "burning-hands") == set(foes)


def test_it_heals_a_downed_friend():
    b = Battle(seed=4, width=12, height=6)
    healer = b.spawn("priest", 2, 2, team="a", powers=["heal", "shoot"])
    friend = b.spawn("knight", 4, 2, team="a", powers=["strike"], health=10)
    b.spawn("orc", 11, 5, team="b", powers=["strike"])
    b.start_combat()
    b.damage(friend, 10)
    b.tick()  # the GM's damage lands at the start of the round
    assert "downed" in b.conditions(friend)
    decision = ai.decide(b, healer, "tactical")
    assert ("heal", {"target": friend}) in moves_and_uses(decision)[1], decision.why


def test_of_two_downed_friends_it_brings_back_the_one_that_hits_harder():
    """Bringing a friend back undoes a down: worth what downing it was worth, its blow a round and more."""
    b = Battle(seed=4, width=12, height=6)
    healer = b.spawn("priest", 2, 2, team="a", powers=["heal", "shoot"], speed=0)
    page = b.spawn("page", 3, 2, team="a", powers=["shoot"], health=10)         # nearer, 4.5 a blow
    wizard = b.spawn("wizard", 2, 4, team="a", powers=["lightning"], health=10)  # 9 a blow
    b.spawn("orc", 11, 5, team="b", powers=["strike"])
    b.start_combat()
    b.damage(page, 10)
    b.damage(wizard, 10)
    b.tick()  # the GM's damage lands at the start of the round
    assert "downed" in b.conditions(page) and "downed" in b.conditions(wizard)
    decision = ai.decide(b, healer, "tactical")
    assert ("heal", {"target": wizard}) in moves_and_uses(decision)[1], decision.why


def test_far_from_every_enemy_it_still_heals_a_downed_friend_then_closes_in():
    b = Battle(seed=4, width=30, height=6)
    healer = b.spawn("priest", 2, 2, team="a", powers=["heal"])
    friend = b.spawn("knight", 3, 2, team="a", powers=["strike"], health=10)
    b.spawn("orc", 29, 5, team="b", powers=["strike"])  # too far to reach anyone this round, or be reached
    b.start_combat()
    b.damage(friend, 10)
    b.tick()
    assert "downed" in b.conditions(friend)
    decision = ai.decide(b, healer, "tactical")
    moves, uses = moves_and_uses(decision)
    assert uses == [("heal", {"target": friend})], decision.why
    assert moves and b.approach_map(healer)[moves[0]] < b.approach_map(healer)[b.square_of(healer)], decision.why


def test_far_from_every_enemy_it_walks_up_to_a_downed_friend_out_of_its_heal_and_then_heals_it():
    """The friend lies 40 ft off, past the heal's 30 ft, on the way to the enemy: the walk brings it
    within reach, and the heal comes after the walk (it used to walk on by, healing nobody)."""
    b = Battle(seed=1, width=40, height=5)
    healer = b.spawn("priest", 1, 2, team="a", powers=["heal", "strike"], health=12)
    friend = b.spawn("knight", 9, 2, team="a", powers=["strike"], health=12)
    b.spawn("orc", 38, 2, team="b", powers=["strike"], health=30)
    b.start_combat()
    b.damage(friend, 12)
    b.tick()
    decision = ai.decide(b, healer, "tactical")
    assert [name for name, _, _ in decision.commands] == ["move", "use_power"], decision.why
    assert moves_and_uses(decision)[1] == [("heal", {"target": friend})], decision.why


def test_it_pulls_back_when_about_to_go_down():
    b = Battle(seed=6, width=12, height=8)
    me = b.spawn("archer", 5, 4, team="a", powers=["shoot"], health=10)
    b.spawn("brute", 6, 4, team="b", powers=["strike"], speed=10)  # slow: it can outrun them
    b.spawn("brute", 6, 5, team="b", powers=["strike"], speed=10)
    b.start_combat()
    b.damage(me, 8)
    b.tick()
    decision = ai.decide(b, me, "tactical")
    end = end_square(b, me, decision)
    assert b.threat(me, end).expected < b.threat(me).expected, decision.why


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_same_board_same_plan(seed: int):
    first = ai.decide(*slit_duel(seed=seed)[:2], "tactical")
    again = ai.decide(*slit_duel(seed=seed)[:2], "tactical")
    assert first == again


def test_every_policy_is_described():
    assert set(ai.POLICY_HELP) == set(ai.POLICIES) == {"tactical", "greedy", "random"}
    assert all(text.count("\n") == 1 for text in ai.POLICY_HELP.values())


def test_it_blinds_the_enemy_that_matters_when_it_has_nothing_better():
    b = Battle(seed=8, width=12, height=6)
    me = b.spawn("witch", 2, 2, team="a", powers=["blind"])
    brute = b.spawn("brute", 8, 2, team="b", powers=["strike"])
    b.start_combat()
    decision = ai.decide(b, me, "tactical")
    assert ("blind", {"target": brute}) in moves_and_uses(decision)[1], decision.why


def test_a_cone_without_range_is_aimed_from_where_it_would_stand():
    b = Battle(seed=9, width=12, height=6)
    me = b.spawn("mage", 2, 2, team="a", powers=["burning-hands"], health=15)
    foes = [b.spawn("orc", 7, 2, team="b"), b.spawn("orc", 7, 3, team="b")]
    b.start_combat()
    decision = ai.decide(b, me, "tactical")
    moves, uses = moves_and_uses(decision)
    assert uses and uses[0][0] == "burning-hands", decision.why
    caught = {t.target for t in b.forecast(me, "burning-hands", **uses[0][1], from_square=moves[-1]).targets}
    assert caught == set(foes)


def test_it_strikes_the_enemy_still_standing_rather_than_one_already_down():
    """A downed enemy deals nothing: a blow at it is worth little while another enemy stands in reach."""
    b = Battle(seed=10, width=10, height=8)
    me = b.spawn("knight", 4, 4, team="a", powers=["strike"], health=20)
    down = b.spawn("orc", 5, 4, team="b", powers=["strike"], health=10, defense=8)  # easier to hit
    up = b.spawn("orc", 4, 5, team="b", powers=["strike"], health=10, defense=14)
    b.start_combat()
    b.damage(down, 10)
    b.tick()
    assert "downed" in b.conditions(down) and b.can_act(up)
    decision = ai.decide(b, me, "tactical")
    assert ("strike", {"target": up}) in moves_and_uses(decision)[1], decision.why


def downed_pair(healer: bool) -> tuple[Battle, int, int, int]:
    """Two downed orcs beside a knight, one a hit from death (fatigue 4 of 5); with ``healer``, a
    shaman of theirs far off who could stand either up again."""
    b = Battle(seed=10, width=16, height=8)
    me = b.spawn("knight", 4, 4, team="a", powers=["strike"], health=20, speed=0)
    fresh = b.spawn("orc", 5, 4, team="b", powers=["strike"], health=10)
    spent = b.spawn("orc", 4, 5, team="b", powers=["strike"], health=10)
    b.spawn("shaman", 15, 7, team="b", powers=["heal" if healer else "shoot"], speed=0)
    b.start_combat()
    b.add_fatigue(spent, 3)
    for orc in (fresh, spent):
        b.damage(orc, 10)
    b.tick()
    assert all("downed" in b.conditions(o) for o in (fresh, spent)) and b.get(spent, Fatigue).level == 4
    return b, me, fresh, spent


def test_it_finishes_the_downed_enemy_one_hit_from_death_when_its_side_could_stand_it_up():
    b, me, fresh, spent = downed_pair(healer=True)
    decision = ai.decide(b, me, "tactical")
    assert ("strike", {"target": spent}) in moves_and_uses(decision)[1], decision.why
    assert "to kill" in decision.why
    b, me, fresh, spent = downed_pair(healer=False)  # nobody to stand them up: neither blow is a kill worth more
    decision = ai.decide(b, me, "tactical")
    assert "to kill" not in decision.why


def test_it_wounds_a_downed_enemy_its_side_could_stand_up_though_no_single_blow_kills_it():
    """A downed orc three blows from death (fatigue 2 of 5): each wounding blow is a third of the
    way to killing it, which matters only while a shaman of its side could stand it up again (and
    not once it is unconscious, which a heal does not wake)."""
    def board(healer: bool, rules: dict[str, int] | None = None) -> tuple[Battle, int, int]:
        b = Battle(seed=10, width=16, height=8, rules=rules)
        me = b.spawn("knight", 2, 4, team="a", powers=["strike"], health=20)
        orc = b.spawn("orc", 6, 4, team="b", powers=["strike"], health=10)
        b.spawn("ogre", 12, 4, team="b", powers=["strike"], health=30)
        b.spawn("shaman", 15, 7, team="b", powers=["heal" if healer else "shoot"], speed=0)
        b.start_combat()
        b.add_fatigue(orc, 2)
        b.damage(orc, 10)
        b.tick()
        assert "downed" in b.conditions(orc)
        assert b.forecast(me, "strike", target=orc, from_square=(5, 4)).targets[0].kills == 0  # no blow kills
        return b, me, orc

    b, me, orc = board(healer=True)
    decision = ai.decide(b, me, "tactical")
    assert ("strike", {"target": orc}) in moves_and_uses(decision)[1], decision.why
    assert "of a kill" in decision.why
    b, me, orc = board(healer=False)  # nobody could stand it up: out of the fight for good
    decision = ai.decide(b, me, "tactical")
    assert ("strike", {"target": orc}) not in moves_and_uses(decision)[1], decision.why
    b, me, orc = board(healer=True, rules={"unconscious_at_fatigue": 2})  # a heal would not wake it
    assert "unconscious" in b.conditions(orc)
    decision = ai.decide(b, me, "tactical")
    assert ("strike", {"target": orc}) not in moves_and_uses(decision)[1], decision.why


def test_it_focuses_fire_on_the_enemy_already_hurt():
    """Two like enemies in reach, neither to be downed by one blow: it strikes the one nearer its end."""
    b = Battle(seed=11, width=10, height=8)
    me = b.spawn("knight", 4, 4, team="a", powers=["strike"], health=30)
    b.spawn("orc", 5, 4, team="b", powers=["strike"], health=24)
    hurt = b.spawn("orc", 4, 5, team="b", powers=["strike"], health=24)
    b.start_combat()
    b.damage(hurt, 10)  # 14 left: more than a strike's 10 at most, so no kill decides it
    b.tick()
    assert b.forecast(me, "strike", target=hurt).targets[0].downs == 0
    decision = ai.decide(b, me, "tactical")
    assert ("strike", {"target": hurt}) in moves_and_uses(decision)[1], decision.why


def test_it_leaves_a_downed_enemy_nothing_could_stand_up_and_closes_in_on_one_standing():
    """A downed orc whose side has no healer and no rally is out of the battle for good: no blow at it
    and no square beside it gains anything, so the knight goes for the archer still shooting."""
    b = Battle(seed=10, width=16, height=8)
    me = b.spawn("knight", 4, 4, team="a", powers=["strike"], health=20)
    down = b.spawn("orc", 5, 4, team="b", powers=["strike"], health=10)
    archer = b.spawn("archer", 13, 4, team="b", powers=["shoot"], health=10)
    b.start_combat()
    b.damage(down, 10)
    b.tick()
    assert "downed" in b.conditions(down) and b.can_act(archer)
    decision = ai.decide(b, me, "tactical")
    moves, uses = moves_and_uses(decision)
    assert not uses and moves, decision.why
    x, y = moves[-1]
    assert max(abs(x - 13), abs(y - 4)) <= 4, decision.why  # walked most of its way towards the archer


def test_it_weighs_the_nearest_square_out_of_every_standing_enemys_reach():
    """Besides the squares in reach and the farthest one, it weighs the nearest square out of every
    standing enemy's reach this round: a step back that still keeps next turn's blow."""
    b = Battle(seed=10, width=20, height=8)
    me = b.spawn("knight", 4, 4, team="a", powers=["strike"], health=20)
    orc = b.spawn("orc", 9, 4, team="b", powers=["strike"], health=10, speed=10)
    b.start_combat()
    turn = Turn(b, me, None, DEFAULT)
    squares = shortlist(turn, set(), b.approach_map(me))  # the walk to the nearest enemy
    theirs = turn.glance[orc].speed_ft + turn.menace_reach(orc)
    away = [distance_3d_ft(s, 0.0, (9, 4), 0.0, b.rules) for s in squares]
    outside = [d for d in away if d > theirs]
    assert outside and min(outside) <= theirs + 2 * b.rules.square_ft, (squares, theirs)

