"""The window plays turns in initiative order: the person's creature acts when its turn comes (a move
and a power in either order), End turn (Space or the button) passes, the computer's creatures act
one at a time (one per delay, Enter for all at once), the turn strip shows who acts now and next,
and the banner and the status bar agree when the battle ends. Driven under SDL's dummy driver."""

from __future__ import annotations

import pygame
import pytest

from components import Position
from components.events import AttackRolled, Moved, TurnStarted
from game.battle.facade import Battle
from game.play.app import App
from game.render import theme
from game.render.inputs import Click, Hover, Key
from game.render.panels import button_rects

SIZE = (1100, 700)


pytestmark = pytest.mark.usefixtures("pygame_display")


def _squad(seed: int) -> tuple[Battle, list[int], list[int]]:
    b = Battle(seed=seed, width=12, height=8)
    mine = [b.spawn(f"Blue {i}", 1, 1 + 2 * i, team="blue", powers=["strike"]) for i in range(2)]
    theirs = [b.spawn(f"Red {i}", 10, 1 + 2 * i, team="red", powers=["strike"]) for i in range(2)]
    return b, mine, theirs


def _turns(b: Battle) -> list[int]:
    return [e.entity for e in b.events if isinstance(e, TurnStarted)]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_every_creature_acts_in_initiative_order_and_the_persons_wait_for_them(seed: int) -> None:
    b, mine, _ = _squad(seed)
    app = App(b, {"blue"}, computer_delay=0.5)
    order = b.turn_order()
    for _ in range(len(order)):
        actor = b.current_actor
        if actor in mine:
            assert app.ui.selected == actor and app.flow.human_turn()
            app.tick_clock(10.0)  # the computer never plays the person's creature, however long it waits
            assert b.current_actor == actor
            app.handle(Key("space"))
        else:
            while app.motion.walking:  # the last creature's walk ends first (the computer steps to squares)
                app.tick_clock(0.05)
            before = len(b.command_log)
            app.tick_clock(0.3)
            assert b.current_actor == actor and len(b.command_log) == before  # not yet: the delay
            app.tick_clock(0.3)
            assert b.current_actor != actor  # one computer turn, then the next creature's
    assert _turns(b)[:len(order)] == order
    assert b.round == 1 and b.current_actor is None  # the round ended; the clock begins the next
    app.tick_clock(1.0)
    assert b.round == 2 and b.current_actor == b.turn_order()[0]


def test_enter_plays_the_computers_turns_at_once_up_to_the_persons() -> None:
    for seed in range(1, 8):
        b, mine, theirs = _squad(seed)
        app = App(b, {"blue"})
        order = b.turn_order()
        first_mine = min(order.index(e) for e in mine)
        app.handle(Key("return"))
        assert b.current_actor == order[first_mine] and app.ui.selected == b.current_actor
        assert _turns(b) == order[:first_mine + 1]  # the computer's creatures before it all acted


def test_a_move_then_a_power_and_a_power_then_a_move_in_one_turn() -> None:
    for power_first in (False, True):
        b = Battle(seed=1, width=10, height=5)
        hero = b.spawn("Hero", 1, 2, team="blue", powers=["strike"])
        b.spawn("Foe", 2 if power_first else 4, 2, team="red", prepared=False, health=40)
        app = App(b, {"blue"})
        app.handle(Key("return"))
        assert b.current_actor == hero
        steps = [("power", (2, 2) if power_first else (4, 2)), ("move", (1, 3) if power_first else (3, 2))]
        for kind, square in (reversed(steps) if not power_first else steps):
            if kind == "move":
                app.handle(Click(square))
                assert b.get(hero, Position).square == square
            else:
                app.handle(Key("1"))
                app.handle(Hover(square))
                assert app.ui.forecast is not None and app.ui.forecast.legal
                app.handle(Click(square))
                assert any(isinstance(e, AttackRolled) and e.entity == hero for e in b.events)
        assert b.current_actor == hero  # still its turn, until it ends it
        app.handle(Key("space"))
        assert b.current_actor != hero


def test_the_end_turn_button_passes_and_orders_out_of_turn_are_refused() -> None:
    b, mine, theirs = _squad(3)
    app = App(b, {"blue"})
    window = app.open_window(screen=pygame.Surface(SIZE))
    app.handle(Key("return"))
    actor = b.current_actor
    assert actor in mine
    other = next(e for e in mine if e != actor)
    app.handle(Click(b.get(other, Position).square))  # select the one whose turn it is not
    app.handle(Click((5, 5)))
    assert b.get(other, Position).square != (5, 5) and "Not Blue" in app.ui.message
    app.draw()
    end = button_rects(SIZE, app.ui.buttons)["end_turn"]
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=end.center, button=1))
    app.handle_inputs()
    assert b.current_actor != actor and _turns(b)[-1] != actor
    window.close()


def test_the_turn_strip_outlines_who_acts_now_and_names_who_is_next() -> None:
    b, mine, _ = _squad(4)
    app = App(b, {"blue"})
    window = app.open_window(screen=pygame.Surface(SIZE))
    app.handle(Key("return"))
    app.draw()
    assert app.ui.actor == b.current_actor and list(app.ui.up_next) == b.turns_left()
    panel_x = window.renderer.map_rect.right
    chips = window.renderer.side.chips
    for e, rect in chips.items():
        edge = tuple(window.screen.get_at((panel_x + rect.centerx, rect.top)))[:3]
        assert (edge == theme.ACCENT) == (e == b.current_actor), b.name(e)


def _hero_fells_the_foe(human_teams: set[str]) -> tuple[App, Battle, int]:
    """Blue's hero strikes red's one foe down on the first turn, in a window where ``human_teams`` play."""
    b = Battle(seed=4, width=8, height=4)
    hero = b.spawn("Hero", 1, 1, team="blue", powers=["strike"], attack_bonus=30)
    foe = b.spawn("Foe", 2, 1, team="red", powers=["strike"], health=1, defense=1, prepared=False)
    app = App(b, human_teams)
    app.handle(Key("return"))
    assert b.current_actor == hero
    app.handle(Key("1"))
    app.handle(Click((2, 1)))
    assert not b.can_act(foe)
    return app, b, foe


def test_the_banner_and_the_status_bar_agree_when_the_battle_ends() -> None:
    app, b, foe = _hero_fells_the_foe({"blue"})
    assert app.ui.banner == "Blue won in round 1 - you win"
    assert app.ui.message == app.ui.banner
    assert app.ui.actor is None and app.ui.up_next == ()  # the fallen foe is not "now" in the turn strip
    app.handle(Key("space"))  # nothing more to play: the flow stops, and both still say so
    assert app.flow.over() and app.ui.message == app.ui.banner
    assert not any(isinstance(e, Moved) and e.entity == foe for e in b.events)


def test_once_the_banner_is_up_a_hover_leaves_what_the_persons_keys_said() -> None:
    """Every refresh wrote the banner's words into the status bar again: after the battle was decided,
    R's rewind prompt went at the next move of the mouse (the picker still open), as did "Saved to"."""
    app, b, foe = _hero_fells_the_foe({"blue"})
    assert app.ui.message == app.ui.banner
    app.handle(Key("r"))
    prompt = app.ui.message
    assert app.picker.active and prompt.startswith("GM rewind"), prompt
    app.handle(Hover((5, 2)))
    app.handle(Hover((6, 2)))
    assert app.ui.message == prompt and app.picker.active
    app.handle(Key("escape"))
    app.handle(Key("g"))
    app.handle(Hover((5, 1)))
    assert app.ui.message == "GM view: everything shown" and app.ui.banner == "Blue won in round 1 - you win"


@pytest.mark.parametrize("step", ["clock", "enter"])
def test_the_computers_turn_that_decides_the_battle_leaves_the_banners_words_in_the_status_bar(step: str) -> None:
    """The step's own line ("Orc acts", "The computer played 1 turn") was told after the refresh that
    raised the banner, and stayed under it."""
    b = Battle(seed=4, width=8, height=4)
    b.spawn("Hero", 1, 1, team="blue", powers=["strike"], health=1, defense=1)
    orc = b.spawn("Orc", 2, 1, team="red", powers=["strike"], attack_bonus=50, initiative_bonus=100)
    app = App(b, {"blue"}, computer_delay=0.0)
    assert b.current_actor == orc
    for _ in range(5):
        if app.ui.banner:
            break
        app.tick_clock(1.0) if step == "clock" else app.handle(Key("return"))
    assert app.ui.banner == "Red won in round 1 - you lose"
    assert app.ui.message == app.ui.banner, app.ui.message


def test_a_save_made_on_your_creatures_turn_loads_back_at_that_turn(tmp_path) -> None:
    from game.play import demo

    loaded = demo.load("assets/scenarios/ledge.toml", human=True)
    app = App(loaded.battle, loaded.human_teams, loaded.team_colours, loaded.scenario, loaded.build_commands,
              powers=loaded.powers, save_path=tmp_path / "ledge.json")
    app.handle(Key("return"))
    actor, square = app.battle.current_actor, app.battle.get(app.battle.current_actor, Position).square
    assert app.flow.human_turn()
    app.handle(Key("s", ctrl=True))
    app.handle(Key("space"))
    app.handle(Key("return"))
    assert app.battle.current_actor != actor
    app.handle(Key("l", ctrl=True))
    b = app.battle
    assert app.ui.message.startswith("Loaded") and b.current_actor == actor and app.ui.selected == actor
    assert b.get(actor, Position).square == square and app.flow.human_turn()


def test_the_persons_turn_prompt_follows_what_the_computer_just_did() -> None:
    """When the computer's turns end on one of the person's creatures, the status bar says both what
    the computer did and whose turn it is now, by the clock or by Enter."""
    for key in (False, True):
        for seed in range(1, 12):
            b, _, _ = _squad(seed)
            app = App(b, {"blue"}, computer_delay=0.1)
            if app.flow.human_turn():
                continue
            while not app.flow.human_turn():
                if key:
                    app.handle(Key("return"))
                else:
                    app.tick_clock(1.0)
            name = b.display_name(b.current_actor)
            assert f"{name}'s turn" in app.ui.message, app.ui.message
            assert ("The computer played" if key else "Red ") in app.ui.message, app.ui.message
            break
        else:
            raise AssertionError("no seed where the computer acts first")


def test_enter_on_the_persons_turn_says_whose_turn_it_is() -> None:
    """Enter has nothing to play while one of the person's creatures acts: it says so and plays nothing."""
    b, _, _ = _squad(1)
    app = App(b, {"blue"})
    app.handle(Key("return"))
    actor, log = b.current_actor, len(b.command_log)
    app.handle(Key("return"))
    assert b.current_actor == actor and len(b.command_log) == log
    assert f"{b.display_name(actor)}'s turn" in app.ui.message and "0 turns" not in app.ui.message


def test_the_keypads_digits_choose_powers_and_its_enter_plays_the_computers_turns() -> None:
    """pygame names the keypad's keys "[1]" and "enter": a digit typed there chose no power, and its
    Enter did not play the computer's turns, though the rewind picker read both."""
    b = Battle(seed=2, width=10, height=6)
    hero = b.spawn("Hero", 1, 2, team="blue", powers=["strike", "shoot"], initiative_bonus=50)
    orc = b.spawn("Orc", 8, 2, team="red", powers=["strike"])
    app = App(b, {"blue"}, computer_delay=0)
    assert b.current_actor == hero
    app.handle(Key("[2]"))
    assert app.ui.power == "shoot", app.ui.message
    app.handle(Key("escape"))
    app.handle(Key("space"))
    assert b.current_actor == orc
    app.handle(Key("enter"))
    assert b.current_actor != orc and app.ui.message.startswith("The computer played 1 turn"), app.ui.message


def test_a_hot_seat_banner_names_the_winner_without_telling_both_players_they_won() -> None:
    """Two human teams at one window: "Blue won ... - you win" was said to red's player too."""
    app, _, _ = _hero_fells_the_foe({"blue", "red"})
    assert app.ui.banner == "Blue won in round 1"


@pytest.mark.parametrize(("rounds", "said"), [(1, "round 1"), (2, "rounds 1-2")])
def test_the_start_says_in_which_rounds_the_persons_surprised_creatures_cannot_use_powers(rounds: int,
                                                                                         said: str) -> None:
    """The rules' count of surprised rounds (``surprise_rounds``), not one: under 2 the window said
    "cannot use powers in round 1", and the scout could not use one in round 2 either."""
    b = Battle(seed=1, width=8, height=4, rules={"surprise_rounds": rounds})
    scout = b.spawn("Scout", 1, 1, team="blue", powers=["strike"], prepared=False)
    b.spawn("Foe", 6, 1, team="red", powers=["strike"])
    app = App(b, {"blue"})
    assert app.ui.message == f"Surprised: Scout cannot use powers in {said}"
    while b.current_actor is not None:  # round 1 played out: the scout still surprised only under 2
        b.end_turn()
    assert ("surprised" in b.conditions(scout)) is (rounds == 2)


def test_a_click_on_the_map_with_nobody_selected_says_whom_to_click() -> None:
    """A right click (or Esc) lets go of the creature whose turn it is; the next click on an empty
    square, to move it, did nothing and said nothing."""
    from game.render.inputs import RIGHT

    b = Battle(seed=1, width=10, height=6)
    hero = b.spawn("Hero", 1, 1, team="blue", powers=["strike"], initiative_bonus=50)
    b.spawn("Orc", 8, 4, team="red", powers=["strike"])
    app = App(b, {"blue"}, computer_delay=0)
    assert b.current_actor == hero and app.ui.selected == hero
    app.handle(Click((5, 5), RIGHT))
    assert app.ui.selected is None
    app.handle(Click((3, 3)))
    assert app.ui.message == "Nobody is selected: click Hero first to give it orders"
    assert b.get(hero, Position).square == (1, 1)
    app.handle(Click((1, 1)))
    app.handle(Click((3, 3)))
    assert b.get(hero, Position).square == (3, 3)
