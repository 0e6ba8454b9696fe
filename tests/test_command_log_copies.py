"""The command log keeps copies of a command's arguments: what the caller does with its own objects
afterwards cannot change what a replay or a save rebuilds.

It kept the caller's objects: a list of powers reused for the next creature, or a point reused for the
next aim, changed the log behind the battle's back (the replay gave the first creature the second's
powers, or threw the fireball elsewhere), and a generator of power names was logged spent, so the
replay's creature had no powers listed, that is every power of the battle.
"""

from __future__ import annotations

import json

from game import Battle
from game.battle.logged import kept, logged_call


def test_a_list_changed_after_the_call_does_not_change_the_log() -> None:
    b = Battle(seed=1, width=10, height=4)
    kit = ["strike"]
    first = b.spawn("A", 0, 0, team="x", powers=kit)
    kit.append("fireball")  # the caller's helper reuses its list for the next creature
    second = b.spawn("C", 9, 3, team="y", powers=kit)
    assert b.command_log[0] == ("spawn", ("A", 0, 0), {"team": "x", "powers": ["strike"]})
    replayed = Battle.replay(1, 10, 4, None, b.command_log)
    assert replayed.powers_of(first) == ["strike"]
    assert sorted(replayed.powers_of(second)) == ["fireball", "strike"]


def test_a_reused_point_replays_where_the_power_was_aimed() -> None:
    b = Battle(seed=1, width=10, height=4)
    b.spawn("A", 0, 0, team="x", powers=["strike"])
    mage = b.spawn("C", 9, 3, team="y", powers=["fireball"])
    b.start_combat()
    b.begin_round()
    while b.current_actor != mage:
        b.end_turn()
    aim = [2, 1]
    b.use_power(mage, "fireball", point=aim)
    aim[0] = 8  # aimed elsewhere next time: not this time
    b.end_turn()
    assert [e for e in b.command_log if e[0] == "use_power"] == [("use_power", (mage, "fireball"), {"point": [2, 1]})]
    replayed = Battle.replay(1, 10, 4, None, b.command_log)
    assert [repr(e) for e in replayed.events] == [repr(e) for e in b.events]


def test_a_generator_of_powers_is_logged_as_its_items() -> None:
    b = Battle(seed=1, width=10, height=4)
    archer = b.spawn("A", 0, 0, team="x", powers=(p for p in ["strike", "shoot"]))
    b.spawn("C", 9, 3, team="y", powers=iter(["shoot"]))
    b.set_terrain(4, 1, blocks=(k for k in ["sight", "light"]))
    assert sorted(b.powers_of(archer)) == ["shoot", "strike"]
    assert b.command_log[0][2]["powers"] == ["strike", "shoot"]
    json.dumps(b.command_log)  # a save writes the log as JSON: a spent generator could not be written
    replayed = Battle.replay(1, 10, 4, None, b.command_log)
    assert sorted(replayed.powers_of(archer)) == ["shoot", "strike"]
    assert replayed.terrain.blockers[4, 1] == b.terrain.blockers[4, 1] != 0


def test_a_controllers_orders_are_logged_as_copies() -> None:
    b = Battle(seed=1, width=10, height=4)
    mage = b.spawn("A", 0, 0, team="x", powers=["fireball"])
    b.spawn("C", 9, 3, team="y", powers=["strike"])
    b.start_combat()
    aim = [7, 3]

    def controller(battle: Battle, actor: int) -> None:
        if actor == mage:
            battle.use_power(actor, "fireball", point=aim)
            aim[1] = 0  # the controller's own list, changed after the order was given

    b.tick(controller=controller)
    [(name, _, kwargs)] = [e for e in b.command_log if e[0] == "tick"]
    [(_, orders)] = [o for o in kwargs["orders"] if o[0] == mage]
    assert orders == [["use_power", [mage, "fireball"], {"point": [7, 3]}]]
    replayed = Battle.replay(1, 10, 4, None, b.command_log)
    assert [repr(e) for e in replayed.events] == [repr(e) for e in b.events]


def test_the_command_still_checks_what_it_was_given() -> None:
    """A one-shot iterator is read once for the log; the command checks an iterator over the same items,
    so what it refused it still refuses (a square is a pair, not a generator), naming the argument."""
    b = Battle(seed=1, width=10, height=4)
    mage = b.spawn("A", 0, 0, team="x", powers=["fireball"])
    b.spawn("C", 9, 3, team="y")
    b.start_combat()
    try:
        b.use_power(mage, "fireball", point=(i for i in (2, 1)))
    except ValueError as err:
        assert "point" in str(err)
    else:
        raise AssertionError("a generator was taken for a square")
    assert all(name != "use_power" for name, _, _ in b.command_log)


def test_plain_arguments_are_passed_and_logged_as_they_are() -> None:
    args, kwargs = (3, "strike"), {"target": 4}
    assert logged_call(args, kwargs) == (args, kwargs, args, kwargs)
    nested = {"orders": [[1, [["move", [1, 2, 3], {}]]]]}
    copy = kept(nested)
    assert copy == nested and copy["orders"][0][1][0][1] is not nested["orders"][0][1][0][1]


def test_the_log_handed_out_is_a_copy() -> None:
    """A caller that extends the log it was given (a what-if's replay) leaves the battle's as it was."""
    b = Battle(seed=1, width=6, height=3)
    b.spawn("A", 0, 0, team="x")
    b.spawn("C", 3, 0, team="y")
    log = b.command_log
    log.append(("damage", (1, 5), {}))
    log.append(("tick", (), {}))
    assert Battle.replay(1, 6, 3, None, log).round == 1
    assert [name for name, _, _ in b.command_log] == ["spawn", "spawn"]


def test_a_battle_given_sets_saves_and_loads(tmp_path) -> None:
    """A set of powers (or of what terrain blocks) is taken, so its save must keep it: the log holds it as
    a sorted list, and the creature has its powers in that order whatever the process's string hashes."""
    from pathlib import Path

    from game.content.saves import load_game, save_game
    from game.content.scenario import load_scenario

    scenario = load_scenario(Path(__file__).resolve().parent.parent / "assets" / "scenarios" / "ledge.toml")
    b, _ = scenario.build_with_ids(seed=1)
    late = b.spawn("Reinforcement", 11, 7, team="hill", powers={"strike", "shoot", "shove"})
    b.set_terrain(3, 3, blocks=frozenset({"sight", "light"}))
    assert b.powers_of(late) == ["shoot", "shove", "strike"]
    assert b.command_log[-2][2]["powers"] == ["shoot", "shove", "strike"]
    b.start_combat()
    b.tick()
    save_game(tmp_path / "sets.save.json", scenario, b)  # SaveError: "set {...} has no encoding"
    loaded = load_game(tmp_path / "sets.save.json")
    assert loaded.powers_of(late) == ["shoot", "shove", "strike"]
    assert [repr(e) for e in loaded.events] == [repr(e) for e in b.events]


def test_a_dict_view_or_deque_of_powers_is_logged_as_a_copy() -> None:
    """Any iterable the command takes is copied into the log, not only lists, tuples and sets."""
    from collections import deque

    b = Battle(seed=1, width=10, height=4)
    kit = {"strike": 1, "shoot": 2}
    queue = deque(["strike"])
    first = b.spawn("A", 0, 0, team="x", powers=kit.keys())
    second = b.spawn("B", 9, 3, team="y", powers=queue)
    kit["fireball"] = 3  # the caller's own objects change afterwards
    queue.append("fireball")
    replayed = Battle.replay(1, 10, 4, None, b.command_log)
    assert sorted(replayed.powers_of(first)) == ["shoot", "strike"]
    assert replayed.powers_of(second) == ["strike"]
