"""What a scenario or power file names is checked when it loads: scripts, power files, power ids.

* a power's script must exist when its file loads; a scenario's reaction scripts, and the scripts of
  the powers its creatures use, must exist in its script folder and parse, or the scenario is
  refused at load naming the key, so ``simulate`` refuses it (exit 2) exactly as ``play`` does;
* the power library is read per file: a broken file is blamed alone and fails only the scenarios
  that use one of its powers;
* a scenario folder is self-contained: its ``power_files`` and ``scripts/`` work from anywhere.
"""

from __future__ import annotations

import os
import shutil
import textwrap
from pathlib import Path

import pytest

from components.dice import Dice
from game.content import powers as powers_module
from game.content.powers import (
    POWERS_DIR,
    SCRIPTS_DIR,
    PowerError,
    apply_power_overrides,
    default_powers,
    load_power_file,
    shipped_library,
)
from game.content.saves import load_game, save_game
from game.content.scenario import ScenarioError, load_scenario, load_scenario_text
from game.play.cli import main
from game.sim.runner import ai_rng, play

ROOT = Path(__file__).resolve().parent.parent
LEDGE = (ROOT / "assets" / "scenarios" / "ledge.toml").read_text(encoding="utf-8")

HEX = textwrap.dedent('''
    [hex]
    name = "Hex"
    description = "A stranger's curse: one enemy within 30 ft takes 1d4 and is dazzled."
    range_ft = 30
    targets = "enemy"
    save = { dc = 12 }
    damage = "1d4"
    conditions = ["dazzled"]
    duration = 1
    script = "hex.star"
''')
HEX_SCRIPT = "def on_hit(ctx, target):\n    ctx.damage(target, 1)\n"
RALLY = "def on_downed(ctx, event):\n    return None\n"


def _ledge(**changes: str) -> str:
    text = LEDGE
    for old, new in changes.items():
        old = {"top": 'ambient = "normal"\n', "ogre": 'key = "ogre"\n', "archer": 'powers = ["shoot"]'}[old]
        assert old in text
        text = text.replace(old, new, 1)
    return text


def _folder(tmp_path: Path, text: str, files: dict[str, str]) -> Path:
    """A scenario folder: ``scenario.toml`` and the given files beside it."""
    folder = tmp_path / "pack"
    for name, content in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(content, encoding="utf-8")
    (folder / "scenario.toml").write_text(text, encoding="utf-8")
    return folder / "scenario.toml"


def _refusal(path: Path) -> str:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    message = str(caught.value)
    assert str(path) in message
    return message


# ---------------------------------------------------------------------------------------------- scripts


def test_a_missing_reaction_script_is_refused_at_load_naming_the_key(tmp_path: Path) -> None:
    path = _folder(tmp_path, _ledge(top='ambient = "normal"\nreactions = ["nope.star"]\n'), {"scripts/x.star": RALLY})
    message = _refusal(path)
    assert "reactions[0]" in message and "nope.star" in message


def test_a_missing_reaction_script_with_no_scripts_folder_says_where_a_scenarios_own_go(tmp_path: Path) -> None:
    """With no scripts/ folder beside it, a scenario's scripts are looked for among the shipped ones:
    the error says so, and where its own would be found."""
    path = _folder(tmp_path, _ledge(top='ambient = "normal"\nreactions = ["nope.star"]\n'), {"notes.txt": ""})
    message = _refusal(path)
    assert "reactions[0]" in message and "nope.star" in message and "scripts/ folder beside it" in message


def test_an_unparsable_reaction_script_of_a_creature_is_refused_at_load(tmp_path: Path) -> None:
    path = _folder(tmp_path, _ledge(ogre='key = "ogre"\nreactions = ["bad.star"]\n'),
                   {"scripts/bad.star": "def on_downed(ctx event):\n    pass\n"})
    message = _refusal(path)
    assert "creatures[3].reactions[0]" in message and "bad.star:1" in message


def test_a_script_that_defines_no_reaction_is_refused_at_load(tmp_path: Path) -> None:
    path = _folder(tmp_path, _ledge(top='ambient = "normal"\nreactions = ["idle.star"]\n'),
                   {"scripts/idle.star": "def helper(x):\n    return x\n"})
    assert "defines no reaction" in _refusal(path)


def test_simulate_refuses_a_scenario_with_a_broken_script_before_any_battle(tmp_path: Path,
                                                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = _folder(tmp_path, _ledge(top='ambient = "normal"\nreactions = ["nope.star"]\n'), {"scripts/x.star": RALLY})
    assert main(["simulate", str(path), "--battles", "2", "--workers", "1", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "simulate:" in err and "reactions[0]" in err and "nope.star" in err


def test_a_power_whose_script_is_missing_is_refused_when_its_file_loads(tmp_path: Path) -> None:
    (tmp_path / "hexes.toml").write_text(HEX, encoding="utf-8")
    with pytest.raises(PowerError, match=r"hexes\.toml: power \[hex\] key 'script': 'hex\.star' cannot be read"):
        load_power_file(tmp_path / "hexes.toml")
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "hex.star").write_text(HEX_SCRIPT, encoding="utf-8")
    assert load_power_file(tmp_path / "hexes.toml")["hex"].script == "hex.star"


def test_a_scenario_whose_own_scripts_folder_lacks_a_shipped_powers_script_is_refused(tmp_path: Path) -> None:
    """Its battles read every script from its scripts/ folder: chain lightning's would be missing."""
    path = _folder(tmp_path, _ledge(archer='powers = ["chain-lightning"]'), {"scripts/x.star": RALLY})
    message = _refusal(path)
    assert "creatures[0].powers" in message and "chain_lightning.star" in message


def test_a_scenario_without_scripts_beside_it_reads_the_shipped_ones_never_a_parents(tmp_path: Path) -> None:
    """The parent's scripts/ (which a copy elsewhere would not have) changes nothing: the folder plays
    the same wherever it is."""
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "rally.star").write_text("def on_downed(ctx, event):\n    ctx.heal(event['entity'], 50)\n")
    (tmp_path / "scripts" / "mine.star").write_text(RALLY)
    shipped = _folder(tmp_path, _ledge(top='ambient = "normal"\nreactions = ["rally.star"]\n'), {"notes.txt": ""})
    scenario = load_scenario(shipped)
    assert scenario.script_dir == SCRIPTS_DIR
    assert scenario.files.scripts["rally.star"] == (SCRIPTS_DIR / "rally.star").read_text()
    parents = _folder(tmp_path, _ledge(top='ambient = "normal"\nreactions = ["mine.star"]\n'), {"notes.txt": ""})
    message = _refusal(parents)
    assert "reactions[0]" in message and str(SCRIPTS_DIR) in message


@pytest.mark.parametrize("key", ["reactions", "power"])
def test_a_scripts_folder_that_is_a_symlink_out_of_the_scenario_is_refused(tmp_path: Path, key: str) -> None:
    """As a power file's path may not lead out of the scenario's folder, neither may its scripts/."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "hex.star").write_text(HEX_SCRIPT)
    (outside / "rally.star").write_text(RALLY)
    top = 'ambient = "normal"\n' + ('reactions = ["rally.star"]\n' if key == "reactions" else
                                    'power_files = ["hexes.toml"]\n')
    path = _folder(tmp_path, _ledge(top=top, archer='powers = ["shoot", "hex"]' if key == "power" else
                                    'powers = ["shoot"]'), {"hexes.toml": HEX})
    (path.parent / "scripts").symlink_to(outside)
    message = _refusal(path)
    assert "'scripts' leads outside the folder" in message and ("reactions[0]" in message or
                                                                "power [hex] key 'script'" in message), message


@pytest.mark.parametrize("kind", ["fifo", "directory", "symlink out"])
def test_a_powers_script_that_cannot_be_read_says_why_as_a_reactions_does(tmp_path: Path, kind: str) -> None:
    (tmp_path / "hexes.toml").write_text(HEX, encoding="utf-8")
    (tmp_path / "scripts").mkdir()
    script = tmp_path / "scripts" / "hex.star"
    if kind == "fifo":
        os.mkfifo(script)
    elif kind == "directory":
        script.mkdir()
    else:
        (tmp_path / "evil.star").write_text(HEX_SCRIPT)
        script.symlink_to(tmp_path / "evil.star")
    words = "leads outside the script folder" if kind == "symlink out" else "not a regular file"
    with pytest.raises(PowerError, match=rf"power \[hex\] key 'script': 'hex\.star' cannot be read from .*{words}"):
        load_power_file(tmp_path / "hexes.toml")


def test_dice_in_a_power_file_are_ascii(tmp_path: Path) -> None:
    """Full-width digits read as digits by a regular expression: "\uff11d\uff14" was 1d4, a second
    spelling of one die that --set could sweep as another variant."""
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "hex.star").write_text(HEX_SCRIPT, encoding="utf-8")
    (tmp_path / "hexes.toml").write_text(HEX.replace('damage = "1d4"', 'damage = "\uff11d\uff14"'), encoding="utf-8")
    with pytest.raises(PowerError, match=r"power \[hex\] key 'damage': expected dice like \"2d6\+3\", in ASCII"):
        load_power_file(tmp_path / "hexes.toml")


def test_a_broken_script_is_blamed_once_not_once_per_creature_using_it(tmp_path: Path) -> None:
    """Its parse error (a dozen expected tokens) used to be repeated for every creature with the power,
    and for every listing of a reaction."""
    broken = "def on_hit(ctx, target):\n    x = = 1\n"
    text = _ledge(top='ambient = "normal"\npower_files = ["hexes.toml"]\nreactions = ["bad.star"]\n',
                  archer='powers = ["shoot", "hex"]', ogre='key = "ogre"\nreactions = ["bad.star"]\n')
    text = text.replace('powers = ["strike"]', 'powers = ["strike", "hex"]')
    path = _folder(tmp_path, text, {"hexes.toml": HEX, "scripts/hex.star": broken, "scripts/bad.star": broken})
    message = _refusal(path)
    assert message.count("Parse error") == 2, message  # hex.star once, bad.star once
    assert "creatures[1].powers: power 'hex' runs hex.star, which cannot load (see creatures[0].powers)" in message
    assert "creatures[3].reactions[0]: bad.star cannot load as a reaction (see reactions[0])" in message


# ---------------------------------------------------------------------------------------------- the library


def test_a_broken_power_file_is_blamed_alone_and_fails_only_scenarios_using_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shipped = tmp_path / "powers"
    shutil.copytree(POWERS_DIR, shipped)
    (shipped / "zz_broken.toml").write_text('[smite]\nname = "Smite"\ndescription = "d"\nrange_ft = -5\n')
    monkeypatch.setattr(powers_module, "POWERS_DIR", shipped)
    library = shipped_library()
    assert [f.path for f in library.broken] == [str(shipped / "zz_broken.toml")]
    assert "strike" in library.powers and "smite" not in library.powers
    assert "strike" in default_powers()
    load_scenario_text(LEDGE, "ledge.toml")  # uses none of the broken file's powers: loads
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(LEDGE.replace('powers = ["shoot"]', 'powers = ["smite"]', 1), "uses-smite.toml")
    message = str(caught.value)
    assert "uses-smite.toml" in message and "creatures[0].powers" in message
    assert "zz_broken.toml" in message and "'range_ft'" in message


def test_a_power_file_that_is_not_toml_is_named_when_an_unknown_power_is_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shipped = tmp_path / "powers"
    shutil.copytree(POWERS_DIR, shipped)
    (shipped / "garbled.toml").write_text("[smite\n")
    monkeypatch.setattr(powers_module, "POWERS_DIR", shipped)
    with pytest.raises(ScenarioError, match=r"unknown power 'smite'.*garbled\.toml.*not valid TOML"):
        load_scenario_text(LEDGE.replace('powers = ["shoot"]', 'powers = ["smite"]', 1), "s.toml")


def test_a_broken_power_files_error_and_the_known_powers_are_said_once_for_every_creature(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Thirteen uses of a broken file's powers once repeated its error and the whole list of known
    powers thirteen times: each is said in full by the first problem and pointed at by the rest."""
    shipped = tmp_path / "powers"
    shutil.copytree(POWERS_DIR, shipped)
    (shipped / "garbled.toml").write_text("[smite\n")
    monkeypatch.setattr(powers_module, "POWERS_DIR", shipped)
    scenario = LEDGE.replace('powers = ["shoot"]', 'powers = ["smite", "hex", "curse"]', 1)
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(scenario, "s.toml")
    message = str(caught.value)
    assert message.count("not valid TOML") == 1 and message.count("known powers: ") == 1, message
    assert message.count("garbled.toml, whose error is said above") == 2
    assert message.count("the known powers as above") == 2
    assert all(f"unknown power {name!r}" in message for name in ("smite", "hex", "curse"))


def test_an_edited_power_file_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "bolt.toml"
    path.write_text('[bolt]\nname = "Bolt"\ndescription = "d"\nrange_ft = 30\ndamage = "1d6"\n')
    assert load_power_file(path)["bolt"].range_ft == 30
    path.write_text('[bolt]\nname = "Bolt"\ndescription = "d"\nrange_ft = 60\ndamage = "1d6"\n')
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    assert load_power_file(path)["bolt"].range_ft == 60


def test_unknown_power_ids_and_keys_get_a_did_you_mean() -> None:
    with pytest.raises(ScenarioError, match=r"unknown power 'firebal' \(did you mean 'fireball'\?\)"):
        load_scenario_text(LEDGE.replace('powers = ["shoot"]', 'powers = ["firebal"]', 1), "t.toml")
    with pytest.raises(PowerError, match=r"unknown power 'firebal' \(did you mean 'fireball'\?\)"):
        apply_power_overrides([("powers.firebal.damage", "1d6")])
    with pytest.raises(PowerError, match=r"unknown power key 'dmage' \(did you mean 'damage'\?\)"):
        apply_power_overrides([("powers.fireball.dmage", "1d6")])
    sc = load_scenario_text(LEDGE, "t.toml")
    with pytest.raises(ScenarioError, match=r"no creature with key 'ogr' \(did you mean 'ogre'\?\)"):
        sc.with_overrides({"creatures.ogr.health": 3})
    with pytest.raises(ScenarioError, match=r"unknown key \(did you mean 'creatures'\?\)"):
        sc.with_overrides({"creaturs.ogre.health": 3})
    with pytest.raises(ScenarioError, match=r"unknown legend field 'grund' \(did you mean 'ground'\?\)"):
        sc.with_overrides({"map.legend.^.grund": 3})


def test_a_power_override_names_the_file_and_the_range() -> None:
    with pytest.raises(PowerError) as caught:
        apply_power_overrides([("powers.fireball.area.radius_ft", 1e308)])
    message = str(caught.value)
    assert "arcane.toml" in message and "powers.fireball.area.radius_ft" in message and "at most 10000" in message


# ---------------------------------------------------------------------------------------------- self-contained


def _pack(tmp_path: Path) -> Path:
    text = _ledge(top='ambient = "normal"\npower_files = ["hexes.toml"]\nreactions = ["rally.star"]\n',
                  archer='powers = ["shoot", "hex"]')
    return _folder(tmp_path, text, {"hexes.toml": HEX, "scripts/hex.star": HEX_SCRIPT, "scripts/rally.star": RALLY})


@pytest.mark.slow
def test_a_scenario_folder_with_its_own_powers_and_scripts_works_from_anywhere(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _pack(tmp_path)
    moved = tmp_path / "elsewhere" / "deep"
    shutil.copytree(path.parent, moved)
    monkeypatch.chdir(tmp_path)
    scenario = load_scenario(moved / "scenario.toml", trusted=True)
    assert scenario.power_files == ("hexes.toml",) and scenario.powers["hex"].source == str(moved / "hexes.toml")
    assert "strike" in scenario.powers  # the shipped ones stay
    battle = scenario.build(seed=3, trusted=True)
    try:
        assert battle.power("hex").script == "hex.star"
        play(battle, "tactical", ai_rng(3), 3)
        save_game(tmp_path / "pack.json", scenario, battle)
    finally:
        battle.close()
    with load_game(tmp_path / "pack.json") as restored:  # the save finds the folder's powers again
        assert "hex" in restored.powers
    changed = scenario.with_overrides({"creatures.ogre.health": 5})
    assert changed.powers["hex"] == scenario.powers["hex"]
    assert scenario.powers["hex"].damage == Dice(1, 4)  # what the folder's file says
    assert apply_power_overrides([("powers.hex.damage", "2d4")], scenario.library)["hex"].damage == Dice(2, 4)


@pytest.mark.parametrize(("files", "key", "words"), [
    ('["nowhere.toml"]', "power_files[0]", "cannot read"),
    ('["../outside.toml"]', "power_files", "inside the scenario's folder"),
    ('["hexes.toml", "../outside.toml"]', "power_files", "got an array holding '../outside.toml'"),
    ('["/etc/passwd.toml"]', "power_files", "inside the scenario's folder"),
    ('["hexes.toml", "again.toml"]', "power_files[1]", "already defined"),
    ('["strike.toml"]', "power_files[0]", "[strike] is already defined in"),
])
def test_bad_power_files_are_refused_naming_the_key(tmp_path: Path, files: str, key: str, words: str) -> None:
    text = _ledge(top=f'ambient = "normal"\npower_files = {files}\n')
    strike = (POWERS_DIR / "martial.toml").read_text()
    path = _folder(tmp_path, text, {"hexes.toml": HEX, "again.toml": HEX, "strike.toml": strike,
                                    "scripts/hex.star": HEX_SCRIPT})
    message = _refusal(path)
    assert key in message and words in message, message


def test_power_files_need_a_folder() -> None:
    text = _ledge(top='ambient = "normal"\npower_files = ["hexes.toml"]\n')
    with pytest.raises(ScenarioError, match=r"power_files\[0\]: a scenario given as text has no folder"):
        load_scenario_text(text, "t.toml")


def test_the_shipped_scripts_folder_is_where_shipped_powers_find_their_scripts() -> None:
    assert all((SCRIPTS_DIR / p.script).is_file() for p in default_powers().values() if p.script)


def test_a_power_file_listed_twice_under_two_spellings_is_named_as_such(tmp_path: Path) -> None:
    """It said each of its powers was 'already defined' in the very same file."""
    top = 'ambient = "normal"\npower_files = ["hexes.toml", "./hexes.toml"]\n'
    path = _folder(tmp_path, _ledge(top=top, archer='powers = ["shoot", "hex"]'),
                   {"hexes.toml": HEX, "scripts/hex.star": HEX_SCRIPT})
    message = _refusal(path)
    assert "power_files: expected each file once: 'hexes.toml' and './hexes.toml' name the same file" in message
    assert "already defined" not in message
