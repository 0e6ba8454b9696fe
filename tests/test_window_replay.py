"""A replay stepped in the window (``python -m game replay FILE``): forward and back by event, turn and
round, play and pause; what is shown at each point is the battle as it was recorded there."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from components import Health, Position
from game.content.saves import write_replay
from game.content.scenario import load_scenario
from game.play import cli
from game.play.app import App
from game.play.replay_window import ReplayApp, open_replay
from game.render.inputs import Key, Quit, Wheel

ROOT = Path(__file__).resolve().parent.parent
SIZE = (1100, 700)

pytestmark = pytest.mark.usefixtures("pygame_display")


def _state(battle: Any) -> tuple[Any, ...]:
    """What the board shows: every creature's health and square, and the events so far."""
    creatures = tuple((e, battle.get(e, Health).current, battle.get(e, Position).square) for e in battle.creatures())
    return creatures, tuple(str(e.as_dict()) for e in battle.events)


def _record(tmp_path: Path) -> tuple[Path, dict[int, tuple[Any, ...]]]:
    """Play the ledge for three rounds turn by turn (the person passes, the computer plays one turn
    per clock step) and write a replay; the board at every turn boundary, by event count."""
    scenario = load_scenario(ROOT / "assets/scenarios/ledge.toml")
    battle, _ = scenario.build_with_ids()
    app = App(battle, {"hill"}, scenario=scenario, build_commands=len(battle.command_log), policy="greedy",
              computer_delay=0.0)
    seen = {len(battle.events): _state(battle)}
    for _ in range(200):
        if app.flow.over() or battle.round > 3:
            break
        if app.flow.human_turn():
            app.handle(Key("space"))
        else:
            app.tick_clock(1.0)
        seen[len(battle.events)] = _state(battle)
    assert battle.round >= 3
    path = tmp_path / "ledge.replay.json"
    write_replay(path, scenario, battle, app.build_commands)
    battle.close()
    return path, seen


def _check(replay: ReplayApp, seen: dict[int, tuple[Any, ...]]) -> None:
    """The shown battle's events are the recorded ones up to its point, and at a recorded boundary
    the whole board is as it was; the drawn frame does not fail."""
    timeline = replay.timeline
    shown = replay.battle
    assert [str(e.as_dict()) for e in shown.events] == [str(e.as_dict()) for e in timeline.final_events[
        :len(shown.events)]]
    assert len(shown.events) >= timeline.event
    if timeline.event in seen and len(shown.events) == timeline.event:
        assert _state(shown) == seen[timeline.event]
    position = replay.ui.timeline
    assert (position.event, position.events) == (timeline.event, timeline.total)
    assert replay.ui.message.startswith(f"Event {timeline.event}/{timeline.total}")
    replay.draw()
    assert replay.window.renderer.battle is shown


def _opened(tmp_path: Path) -> tuple[Any, dict[int, tuple[Any, ...]]]:
    """A recorded game, opened in a replay window on an off-screen surface; and what was seen when."""
    path, seen = _record(tmp_path)
    replay = open_replay(path)
    replay.open_window(screen=pygame.Surface(SIZE))
    return replay, seen


def test_a_replay_steps_forward_and_back_and_shows_what_was_recorded(tmp_path: Path) -> None:
    replay, seen = _opened(tmp_path)
    timeline = replay.timeline
    start = timeline.event
    assert start == timeline.first and replay.ui.timeline.round == 0
    _check(replay, seen)
    for _ in range(5):
        replay.handle(Key("right"))
        _check(replay, seen)
    assert timeline.event == start + 5
    replay.handle(Key("left"))
    assert timeline.event == start + 4
    _check(replay, seen)
    turns = []
    for _ in range(6):  # turn by turn: each lands on a turn's start, recorded as it was
        replay.handle(Key("down"))
        turns.append(timeline.event)
        assert timeline.event in timeline.turn_marks and timeline.event in seen
        _check(replay, seen)
    assert turns == sorted(set(turns))
    replay.handle(Key("up"))
    assert timeline.event == turns[-2]
    _check(replay, seen)
    replay.handle(Key("page down"))
    assert timeline.event in timeline.round_marks
    round_now = replay.ui.timeline.round
    replay.handle(Key("page down"))
    assert replay.ui.timeline.round == round_now + 1 and replay.ui.timeline.turn == 1
    _check(replay, seen)
    replay.handle(Key("page up"))
    assert replay.ui.timeline.round == round_now
    _check(replay, seen)
    replay.handle(Key("end"))
    assert timeline.event == timeline.total
    _check(replay, seen)
    for _ in range(3):  # back from the end: rebuilt from the seed, exact
        replay.handle(Key("up"))
        _check(replay, seen)
    replay.handle(Key("home"))
    assert timeline.event == start and replay.battle.round == 0
    _check(replay, seen)
    replay.handle(Quit())
    assert not replay.running
    timeline.close()


def test_play_and_pause_advance_one_event_per_step_of_the_clock(tmp_path: Path) -> None:
    replay, seen = _opened(tmp_path)
    timeline = replay.timeline
    start = timeline.event
    replay.handle(Key("space"))
    assert replay.ui.timeline.playing
    replay.tick_clock(replay.event_seconds * 3.5)
    assert timeline.event == start + 3
    _check(replay, seen)
    replay.handle(Key("space"))
    replay.tick_clock(10.0)
    assert timeline.event == start + 3 and not replay.ui.timeline.playing
    replay.handle(Key("end"))
    replay.handle(Key("space"))
    assert not timeline.playing  # nothing left to play
    replay.timeline.close()


def test_the_replay_command_checks_headless(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = _record(tmp_path)
    assert cli.main(["replay", str(path), "--headless"]) == 0
    assert "all matched" in capsys.readouterr().out


def test_a_replay_of_a_sweeps_variant_is_stepped_with_the_powers_it_was_played_with(tmp_path: Path) -> None:
    from game.content.saves import play_replay
    from game.sim.runner import run_battle

    keep = str(ROOT / "assets/scenarios/keep.toml")
    row = run_battle(keep, (("powers.shoot.damage", "3d6"),), 5, policy="greedy", max_rounds=4,
                     replay_dir=str(tmp_path), always_replay=True)
    assert row["error"] == "" and row["replay"]
    recorded, matched, _ = play_replay(row["replay"])
    assert matched
    replay = open_replay(row["replay"])
    timeline = replay.timeline
    timeline.go(timeline.total)
    assert str(timeline.battle.power("shoot").damage) == "3d6"
    assert timeline.battle.state.events == recorded.state.events   # the variant's battle, not the base one
    timeline.go(timeline.first)
    timeline.go(timeline.total)                                     # back and forth: a rebuild, same powers
    assert timeline.battle.state.events == recorded.state.events
    recorded.close()
    timeline.close()


def test_the_status_line_names_creatures_as_the_log_does(tmp_path: Path) -> None:
    """The keep's two raiders share a name: the log says "Raider 1" and "Raider 2", and so must the
    status line at the cursor (it said "Raider's turn", which is either of them)."""
    scenario = load_scenario(ROOT / "assets/scenarios/keep.toml")
    battle, ids = scenario.build_with_ids()
    app = App(battle, {"keep"}, scenario=scenario, build_commands=len(battle.command_log), computer_delay=0.0)
    while battle.round < 2:
        if app.flow.human_turn():
            app.handle(Key("space"))
        else:
            app.tick_clock(1.0)
    path = tmp_path / "keep.replay.json"
    write_replay(path, scenario, battle, app.build_commands)
    replay = open_replay(path)
    try:
        said = []
        while replay.timeline.event < replay.timeline.total:
            replay.handle(Key("right"))
            said.append(replay.ui.message)
        raider = [line for line in said if line.endswith("'s turn") and "Raider" in line and "archer" not in line
                  and "slinger" not in line]
        assert raider and all(line.endswith(("Raider 1's turn", "Raider 2's turn")) for line in raider), raider
    finally:
        replay.timeline.close()


def test_the_replay_windows_wheel_stops_at_the_logs_first_line(tmp_path: Path) -> None:
    path, _ = _record(tmp_path)
    replay = open_replay(path)
    window = replay.open_window(screen=pygame.Surface(SIZE))
    replay.handle(Key("end"))
    for _ in range(60):  # far past the first line
        replay.handle(Wheel(1, 0, True, False))
        replay.draw()
    most = window.renderer.log_scroll_max
    assert most is not None and 0 < most < 60 * 3
    assert replay.ui.log_scroll == most  # it went on to 180 lines back, and the log no longer moved
    replay.handle(Wheel(-1, 0, True, False))
    assert replay.ui.log_scroll == most - 3  # one notch down moves the log at once


_DUEL = """
name = "Duel"
description = "An orc that cannot miss against a hero of 1 Health: decided in the first round."
seed = 1
[map]
rows = ["...."]
[map.legend]
"." = { ground = 0, name = "grass" }
[teams.blue]
control = "human"
[teams.red]
control = "computer"
[[creatures]]
key = "orc"
name = "Orc"
team = "red"
x = 1
y = 0
attack_bonus = 50
initiative_bonus = 50
powers = ["strike"]
[[creatures]]
key = "hero"
name = "Hero"
team = "blue"
x = 2
y = 0
health = 1
powers = ["strike"]
"""


def test_a_decided_battle_has_nobody_acting_now_and_its_banner_in_the_replay(tmp_path: Path) -> None:
    """The orc downs the hero and the battle is decided, though the downed hero's turn has begun: the
    play window's strip then names nobody, but the replay's said "now: Hero" at the end, and no banner
    said who won. Now the replay shows the end as the window did; stepped back, the battle goes on."""
    source = tmp_path / "duel.toml"
    source.write_text(_DUEL, encoding="utf-8")
    scenario = load_scenario(source)
    battle, _ = scenario.build_with_ids()
    app = App(battle, {"blue"}, scenario=scenario, build_commands=len(battle.command_log), computer_delay=0.0)
    for _ in range(20):
        if app.flow.over():
            break
        app.tick_clock(1.0)
    assert battle.winner() == "red" and battle.current_actor is not None and app.ui.banner
    path = tmp_path / "duel.replay.json"
    write_replay(path, scenario, battle, app.build_commands)
    battle.close()
    replay = open_replay(path)
    try:
        window = replay.open_window(screen=pygame.Surface(SIZE))
        replay.handle(Key("end"))
        assert replay.ui.actor is None and replay.ui.up_next == ()
        assert replay.ui.banner == "Red won in round 1" and "F5" not in replay.ui.banner_hint
        replay.draw()
        assert window.screen.get_size() == SIZE
        replay.handle(Key("up"))
        assert replay.battle.winner() is None
        assert replay.ui.actor is not None and replay.ui.banner == ""
    finally:
        replay.timeline.close()


def test_the_timelines_line_stays_over_the_map_in_the_smallest_window() -> None:
    """At 680x540 the map is 340 pixels wide: the timeline's one line ("... PageUp/PageDown: round  Space:
    play/pause") ran over the side panel and off the window's edge, read "Space: play/paus"."""
    from types import SimpleNamespace

    from game.render.draw import Texts
    from game.render.notice import draw_timeline
    from game.render.view import map_rect_for

    surface, texts = pygame.Surface((680, 540)), Texts()
    map_rect = map_rect_for(surface.get_size())
    position = SimpleNamespace(event=18, events=37, round=1, turn=1, playing=False, round_marks=(0, 30))
    drawn: list[str] = []
    real = Texts.__call__

    def spy(self: Texts, string: str, *args: Any, **kwargs: Any) -> pygame.Surface:
        drawn.append(string)
        return real(self, string, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Texts, "__call__", spy)
        band = draw_timeline(surface, map_rect, position, texts)
    font = texts.fonts["small"]
    assert map_rect.contains(band), (band, map_rect)
    assert all(band.x + 12 + font.size(line)[0] <= band.right for line in drawn), drawn
    assert " ".join(drawn).split() == ("Round 1 turn 1 event 18 of 37 (paused) Left/Right: event Up/Down: turn "
                                       "PageUp/PageDown: round Space: play/pause").split()
