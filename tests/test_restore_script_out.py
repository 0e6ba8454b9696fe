"""A restore takes back a ``script_out`` given after its snapshot, as it takes back its log entry.

The failure it set to come stayed set: the restored battle failed that script call, while its log no
longer held the ``script_out`` that said so, and its replay (a save's load) ran the script instead.
"""

from __future__ import annotations

from components.events import Healed, ScriptFailed
from game import Battle


def _battle() -> tuple[Battle, int]:
    b = Battle(seed=1, width=10, height=6)
    b.attach_reaction("rally.star")
    fallen = b.spawn("A", 2, 2, team="x", health=6)
    friend = b.spawn("F", 3, 2, team="x", health=10)
    b.spawn("E", 8, 5, team="y", health=10)
    b.start_combat()
    b.damage(friend, 5)
    b.tick()
    return b, fallen


def test_a_script_out_given_after_a_snapshot_goes_with_the_restore() -> None:
    b, fallen = _battle()
    snap = b.snapshot()
    calls = b.scripts.calls
    for call in range(calls, calls + 30):  # (a tool replaying a recorded failure, whichever call it falls on)
        b.script_out(call, "rally.star", "on_downed", "timeout")
    b.restore(snap)
    b.damage(fallen, 6)
    b.tick()
    assert not [e for e in b.events if isinstance(e, ScriptFailed)]
    assert [e.amount for e in b.events if isinstance(e, Healed)] == [2]  # the rally ran
    replayed = Battle.replay(1, 10, 6, None, b.command_log)
    assert [repr(e) for e in replayed.events] == [repr(e) for e in b.events]


def test_one_given_before_the_snapshot_stays() -> None:
    b, fallen = _battle()
    calls = b.scripts.calls
    for call in range(calls, calls + 30):
        b.script_out(call, "rally.star", "on_downed", "timeout")
    snap = b.snapshot()
    b.restore(snap)
    b.damage(fallen, 6)
    b.tick()
    assert [(e.script, e.reason) for e in b.events if isinstance(e, ScriptFailed)] == [("rally.star", "timeout")]
    replayed = Battle.replay(1, 10, 6, None, b.command_log)
    assert [repr(e) for e in replayed.events] == [repr(e) for e in b.events]
