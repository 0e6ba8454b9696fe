"""Hot reload (F5 or Ctrl+R): the scenario, its powers and its scripts are read again from disk and the
battle restarts on the same seed; a bad edit shows the loader's error in the window (file, key,
what was expected) and leaves the running battle exactly as it was."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from components import Health
from game.content.scenario import load_scenario
from game.play.app import App
from game.play.demo import human_teams, listed_powers
from game.render.inputs import Key

ROOT = Path(__file__).resolve().parent.parent
SIZE = (1100, 700)

POWERS = '''[drain]
name = "Drain"
description = "A draining touch: the damage it deals heals the user."
action = "action"
range_ft = 5
targets = "enemy"
attack = { bonus = 2 }
script = "drain.star"
'''
SCRIPT = '''def on_hit(ctx, target):
    amount = ctx.roll("1d6")
    ctx.damage(target, amount)
    ctx.heal(ctx.user, amount)
'''

pytestmark = pytest.mark.usefixtures("pygame_display")


def _folder(tmp_path: Path) -> Path:
    """The ledge, copied into a folder of its own with a power file and a script beside it."""
    text = (ROOT / "assets/scenarios/ledge.toml").read_text()
    text = text.replace('ambient = "normal"', 'ambient = "normal"\npower_files = ["powers.toml"]', 1)
    text = text.replace('speed = 40\npowers = ["strike"]', 'speed = 40\npowers = ["strike", "drain"]', 1)
    folder = tmp_path / "arena"
    (folder / "scripts").mkdir(parents=True)
    (folder / "arena.toml").write_text(text)
    (folder / "powers.toml").write_text(POWERS)
    (folder / "scripts" / "drain.star").write_text(SCRIPT)
    return folder / "arena.toml"


def _app(path: Path) -> App:
    scenario = load_scenario(path)
    battle, ids = scenario.build_with_ids()
    app = App(battle, human_teams(scenario), scenario=scenario, build_commands=len(battle.command_log),
              powers=listed_powers(scenario, ids), computer_delay=0.0)
    return app


def _ogre(app: App) -> int:
    return next(e for e in app.battle.creatures() if app.battle.name(e) == "Ogre")


def _state(app: App) -> tuple[object, ...]:
    b = app.battle
    return (b, b.round, b.current_actor, list(b.command_log), [e.as_dict() for e in b.events])


def test_an_edited_health_shows_after_reload_on_the_same_seed(tmp_path: Path) -> None:
    path = _folder(tmp_path)
    app = _app(path)
    window = app.open_window(screen=pygame.Surface(SIZE))
    old, seed = app.battle, app.battle.seed
    assert app.battle.get(_ogre(app), Health).maximum == 30
    app.handle(Key("space"))  # the battle is under way: a reload starts it again
    path.write_text(path.read_text().replace("health = 30", "health = 44", 1))
    app.handle(Key("f5"))
    assert app.ui.message.startswith("Reloaded"), app.ui.message
    assert app.battle is not old and old.closed and app.battle.seed == seed
    assert app.battle.get(_ogre(app), Health).maximum == 44 and app.battle.round == 1
    assert app.flow.human_turn() or app.flow.computer_turn()
    assert app.ui.error == ""
    app.draw()
    (path.parent / "powers.toml").write_text(POWERS.replace('bonus = 2', 'bonus = 3'))
    app.handle(Key("r", ctrl=True))
    assert app.ui.message.startswith("Reloaded") and app.battle.power("drain").attack_bonus == 3
    window.close()


@pytest.mark.parametrize(("file", "edit", "names"), [
    ("arena.toml", lambda t: t.replace("health = 30", 'health = "lots"', 1), ("arena.toml", "health")),
    ("arena.toml", lambda t: t.replace("health = 30", "health = -4", 1), ("arena.toml", "health")),
    ("arena.toml", lambda t: t.replace("[map]", "[map", 1), ("arena.toml",)),
    ("powers.toml", lambda t: t.replace('range_ft = 5', 'range_ft = "far"', 1), ("powers.toml", "range_ft")),
    ("scripts/drain.star", lambda t: t.replace("def on_hit(ctx, target):", "def on_hit(ctx, target)", 1),
     ("drain.star",)),
])
def test_a_bad_edit_shows_its_error_and_keeps_the_battle(tmp_path: Path, file: str, edit: object,
                                                         names: tuple[str, ...]) -> None:
    path = _folder(tmp_path)
    app = _app(path)
    window = app.open_window(screen=pygame.Surface(SIZE))
    app.handle(Key("space"))
    before = _state(app)
    target = path.parent / file
    target.write_text(edit(target.read_text()))  # type: ignore[operator]
    app.handle(Key("f5"))
    assert _state(app) == before and not app.battle.closed
    assert app.ui.message.startswith("Reload failed"), app.ui.message
    for name in names:
        assert name in app.ui.error, (name, app.ui.error)
    app.draw()  # the error is drawn over the map
    app.handle(Key("escape"))
    assert app.ui.error == "" and _state(app) == before
    window.close()


def test_a_battle_without_a_scenario_file_says_so() -> None:
    from game.battle.facade import Battle

    b = Battle(seed=1, width=6, height=6)
    b.spawn("Hero", 1, 1, team="blue")
    b.spawn("Orc", 4, 4, team="red")
    app = App(b, {"blue"})
    app.handle(Key("f5"))
    assert "not loaded from a scenario file" in app.ui.message and app.battle is b


def test_a_reload_that_renames_a_team_named_in_the_policy_says_so() -> None:
    from game.battle.facade import Battle

    first = Battle(seed=1, width=8, height=6)
    first.spawn("Knight", 1, 1, team="keep")
    first.spawn("Raider", 6, 4, team="raiders")
    app = App(first, frozenset(), policy="keep=tactical,raiders=greedy")
    app.open_window(screen=pygame.Surface(SIZE))
    renamed = Battle(seed=1, width=8, height=6)
    renamed.spawn("Knight", 1, 1, team="keep")
    renamed.spawn("Raider", 6, 4, team="bandits")
    app.replace_battle(renamed)
    assert "'raiders'" in app.ui.message and "tactical" in app.ui.message


def test_f5_on_a_file_whose_team_the_policy_named_is_gone_still_says_so(tmp_path: Path) -> None:
    """The reload's own "Reloaded ..." line keeps the --policy warning instead of writing over it."""
    path = _folder(tmp_path)
    scenario = load_scenario(path)
    battle, _ = scenario.build_with_ids()
    app = App(battle, frozenset(), scenario=scenario, build_commands=len(battle.command_log),
              policy="vale=greedy", computer_delay=0.0)
    app.open_window(screen=pygame.Surface(SIZE))
    path.write_text(path.read_text().replace("[teams.vale]", "[teams.dale]").replace('team = "vale"', 'team = "dale"'))
    app.handle(Key("f5"))
    assert app.ui.message.startswith("Reloaded"), app.ui.message
    assert "'vale'" in app.ui.message and "dale" in app.ui.message, app.ui.message


def test_f5_after_renaming_the_persons_team_leaves_it_in_their_hands(tmp_path: Path) -> None:
    """The person plays the teams the file marks human: renamed in the file, the team stays theirs."""
    path = _folder(tmp_path)
    app = _app(path)
    app.open_window(screen=pygame.Surface(SIZE))
    assert app.ui.human_teams == {"hill"}
    renamed = path.read_text().replace("[teams.hill]", "[teams.ridge]")
    path.write_text(renamed.replace('team = "hill"', 'team = "ridge"'))
    app.handle(Key("f5"))
    assert app.ui.message.startswith("Reloaded"), app.ui.message
    assert app.ui.human_teams == {"ridge"}
    assert any(app.controls(e) for e in app.battle.creatures())


def test_f5_says_reloaded_when_the_persons_creature_acts_first(tmp_path: Path) -> None:
    """The reload's "Reloaded ..." line is not written over by the prompt of the person's first turn."""
    text = (ROOT / "assets/scenarios/keep.toml").read_text()  # the keep's West archer acts first
    path = tmp_path / "keep.toml"
    path.write_text(text)
    app = _app(path)
    assert app.flow.human_turn()
    path.write_text(text.replace("health = 22", "health = 30", 1))
    app.handle(Key("f5"))
    name = app.battle.display_name(app.battle.current_actor)
    assert app.ui.message.startswith("Reloaded") and f"{name}'s turn" in app.ui.message, app.ui.message


def test_a_reload_shows_the_scenarios_new_name_and_team_colours(tmp_path: Path) -> None:
    """A designer renames the scenario and recolours a team, then presses F5: the panel's title and the
    tokens follow the file (they kept the names and colours the window opened with)."""
    path = _folder(tmp_path)
    app = _app(path)
    app.ui.title = "The ledge"
    window = app.open_window(screen=pygame.Surface(SIZE))
    text = path.read_text().replace('name = "The ledge"', 'name = "The high ledge"', 1)
    path.write_text(text.replace('colour = "#3060d0"', 'colour = "#20a040"', 1))
    app.handle(Key("f5"))
    assert app.ui.error == "" and app.ui.title == "The high ledge"
    team = next(name for name, t in load_scenario(path).teams.items() if t.colour == "#20a040")
    assert window.renderer.colour_of(team) == (0x20, 0xA0, 0x40)
    app.draw()


def test_a_click_on_the_error_box_is_not_a_click_on_the_square_under_it(tmp_path: Path) -> None:
    """The error of a failed reload lies over the lower map: a click on it, as a person reading it
    might, went to the square under it and moved the creature whose turn it was there."""
    path = _folder(tmp_path)
    app = _app(path)
    window = app.open_window(screen=pygame.Surface((1100, 480)))  # the map's rows reach the window's foot
    path.write_text(path.read_text().replace("health = 30", 'health = "lots"', 1))
    app.handle(Key("f5"))
    app.draw()
    renderer = window.renderer
    box = renderer.error_box
    inside = next((x, y) for y in range(box.top, box.bottom) for x in range(box.left, box.right, 8)
                  if renderer.view.square_at((x, y)) is not None)  # over a square of the map
    assert renderer.square_at(inside) is None
    app.handle(Key("escape"))
    app.draw()
    assert renderer.square_at(inside) == renderer.view.square_at(inside)  # the map's again
    window.close()
