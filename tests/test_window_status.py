"""The status bar while the computer plays: the person's own line (Ctrl+S, the GM view, ...) is held in
front of the computer's turns for a few seconds instead of being written over by the next one; the
GM's rewind picker holds the computer back and keeps its prompt; each computer step says what it
did (a round begun, not the last turn again; a person's creature that cannot act, beside the turn)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.battle.facade import Battle
from game.play.app import App
from game.play.status import HOLD_S
from game.render.inputs import Key
from tests.window_steps import strike_and_walk_off


def _at_computers_turn(app: App) -> None:
    """Pass the person's turns until a computer creature is up (not between rounds)."""
    for _ in range(50):
        if app.flow.computer_turn():
            return
        if app.flow.human_turn():
            app.handle(Key("space"))
        else:
            app.tick_clock(1.0)
    raise AssertionError("the computer never came up")


def _squad(seed: int = 1) -> tuple[Battle, list[int], list[int]]:
    b = Battle(seed=seed, width=12, height=8)
    mine = [b.spawn(f"Blue {i}", 1, 1 + 2 * i, team="blue", powers=["strike"]) for i in range(2)]
    theirs = [b.spawn(f"Red {i}", 10, 1 + 2 * i, team="red", powers=["strike"]) for i in range(3)]
    return b, mine, theirs


def test_a_line_of_the_persons_input_is_held_in_front_of_the_computers_next_turns() -> None:
    b, _, _ = _squad()
    app = App(b, {"blue"}, computer_delay=0.5)
    _at_computers_turn(app)
    app.handle(Key("g"))  # the GM view, pressed while the computer plays
    assert app.ui.message == "GM view: everything shown"
    turns = len(b.command_log)
    app.tick_clock(0.6)
    assert len(b.command_log) > turns, "the computer played a turn"
    assert app.ui.message.startswith("GM view: everything shown | "), app.ui.message
    assert "Red " in app.ui.message or "Round" in app.ui.message, app.ui.message  # and what it did
    for _ in range(int(HOLD_S / 0.5) + 2):
        if app.flow.human_turn():
            break
        app.tick_clock(0.5)
    else:
        assert "GM view" not in app.ui.message, app.ui.message  # held a few seconds, not for ever


def test_ctrl_s_during_the_computers_turns_is_still_read_after_its_next_turn(tmp_path: Path) -> None:
    from game.content.scenario import load_scenario

    scenario = load_scenario(Path(__file__).resolve().parent.parent / "assets/scenarios/keep.toml")
    battle, _ = scenario.build_with_ids()
    app = App(battle, {"keep"}, scenario=scenario, save_path=tmp_path / "keep.save.json")
    _at_computers_turn(app)
    app.handle(Key("s", ctrl=True))
    saved = f"Saved to {tmp_path / 'keep.save.json'}"
    assert app.ui.message == saved
    turns = len(battle.command_log)
    app.tick_clock(0.7)
    assert len(battle.command_log) > turns
    assert app.ui.message.startswith(f"{saved} | "), app.ui.message


def test_ending_a_turn_is_not_held_against_the_computers_turns() -> None:
    """Space that passes the turn to a computer creature says so once; the computer's turn then
    speaks, not "Blue 1 ends its turn" held in front of it."""
    b, mine, _ = _squad()
    app = App(b, {"blue"}, computer_delay=0.5)
    for _ in range(60):
        if not app.flow.human_turn():
            app.tick_clock(1.0)
            continue
        name = b.display_name(b.current_actor)
        app.handle(Key("space"))
        if b.current_actor not in mine:  # the turn went to the computer: its line must not be held behind
            app.tick_clock(0.6)
            assert app.ui.message and f"{name} ends its turn" not in app.ui.message, app.ui.message
            return
    pytest.fail("no turn of the person's was followed by a computer's")


def test_the_rewind_picker_holds_the_computer_back_and_keeps_its_prompt() -> None:
    b, _, _ = _squad()
    app = App(b, {"blue"}, computer_delay=0.5)
    _at_computers_turn(app)
    app.handle(Key("r"))
    prompt, events = app.ui.message, len(b.events)
    assert prompt.startswith("GM rewind to the start of round 1")
    for _ in range(10):
        app.tick_clock(1.0)
    assert len(b.events) == events and app.ui.message == prompt
    app.handle(Key("escape"))
    app.tick_clock(1.0)
    assert len(b.events) > events  # the computer plays on once the picker is closed


def test_ctrl_keys_act_while_the_rewind_picker_is_open_and_close_it() -> None:
    b, _, _ = _squad()
    app = App(b, {"blue"}, computer_delay=0.5)
    app.handle(Key("r"))
    assert app.picker.active
    app.handle(Key("q", ctrl=True))
    assert not app.running and not app.picker.active


def test_a_round_begun_by_the_clock_is_said_and_the_last_turn_is_not_said_again() -> None:
    for seed in range(1, 30):
        b, mine, theirs = _squad(seed)
        app = App(b, {"blue"}, computer_delay=0.5)
        if b.turn_order()[-1] not in theirs:
            continue
        while b.round == 1:
            if app.flow.human_turn():
                app.handle(Key("space"))
            else:
                app.tick_clock(0.6)
        last = b.display_name(b.turn_order()[-1])
        assert app.ui.message.startswith("Round 2 begins"), app.ui.message
        assert f"{last} acts" not in app.ui.message
        return
    raise AssertionError("no seed where the computer acts last")


def test_a_persons_creature_that_cannot_act_is_said_beside_the_computers_turn_not_over_it() -> None:
    for seed in range(1, 40):
        b = Battle(seed=seed, width=12, height=8)
        b.spawn("Blue awake", 1, 1, team="blue", powers=["strike"])
        asleep = b.spawn("Blue asleep", 1, 3, team="blue", powers=["strike"], fatigue=5)
        red = b.spawn("Red", 10, 1, team="red", powers=["strike"])
        app = App(b, {"blue"}, computer_delay=0.5)
        order = b.turn_order()
        if order.index(red) + 1 != order.index(asleep):
            continue
        while b.current_actor != red:
            if app.flow.human_turn():
                app.handle(Key("space"))
            else:
                app.tick_clock(0.6)
        app.tick_clock(0.6)
        assert "Red " in app.ui.message and "Blue asleep cannot act: its turn passes" in app.ui.message, \
            app.ui.message
        return
    raise AssertionError("no seed where the sleeper comes right after the computer")


def test_a_computer_turn_the_team_watched_begin_is_named_though_it_ends_out_of_sight(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The orc beside the hero strikes and walks behind the wall: the log names it for the blow and
    says it goes out of sight, but the status bar, asking only where it stands after its turn, said
    "Someone unseen took a turn". Its turn is named as the log names it."""
    from game.ai.tactical_turn import Decision

    b, hero, orc = strike_and_walk_off()
    hit_and_run = Decision((("use_power", (orc, "strike"), {"target": hero}), ("move", (orc, 6, 0), {})), "hit and run")
    monkeypatch.setattr("game.ai.policy.decide", lambda *args: hit_and_run)
    app = App(b, {"blue"}, computer_delay=0.0)
    assert b.current_actor == orc and orc not in app.ui.hidden
    app.tick_clock(1.0)
    assert orc in app.ui.hidden and b.current_actor == hero
    assert app.ui.message.startswith("Orc acts"), app.ui.message
    assert "unseen" not in app.ui.message


def _refused_move(monkeypatch: pytest.MonkeyPatch, step_first: bool = False) -> tuple[App, int]:
    """The hit-and-run map with a red spy behind the wall at (8, 4), and the orc in plain sight
    ordered by the computer to walk onto the spy's square: the battle refuses the order (``step_first``:
    after a legal step to (4, 3), which stays issued)."""
    from game import ai
    from game.ai.tactical_turn import Decision

    b, _, orc = strike_and_walk_off()
    spy = b.spawn("Spy", 8, 4, team="red", powers=["strike"], initiative_bonus=-60)
    real = ai.decide

    def onto_the_spy(battle: Battle, entity: int, *args: object, **kwargs: object) -> Decision:
        if entity == orc:
            step = (("move", (orc, 4, 3), {}),) if step_first else ()
            return Decision((*step, ("move", (orc, 8, 4), {})), "onto the spy")
        return real(battle, entity, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("game.ai.policy.decide", onto_the_spy)
    app = App(b, {"blue"}, computer_delay=0.5)
    assert app.ui.shows(orc) and not app.ui.shows(spy)
    return app, orc


def test_a_refused_computer_order_names_no_square_nor_creature_the_team_does_not_see(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The battle's reason for refusing a computer creature's order is its own words: "cannot move to
    (8, 4): square (8, 4) is taken by another creature" told the person where an enemy out of its
    sight stands. The status bar says only that the order was refused."""
    app, orc = _refused_move(monkeypatch)
    assert app.flow.actor == orc
    app.tick_clock(0.6)
    assert "(8, 4)" not in app.ui.message and "taken" not in app.ui.message, app.ui.message
    assert "Orc waits: the rules refused its order" in app.ui.message, app.ui.message


def test_the_gm_view_reads_the_battles_reason_for_a_refused_computer_order(monkeypatch: pytest.MonkeyPatch) -> None:
    app, orc = _refused_move(monkeypatch)
    app.handle(Key("g"))
    app.tick_clock(0.6)
    assert "Orc cannot move to (8, 4): square (8, 4) is taken by another creature" in app.ui.message, app.ui.message
    assert "Orc: Orc" not in app.ui.message  # (the reason names the creature itself)


def test_a_computer_creature_that_acted_before_its_order_was_refused_is_not_said_to_wait(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The orc's step to (4, 3) was issued, its walk onto the spy refused: it stepped while the status bar
    said "Orc waits: the rules refused its order". The bar now says it acted, and still names nothing the
    team does not see; the GM view gives the battle's reason after it."""
    from components import Position

    app, orc = _refused_move(monkeypatch, step_first=True)
    app.tick_clock(0.6)
    assert app.flow.battle.get(orc, Position).square == (4, 3)
    assert "Orc acts; the rules refused one of its orders" in app.ui.message, app.ui.message
    assert "waits" not in app.ui.message and "(8, 4)" not in app.ui.message, app.ui.message

    app, orc = _refused_move(monkeypatch, step_first=True)
    app.handle(Key("g"))
    app.tick_clock(0.6)
    assert "Orc acts; then Orc cannot move to (8, 4): square (8, 4) is taken" in app.ui.message, app.ui.message
