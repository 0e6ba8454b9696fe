"""Determinism and isolation: same seed + same commands -> the same events; a battle's command log
replays it; two battles never see each other's entities, and a closed battle's world is gone.
"""

from __future__ import annotations

import esper
import pytest

from components import Health, Position
from game import Battle


def script(b: Battle) -> None:
    """A battle that uses the generator a lot: initiative, ties, falls, surprise, damage at 0."""
    b.set_ground(8, 8, 60)
    b.set_ground(3, 3, 0, soft=True)
    ids = [b.spawn(f"c{i}", i, 1, team="ab"[i % 2], initiative_bonus=i % 3, prepared=i != 4) for i in range(6)]
    high = b.spawn("high", 3, 3, z=700, health=200)
    ledge = b.spawn("ledge", 8, 8, health=30)
    b.add_wall(5, 5)
    b.add_light(2, 2, 10, "normal")
    b.set_ambient("terrible")
    b.start_combat()
    b.damage(ids[0], 4)
    b.move(ids[1], 1, 5)
    b.move(ledge, 9, 9)
    b.tick()
    b.damage(ids[2], 20)
    b.damage(ids[2], 1)
    b.heal(ids[2], 3)
    b.add_fatigue(ids[3], 3)
    b.set_ground(0, 1, 25)
    b.add_condition(ids[5], "dazzled")
    b.tick()
    b.move(ids[3], 3, 4)
    b.tick()
    assert b.get(high, Position).z == 0  # it landed


def test_same_seed_same_commands_same_events():
    a, b = Battle(seed=7), Battle(seed=7)
    script(a)
    script(b)
    assert a.events == b.events
    assert [e.as_dict() for e in a.events] == [e.as_dict() for e in b.events]
    assert any(e.kind == "landed" and e.dice > 0 for e in a.events)
    assert any(e.kind == "initiative_rolled" for e in a.events)


def test_the_seed_matters():
    a, b = Battle(seed=7), Battle(seed=8)
    script(a)
    script(b)
    assert a.events != b.events


def test_interleaving_two_battles_does_not_change_their_events():
    x, y = Battle(seed=11), Battle(seed=12, width=10, height=12)
    script(x)
    script(y)
    # the same two command logs, fed one call at a time to each battle in turn
    x2, y2 = Battle(seed=11), Battle(seed=12, width=10, height=12)
    lx, ly = list(x.command_log), list(y.command_log)
    for i in range(max(len(lx), len(ly))):
        for battle, log in ((x2, lx), (y2, ly)):
            if i < len(log):
                name, args, kwargs = log[i]
                getattr(battle, name)(*args, **kwargs)
    assert x2.events == x.events
    assert y2.events == y.events


def test_replay_reproduces_the_events():
    b = Battle(seed=5, width=12, height=10, rules={"diagonal": "alternating", "cover_bonus": 4})
    script(b)
    again = Battle.replay(5, 12, 10, {"diagonal": "alternating", "cover_bonus": 4}, b.command_log)
    assert again.events == b.events
    assert again.command_log == b.command_log


def test_refused_commands_are_not_logged_and_replay_still_matches():
    b = Battle(seed=5)
    e = b.spawn("a", 0, 0)
    with pytest.raises(ValueError, match=r"is 75 ft away in a straight line and it has 30 ft of movement left"):
        b.move(e, 15, 15)
    with pytest.raises(ValueError, match=r"damage: expected a whole number in 0\.\.1000000, got -3"):
        b.damage(e, -3)
    b.damage(e, 3)
    b.tick()
    assert [name for name, *_ in b.command_log] == ["spawn", "damage", "tick"]
    assert Battle.replay(5, 16, 16, None, b.command_log).events == b.events


def test_the_event_record_cannot_be_edited_from_outside():
    b = Battle(seed=1)
    b.spawn("a", 0, 0)
    b.events.clear()
    assert b.events


# ---------------------------------------------------------------- isolation


def test_two_battles_used_interleaved_never_see_each_others_entities():
    big, small = Battle(seed=1), Battle(seed=2)
    b1 = big.spawn("b1", 0, 0, health=10)
    s1 = small.spawn("s1", 0, 0, health=20)
    b2 = big.spawn("b2", 1, 0)
    b3 = big.spawn("b3", 2, 0)
    small.damage(s1, 5)
    big.damage(b1, 1)
    small.tick()
    big.tick()
    assert big.creatures() == [b1, b2, b3]
    assert small.creatures() == [s1]
    assert big.get(b1, Health) == Health(9, 10)
    assert small.get(s1, Health) == Health(15, 20)
    # an id only the bigger battle has is unknown to the smaller one, for every kind of call
    for call in (lambda: small.get(b3, Health), lambda: small.damage(b3, 1), lambda: small.move(b3, 1, 1),
                 lambda: small.conditions(b3), lambda: small.add_condition(b3, "prone"),
                 lambda: small.defense_against(b3, s1), lambda: small.roll_mode(b3, "attack")):
        with pytest.raises(LookupError, match=rf"no creature with id {b3} in this battle"):
            call()
    assert [e.kind for e in small.events].count("spawned") == 1
    assert all(getattr(e, "entity", s1) == s1 for e in small.events)


def test_a_third_party_switching_esper_worlds_does_not_confuse_a_battle():
    b = Battle(seed=1)
    e = b.spawn("a", 0, 0)
    esper.switch_world("default")
    esper.create_entity(Health(1, 1))
    b.damage(e, 2)
    b.tick()
    assert b.get(e, Health).current == 8
    assert b.creatures() == [e]


def test_a_closed_battles_world_is_gone():
    before = set(esper.list_worlds())
    b = Battle(seed=1)
    b.spawn("a", 0, 0)
    created = set(esper.list_worlds()) - before
    assert len(created) == 1
    b.close()
    assert created.isdisjoint(esper.list_worlds())
    with pytest.raises(RuntimeError, match="this battle is closed"):
        b.tick()
    b.close()  # closing twice is harmless


def test_closing_one_battle_leaves_the_other_intact():
    a, b = Battle(seed=1), Battle(seed=1)
    ea = a.spawn("a", 0, 0)
    eb = b.spawn("b", 0, 0)
    a.close()
    b.damage(eb, 1)
    b.tick()
    assert b.get(eb, Health).current == 9
    assert ea == eb  # same id in its own world; nothing shared


def test_a_battle_as_a_context_manager_closes():
    before = set(esper.list_worlds())
    with Battle(seed=1) as b:
        b.spawn("a", 0, 0)
    assert set(esper.list_worlds()) == before


_CHILD = """
import json, sys
sys.path.insert(0, {root!r})
sys.path.insert(0, {tests!r})
from game import Battle
from test_rules_determinism import script
b = Battle(seed=9)
script(b)
e = b.spawn("late", 12, 12, prepared=False)
b.add_condition(e, "blinded")
b.add_condition(e, "prone")
b.add_condition(e, "dazzled")
b.damage(e, 30)
b.run(2)
print(json.dumps([ev.as_dict() for ev in b.events], sort_keys=True, default=str))
"""


@pytest.mark.slow
def test_events_do_not_depend_on_the_string_hash_seed():
    """Replays and saves are read by other processes: set/dict order of strings must not leak into events."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    tests = Path(__file__).resolve().parent
    code = _CHILD.format(root=str(tests.parent), tests=str(tests))
    outputs = []
    for hash_seed in ("1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300,
                              check=False)
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1] == outputs[2]
