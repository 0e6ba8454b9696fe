"""A save or replay carries every file its battle read besides the scenario: the scenario's own
power files and the scripts (reactions, powers' scripts), and is replayed from those texts.

It used to carry the scenario's text only, so an edit of ``my_powers.toml`` (``1d8+1`` -> ``3d8+1``)
or of a script after the battle turned an exact replay into a MISMATCH, and deleting the power file
(or replaying from another folder) made it fail to load. Version 1 files, which carry no files, are
still read from beside their scenario, with a clear error when those files are gone.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from components.events import PowerUsed
from game.content.powers import POWERS_DIR
from game.content.saves import SaveError, load_game, play_replay, read_replay, save_game, write_replay
from game.content.scenario import load_scenario
from game.sim.runner import ai_rng, play
from tests.power_steps import LEDGE, LONGBOW

ROOT = Path(__file__).resolve().parent.parent
POWERS = LONGBOW + textwrap.dedent('''
    [blade]
    name = "Blade"
    description = "A cut, and what its script adds."
    action = "action"
    targets = "enemy"
    attack = { bonus = 1 }
    damage = "1d6"
    script = "blade.star"
''')
BLADE = "def on_hit(ctx, target):\n    ctx.damage(target, 1)\n"
RALLY = "def on_downed(ctx, event):\n    return None\n"
SEED = 5


def _folder(tmp_path: Path) -> Path:
    text = LEDGE.replace('ambient = "normal"\n', 'ambient = "normal"\npower_files = ["my_powers.toml"]\n'
                                                 'reactions = ["rally.star"]\n', 1)
    text = text.replace('powers = ["shoot"]', 'powers = ["longbow"]')
    text = text.replace('powers = ["strike"]', 'powers = ["blade"]')
    folder = tmp_path / "pack"
    (folder / "scripts").mkdir(parents=True)
    (folder / "my_powers.toml").write_text(POWERS, encoding="utf-8")
    (folder / "scripts" / "blade.star").write_text(BLADE, encoding="utf-8")
    (folder / "scripts" / "rally.star").write_text(RALLY, encoding="utf-8")
    (folder / "pack.toml").write_text(text, encoding="utf-8")
    return folder


def _played(folder: Path, out: Path, kind: str = "replay") -> Path:
    scenario = load_scenario(folder / "pack.toml", trusted=True)
    battle = scenario.build(seed=SEED, trusted=True)
    try:
        play(battle, "tactical", ai_rng(SEED), 8)
        used = {e.power for e in battle.events if isinstance(e, PowerUsed)}
        assert {"blade", "longbow"} <= used, used  # both of the folder's powers shape this battle
        (write_replay if kind == "replay" else save_game)(out, scenario, battle)
    finally:
        battle.close()
    return out


def _edit(folder: Path) -> None:
    """What the designer did after the run: stronger bows, a deadlier script."""
    powers = folder / "my_powers.toml"
    powers.write_text(powers.read_text(encoding="utf-8").replace("1d8+1", "3d8+1"), encoding="utf-8")
    (folder / "scripts" / "blade.star").write_text(BLADE.replace("1)", "40)"), encoding="utf-8")


def test_the_file_records_the_texts_of_the_power_files_and_scripts(tmp_path: Path) -> None:
    out = _played(_folder(tmp_path), tmp_path / "r.json")
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["version"] == 2
    shipped = {path.name: path.read_text(encoding="utf-8") for path in sorted(POWERS_DIR.glob("*.toml"))}
    assert document["files"] == {"power_files": {"my_powers.toml": POWERS},
                                 "scripts": {"blade.star": BLADE, "rally.star": RALLY},
                                 "shipped_power_files": shipped}


@pytest.mark.slow
def test_the_shipped_powers_are_the_ones_the_file_recorded(tmp_path: Path) -> None:
    """The project's own power files change between versions too: a replay uses the recorded ones."""
    out = _played(_folder(tmp_path), tmp_path / "r.json")
    document = json.loads(out.read_text(encoding="utf-8"))
    martial = document["files"]["shipped_power_files"]["martial.toml"]
    assert 'damage = "1d8+2"' in martial
    stronger = martial.replace('damage = "1d8+2"', 'damage = "9d8+2"', 1)
    document["files"]["shipped_power_files"]["martial.toml"] = stronger
    out.write_text(json.dumps(document), encoding="utf-8")
    battle, _, _ = play_replay(out)
    with battle:
        assert str(battle.power("strike").damage).startswith("9d8")


@pytest.mark.slow
def test_a_replay_ignores_edits_of_its_power_files_and_scripts(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    out = _played(folder, tmp_path / "r.json")
    _edit(folder)
    battle, matched, mismatch = play_replay(out)
    with battle:
        assert matched, mismatch
        assert battle.power("longbow").damage is not None and "1d8" in str(battle.power("longbow").damage)


@pytest.mark.slow
def test_a_replay_plays_with_its_folder_gone_and_from_anywhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    folder = _folder(tmp_path)
    out = _played(folder, tmp_path / "r.json")
    for file in (folder / "my_powers.toml", folder / "scripts" / "blade.star", folder / "scripts" / "rally.star"):
        file.unlink()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    battle, matched, mismatch = play_replay(out)
    with battle:
        assert matched, mismatch
    replay = read_replay(out)
    assert replay.scenario.recorded and not replay.scenario.trusted  # recorded texts run sandboxed


@pytest.mark.slow
def test_a_save_is_self_contained_too(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    out = _played(folder, tmp_path / "s.json", kind="save")
    _edit(folder)
    with load_game(out) as battle:
        assert "3d8" not in str(battle.power("longbow").damage)
    (folder / "my_powers.toml").unlink()
    with load_game(out) as battle:
        assert battle.round >= 1


def _version_1(out: Path) -> Path:
    document = json.loads(out.read_text(encoding="utf-8"))
    del document["files"]
    document["version"] = 1
    old = out.with_name("v1.json")
    old.write_text(json.dumps(document), encoding="utf-8")
    return old


@pytest.mark.slow
def test_a_version_1_file_still_replays_from_the_files_beside_its_scenario(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    old = _version_1(_played(folder, tmp_path / "r.json"))
    battle, matched, mismatch = play_replay(old)
    with battle:
        assert matched, mismatch
    (folder / "my_powers.toml").unlink()
    with pytest.raises(SaveError, match=r"v1\.json: its scenario does not load: .*power_files\[0\].*"
                                        r"\(a version 1 file carries no power files or scripts: they are read "
                                        r"from beside '.*pack\.toml', as they are now\)"):
        play_replay(old)


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d.pop("files"), r"missing key 'files'"),
    (lambda d: d["files"].pop("scripts"), r"files must be an object with keys power_files, scripts, "
                                          r"shipped_power_files"),
    (lambda d: d["files"]["scripts"].update({"blade.star": 3}), r"files\.scripts must be an object from file names"),
    (lambda d: d["files"]["scripts"].pop("rally.star"),
     r"reactions\[0\]: rally\.star: cannot read script from the file's recorded scripts: it is not among the scripts"),
    (lambda d: d["files"]["power_files"].clear(),
     r"power_files\[0\]: .*my_powers\.toml: not among the power files this save or replay recorded"),
])
def test_a_file_whose_recorded_files_are_wrong_is_refused_naming_the_key(tmp_path: Path, change: object,
                                                                          words: str) -> None:
    out = _played(_folder(tmp_path), tmp_path / "r.json")
    document = json.loads(out.read_text(encoding="utf-8"))
    change(document)  # type: ignore[operator]
    out.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(SaveError, match=rf"r\.json: .*{words}"):
        play_replay(out)
