"""The battle's refusals are its one error type: IllegalCommand (a ValueError, so that callers who
know only the contract still catch them). Restoring another battle's snapshot and a rules override
the rules refuse raised plain ValueErrors; a closed battle's RuntimeError stays (it is no refusal of
an argument: the battle is gone), as the README says.
"""

from __future__ import annotations

import pytest

from game import Battle, IllegalCommand


def test_another_battles_snapshot_is_an_illegal_command() -> None:
    one, other = Battle(seed=1, width=5, height=5), Battle(seed=1, width=5, height=5)
    one.spawn("A", 1, 1, team="a")
    with pytest.raises(IllegalCommand, match="that snapshot was taken of another battle"):
        other.restore(one.snapshot())
    assert other.creatures() == []


@pytest.mark.parametrize(("rules", "words"), [
    ({"cover_bonus": "x"}, r"rules\.cover_bonus: expected a whole number in -1000\.\.1000 Defense points, got 'x'"),
    ({"no_such_rule": 1}, r"no_such_rule"),
])
def test_a_refused_rules_override_is_an_illegal_command(rules: dict[str, object], words: str) -> None:
    with pytest.raises(IllegalCommand, match=words):
        Battle(seed=1, width=5, height=5, rules=rules)


def test_illegal_commands_are_still_value_errors() -> None:
    with pytest.raises(ValueError, match="cover_bonus"):
        Battle(seed=1, width=5, height=5, rules={"cover_bonus": "x"})


def test_a_closed_battle_raises_runtime_error_but_keeps_what_it_recorded() -> None:
    b = Battle(seed=1, width=5, height=5)
    b.spawn("A", 1, 1)
    b.close()
    with pytest.raises(RuntimeError, match="this battle is closed"):
        b.spawn("B", 2, 2)
    with pytest.raises(RuntimeError, match="this battle is closed"):
        b.turn_order()
    assert [e.kind for e in b.events] == ["spawned"] and b.command_log == [("spawn", ("A", 1, 1), {})]
    assert b.round == 0  # (the README says these stay readable, for a log written after the battle)


@pytest.mark.parametrize(("options", "words"), [
    ({"trusted_scripts": "no"}, r"trusted_scripts must be True or False, not 'no'"),
    ({"trusted_scripts": None}, r"trusted_scripts must be True or False, not None"),
    ({"script_limits": "fast"}, r"script_limits must be a game\.scripting\.Limits, not 'fast'"),
    ({"caches": {}}, r"caches must be a systems\.caches\.MapCaches or None"),
    ({"script_hosts": 3}, r"script_hosts must be a game\.scripting\.ScriptHosts or None, not 3"),
    ({"script_texts": 5}, r"script_texts must map script file names to their text, not 5"),
    ({"script_texts": {"a.star": 3}}, r"script_texts must map script file names to their text"),
    ({"script_dir": 5}, r"script_dir must be a folder's path, not 5"),
])
def test_the_constructors_options_are_checked_before_a_battle_is_made(options: dict[str, object], words: str) -> None:
    """Each option of Battle() was taken on trust: trusted_scripts="no" (a true string) ran a stranger's
    scripts in-process, unsandboxed; the others raised AttributeError or TypeError from deep inside, the
    script texts only at the battle's first script."""
    with pytest.raises(IllegalCommand, match=words):
        Battle(seed=1, width=5, height=5, **options)  # type: ignore[arg-type]


def test_a_numpy_integer_is_a_seed_and_a_size_as_the_readme_says() -> None:
    """'a number a whole int (or a numpy integer)': Battle() refused np.int64(3) as a seed or a size."""
    import numpy as np

    with Battle(seed=np.int64(3), width=np.int32(5), height=np.uint8(6), trusted_scripts=np.bool_(True)) as b:
        assert (b.seed, b.width, b.height) == (3, 5, 6) and type(b.seed) is int
        assert b.events == Battle(seed=3, width=5, height=6).events
