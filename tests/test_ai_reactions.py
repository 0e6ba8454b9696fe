"""The tactical player sees a scenario's reaction scripts through their forecast (a rally's heals)."""

from __future__ import annotations

from game.ai import tactical
from game.battle.facade import Battle


def two_at_one_health(rally: bool) -> tuple[Battle, int, int, int]:
    """A sure hitter between two foes at 2 health; a third foe, downed, lies beside the first."""
    b = Battle(seed=3, width=16, height=10)
    if rally:
        b.attach_reaction("rally.star")  # allies within 15 ft of one who goes down heal 2
    hitter = b.spawn("Hitter", 5, 5, team="blue", powers=["strike"], health=12, attack_bonus=10)
    rallier = b.spawn("Rallier", 6, 5, team="red", powers=["strike"], health=10)
    loner = b.spawn("Loner", 4, 5, team="red", powers=["strike"], health=10)
    fallen = b.spawn("Fallen", 8, 5, team="red", powers=["strike"], health=10)
    b.start_combat()
    b.begin_round()
    for foe, blow in ((rallier, 8), (loner, 8), (fallen, 10)):
        b.damage(foe, blow)
    b.resolve_orders()
    assert "downed" in b.conditions(fallen)
    return b, hitter, rallier, loner


def struck(b: Battle, hitter: int) -> int:
    uses = [kw["target"] for name, _, kw in tactical.plan(b, hitter).commands if name == "use_power"]
    assert len(uses) == 1
    return int(uses[0])


def test_it_downs_the_foe_whose_fall_brings_nobody_back() -> None:
    b, hitter, rallier, loner = two_at_one_health(rally=True)
    assert struck(b, hitter) == loner  # downing the rallier would heal the fallen one back up
    b, hitter, rallier, loner = two_at_one_health(rally=False)
    assert struck(b, hitter) == rallier  # without the rally the two blows are worth the same


def test_weighing_the_reactions_changes_nothing_in_the_battle() -> None:
    b, hitter, _, _ = two_at_one_health(rally=True)
    before = (list(b.events), b.state.rng.getstate(), b.scripts.calls, b.scripts.budget.battle_used)
    tactical.plan(b, hitter)
    assert before == (list(b.events), b.state.rng.getstate(), b.scripts.calls, b.scripts.budget.battle_used)
