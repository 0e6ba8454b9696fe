"""Snapshots and a supposing block: a snapshot taken inside one would keep the what-if battle (its
supposed grant) and a restore inside one would be undone, or kept, by the block's end; both are
refused there, as commands are, and work again after the block.
"""

from __future__ import annotations

import pytest

from game import Battle, IllegalCommand


def skirmish() -> tuple[Battle, int, int]:
    b = Battle(seed=5, width=12, height=8)
    archer = b.spawn("Archer", 2, 3, team="blue", powers=["shoot"])
    foe = b.spawn("Foe", 9, 3, team="red", powers=["shoot"])
    b.start_combat()
    return b, archer, foe


def test_snapshot_inside_a_supposing_block_is_refused() -> None:
    b, archer, foe = skirmish()
    with b.supposing(foe, "blinded"):
        assert "blinded" in b.conditions(foe)
        with pytest.raises(IllegalCommand, match="snapshot: no snapshot may be taken or restored inside a supposing"):
            b.snapshot()
    assert "blinded" not in b.conditions(foe)
    b.restore(b.snapshot())  # after the block, both work
    assert "blinded" not in b.conditions(foe)


def test_restore_inside_a_supposing_block_is_refused_and_the_block_still_puts_the_battle_back() -> None:
    b, archer, foe = skirmish()
    b.add_condition(foe, "prone")
    earlier = b.snapshot()
    b.remove_condition(foe, "prone")
    with b.supposing(foe, "blinded"):
        with pytest.raises(IllegalCommand, match="restore: no snapshot may be taken or restored inside a supposing"):
            b.restore(earlier)
        assert b.conditions(foe) >= {"blinded"} and "prone" not in b.conditions(foe)
    assert "prone" not in b.conditions(foe) and "blinded" not in b.conditions(foe)
    b.restore(earlier)
    assert "prone" in b.conditions(foe)


def test_a_supposing_block_that_takes_the_snapshot_way_still_works() -> None:
    """With a GM command waiting to settle the block works on a snapshot of its own (not the caller's)."""
    b, archer, foe = skirmish()
    b.damage(foe, 1)  # queued for the next tick: the grant does not settle alone
    before = list(b.events), list(b.command_log)
    assert b.threat(archer).expected > 0.0
    with b.supposing(foe, "blinded"):
        assert "blinded" in b.conditions(foe)
        threat = b.threat(archer)
    assert threat.expected == 0.0  # a blinded shooter cannot see to shoot
    assert (list(b.events), list(b.command_log)) == before
    assert "blinded" not in b.conditions(foe)
