"""The selected creature's powers say how far each reaches and what it covers: a cone, a line or a
burst around the user is not a blow ("self/reach" said the same of all of them)."""

from __future__ import annotations

import pytest

from game.battle.facade import Battle
from game.render.odds import reach_words


@pytest.mark.parametrize(("power", "words"), [
    ("fireball", "60 ft, burst 10 ft"),
    ("darkness", "60 ft, 10 ft radius"),
    ("burning-hands", "cone 15 ft"),
    ("lightning", "line 30 ft"),
    ("sanctuary-light", "burst 10 ft around it"),
    ("fly", "self"),
    ("shoot", "60 ft"),
])
def test_each_kind_of_power_is_told_apart(power: str, words: str) -> None:
    b = Battle(seed=1, width=4, height=4)
    assert reach_words(b.power(power), b.rules.square_ft) == words


def test_a_blow_without_a_range_reaches_the_next_square() -> None:
    from dataclasses import replace

    b = Battle(seed=1, width=4, height=4, rules={"square_ft": 10})
    blow = replace(b.power("strike"), range_ft=None)
    assert reach_words(blow, b.rules.square_ft) == "reach 10 ft"


@pytest.mark.usefixtures("pygame_display")
def test_the_side_panel_lists_the_powers_with_those_words(monkeypatch: pytest.MonkeyPatch) -> None:
    import pygame

    from game.render import Renderer, UiState
    from game.render.draw import Texts

    drawn: list[str] = []
    plain = Texts.__call__

    def spy(self: Texts, string: str, *args: object) -> pygame.Surface:
        drawn.append(string)
        return plain(self, string, *args)

    monkeypatch.setattr(Texts, "__call__", spy)
    b = Battle(seed=1, width=8, height=6)
    mage = b.spawn("Mage", 1, 1, team="blue", powers=["burning-hands", "lightning", "sanctuary-light"])
    b.spawn("Orc", 6, 4, team="red")
    renderer = Renderer(b, (1100, 700))
    renderer.draw(pygame.Surface((1100, 700)), UiState(selected=mage, human_teams={"blue"}))
    assert {"1  Burning hands  (cone 15 ft)", "2  Lightning  (line 30 ft)",
            "3  Sanctuary light  (burst 10 ft around it)"} <= set(drawn)


@pytest.mark.parametrize(("power", "aim"), [
    ("shoot", "a creature for the odds"),
    ("fireball", "a square for whom it catches and the odds"),
    ("burning-hands", "a square for whom it catches and the odds"),
    ("darkness", "a square for what it does"),
    ("blink", "a square for what it does"),
])
def test_choosing_a_power_says_what_to_hover(power: str, aim: str) -> None:
    """Every power aimed by the mouse said "hover a target for the odds": a darkness or a blink has
    neither a target nor odds, and is aimed at a square."""
    from game.play.app import App
    from game.render.inputs import Key

    b = Battle(seed=1, width=12, height=8)
    b.spawn("Mage", 1, 1, team="blue", powers=[power], initiative_bonus=50)
    b.spawn("Orc", 9, 6, team="red", powers=["strike"])
    app = App(b, {"blue"}, computer_delay=0)
    app.handle(Key("1"))
    assert app.ui.message == f"{b.power(power).name}: hover {aim}, click to use it (Esc to cancel)"
