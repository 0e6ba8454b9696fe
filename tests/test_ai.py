"""The computer player: its plans are always legal, deterministic for a seed, and finish fights.

"Legal" is checked the strict way: every planned command is issued on the real battle, which raises
on anything the rules refuse, over many seeds, policies and random maps.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from components.events import CommandRefused
from game import ai
from game.battle.facade import Battle

ROOT = Path(__file__).resolve().parent.parent
POWER_SETS = (["strike"], ["shoot", "strike"], ["fireball", "strike"], ["burning-hands", "dazzle"],
              ["lightning", "shove"], ["heal", "shoot"])


def random_battle(seed: int, size: int = 12, per_team: int = 3) -> Battle:
    """A map with random walls, ledges and creatures of two teams, from one seed."""
    rng = random.Random(seed)
    b = Battle(seed=seed, width=size, height=size)
    for _ in range(size * 2):
        b.add_wall(rng.randrange(size), rng.randrange(size))
    for _ in range(size):
        x, y = rng.randrange(size), rng.randrange(size)
        if not b.terrain.walls[x, y]:
            b.set_ground(x, y, rng.choice([0, 10, 20]), soft=rng.random() < 0.3)
    if rng.random() < 0.5:
        b.set_ambient(rng.choice(["poor", "terrible"]))
        b.add_light(rng.randrange(size), rng.randrange(size), 20)
    free = [(x, y) for x in range(size) for y in range(size) if not b.terrain.walls[x, y]]
    rng.shuffle(free)
    for team in ("red", "blue"):
        for i in range(per_team):
            x, y = free.pop()
            kwargs = {"powers": rng.choice(POWER_SETS)}
            b.spawn(f"{team}{i}", x, y, team=team, health=rng.randint(4, 14), prepared=rng.random() < 0.8,
                    **kwargs)
    b.start_combat()
    return b


@pytest.mark.slow
@pytest.mark.parametrize("policy", ai.POLICIES)
def test_plans_are_always_legal(policy: str) -> None:
    """Issuing every planned command never raises, over many seeds and rounds: each creature's turn
    played as every caller plays it (``ai.decisions``: a plan that falls settles the fall first, which
    only a turn under way can), and no order refused when given (nor, for the tactical player, when it
    resolves)."""
    for seed in range(25):
        b = random_battle(seed)
        rng = random.Random(seed)

        def turn(battle: Battle, entity: int, rng: random.Random = rng) -> None:
            for decision in ai.decisions(battle, entity, policy, rng):
                for name, args, kwargs in decision.commands:
                    getattr(battle, name)(*args, **kwargs)  # an illegal order: a CommandRefused of the tick's

        for _ in range(6):
            b.tick(controller=turn)
        refused = [e for e in b.events if isinstance(e, CommandRefused)
                   and (policy == "tactical" or e.command == "controller")]  # (greedy's own slips kept as they are)
        assert not refused, (seed, refused)
        b.close()


def test_planning_changes_nothing() -> None:
    b = random_battle(3)
    before = (len(b.command_log), len(b.events))
    for entity in b.turn_order():
        ai.plan_turn(b, entity, "greedy", random.Random(1))
    assert (len(b.command_log), len(b.events)) == before


def test_same_seed_same_battle_and_no_global_random() -> None:
    logs = []
    for _ in range(2):
        random.seed(12345)
        state = random.getstate()
        b = random_battle(11)
        rng = random.Random(99)
        for _ in range(5):
            ai.act_for(b, b.turn_order(), "random", rng)
            b.tick()
        assert random.getstate() == state, "the AI must not draw from the global generator"
        logs.append([(e.__class__.__name__, e.as_dict()) for e in b.events])
        b.close()
    assert logs[0] == logs[1]


def test_helpless_creatures_plan_nothing() -> None:
    b = Battle(width=8, height=8)
    hero = b.spawn("Hero", 1, 1, team="blue")
    b.spawn("Orc", 6, 6, team="red")
    b.damage(hero, 50)
    b.tick()
    assert "downed" in b.conditions(hero)
    for policy in ai.POLICIES:
        assert ai.plan_turn(b, hero, policy, random.Random(0)) == []


def _plateau(start: tuple[int, int]) -> tuple[Battle, int, int]:
    """A hero on a plateau 30 ft above the ground to its east, where its enemy stands."""
    b = Battle(width=12, height=5)
    for x in range(6):
        for y in range(5):
            b.set_ground(x, y, 30)
    hero = b.spawn("Hero", *start, team="blue", powers=["strike"])
    orc = b.spawn("Orc", 11, 2, team="red")
    return b, hero, orc


def test_moves_toward_the_enemy_and_avoids_hurtful_drops() -> None:
    """From the back of the plateau it walks to the edge nearest the orc; at the edge, where the only way
    nearer is a 30 ft drop (3d6), it stays on top."""
    b, hero, orc = _plateau((1, 2))
    plan = ai.plan_turn(b, hero, "tactical", random.Random(0))
    moves = [(args[1], args[2]) for name, args, _ in plan if name == "move"]
    assert moves, plan
    end = moves[-1]
    assert b.terrain.ground[end] == 30  # still on the plateau
    assert _squares_between(end, b.square_of(orc)) < _squares_between((1, 2), b.square_of(orc))
    assert all(b.forecast_move(hero, square).fall is None for square in moves)
    b, hero, _ = _plateau((5, 2))
    plan = ai.plan_turn(b, hero, "tactical", random.Random(0))
    assert all(b.terrain.ground[args[1], args[2]] == 30 for name, args, _ in plan if name == "move"), plan


def _squares_between(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Squares apart on the grid, a diagonal step counting one (the rules' default)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def test_unknown_policy_is_refused() -> None:
    b = Battle(width=4, height=4)
    e = b.spawn("A", 0, 0, team="a")
    b.spawn("B", 3, 3, team="b")
    with pytest.raises(ValueError, match="policy"):
        ai.plan_turn(b, e, "psychic")


@pytest.mark.parametrize("policy", ["tactical", "greedy"])
def test_two_ais_finish_a_small_battle(policy: str) -> None:
    """Someone is downed or dead within 15 rounds on a small open map."""
    for seed in range(5):
        b = Battle(seed=seed, width=10, height=8)
        b.add_wall(5, 3)
        b.add_wall(5, 4)
        reds = [b.spawn(f"red{i}", 1, 2 + 3 * i, team="red", powers=["strike", "shoot"]) for i in range(2)]
        blues = [b.spawn(f"blue{i}", 8, 2 + 3 * i, team="blue", powers=["strike"]) for i in range(2)]
        b.start_combat()
        rng = random.Random(seed)
        for _ in range(15):
            ai.act_for(b, b.turn_order(), policy, rng)
            b.tick()
            if any(b.conditions(e) & {"downed", "dead"} for e in reds + blues):
                break
        assert any(b.conditions(e) & {"downed", "dead"} for e in reds + blues), f"seed {seed}: nobody fell"
        b.close()


def test_ai_does_not_import_pygame() -> None:
    code = "import sys, game.ai; assert 'pygame' not in sys.modules, 'game.ai imported pygame'"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


@pytest.mark.parametrize("powers, says", [
    (["fireball"], r"Fireball at \(7, 3\) \((\d+\.\d) expected by its own rough count\)"),
    (["shoot"], r"Shoot at Orc 1 \((\d+\.\d) expected by its own rough count\)")])
def test_greedy_says_the_damage_it_expected_of_an_area_as_of_a_single_target(powers: list[str], says: str) -> None:
    b = Battle(seed=3, width=12, height=8)
    me = b.spawn("Mage", 2, 3, team="a", powers=powers)
    b.spawn("Orc", 7, 3, team="b", powers=["strike"])
    b.spawn("Orc", 8, 4, team="b", powers=["strike"])
    b.start_combat()
    why = ai.decide(b, me, "greedy").why
    found = re.search(says, why)
    assert found and float(found[1]) > 0, why


@pytest.mark.parametrize("per_die", [10, 5])
def test_greedy_keeps_off_a_drop_that_hurts_under_the_scenarios_own_falls(per_die: int) -> None:
    """Greedy never ends a move below a ledge that hurts, by the rules' falls: with a die per 5 ft, a 5 ft
    drop hurts too (it had held every drop under 10 ft harmless)."""
    b = Battle(seed=1, width=14, height=5, rules={"fall_ft_per_die": per_die})
    for x in range(4):
        for y in range(5):
            b.set_ground(x, y, 5)
    hero = b.spawn("Hero", 3, 2, team="blue", powers=["strike"])
    b.spawn("Orc", 12, 2, team="red", powers=["strike"])
    b.start_combat()
    plan = ai.plan_turn(b, hero, "greedy", random.Random(0))
    moves = [args[1:] for name, args, _ in plan if name == "move"]
    falls = [b.forecast_move(hero, tuple(square)).fall for square in moves]
    if per_die == 5:
        assert all(fall is None or fall.dice == 0 for fall in falls), (plan, falls)
    else:  # a 5 ft step down is part of the walk: it goes on towards the orc
        assert moves and moves[0][0] > 3, plan


@pytest.mark.parametrize("seed", range(12))
def test_the_baselines_cover_grid_counts_each_square_as_the_rule_does(seed: int) -> None:
    """The baseline's grid of every square's blocked corner lines from an attacker (one pass over the
    map's lattice points) gives each square the count the rule gives the pair alone
    (``systems.cover_lines.blocked_lines``), wall squares and the attacker's own included."""
    import numpy as np

    from game.ai.maps import MapAnswers
    from systems.cover_lines import blocked_lines

    rng = np.random.default_rng(seed)
    w, h = (int(n) for n in rng.integers(3, 14, 2))
    walls = rng.random((w, h)) < 0.1 + 0.3 * rng.random()
    answers = MapAnswers(walls)
    every = np.array([(x, y) for x in range(w) for y in range(h)])
    for attacker in [(int(x), int(y)) for x, y in every[rng.choice(len(every), 4, replace=False)]]:
        assert answers.cover_grid(attacker) is not None  # (a small map: the grid, not the pairs)
        want = [blocked_lines(walls, attacker, (int(x), int(y))) for x, y in every]
        assert answers.blocked(attacker, every).tolist() == want, attacker
