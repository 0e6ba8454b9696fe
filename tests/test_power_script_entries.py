"""A power's script that defines no function a use calls is refused, as a reaction script with no
reaction is; and a ``--set powers.ID.script=`` sweep's scripts are checked as the file's own are.

* An empty script, one of helpers alone, ``on_hit = 3``, or one whose only entry point is a
  reaction's (``on_damaged``) was loaded without a word: the power did what its data said and its
  script never ran, in play and in every simulated battle.
* ``simulate --set powers.zap.script=other.star`` checked only that the file was there: a script
  that did not parse, or whose ``on_hit(ctx)`` could not take the battle's call, ran (and failed) in
  every battle of the variant, a note under the table, instead of being refused before the first.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from game.content.powers import PowerError
from game.content.scenario import ScenarioError, load_scenario
from game.sim.config import SimConfig
from game.sim.simulate import check_config

ZAP = textwrap.dedent('''
    [zap]
    name = "Zap"
    description = "A stranger's bolt."
    action = "action"
    range_ft = 30
    targets = "enemy"
    attack = { bonus = 2 }
    damage = "1d4"
    script = "zap.star"
''')
SCENARIO = textwrap.dedent('''
    name = "Zaps"
    power_files = ["zaps.toml"]
    [map]
    rows = ["........", "........"]
    [map.legend]
    "." = { ground = 0 }
    [teams.a]
    [teams.b]
    [[creatures]]
    key = "a1"
    team = "a"
    x = 0
    y = 0
    powers = ["zap"]
    [[creatures]]
    key = "b1"
    team = "b"
    x = 4
    y = 0
    powers = ["zap"]
''')
GOOD = "def on_hit(ctx, target):\n    ctx.damage(target, 1)\n"
EXPECTED = r"expected def on_use\(ctx\) or def on_hit\(ctx, target\) or def on_end\(ctx\)"


def _folder(tmp_path: Path, script: str, others: dict[str, str] | None = None) -> Path:
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "zap.star").write_text(script, encoding="utf-8")
    for name, text in (others or {}).items():
        (tmp_path / "scripts" / name).write_text(text, encoding="utf-8")
    (tmp_path / "zaps.toml").write_text(ZAP, encoding="utf-8")
    (tmp_path / "zaps-scenario.toml").write_text(SCENARIO, encoding="utf-8")
    return tmp_path / "zaps-scenario.toml"


@pytest.mark.parametrize(("script", "defines"), [
    ("", ""),
    ("def helper(ctx):\n    pass\n", ""),
    ("on_hit = 3\n", ""),
    ("def on_damaged(ctx, event):\n    pass\n", "; it defines on_damaged"),
])
def test_a_power_script_with_no_entry_point_is_refused_at_load(tmp_path: Path, script: str, defines: str) -> None:
    path = _folder(tmp_path, script)
    with pytest.raises(ScenarioError, match=rf"creatures\[0\]\.powers: power 'zap' \(.*zaps\.toml\) runs zap\.star, "
                                            rf"which defines none of the functions a power's use calls{defines}; "
                                            rf"{EXPECTED}"):
        load_scenario(path)


@pytest.mark.parametrize("entry", ["def on_use(ctx):\n    pass\n", GOOD, "def on_end(ctx):\n    pass\n",
                                   "on_hit = lambda ctx, target: None\n"])
def test_a_power_script_with_any_entry_point_loads(tmp_path: Path, entry: str) -> None:
    assert load_scenario(_folder(tmp_path, entry)).powers["zap"].script == "zap.star"


@pytest.mark.slow
@pytest.mark.parametrize(("other", "message"), [
    ("def on_hit(ctx, target)\n    pass\n", r"battles cannot load: other\.star:1: Parse error"),
    ("def on_hit(ctx):\n    pass\n", r"other\.star: on_hit\(ctx\) cannot take the battle's call on_hit\(ctx, target\)"),
    ("def on_downed(ctx, event):\n    pass\n", rf"runs other\.star, which defines none .*on_downed; {EXPECTED}"),
])
def test_a_swept_script_is_checked_before_any_battle(tmp_path: Path, other: str, message: str) -> None:
    path = _folder(tmp_path, GOOD, {"other.star": other})
    config = SimConfig(scenario=str(path), battles=2, sets=[("powers.zap.script", ["zap.star", "other.star"])],
                       workers=1, out_dir=None)
    refused = rf"zaps-scenario\.toml: override 'powers\.zap\.script': power 'zap' .*{message}"
    with pytest.raises(PowerError, match=refused):
        check_config(config)


def test_a_good_swept_script_passes(tmp_path: Path) -> None:
    path = _folder(tmp_path, GOOD, {"other.star": "def on_use(ctx):\n    pass\n"})
    config = SimConfig(scenario=str(path), battles=2, sets=[("powers.zap.script", ["zap.star", "other.star"])],
                       workers=1, out_dir=None)
    assert len(check_config(config)) == 2


@pytest.mark.parametrize(("table", "message"), [
    ("attack = { bonsu = 2 }", r"key 'attack\.bonsu': expected only bonus \(did you mean 'bonus'\?\), got 2"),
    ("save = { dc = 10, extra = 1 }", r"key 'save\.extra': expected only dc and half, got 1"),
])
def test_an_unknown_key_of_attack_or_save_is_named(tmp_path: Path, table: str, message: str) -> None:
    """The message named ``attack.bonus`` (or ``save.dc``) and showed the whole table, for a key that
    was not it."""
    from game.content.powers import load_power_file

    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "zap.star").write_text(GOOD, encoding="utf-8")
    (tmp_path / "zaps.toml").write_text(ZAP.replace("attack = { bonus = 2 }", table), encoding="utf-8")
    with pytest.raises(PowerError, match=rf"zaps\.toml: power \[zap\] {message}"):
        load_power_file(tmp_path / "zaps.toml")
