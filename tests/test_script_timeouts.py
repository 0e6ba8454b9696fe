"""A script that runs out of time is out for the rest of the battle: it never costs seconds twice,
and the battle says so once."""

from __future__ import annotations

from pathlib import Path

from game import Battle
from game.scripting import Limits

UNBOUNDED = Limits(wall_seconds=0.5, max_steps=10**12, round_steps=10**13, battle_steps=10**14)

#: Two values that share their parts, compared: the comparison pays for 2**40 leaves first, so under
#: budgets no script reaches (UNBOUNDED) only the worker's wall clock stops it.
HOG = ('def on_turn_start(ctx, event):\n    a = [1]\n    b = [1]\n    for i in range(40):\n'
       '        a = [a, a]\n        b = [b, b]\n    return a == b\n')


def test_a_timed_out_reaction_is_not_run_again(tmp_path: Path) -> None:
    (tmp_path / "hog.star").write_text(HOG)
    b = Battle(seed=1, script_dir=tmp_path, trusted_scripts=False, script_limits=UNBOUNDED)
    a = b.spawn("a", 1, 1, team="x")
    b.spawn("b", 5, 5, team="y")
    b.attach_reaction("hog.star", a)
    b.start_combat()
    starts = b.scripts.host.stats()["worker_starts"]
    for _ in range(3):
        b.tick()
    failed = [e for e in b.events if e.kind == "script_failed"]
    assert len(failed) == 1, failed  # one verdict, not three new runs
    assert "longer than 0.5 s" in failed[0].reason and "out for the rest of the battle" in failed[0].reason
    assert b.scripts.host.stats()["worker_starts"] <= starts + 1  # killed once, then never called
    b.close()
