"""A script that runs out of time is out for the rest of the battle: it never costs seconds twice."""

from __future__ import annotations

from pathlib import Path

from game import Battle
from game.scripting import Limits

HOG = ('def on_turn_start(ctx, event):\n    k = 1\n    for i in range(25):\n        k = k * 2\n'
       '    s = "ab" * k\n    for i in range(100000):\n        s = s.replace("a", "b")\n')


def test_a_timed_out_reaction_is_not_run_again(tmp_path: Path) -> None:
    (tmp_path / "hog.star").write_text(HOG)
    b = Battle(seed=1, script_dir=tmp_path, trusted_scripts=False, script_limits=Limits(wall_seconds=0.5))
    a = b.spawn("a", 1, 1, team="x")
    b.spawn("b", 5, 5, team="y")
    b.attach_reaction("hog.star", a)
    b.start_combat()
    starts = b.scripts.host.stats()["worker_starts"]
    for _ in range(3):
        b.tick()
    failed = [e for e in b.events if e.kind == "script_failed"]
    assert len(failed) == 3 and "longer than 0.5 s" in failed[0].reason
    assert all(f.reason == failed[0].reason for f in failed)  # the same verdict, not three new runs
    assert b.scripts.host.stats()["worker_starts"] <= starts + 1  # killed once, then never called
