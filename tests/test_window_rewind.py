"""The GM's rewind (R, a round, Enter): the battle rebuilt from the seed and the command log at the
start of a round equals a fresh rebuild to that point, and played on with the same inputs it gives
the same log again (the computer draws from generators derived from the seed, round and actor)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game import ai
from game.content.scenario import load_scenario
from game.play.app import App
from game.play.demo import human_teams, listed_powers
from game.play.rewind import rebuild, round_start_length, round_starts
from game.render.inputs import Button, Click, Key

ROOT = Path(__file__).resolve().parent.parent
SIZE = (1100, 700)

pytestmark = pytest.mark.usefixtures("pygame_display")


def _app(policy: str = "random", seed: int = 5) -> App:
    scenario = load_scenario(ROOT / "assets/scenarios/ledge.toml")
    battle, ids = scenario.build_with_ids()
    return App(battle, human_teams(scenario), scenario=scenario, build_commands=len(battle.command_log),
               policy=policy, seed=seed, powers=listed_powers(scenario, ids), computer_delay=0.0)


def _play_until_round(app: App, last: int) -> None:
    """The person passes every turn (Space), the computer plays at once (Enter), until round
    ``last`` is under way or the battle is decided."""
    for _ in range(200):
        if app.flow.over() or (app.battle.round >= last and app.battle.current_actor is not None
                               and app.flow.human_turn()):
            return
        app.handle(Key("space" if app.flow.human_turn() else "return"))
    raise AssertionError("the rounds never came")


def _dump(battle: object) -> list[dict[str, object]]:
    return [e.as_dict() for e in battle.events]  # type: ignore[attr-defined]


def test_rewind_to_round_two_equals_a_fresh_rebuild_and_replays_the_same() -> None:
    app = _app()
    window = app.open_window(screen=pygame.Surface(SIZE))
    _play_until_round(app, 4)
    assert app.battle.round >= 3, "three rounds were played"
    played_log, played_events = list(app.battle.command_log), _dump(app.battle)
    app.draw()
    for key in ("r", "2", "return"):
        app.handle(Key(key))
    assert app.ui.message.startswith("GM rewind: back to the start of round 2"), app.ui.message
    b = app.battle
    assert b.round == 2 and b.current_actor is not None
    length = round_start_length(played_log, 2, app.build_commands)
    fresh = rebuild(b, app.scenario, app.build_commands, length)
    assert _dump(b) == _dump(fresh) == played_events[:len(fresh.events)]
    assert list(b.command_log)[:length] == list(fresh.command_log) == played_log[:length]
    fresh.close()
    app.draw()
    _play_until_round(app, 4)  # the same inputs again: the same choices, the same dice
    assert list(app.battle.command_log) == played_log
    assert _dump(app.battle) == played_events
    window.close()


def test_page_keys_pick_a_round_and_escape_cancels() -> None:
    app = _app(policy="greedy")
    _play_until_round(app, 3)
    at = app.battle
    app.handle(Key("page up"))
    assert app.picker.active and app.picker.round == app.battle.round - 1
    app.handle(Key("page up"))
    app.handle(Key("page down"))
    assert app.picker.round == app.battle.round - 1
    app.handle(Key("escape"))
    assert not app.picker.active and app.battle is at and app.ui.message == "Rewind cancelled"
    app.handle(Key("r"))
    for key in ("9", "9", "return"):
        app.handle(Key(key))
    assert app.ui.message.startswith("Rewind refused: no round 99") and app.battle is at
    app.handle(Key("r"))
    app.handle(Key("1"))
    app.handle(Key("return"))
    assert app.battle.round == 1 and app.battle is not at
    assert round_starts(app.battle.command_log, app.build_commands) == \
        [round_start_length(app.battle.command_log, 1, app.build_commands) - 1]


def test_the_computers_turn_generator_is_derived_from_seed_round_and_actor() -> None:
    first = ai.turn_rng(5, 2, 3).random()
    assert ai.turn_rng(5, 2, 3).random() == first
    assert len({ai.turn_rng(5, 2, 4).random(), ai.turn_rng(5, 3, 3).random(), ai.turn_rng(6, 2, 3).random(),
                first}) == 4


def test_a_button_pressed_while_picking_a_round_closes_the_picker_and_the_next_enter_rewinds_nothing() -> None:
    """R opened the picker; End turn (the button) played on and its news took the picker's prompt off
    the status bar while the picker stayed open, so the Enter that then asked the computer to play
    on rewound the battle to the round picked."""
    app = _app(policy="greedy")
    _play_until_round(app, 3)
    app.handle(Key("r"))
    assert app.picker.active
    app.handle(Button("end_turn"))
    at, round_now = app.battle, app.battle.round
    app.handle(Key("return"))
    assert not app.ui.message.startswith("GM rewind"), app.ui.message
    assert app.battle is at and app.battle.round >= round_now
    assert not app.picker.active
    app.handle(Key("r"))
    app.handle(Click((3, 3), 1))  # a click on the map too
    assert not app.picker.active


def test_f5_reloads_while_the_rewind_picker_is_open_as_ctrl_r_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """The picker took F5 as one of its keys and did nothing; Ctrl+R closed it and reloaded."""
    app = _app(policy="greedy")
    _play_until_round(app, 2)
    reloads: list[int] = []
    monkeypatch.setattr(app, "reload", lambda: reloads.append(1))
    app.handle(Key("r"))
    assert app.picker.active
    app.handle(Key("f5"))
    assert reloads == [1] and not app.picker.active
