"""Range checks read a numpy integer as the int it is, and a bool as no number, wherever they are
made: a battle's seed, a forecast's trials, a script what-if's runs, a script's amounts and durations
(each was once a hand-written check that refused ``np.int64(3)`` while ``damage`` took it)."""

from __future__ import annotations

import numpy as np
import pytest

from game import Battle
from game.battle.errors import IllegalCommand


def test_a_numpy_seed_is_the_seed_it_holds_and_a_bool_is_none() -> None:
    assert Battle(seed=np.int64(3)).seed == 3 and type(Battle(seed=np.int64(3)).seed) is int
    with pytest.raises(IllegalCommand, match="seed must be a whole number, not True"):
        Battle(seed=True)
    with pytest.raises(IllegalCommand, match=r"seed: expected a whole number in 0\.\.\d+, got -1"):
        Battle(seed=np.int64(-1))


def test_a_forecasts_trials_and_a_what_ifs_runs_take_numpy_integers_and_refuse_bools() -> None:
    with Battle(seed=2) as b:
        user = b.spawn("mage", 2, 2, team="a")
        foe = b.spawn("foe", 6, 2, team="b", health=20)
        assert b.forecast(user, "chain-lightning", foe, trials=np.int64(3)) == \
            b.forecast(user, "chain-lightning", foe, trials=3)
        with pytest.raises(IllegalCommand, match="trials must be a whole number, not True"):
            b.forecast(user, "chain-lightning", foe, trials=True)
        with pytest.raises(IllegalCommand, match=r"trials: expected a whole number in 0\.\.200, got 201"):
            b.forecast(user, "chain-lightning", foe, trials=np.int64(201))
        assert b.foresee_script(user, "chain-lightning", foe, hit=foe, runs=np.int64(1)).known
        with pytest.raises(IllegalCommand, match="runs must be a whole number, not False"):
            b.foresee_script(user, "chain-lightning", foe, hit=foe, runs=False)


def test_a_scripts_amounts_and_durations_are_checked_as_the_python_apis_are() -> None:
    with Battle(seed=2) as b:
        foe = b.spawn("foe", 6, 2, team="b", health=20)
        bridge = b.scripts.bridge
        b.damage(foe, np.int64(1))  # the Python API's own check, which the bridge's now is
        bridge.command("damage", (foe, np.int64(1)), 0)
        bridge.command("create_light", (2, 2, 10, "normal", np.int64(2)), 0)
        for method, args, message in (
                ("damage", (foe, True), "damage must be a whole number, not True"),
                ("heal", (foe, -1), r"healing: expected a whole number in 0\.\.1000000, got -1"),
                ("create_light", (2, 2, 10, "normal", True), "duration must be a whole number, not True"),
                ("create_area", (2, 2, 10, "poor", 0), r"duration: expected a whole number in 1\.\.1000 rounds, got 0"),
        ):
            with pytest.raises(ValueError, match=message):
                bridge.command(method, args, 0)


def test_an_unknown_creature_is_told_before_a_square_off_the_grid() -> None:
    """Both arguments bad: the creature is named first, as before the squares were checked in one pass."""
    from game.battle.errors import UnknownEntity

    b = Battle(seed=1, width=8, height=8)
    with pytest.raises(UnknownEntity):
        b.queued_fall(999, [(99, 99)])
    with pytest.raises(UnknownEntity):
        b.queued_stop(999, [(99, 99)])
