"""A snapshot belongs to the one battle that took it, even once that battle is gone: it named its
battle by ``id()``, and CPython hands a freed battle's address to the next one made, which then
took the dead battle's snapshot as its own (its creature got the dead one's Health, silently)."""

from __future__ import annotations

import gc

import pytest

from components import Health
from game import Battle, IllegalCommand


@pytest.mark.slow
def test_a_gone_battles_snapshot_is_refused_by_a_battle_made_at_its_address():
    stale = {}
    reused = 0
    for seed in range(60):
        b = Battle(seed=seed, width=8, height=8)
        hero = b.spawn("New", 3, 3, team="b", health=20)
        reused += id(b) in stale
        for snapshot in stale.values():
            with pytest.raises(IllegalCommand, match="another battle"):
                b.restore(snapshot)
            with pytest.raises(IllegalCommand, match="snapshot\\(\\) of this battle"):
                b.changed_since(snapshot)
        assert b.get(hero, Health).current == 20 and b.creatures() == [hero]
        b.spawn(f"Old{seed}", 1, 1, team="a", health=7)
        stale[id(b)] = b.snapshot()
        b.close()
        del b
        gc.collect()
        if reused:
            break  # the case the test is about has been checked: no need to make the other battles
    assert reused  # the case the test is about: a battle made where a gone one was


def test_a_battles_own_snapshot_still_restores():
    b = Battle(seed=1, width=8, height=8)
    hero = b.spawn("Hero", 1, 1, team="a", health=9)
    kept = b.snapshot()
    b.damage(hero, 4)
    b.tick()
    assert b.changed_since(kept)[0] == 2
    b.restore(kept)
    assert b.get(hero, Health).current == 9
