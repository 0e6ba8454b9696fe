"""The tactical player reads reach and drops as the rules do: a melee power with no range reaches one
square, and a drop onto hay that no fall could hurt is a step of the walk."""

from __future__ import annotations

import pytest

from components import Conditions, Falling, Movement
from components.dice import Dice
from components.powers import AreaShape, Power
from components.rules import Rules
from game import ai
from game.ai.tactical_turn import DEFAULT, Turn, longest_reach
from game.battle.facade import Battle
from systems.actions import walk_speed
from systems.power_checks import reach_ft, touch_ft
from tests.ai_steps import end_square, moves_and_uses


def test_a_melee_power_without_a_range_reaches_one_square_as_the_rules_say():
    """A power with no range and no area is melee: the planner's reach is the rules' own (one square),
    not 0 ft, so an enemy with such a bite is feared one square further than where it stands."""
    rules = Rules()
    bite = Power("bite", "Bite", "", targets="enemy", damage="1d6")
    burst = Power("roar", "Roar", "", area=AreaShape("burst", radius_ft=15), damage="1d4")
    assert longest_reach([bite], rules) == reach_ft(bite, rules) == 5.0
    assert longest_reach([bite, burst], rules) == 15.0
    assert longest_reach([], rules) == 5.0


def test_a_ranged_area_reaches_its_range_and_its_spread_past_the_point_as_the_rules_say():
    """A fireball is centred on a point up to 60 ft away and catches whoever is within 10 ft of it,
    so it touches a creature 70 ft off: the planner fears a mage's fireball that far (its walk and
    70 ft), not the 60 ft of its range alone, and a ranged cone its range and its length."""
    b = Battle(seed=1, width=30, height=5)
    mage = b.spawn("Mage", 1, 2, team="a", powers=["fireball"], health=12)
    knight = b.spawn("Knight", 25, 2, team="b", powers=["strike"], health=12)
    rules, fireball = b.rules, b.power("fireball")
    assert (fireball.range_ft, fireball.area.radius_ft) == (60, 10)
    assert longest_reach([fireball], rules) == touch_ft(fireball, rules) == 70.0
    spray = Power("spray", "Spray", "", range_ft=30, area=AreaShape("cone", length_ft=15), damage=Dice.parse("1d4"))
    assert longest_reach([spray], rules) == 45.0
    b.start_combat()
    turn = Turn(b, knight, None, DEFAULT)
    assert turn.round_reach(mage) == b.get(mage, Movement).speed_ft + 70.0


def test_far_from_its_foe_it_steps_down_onto_hay_a_drop_no_fall_could_hurt():
    """10 ft onto hay rolls no die, so the walk goes down it: closing in from a ledge's edge, the
    planner takes that step rather than stay on top, and no fall is logged."""
    b = Battle(seed=3, width=30, height=5)
    for x in range(30):
        for y in range(5):
            b.set_ground(x, y, 10 if x <= 2 else 0, soft=x > 2)
    me = b.spawn("walker", 2, 2, team="a", powers=["strike"], health=12)
    b.spawn("foe", 28, 2, team="b", powers=["strike"], health=12)
    b.start_combat()
    decision = ai.decide(b, me, "tactical")
    end = end_square(b, me, decision)
    assert end[0] > 2, decision.why
    assert b.forecast_move(me, end).fall is None, decision.why


def test_it_aims_a_fireball_short_of_a_foe_past_its_range_for_the_burst_to_catch_it():
    """A foe 100 ft off is 70 ft away after a 30 ft walk: past the fireball's 60 ft range, yet within
    its 10 ft burst of a point at 60 ft. The planner tries that point (it tried only the foe's own
    square and squares past it, all out of range, and so walked up without casting)."""
    b = Battle(seed=1, width=30, height=5)
    mage = b.spawn("Mage", 1, 2, team="a", powers=["fireball"], health=12)
    foe = b.spawn("Foe", 21, 2, team="b", powers=["strike"], health=30)
    b.start_combat()
    decision = ai.decide(b, mage, "tactical")
    moves, uses = moves_and_uses(decision)
    assert [power for power, _ in uses] == ["fireball"], decision.why
    end = end_square(b, mage, decision)
    forecast = b.forecast(mage, "fireball", point=uses[0][1]["point"], from_square=end)
    assert forecast.legal and [t.target for t in forecast.targets] == [foe]


def test_the_planner_fears_a_ranged_power_as_far_as_the_battle_forecasts_its_blow():
    """The planner's guess at how far an enemy's blow lands this round (``Turn.round_reach``: its walk
    and its power's reach) is the farthest square where ``Battle.threats`` forecasts damage from it:
    a fireball's 60 ft range and 10 ft burst, a bow's 60 ft, a sword's one square, a 15 ft cone and a
    30 ft line spread from the user. The forecast stopped a fireball at its range (nothing 95 or 100 ft
    from the mage) while the planner feared it at 100, and a cone or a line one square past the
    walk, where the planner feared them as far as their spread."""
    for power in ("fireball", "shoot", "strike", "burning-hands", "lightning"):
        b = Battle(seed=1, width=40, height=3)
        enemy = b.spawn("Enemy", 1, 1, team="a", powers=[power], health=12)
        knight = b.spawn("Knight", 39, 1, team="b", powers=["strike"], health=12)
        b.start_combat()
        row = [(x, 1) for x in range(2, 39)]
        threatened = [x for (x, _), t in zip(row, b.threats(knight, row, among=[enemy])) if t.expected > 0]
        feared = Turn(b, knight, None, DEFAULT).round_reach(enemy)
        assert (max(threatened) - 1) * b.rules.square_ft == feared, power


def test_it_aims_a_fireball_short_of_a_far_foe_by_the_rules_distance_when_diagonals_alternate():
    """With 5-10-5 diagonals a foe 9 squares off each way is 65 ft away: past the fireball's 60 ft range,
    within its burst of (9, 9), 60 ft off. The point short of it was found by counting a diagonal as
    one square (9 steps, within 12), so none was tried, and the mage, unable to walk, cast nothing."""
    b = Battle(seed=1, width=30, height=30, rules={"diagonal": "alternating"})
    mage = b.spawn("Mage", 1, 1, team="a", powers=["fireball"], health=12, speed=0)
    foe = b.spawn("Foe", 10, 10, team="b", powers=["strike"], health=30, speed=0)
    b.start_combat()
    assert not b.forecast(mage, "fireball", point=(10, 10)).legal
    decision = ai.decide(b, mage, "tactical")
    moves, uses = moves_and_uses(decision)
    assert [power for power, _ in uses] == ["fireball"], decision.why
    forecast = b.forecast(mage, "fireball", point=uses[0][1]["point"])
    assert forecast.legal and [t.target for t in forecast.targets] == [foe]


def test_it_aims_a_fireball_short_of_a_far_foe_within_the_range_counted_with_height():
    """From a 30 ft tower a foe 60 ft along the ground is 67 ft away, out of the fireball's range, and a
    point 5 ft short of it 63 ft: the point short of it is the farthest the range reaches counting the
    height, as the rules do (10 ft short, 58 ft away). It was counted along the ground (within 60 ft:
    no point short of it tried), and the mage cast nothing."""
    b = Battle(seed=1, width=30, height=5)
    b.set_ground(1, 2, 30)
    mage = b.spawn("Mage", 1, 2, team="a", powers=["fireball"], health=12, speed=0)
    foe = b.spawn("Foe", 13, 2, team="b", powers=["strike"], health=30, speed=0)
    b.start_combat()
    assert not b.forecast(mage, "fireball", point=(13, 2)).legal
    assert not b.forecast(mage, "fireball", point=(12, 2)).legal
    decision = ai.decide(b, mage, "tactical")
    moves, uses = moves_and_uses(decision)
    assert [power for power, _ in uses] == ["fireball"], decision.why
    forecast = b.forecast(mage, "fireball", point=uses[0][1]["point"])
    assert forecast.legal and [t.target for t in forecast.targets] == [foe]


@pytest.mark.parametrize("slowed_by", ["fatigue", "condition"])
def test_a_slowed_brute_is_feared_only_as_far_as_its_slowed_walk_takes_it(slowed_by: str):
    """A brute at 3 fatigue (or slowed by a condition) walks 15 ft, not 30: its sword reaches 20 ft
    this round, short of the archer 35 ft off (the threats say so: only the goblin's shot lands). The
    planner read the brute's base speed, feared its blow as the heavier and shot it; it shoots the
    goblin, whose blow is the one that can land."""
    b = Battle(seed=5, width=20, height=5)
    me = b.spawn("archer", 1, 2, team="a", powers=["shoot"], health=20, speed=0)
    brute = b.spawn("brute", 8, 1, team="b", powers=["strike"], health=30, fatigue=3 if slowed_by == "fatigue" else 0)
    goblin = b.spawn("goblin", 8, 3, team="b", powers=["shoot"], health=30)
    if slowed_by == "condition":
        b.add_condition(brute, "slowed")
    b.start_combat()
    assert "slowed" in b.conditions(brute)
    assert [s.enemy for s in b.threat(me).sources] == [goblin]
    feared = Turn(b, me, None, DEFAULT).round_reach(brute)
    walk = walk_speed(b.get(brute, Movement), b.get(brute, Conditions), b.get(brute, Falling), b.rules)
    assert walk < b.rules.speed_ft and feared == walk + reach_ft(b.power("strike"), b.rules)  # the rules' walk
    decision = ai.decide(b, me, "tactical")
    assert moves_and_uses(decision)[1] == [("shoot", {"target": goblin})], decision.why


def test_an_archer_falls_back_out_of_a_cone_a_mage_could_walk_up_and_spread():
    """A mage 40 ft off walks 30 ft and spreads its 15 ft cone from where it stands: the archer is in
    reach. The threats counted a cone one square past the walk (35 ft: nothing there), so the archer
    stayed to shoot and took the burning hands; it shoots and then steps back out of their reach."""
    b = Battle(seed=1, width=25, height=5)
    me = b.spawn("archer", 6, 2, team="a", powers=["shoot"], health=12)
    mage = b.spawn("mage", 14, 2, team="b", powers=["burning-hands"], health=30)
    b.start_combat()
    assert [s.power for s in b.threat(me).sources] == ["burning-hands"]
    decision = ai.decide(b, me, "tactical")
    moves, uses = moves_and_uses(decision)
    assert uses == [("shoot", {"target": mage})] and moves, decision.why
    assert decision.commands[0][0] == "use_power", decision.why  # it shoots first, then falls back
    assert b.threats(me, [moves[-1]])[0].expected == 0, decision.why


def test_closing_in_it_steps_down_onto_hay_no_fall_could_hurt_rather_than_stop_at_the_edge():
    """10 ft onto hay rolls no die (one die, halved to none), so the walk steps down it unhurt. The
    shortlist ranked that step as 5 ft farther (half the drop, not the rules' dice), never weighed
    the hay below the ledge and stopped on the ledge's edge; it goes down onto the hay, a square
    nearer the orc, with no fall."""
    b = Battle(seed=514, width=12, height=7)
    for x in range(12):
        for y in range(7):
            b.set_ground(x, y, 10 if x <= 5 else 0, soft=x > 5)
    me = b.spawn("knight", 0, 2, team="a", powers=["strike"], health=20)
    b.spawn("orc", 9, 2, team="b", powers=["strike"], health=12)
    b.start_combat()
    decision = ai.decide(b, me, "tactical")
    end = end_square(b, me, decision)
    assert end[0] >= 6, decision.why
    move = b.forecast_move(me, end)
    assert move.stops_at == end and move.fall is None and move.z == 0, decision.why


@pytest.mark.parametrize("hay", [True, False])
def test_surprised_on_a_ledge_over_hay_it_holds_since_the_step_down_is_no_fall(hay: bool):
    """Surprised on a 10 ft ledge, an orc 25 ft off below: onto hay the drop rolls no die, so next
    turn its walk steps down and it strikes (every enemy is in its reach next turn: it holds). The
    planner held any drop of 10 ft as one a walk stops at, hay or not, and walked down among the
    orc's blows with no power to use. Onto hard ground the drop hurts: it does not hold on that count."""
    b = Battle(seed=3, width=12, height=5)
    for x in range(12):
        for y in range(5):
            b.set_ground(x, y, 10 if x <= 4 else 0, soft=hay and x > 4)
    me = b.spawn("knight", 3, 2, team="a", powers=["strike"], health=20, prepared=False)
    b.spawn("orc", 8, 2, team="b", powers=["strike"], health=12)
    b.start_combat()
    assert "surprised" in b.conditions(me)
    decision = ai.decide(b, me, "tactical")
    assert decision.why.startswith("holds") == hay, decision.why
    assert decision.commands == (), decision.why


def test_surprised_on_a_ledge_over_hay_it_does_not_hold_where_the_rounds_fall_is_shorter_than_the_drop():
    """The walk steps off a drop past the round's fall (``fall_ft_per_round``), dice or none
    (``systems.drops.steps_off``): with 5 ft a round, the 10 ft onto hay ends next turn's walk at the
    ledge's foot, falling, short of the orc. The planner read the fall dice alone (none onto hay), held
    the ledge for a blow it could not bring and said every enemy was in its reach next turn."""
    b = Battle(seed=3, width=12, height=5, rules={"fall_ft_per_round": 5})
    for x in range(12):
        for y in range(5):
            b.set_ground(x, y, 10 if x <= 4 else 0, soft=x > 4)
    me = b.spawn("knight", 3, 2, team="a", powers=["strike"], health=20, prepared=False)
    b.spawn("orc", 8, 2, team="b", powers=["strike"], health=12)
    b.start_combat()
    assert "surprised" in b.conditions(me)
    assert b.forecast_move(me, (7, 2)).stops_at == (5, 2)  # the battle's walk: it steps off at the foot
    decision = ai.decide(b, me, "tactical")
    assert not decision.why.startswith("holds"), decision.why
