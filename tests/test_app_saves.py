"""Ctrl+S / Ctrl+L in the window: one save per scenario, and a save of another scenario is refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from game.content.scenario import load_scenario
from game.play import demo
from game.play.app import App
from game.render.inputs import Key
from game.render.ui import shown_powers

ROOT = Path(__file__).resolve().parent.parent


def _app(name: str, save: Path | None = None) -> App:
    scenario = load_scenario(ROOT / f"assets/scenarios/{name}.toml")
    battle, _ = scenario.build_with_ids()
    extra = {"save_path": save} if save is not None else {}
    return App(battle, frozenset(), scenario=scenario, **extra)


def test_each_scenario_saves_to_its_own_file() -> None:
    assert _app("keep").save_path.name == "keep.save.json"
    assert _app("ledge").save_path.name == "ledge.save.json"


def test_saving_and_loading_round_trips_and_another_scenarios_save_is_refused(tmp_path: Path) -> None:
    save = tmp_path / "shared.json"
    keep = _app("keep", save)
    keep.handle(Key("space"))
    keep.handle(Key("s", ctrl=True))
    assert "Saved" in keep.ui.message
    keep.handle(Key("space"))
    keep.handle(Key("l", ctrl=True))
    assert "Loaded" in keep.ui.message and keep.battle.round == 1
    ledge = _app("ledge", save)
    before = ledge.battle
    ledge.handle(Key("l", ctrl=True))
    assert "refused" in ledge.ui.message and ledge.battle is before


def test_a_save_whose_folder_cannot_be_made_says_so_and_the_game_goes_on(tmp_path: Path) -> None:
    (tmp_path / "out").write_text("a file where the save folder would go")
    keep = _app("keep", tmp_path / "out" / "keep.save.json")
    keep.handle(Key("s", ctrl=True))
    assert keep.ui.message == f"Save failed: {tmp_path / 'out'} is a file, where saves go in a folder of that " \
                              "name (move it away)", keep.ui.message
    assert (tmp_path / "out").read_text() == "a file where the save folder would go"


def _copy_of_the_keep(folder: Path, cover_bonus: int) -> App:
    """The keep copied into another folder, its name kept and one rule changed."""
    folder.mkdir(parents=True)
    text = (ROOT / "assets/scenarios/keep.toml").read_text()
    (folder / "keep.toml").write_text(re.sub(r"(?m)^cover_bonus = \d+", f"cover_bonus = {cover_bonus}", text))
    return _copy_of_the_keep_at(folder)


def _copy_of_the_keep_at(folder: Path) -> App:
    scenario = load_scenario(folder / "keep.toml")
    battle, _ = scenario.build_with_ids()
    return App(battle, frozenset(), scenario=scenario)


def test_a_copy_of_a_shipped_scenario_in_another_folder_saves_to_its_own_file(tmp_path: Path) -> None:
    shipped, copy = _app("keep"), _copy_of_the_keep(tmp_path / "mine", 9)
    assert shipped.save_path == Path("out/keep.save.json")
    assert copy.save_path == Path("out/mine-keep.save.json")
    assert _copy_of_the_keep(tmp_path / "again", 9).save_path == Path("out/again-keep.save.json")
    assert _copy_of_the_keep(tmp_path / "elsewhere" / "mine", 9).save_path == copy.save_path  # moved: the same


def test_a_save_of_another_file_of_the_same_name_is_refused_and_one_of_a_moved_file_loads(tmp_path: Path) -> None:
    copy = _copy_of_the_keep(tmp_path / "mine", 9)
    save = tmp_path / "slot.json"
    copy.save_path = save
    copy.handle(Key("s", ctrl=True))
    assert "Saved" in copy.ui.message
    shipped = _app("keep", save)
    before = shipped.battle
    shipped.handle(Key("l", ctrl=True))
    assert shipped.ui.message.startswith(f"Load refused: {save} is a save of {tmp_path / 'mine' / 'keep.toml'}")
    assert "another file named" in shipped.ui.message and shipped.battle is before
    moved = _copy_of_the_keep(tmp_path / "moved", 9)  # the same text in another folder: the same scenario
    moved.save_path = save
    moved.handle(Key("l", ctrl=True))
    assert moved.ui.message.startswith("Loaded"), moved.ui.message


def test_a_scenario_folder_moved_elsewhere_loads_the_save_it_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                  ) -> None:
    monkeypatch.chdir(tmp_path)  # the window's out/ is relative to where the game was started
    before = _copy_of_the_keep(tmp_path / "a" / "mine", 9)
    before.handle(Key("space"))
    before.handle(Key("s", ctrl=True))
    assert before.ui.message == "Saved to out/mine-keep.save.json", before.ui.message
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "mine").rename(tmp_path / "b" / "mine")
    after = _copy_of_the_keep_at(tmp_path / "b" / "mine")
    after.handle(Key("l", ctrl=True))
    assert after.ui.message.startswith("Loaded out/mine-keep.save.json"), after.ui.message


def _played_as_the_window_plays(path: Path, save: Path) -> App:
    """The scenario as ``python -m game play`` opens it: its human teams, colours and power lists."""
    loaded = demo.load(path, human=True)
    return App(loaded.battle, loaded.human_teams, loaded.team_colours, loaded.scenario, loaded.build_commands,
               title=loaded.title, save_path=save, powers=loaded.powers)


def test_a_save_loaded_after_its_file_was_edited_plays_with_the_saves_powers_title_and_colours(
        tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    text = (ROOT / "assets/scenarios/keep.toml").read_text()
    (folder / "keep.toml").write_text(text)
    save = tmp_path / "slot.json"
    saved = _played_as_the_window_plays(folder / "keep.toml", save)
    saved.handle(Key("s", ctrl=True))
    assert saved.ui.message.startswith("Saved"), saved.ui.message
    # the designer then gives the archers a blade and recolours the keep, and opens the window again
    edited = text.replace('powers = ["shoot"]', 'powers = ["strike"]', 2).replace('"#3060d0"', '"#20a020"')
    (folder / "keep.toml").write_text(edited)
    app = _played_as_the_window_plays(folder / "keep.toml", save)
    archer = app.battle.current_actor
    assert shown_powers(app.battle, archer, app.powers) == ["strike"]
    app.handle(Key("l", ctrl=True))
    assert app.ui.message.startswith(f"Loaded {save}"), app.ui.message
    archer = app.battle.current_actor
    assert app.battle.powers_of(archer) == ["shoot"]
    assert shown_powers(app.battle, archer, app.powers) == ["shoot"]  # the file's Strike was offered
    assert app.flow.powers == app.powers  # and the computer chooses from the save's lists too
    assert app.team_colours["keep"] == (0x30, 0x60, 0xd0)
    app.handle(Key("1"))
    assert app.ui.power == "shoot", app.ui.message


def test_a_save_made_before_the_scenarios_title_was_edited_loads_with_its_own_title(tmp_path: Path) -> None:
    """The same file, renamed after the save: the save loads as it was saved (the README: "a save made
    before the file was edited loads as it was saved: ... title and colours are the save's"); it was
    refused as "a save of 'The keep', this window plays 'The new keep'", a save nobody could load again."""
    before = _copy_of_the_keep(tmp_path / "mine", 4)
    save = tmp_path / "slot.json"
    before.save_path = save
    before.handle(Key("space"))
    before.handle(Key("s", ctrl=True))
    assert "Saved" in before.ui.message
    path = tmp_path / "mine" / "keep.toml"
    path.write_text(path.read_text().replace('name = "The keep"', 'name = "The new keep"', 1))
    scenario = load_scenario(path)
    after = App(scenario.build_with_ids()[0], frozenset(), scenario=scenario, title=scenario.name, save_path=save)
    after.handle(Key("l", ctrl=True))
    assert after.ui.message.startswith(f"Loaded {save}"), after.ui.message
    assert after.ui.title == "The keep"


def test_a_save_of_another_scenario_in_the_slot_is_refused_naming_both(tmp_path: Path) -> None:
    save = tmp_path / "slot.json"
    keep = _app("keep", save)
    keep.handle(Key("s", ctrl=True))
    ledge = _app("ledge", save)
    before = ledge.battle
    ledge.handle(Key("l", ctrl=True))
    assert ledge.battle is before
    assert re.fullmatch(rf"Load refused: {re.escape(str(save))} is a save of \S*keep.toml \('The keep'\), "
                        r"this window plays \S*ledge.toml \('The ledge'\)", ledge.ui.message), ledge.ui.message


def test_f5_after_loading_a_save_of_a_copied_folder_reads_the_file_this_window_plays(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A save made in a/mine, loaded by the window that plays its copy b/mine: F5 read the path the
    save recorded, so the designer's edit of b/mine/keep.toml never showed (a/mine's file was read
    again), and once a/mine was gone F5 failed on a file the window does not play."""
    monkeypatch.chdir(tmp_path)
    first = _copy_of_the_keep(tmp_path / "a" / "mine", 9)
    first.handle(Key("space"))
    first.handle(Key("s", ctrl=True))
    copy = tmp_path / "b" / "mine"
    copy.mkdir(parents=True)
    (copy / "keep.toml").write_text((tmp_path / "a" / "mine" / "keep.toml").read_text())
    playing = _copy_of_the_keep_at(copy)
    playing.handle(Key("l", ctrl=True))
    assert playing.ui.message.startswith("Loaded out/mine-keep.save.json"), playing.ui.message
    (copy / "keep.toml").write_text((copy / "keep.toml").read_text().replace('name = "The keep"',
                                                                              'name = "The edited keep"', 1))
    playing.handle(Key("f5"))
    assert playing.ui.message.startswith(f"Reloaded {copy / 'keep.toml'}"), playing.ui.message
    assert playing.ui.title == "The edited keep"
    playing.handle(Key("s", ctrl=True))
    assert json.loads(Path("out/mine-keep.save.json").read_text())["scenario"]["path"] == str(copy / "keep.toml")


def test_a_save_plays_on_alike_in_a_window_started_with_another_seed(tmp_path: Path) -> None:
    """The window's computer draws each turn from the seed (``ai.turn_rng``); a load kept the seed the
    loading window was started with, so the same save, loaded in a window started with another
    ``--seed``, was played on as another battle (here with the random player). It draws from the
    loaded battle's seed."""
    save = tmp_path / "keep.save.json"

    def window(seed: int) -> App:
        loaded = demo.load(ROOT / "assets/scenarios/keep.toml", human=True, seed=seed)
        return App(loaded.battle, loaded.human_teams, loaded.team_colours, loaded.scenario, loaded.build_commands,
                   policy="random", seed=seed, powers=loaded.powers, computer_delay=0.0, save_path=save)

    def play_on(app: App, rounds: int) -> list[str]:
        stop = app.battle.round + rounds
        for _ in range(300):
            if app.winner() is not None or app.battle.round >= stop:
                break
            if app.flow.human_turn():
                app.handle(Key("space"))
            else:
                app.tick_clock(1.0)
        return [str(event.as_dict()) for event in app.battle.events]

    first = window(9)
    play_on(first, 1)
    first.handle(Key("s", ctrl=True))
    assert "Saved" in first.ui.message
    played = play_on(first, 2)
    other = window(5)
    other.handle(Key("l", ctrl=True))
    assert "Loaded" in other.ui.message and other.battle.seed == 9
    assert play_on(other, 2) == played
