"""Visibility: square levels (ambient, lights, areas), a creature's Vision (dazzled, blinded), and what each
level does to Notice and attack rolls; flat-footed without vision.
"""

from __future__ import annotations

import pytest

from components import Visibility, Vision
from components.events import ConditionGained
from game import Battle
from systems.rolls import defense_against

V = Visibility
LEVELS = [V.NORMAL, V.POOR, V.TERRIBLE, V.NO_VISION]


def vision(b: Battle, e: int) -> Visibility:
    return b.get(e, Vision).level


def test_levels_are_ordered():
    assert V.NORMAL > V.POOR > V.TERRIBLE > V.NO_VISION


def test_ambient_is_normal_by_default(battle):
    e = battle.spawn("a", 3, 3)
    assert battle.visibility_at(3, 3) == V.NORMAL
    assert vision(battle, e) == V.NORMAL


@pytest.mark.parametrize("level", LEVELS)
def test_ambient_sets_every_square(battle, level):
    e = battle.spawn("a", 3, 3)
    battle.set_ambient(level)
    assert vision(battle, e) == level
    assert battle.visibility_at(15, 15) == level


def test_ambient_accepts_names(battle):
    battle.set_ambient("no vision")
    assert battle.visibility_at(0, 0) == V.NO_VISION


def test_a_light_raises_the_level_within_its_radius(battle):
    battle.set_ambient(V.NO_VISION)
    near = battle.spawn("near", 6, 5)
    far = battle.spawn("far", 12, 12)
    battle.add_light(5, 5, 10, V.NORMAL)
    assert vision(battle, near) == V.NORMAL
    assert vision(battle, far) == V.NO_VISION
    assert battle.visibility_at(7, 5) == V.NORMAL      # 10 ft away
    assert battle.visibility_at(8, 5) == V.NO_VISION   # 15 ft away


def test_a_light_never_lowers_the_level(battle):
    battle.add_light(5, 5, 20, V.POOR)  # a dim light in daylight
    assert battle.visibility_at(5, 5) == V.NORMAL


def test_the_best_light_counts(battle):
    battle.set_ambient(V.NO_VISION)
    battle.add_light(5, 5, 20, V.POOR)
    battle.add_light(6, 5, 20, V.NORMAL)
    battle.add_light(7, 5, 20, V.TERRIBLE)
    assert battle.visibility_at(5, 5) == V.NORMAL


def test_light_does_not_pass_through_walls(battle):
    battle.set_ambient(V.NO_VISION)
    for y in range(16):
        battle.add_wall(4, y)
    behind = battle.spawn("behind the wall", 6, 5)
    front = battle.spawn("in front", 3, 5)
    battle.add_light(2, 5, 30, V.NORMAL)
    assert vision(battle, front) == V.NORMAL
    assert vision(battle, behind) == V.NO_VISION
    assert battle.visibility_at(5, 5) == V.NO_VISION


def test_removing_a_wall_lets_the_light_through(battle):
    battle.set_ambient(V.NO_VISION)
    battle.add_wall(3, 5)
    e = battle.spawn("a", 4, 5)
    battle.add_light(2, 5, 10, V.NORMAL)
    assert vision(battle, e) == V.NO_VISION
    battle.remove_wall(3, 5)
    assert vision(battle, e) == V.NORMAL


def test_an_area_lowers_the_level(battle):
    e = battle.spawn("a", 5, 5)
    outside = battle.spawn("b", 12, 12)
    battle.add_area(5, 5, 10, V.POOR)
    assert vision(battle, e) == V.POOR
    assert vision(battle, outside) == V.NORMAL


def test_an_area_lowers_even_a_lit_square(battle):
    """Ambient raised to the best light, THEN lowered to the worst area."""
    battle.add_light(5, 5, 30, V.NORMAL)
    battle.add_area(5, 5, 10, V.TERRIBLE)
    assert battle.visibility_at(5, 5) == V.TERRIBLE


def test_the_worst_area_counts(battle):
    battle.add_area(5, 5, 10, V.POOR)
    battle.add_area(6, 5, 10, V.NO_VISION)
    battle.add_area(4, 5, 10, V.TERRIBLE)
    assert battle.visibility_at(5, 5) == V.NO_VISION


def test_an_area_never_raises_the_level(battle):
    battle.set_ambient(V.TERRIBLE)
    battle.add_area(5, 5, 10, V.POOR)
    assert battle.visibility_at(5, 5) == V.TERRIBLE


def test_removing_lights_and_areas(battle):
    battle.set_ambient(V.NO_VISION)
    light = battle.add_light(5, 5, 10, V.NORMAL)
    area = battle.add_area(5, 5, 10, V.POOR)
    assert battle.visibility_at(5, 5) == V.POOR
    battle.remove_area(area)
    assert battle.visibility_at(5, 5) == V.NORMAL
    battle.remove_light(light)
    assert battle.visibility_at(5, 5) == V.NO_VISION


@pytest.mark.parametrize(("square", "dazzled"), [
    (V.NORMAL, V.TERRIBLE), (V.POOR, V.TERRIBLE), (V.TERRIBLE, V.TERRIBLE), (V.NO_VISION, V.NO_VISION)])
def test_dazzled_is_at_best_terrible(battle, square, dazzled):
    battle.set_ambient(square)
    e = battle.spawn("a", 3, 3)
    battle.add_condition(e, "dazzled")
    assert vision(battle, e) == dazzled
    battle.remove_condition(e, "dazzled")
    assert vision(battle, e) == square


@pytest.mark.parametrize("square", LEVELS)
def test_blinded_is_no_vision(battle, square):
    battle.set_ambient(square)
    e = battle.spawn("a", 3, 3)
    battle.add_condition(e, "blinded")
    assert vision(battle, e) == V.NO_VISION


def test_blinded_is_flat_footed(battle):
    a = battle.spawn("a", 0, 0)
    e = battle.spawn("e", 3, 3, defense=12)
    battle.add_condition(e, "blinded")
    assert "flat-footed" in battle.conditions(e)
    assert battle.defense_against(e, a) == 10
    battle.remove_condition(e, "blinded")
    assert "flat-footed" not in battle.conditions(e)
    assert battle.defense_against(e, a) == 12


def test_darkness_is_flat_footed(battle):
    e = battle.spawn("e", 3, 3)
    battle.add_area(3, 3, 5, V.NO_VISION)
    assert "flat-footed" in battle.conditions(e)


@pytest.mark.parametrize("level", [V.NORMAL, V.POOR, V.TERRIBLE])
def test_only_no_vision_is_flat_footed(battle, level):
    battle.set_ambient(level)
    e = battle.spawn("e", 3, 3)
    assert "flat-footed" not in battle.conditions(e)


def test_vision_follows_a_moving_creature(battle):
    battle.add_area(8, 8, 5, V.POOR)
    e = battle.spawn("e", 3, 3)
    battle.move(e, 8, 8)
    battle.tick()
    assert vision(battle, e) == V.POOR


# ---------------------------------------------------------------- rolls


NOTICE = {V.NORMAL: "normal", V.POOR: "disadvantage", V.TERRIBLE: "disadvantage",
          V.NO_VISION: "critical failure"}
ATTACK = {V.NORMAL: "normal", V.POOR: "normal", V.TERRIBLE: "disadvantage", V.NO_VISION: "disadvantage"}


@pytest.mark.parametrize("level", LEVELS)
def test_notice_and_attack_at_each_level(battle, level):
    battle.set_ambient(level)
    e = battle.spawn("e", 3, 3)
    assert battle.roll_mode(e, "notice") == NOTICE[level]
    assert battle.roll_mode(e, "attack") == ATTACK[level]


@pytest.mark.parametrize("level", LEVELS)
def test_other_rolls_do_not_depend_on_vision(battle, level):
    battle.set_ambient(level)
    e = battle.spawn("e", 3, 3)
    for kind in ("save", "check", "initiative"):
        assert battle.roll_mode(e, kind) == "normal"


def test_notice_without_sight_avoids_the_critical_failure_but_keeps_disadvantage(battle):
    battle.set_ambient(V.NO_VISION)
    e = battle.spawn("e", 3, 3)
    assert battle.roll_mode(e, "notice", sight=True) == "critical failure"
    assert battle.roll_mode(e, "notice", sight=False) == "disadvantage"


def test_attacks_never_critically_fail_from_darkness(battle):
    battle.set_ambient(V.NO_VISION)
    e = battle.spawn("e", 3, 3)
    assert battle.roll_mode(e, "attack", sight=True) == "disadvantage"


def test_the_target_squares_level_counts_when_worse(battle):
    roller = battle.spawn("roller", 1, 1)
    target = battle.spawn("target", 10, 10)
    battle.add_area(10, 10, 5, V.TERRIBLE)
    assert vision(battle, roller) == V.NORMAL
    assert battle.roll_mode(roller, "attack") == "normal"
    assert battle.roll_mode(roller, "attack", target=target) == "disadvantage"
    assert battle.roll_mode(roller, "notice", target=target) == "disadvantage"
    assert battle.roll_mode(roller, "notice", target=(10, 10)) == "disadvantage"
    assert battle.roll_mode(roller, "notice", target=(1, 2)) == "normal"


def test_the_target_square_in_darkness_makes_notice_fail(battle):
    roller = battle.spawn("roller", 1, 1)
    battle.add_area(10, 10, 0, V.NO_VISION)
    assert battle.roll_mode(roller, "notice", target=(10, 10)) == "critical failure"
    assert battle.roll_mode(roller, "notice", target=(10, 10), sight=False) == "disadvantage"


def test_the_rollers_own_level_counts_when_worse(battle):
    roller = battle.spawn("roller", 1, 1)
    target = battle.spawn("target", 10, 10)
    battle.add_condition(roller, "dazzled")
    assert battle.roll_mode(roller, "attack", target=target) == "disadvantage"


def test_the_targets_own_conditions_do_not_count(battle):
    """Only the target's square level counts, not how well the target itself sees."""
    roller = battle.spawn("roller", 1, 1)
    target = battle.spawn("target", 10, 10)
    battle.add_condition(target, "blinded")
    assert battle.roll_mode(roller, "attack", target=target) == "normal"


def test_advantage_and_disadvantage_cancel(battle):
    battle.set_ambient(V.POOR)
    e = battle.spawn("e", 3, 3)
    assert battle.roll_mode(e, "notice") == "disadvantage"
    assert battle.roll_mode(e, "notice", advantage=True) == "normal"
    assert battle.roll_mode(e, "attack", advantage=True) == "advantage"
    assert battle.roll_mode(e, "attack", advantage=True, disadvantage=True) == "normal"
    assert battle.roll_mode(e, "attack", disadvantage=True) == "disadvantage"


def test_two_sources_of_disadvantage_are_still_cancelled_by_advantage(battle):
    battle.set_ambient(V.TERRIBLE)
    e = battle.spawn("e", 3, 3)
    battle.add_fatigue(e, 4)
    battle.tick()
    assert battle.roll_mode(e, "attack") == "disadvantage"
    assert battle.roll_mode(e, "attack", advantage=True) == "normal"


def test_critical_failure_beats_advantage_and_disadvantage(battle):
    battle.set_ambient(V.NO_VISION)
    e = battle.spawn("e", 3, 3)
    assert battle.roll_mode(e, "notice", advantage=True) == "critical failure"
    assert battle.roll_mode(e, "notice", advantage=True, disadvantage=True) == "critical failure"


def test_a_creature_that_steps_into_the_light_attacks_in_it_the_same_turn() -> None:
    """Sight is taken where the creature stands at the moment of the roll, not where its turn began."""
    from components.events import AttackRolled
    from game import Battle

    b = Battle(seed=2, width=12, height=5)
    b.set_ambient("no vision")
    b.add_light(6, 2, 10, "normal")
    hero = b.spawn("Hero", 2, 2, team="a", powers=["strike"])
    foe = b.spawn("Foe", 5, 2, team="b")
    b.start_combat()
    assert b.roll_mode(hero, "attack", target=foe) == "disadvantage"  # from the dark
    b.move(hero, 4, 2)
    b.use_power(hero, "strike", target=foe)
    b.tick()
    rolled = [e for e in b.events if isinstance(e, AttackRolled) and e.entity == hero]
    assert rolled and rolled[0].mode == "normal"


def test_a_kept_line_is_tcods_line_from_any_start():
    """Sight lines are kept by their step (``MapCaches.line_steps``): a line from any square must be
    tcod's own Bresenham line between the two squares, or sight would change with the cache; only
    short ones are kept (a huge map's lines would fill memory)."""
    import random

    import tcod.los

    from systems.caches import LINE_KEPT, MapCaches

    caches, rng = MapCaches(), random.Random(7)
    for _ in range(3000):
        a = (rng.randrange(64), rng.randrange(64))
        b = (a[0] + rng.randint(-20, 20), a[1] + rng.randint(-20, 20)) if rng.random() < 0.5 else \
            (rng.randrange(64), rng.randrange(64))
        want = [(int(x), int(y)) for x, y in tcod.los.bresenham(a, b)]
        assert [(a[0] + dx, a[1] + dy) for dx, dy in caches.line_steps(b[0] - a[0], b[1] - a[1])] == want
    assert caches.lines and all(abs(dx) < LINE_KEPT and abs(dy) < LINE_KEPT for dx, dy in caches.lines)


def test_sight_with_kept_lines_answers_as_tcods_lines_do():
    """Whether one square sees another is the same with the map's kept lines and with tcod's asked
    afresh, on boards with walls and darkness."""
    import random

    import numpy as np

    from systems.caches import MapCaches
    from systems.visibility import sees

    caches, rng = MapCaches(), random.Random(3)
    for _ in range(40):
        walls = np.array([[rng.random() < 0.2 for _ in range(12)] for _ in range(12)])
        levels = np.array([[rng.choice([int(V.NORMAL), int(V.NO_VISION)]) if rng.random() < 0.1 else int(V.NORMAL)
                            for _ in range(12)] for _ in range(12)], dtype=np.int8)
        for _ in range(100):
            a, b = (rng.randrange(12), rng.randrange(12)), (rng.randrange(12), rng.randrange(12))
            seen = int(V.NORMAL)
            assert sees(walls, levels, seen, a, b, caches.line_steps) == sees(walls, levels, seen, a, b)


@pytest.mark.parametrize(("grant", "event_reason", "defense_reason"), [
    ("blinded", "no vision", "no vision"),
    ("surprised", "surprised", "surprised"),
    ("flat-footed", "gm", "flat-footed"),  # the event names who granted it; the Defense, the condition
])
def test_the_flat_footed_event_and_the_defense_give_one_reason(grant: str, event_reason: str,
                                                               defense_reason: str) -> None:
    """Why a creature is flat-footed, as its event and its Defense's modifier say it: both from
    ``systems.conditions.flat_footed_reason`` (the Defense re-tested blindness and vision itself)."""
    b = Battle(seed=1, width=6, height=3)
    e = b.spawn("a", 1, 1, team="a")
    foe = b.spawn("b", 3, 1, team="b")
    b.add_condition(e, grant)
    [gained] = [ev for ev in b.events if isinstance(ev, ConditionGained) and ev.condition == "flat-footed"]
    assert gained.source == event_reason
    [why] = [m.reason for m in defense_against(b.state, e, foe).modifiers if m.name == "flat-footed"]
    assert why == defense_reason


def test_the_conditions_sight_reads_are_the_ones_vision_conditions_names() -> None:
    """``VISION_CONDITIONS`` is what a menace's key and the window's count of what changes a team's sight
    read instead of a list of their own: it must name exactly the grants that change a creature's own
    vision at some square's level, or a condition the rule comes to read would go unwatched there."""
    from components import Conditions
    from components.rules import GRANTABLE_CONDITIONS
    from systems.visibility import VISION_CONDITIONS, vision_value

    def worsens(condition: str) -> bool:
        granted = Conditions(granted={condition: {"gm": 1}}, active=frozenset({condition}))
        return any(vision_value(int(level), granted) != int(level) for level in LEVELS)

    assert {c for c in GRANTABLE_CONDITIONS if worsens(c)} == VISION_CONDITIONS == {"blinded", "dazzled"}
