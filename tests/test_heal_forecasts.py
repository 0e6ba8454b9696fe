"""A heal's forecast says what the heal will give back: no more than the creature lacks, nothing to the dead.

The damage system gives a heal back only up to the creature's maximum (``systems.damage.healed``); a
forecast that quoted the dice's mean would tell a designer a priest at full health "heals 7.0".
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from components import Health
from components.dice import Dice
from game import Battle
from systems.odds import dice_outcomes
from tests.event_steps import kinds


def priest(lacking: int, seed: int = 3) -> tuple[Battle, int]:
    """A priest of 12 Health lacking ``lacking`` of it, its round begun (so it may use Heal on itself)."""
    b = Battle(seed=seed, width=6, height=4)
    me = b.spawn("Priest", 1, 1, team="a", health=12, powers=["heal"])
    b.spawn("Foe", 4, 2, team="b")
    b.start_combat()
    if lacking:
        b.damage(me, lacking)
    b.tick()
    return b, me


def capped_mean(dice: str, room: int) -> float:
    return sum(min(value, room) * p for value, p in dice_outcomes(Dice.parse(dice)).items())


def test_a_heal_at_full_health_is_forecast_to_give_nothing() -> None:
    b, me = priest(0)
    [target] = b.forecast(me, "heal", target=me).targets
    assert target.healing is not None and target.healing.mean == 0.0
    [outcome] = b.outcomes_many(me, (1, 1), [("heal", {"target": me})])[0].targets
    assert outcome.healing == 0.0


def test_a_heal_is_forecast_up_to_what_the_creature_lacks() -> None:
    b, me = priest(2)
    [target] = b.forecast(me, "heal", target=me).targets
    healing = b.power("heal").healing
    assert healing is not None
    assert target.healing is not None and target.healing.high == 2
    assert abs(target.healing.mean - target.affected * capped_mean(str(healing), 2)) < 1e-12


@settings(max_examples=25, deadline=None)
@given(lacking=st.integers(0, 11), seed=st.integers(0, 2**16))
def test_the_healing_given_is_one_of_the_forecasts_outcomes(lacking: int, seed: int) -> None:
    b, me = priest(lacking, seed)
    [target] = b.forecast(me, "heal", target=me).targets
    before = b.get(me, Health).current
    actor = b.begin_round()
    while actor != me:
        actor = b.end_turn()
    b.use_power(me, "heal", target=me)
    b.resolve_orders()
    given = sum(e.amount for e in kinds(b, "healed", me))
    assert target.healing is not None
    assert given in {value for value, p in target.healing.outcomes if p > 0}
    assert b.get(me, Health).current == before + given <= 12


def test_a_scripts_heal_is_foreseen_up_to_what_its_creature_lacks() -> None:
    """The vampiric touch heals its user by the damage it deals: a user lacking 3 is foreseen to get 3 at most."""
    with Battle(seed=2) as b:
        user = b.spawn("vampire", 2, 2, team="a", health=30, powers=["vampiric-touch"])
        victim = b.spawn("victim", 3, 2, team="b", health=40)
        b.damage(user, 3)
        b.tick()
        seen = b.foresee_script(user, "vampiric-touch", victim, hit=victim)
        hurt, healed = seen.outcomes[:2]
        assert (healed.target, healed.ally) == (user, True)
        assert hurt.damage is not None and hurt.damage > 3
        assert healed.healing == 3.0  # the drain's 2d6 read at five quantiles: 4 to 10, each capped at 3
