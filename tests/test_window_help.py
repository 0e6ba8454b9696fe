"""The help overlay and the README name the keys of rewind, hot reload and the stepped replay, and the
file Ctrl+S really writes."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from components import Position, Rules
from game import Battle
from game.content.scenario import load_scenario
from game.play import replay_window
from game.play.app import App
from game.render import panels
from game.render.inputs import Button, Click, Key
from tests.window_steps import drawn_texts

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_help_names_rewind_reload_and_the_real_save_path(pygame_display: None,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = load_scenario(ROOT / "assets/scenarios/keep.toml")
    battle, _ = scenario.build_with_ids()
    app = App(battle, frozenset(), scenario=scenario)
    assert app.ui.save_path == str(app.save_path) == str(Path("out/keep.save.json"))
    drawn: list[str] = []
    real = panels.draw_help

    def spy(surface: pygame.Surface, size: tuple[int, int], centre: tuple[int, int], texts: object,
            save_path: str = "", rules: object = None) -> None:
        drawn.append(save_path)
        real(surface, size, centre, texts, save_path, rules)  # type: ignore[arg-type]

    monkeypatch.setattr("game.render.view.draw_help", spy)
    app.open_window(screen=pygame.Surface((1100, 700)))
    app.handle(Key("f1"))
    app.draw()
    assert drawn == [str(app.save_path)]
    text = " ".join(line for line, _ in panels.HELP)
    assert "R: GM rewind" in text and "F5 / Ctrl+R: reload" in text and "{save}" in text
    assert "R: rewind" in panels.HINT and "F5: reload" in panels.HINT


def test_the_help_says_a_falls_cost_by_the_battles_own_rules(pygame_display: None,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    battle = Battle(seed=1, width=8, height=6, rules={"fall_ft_per_die": 5, "fall_die_sides": 4,
                                                      "soft_landing_divisor": 3})
    battle.spawn("Blue", 1, 1, team="blue")
    battle.spawn("Red", 6, 4, team="red")
    app = App(battle, frozenset({"blue"}))
    said: list[str] = []
    real = panels.draw_help

    def spy(surface: pygame.Surface, size: tuple[int, int], centre: tuple[int, int], texts: object,
            save_path: str = "", rules: Rules | None = None) -> None:
        said.append(panels.fall_words(rules or Rules()))
        real(surface, size, centre, texts, save_path, rules)  # type: ignore[arg-type]

    monkeypatch.setattr("game.render.view.draw_help", spy)
    app.open_window(screen=pygame.Surface((1100, 700)))
    app.handle(Key("f1"))
    app.draw()
    assert said == ["a drop of 5+ ft: 1d4 per full 5 ft (at most 50d4), soft: dice / 3"]
    assert panels.fall_words(Rules()) == "a drop of 10+ ft: 1d6 per full 10 ft (at most 50d6), soft halves"
    assert panels.fall_words(Rules(fall_max_dice=3)).startswith("a drop of 10+ ft: 1d6 per full 10 ft (at most 3d6)")
    assert panels.fall_words(Rules(fall_max_dice=0)) == "no fall hurts"


def test_the_readme_names_the_keys_and_the_save_path() -> None:
    assert "| R, then a round" in README and "| F5, Ctrl+R | hot reload" in README
    assert "`out/SCENARIO.save.json`" in README and "out/keep.save.json" in README
    for key in ("Left/Right", "Up/Down", "PageUp/PageDown", "Home/End", "Space plays and pauses"):
        assert key in README
    assert set(replay_window.STEPS) == {"left", "right", "up", "down", "page up", "page down"}


def test_the_help_tells_of_nothing_the_window_does_not_do() -> None:
    """Orders resolve at once: the help names no queued moves or powers, which the window never has."""
    text = " ".join(line for line, _ in panels.HELP)
    assert "queued" not in text and "Dashed line" in text


def test_the_readme_and_the_help_name_every_key_the_window_binds() -> None:
    """Tab (the next of your creatures) and Ctrl+Q (quit) act in the window: the README's table of
    inputs and the help must say so, as they do for the other keys."""
    from game.play import controls

    text = " ".join(line for line, _ in panels.HELP)
    assert "| Tab |" in README and "Tab: next of your creatures" in text
    for key, method in controls.CTRL_KEYS.items():
        assert f"Ctrl+{key.upper()}" in README and f"Ctrl+{key.upper()}" in text, (key, method)
    for key in controls.PLAIN_ACTIONS:
        assert {"space": "Space", "return": "Enter", "enter": "Enter", "u": "U", "g": "G"}[key] in README


def test_the_help_says_what_fatigue_knocks_a_creature_out_by_the_battles_own_rules(
        pygame_display: None) -> None:
    battle = Battle(seed=1, width=8, height=6, rules={"max_fatigue": 8, "unconscious_at_fatigue": 8,
                                                      "disadvantage_at_fatigue": 6})
    battle.spawn("Blue", 1, 1, team="blue")
    battle.spawn("Red", 6, 4, team="red")
    app = App(battle, frozenset({"blue"}))
    app.open_window(screen=pygame.Surface((1100, 700)))
    app.handle(Key("f1"))
    drawn = drawn_texts(app)
    pips = [line for line in drawn if line.startswith("Pips under a token")]
    assert pips == ["Pips under a token: fatigue (8 = unconscious)"]  # it said 5, the default, whatever the rules
    assert panels.fatigue_words(Rules()) == "5 = unconscious"


def test_a_click_or_a_button_over_the_help_only_closes_it() -> None:
    """Space does nothing over the help (it would play on unseen); End turn (the button) did, and a
    click on the map moved the creature under it."""
    battle = Battle(seed=1, width=10, height=6)
    hero = battle.spawn("Hero", 1, 1, team="blue", initiative_bonus=50)
    battle.spawn("Orc", 8, 4, team="red")
    app = App(battle, frozenset({"blue"}), computer_delay=0)
    assert battle.current_actor == hero
    app.handle(Key("f1"))
    app.handle(Button("end_turn"))
    assert battle.current_actor == hero and not app.ui.show_help
    app.handle(Key("f1"))
    app.handle(Click((3, 1), 1))
    assert battle.get(hero, Position).square == (1, 1) and not app.ui.show_help
    app.handle(Click((3, 1), 1))  # the help is closed: now the click moves
    assert battle.get(hero, Position).square == (3, 1)


def test_the_help_names_every_badge_by_the_letters_a_token_draws(pygame_display: None) -> None:
    """The help's badge lines name each condition of the rules a token wears a badge for, with the
    letters the token drawing code writes on it, and none it draws no badge for (dead is the whole
    token): read from what ``draw_token`` writes, not from the table the help is made from, so a change
    to either the drawing or the help is caught."""
    from components.rules import DERIVED_CONDITIONS, GRANTABLE_CONDITIONS
    from game.render.tokens import draw_token

    def written(conditions: frozenset[str]) -> list[str]:
        texts: list[str] = []

        def text(words: str, font: str, colour: object) -> pygame.Surface:
            texts.append(words)
            return pygame.Surface((4, 4))

        draw_token(48, (40, 90, 200), "Or", (7, 10), (1, 5), conditions, text)
        return texts

    bare = written(frozenset())
    drawn = set()
    for name in sorted(GRANTABLE_CONDITIONS | DERIVED_CONDITIONS):
        extra = [words for words in written(frozenset({name})) if words not in bare]
        assert len(extra) <= 1, (name, extra)
        drawn |= {f"{letters} {name}" for letters in extra}
    lines = [line for line, _ in panels.HELP]
    first = next(i for i, line in enumerate(lines) if line.startswith("Badges: "))
    told = lines[first].removeprefix("Badges: ").split("  ") + lines[first + 1].split("  ")
    assert "X dead" not in drawn and "P prone" in drawn, drawn
    assert sorted(told) == sorted(drawn), (told, drawn)


def test_a_right_click_cancels_the_power_as_esc_does_and_the_help_and_readme_say_so() -> None:
    """A right click drops the chosen power (then the selection) and closes the help, as Esc does;
    the help and the README named only Esc, so a player with a hand on the mouse did not know."""
    from game.render.inputs import RIGHT

    battle = Battle(seed=1, width=10, height=6)
    hero = battle.spawn("Hero", 1, 1, team="blue", powers=["strike"], initiative_bonus=50)
    battle.spawn("Orc", 8, 4, team="red")
    app = App(battle, frozenset({"blue"}), computer_delay=0)
    app.handle(Key("1"))
    assert app.ui.power is not None
    app.handle(Click((5, 5), RIGHT))
    assert app.ui.power is None and battle.get(hero, Position).square == (1, 1)
    app.handle(Key("f1"))
    app.handle(Click(None, RIGHT))
    assert not app.ui.show_help
    text = " ".join(line for line, _ in panels.HELP)
    assert "Esc / right click: cancel power / selection" in text and "right click: close this help" in text
    assert "| Esc, right click | cancel the power" in README
