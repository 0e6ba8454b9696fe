"""A save made when the person's creature has just been downed by its own fall loads at the same
moment: its turn still under way until End turn, as in the window that saved it. The load passed
that turn at once and the computer moved next, so a designer who loaded to try the turn again got
another battle from the one the save was made in."""

from __future__ import annotations

from pathlib import Path

from game.content.scenario import load_scenario
from game.play.app import App
from game.render.inputs import Click, Key

DROP = """\
name = "Drop"
seed = 5

[map]
rows = [
  "^^....",
  "^^....",
  "^^....",
]

[map.legend]
"." = { ground = 0 }
"^" = { ground = 60 }

[teams.a]
control = "human"

[teams.b]

[[creatures]]
key = "hero"
team = "a"
x = 1
y = 1
health = 2
initiative_bonus = 50
powers = ["strike"]

[[creatures]]
key = "ally"
team = "a"
x = 0
y = 0
health = 9
initiative_bonus = -50
powers = ["strike"]

[[creatures]]
key = "foe"
team = "b"
x = 5
y = 1
health = 9
powers = ["strike"]
"""


def _app(tmp_path: Path) -> App:
    """The hero, first to act, on a 60 ft ledge with 2 health; its ally acts last, the foe between."""
    path = tmp_path / "drop.toml"
    path.write_text(DROP)
    scenario = load_scenario(path)
    battle, _ = scenario.build_with_ids()
    return App(battle, {"a"}, scenario=scenario, seed=battle.seed, save_path=tmp_path / "drop.save.json",
               computer_delay=0)


def _after_space(app: App) -> tuple[int | None, list[object]]:
    """End turn, then Enter for the computer's turns: whose turn it is then, and what happened."""
    start = len(app.battle.events)
    app.handle(Key("space"))
    app.handle(Key("return"))
    return app.battle.current_actor, list(app.battle.events[start:])


def test_a_save_at_a_turn_downed_by_its_own_fall_loads_at_that_turn_and_plays_on_the_same(tmp_path: Path) -> None:
    app = _app(tmp_path)
    hero = app.flow.actor
    app.handle(Click((1, 1)))
    app.handle(Click((2, 1)))  # steps off the ledge: a 60 ft fall downs it
    assert "downed" in app.battle.conditions(hero), app.ui.message
    assert app.flow.actor == hero and app.ui.actor == hero  # its turn waits for End turn
    app.handle(Key("s", ctrl=True))
    assert app.ui.message.startswith("Saved"), app.ui.message
    events_saved = len(app.battle.events)

    loaded = _app(tmp_path)
    loaded.handle(Key("l", ctrl=True))
    assert loaded.ui.message.startswith("Loaded"), loaded.ui.message
    assert loaded.battle.current_actor == hero and loaded.ui.actor == hero and loaded.flow.human_turn()
    assert len(loaded.battle.events) == events_saved  # the load ended no turn of its own
    assert loaded.battle.command_log == app.battle.command_log

    assert _after_space(loaded) == _after_space(app)

