"""A script whose entry point the battle could not call (a wrong arity, a misspelt ``on_`` name) is
refused when its scenario loads, or when it is attached, naming the script file and the function:
not found when the event first happens in the middle of a battle."""

from __future__ import annotations

from pathlib import Path

import pytest

from game import Battle, IllegalCommand
from game.content.scenario import ScenarioError, load_scenario
from game.scripting.signatures import entry_problems, parameters

SCENARIO = """
name = "two on a field"
reactions = ["react.star"]
power_files = ["my_powers.toml"]
[map]
rows = ["......", "......", "......"]
[map.legend]
"." = { ground = 0 }
[teams.a]
[teams.b]
[[creatures]]
key = "one"
team = "a"
x = 0
y = 0
powers = ["zap"]
[[creatures]]
key = "foe"
team = "b"
x = 5
y = 2
reactions = ["own.star"]
"""
POWERS = """
[zap]
name = "Zap"
description = "A spark that runs a script."
range_ft = 30
script = "zap.star"
"""
GOOD = {
    "react.star": "def on_downed(ctx, event):\n    return None\n",
    "own.star": "def on_damaged(ctx, event):\n    return None\n",
    "zap.star": "def on_hit(ctx, target):\n    return None\n",
}


def _folder(tmp_path: Path, **scripts: str) -> Path:
    """A stranger's scenario folder: the scenario, its power file and its scripts (``GOOD`` unless given)."""
    (tmp_path / "scripts").mkdir()
    for name, text in {**GOOD, **{k.replace("_", ".", 1): v for k, v in scripts.items()}}.items():
        (tmp_path / "scripts" / name).write_text(text, encoding="utf-8")
    (tmp_path / "my_powers.toml").write_text(POWERS, encoding="utf-8")
    path = tmp_path / "field.toml"
    path.write_text(SCENARIO, encoding="utf-8")
    return path


@pytest.mark.parametrize("trusted", [None, True])  # parsed in the sandboxed worker, and in-process
def test_the_good_folder_loads(tmp_path: Path, trusted: bool | None) -> None:
    assert load_scenario(_folder(tmp_path), trusted=trusted).reactions == ("react.star",)


@pytest.mark.parametrize("trusted", [None, True])
def test_a_reaction_of_the_wrong_arity_is_refused_at_load_naming_the_file_and_function(
        tmp_path: Path, trusted: bool | None) -> None:
    path = _folder(tmp_path, react_star="def on_downed(ctx):\n    return None\n")
    with pytest.raises(ScenarioError, match=r"field\.toml: reactions\[0\]: react\.star: on_downed\(ctx\) cannot take "
                                            r"the battle's call on_downed\(ctx, event\); expected def "
                                            r"on_downed\(ctx, event\)"):
        load_scenario(path, trusted=trusted)


def test_a_creatures_reaction_is_checked_too(tmp_path: Path) -> None:
    path = _folder(tmp_path, own_star="def on_damaged(ctx, event, more):\n    return None\n")
    with pytest.raises(ScenarioError, match=r"creatures\[1\]\.reactions\[0\]: own\.star: on_damaged\(ctx, event, "
                                            r"more\) cannot take the battle's call"):
        load_scenario(path)


def test_a_misspelt_entry_point_is_refused_with_a_did_you_mean(tmp_path: Path) -> None:
    path = _folder(tmp_path, react_star=GOOD["react.star"] + "def on_round_ended(ctx, event):\n    return None\n")
    with pytest.raises(ScenarioError, match=r"react\.star: on_round_ended is no entry point \(did you mean "
                                            r"'on_round_end'\?\)"):
        load_scenario(path)


def test_a_power_script_of_the_wrong_arity_is_refused_at_load_naming_the_power(tmp_path: Path) -> None:
    path = _folder(tmp_path, zap_star="def on_hit(ctx):\n    return None\n")
    with pytest.raises(ScenarioError, match=r"creatures\[0\]\.powers: power 'zap' .* zap\.star: on_hit\(ctx\) cannot "
                                            r"take the battle's call on_hit\(ctx, target\)"):
        load_scenario(path)


def test_attach_reaction_refuses_a_wrong_arity_at_once(tmp_path: Path) -> None:
    (tmp_path / "late.star").write_text("def on_fell(ctx, event, extra):\n    return None\n", encoding="utf-8")
    with Battle(script_dir=tmp_path) as battle:
        with pytest.raises(IllegalCommand, match=r"late\.star: on_fell\(ctx, event, extra\) cannot take the "
                                                 r"battle's call on_fell\(ctx, event\)"):
            battle.attach_reaction("late.star")
        assert not battle.scripts.reactions


def test_headers_that_take_the_call_are_accepted() -> None:
    entries = {"on_downed": ("ctx", "event")}
    for header in ("ctx, event", "ctx, event, extra=1", "*args", "ctx, *rest", "c,\n    e,  # a comment )\n",
                   "ctx, event=None, *, flag=True"):
        source = f"def on_downed({header}):\n    return None\n"
        assert entry_problems("s.star", source, entries, ()) == [], header
    helpers = 'def _rally(ctx):\n    return 1\ndef heal_all(a, b, c):\n    """def on_fake(x):"""\n    return 2\n'
    assert entry_problems("s.star", helpers, entries, ()) == []


def test_headers_that_cannot_take_the_call_are_found() -> None:
    entries = {"on_downed": ("ctx", "event")}
    for header in ("ctx", "ctx, event, more", "ctx, event, *, needed", ""):
        source = f"def on_downed({header}):\n    return None\n"
        assert entry_problems("s.star", source, entries, ()), header
    assert parameters("on_downed = lambda ctx: None\n")["on_downed"].takes(2) is False
    assert parameters('def on_downed(ctx, e=")"):\n  pass\n')["on_downed"].most == 2
