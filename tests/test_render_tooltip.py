"""The hover box beside a square: right of it, left of it at the map's right edge, and under (or
over) it when it is too wide for either side; never on the square it speaks of (a long line such as
"cannot move there: square (53, 31) is 235 ft away ..." slid over the hovered square)."""

from __future__ import annotations

import pygame
import pytest

from game.render import tooltip
from game.render.viewport import Viewport

pytestmark = pytest.mark.usefixtures("pygame_display")
MAP = pygame.Rect(0, 0, 920, 774)
BACK = (1, 2, 3)


def _drawn(square: pygame.Rect, width: int) -> pygame.Surface:
    surface = pygame.Surface(MAP.size)
    surface.fill(BACK)
    line = pygame.Surface((width, 14))
    line.fill((200, 200, 200))
    tooltip.box_beside(surface, Viewport(MAP, (76, 64), 12), square, [line])
    return surface


def test_a_narrow_box_goes_right_of_the_square_then_left_of_it_at_the_edge() -> None:
    surface = _drawn(pygame.Rect(100, 100, 56, 56), 200)
    assert tuple(surface.get_at((156 + 6 + 100, 110)))[:3] != BACK and tuple(surface.get_at((90, 110)))[:3] == BACK
    surface = _drawn(pygame.Rect(860, 100, 56, 56), 200)
    assert tuple(surface.get_at((860 - 6 - 100, 110)))[:3] != BACK


def test_a_box_too_wide_for_either_side_never_covers_its_square() -> None:
    for x in range(0, 920 - 12, 48):
        for y in (0, 300, 762):
            square = pygame.Rect(x, y, 12, 12)
            surface = _drawn(square, 640)
            covered = [(px, py) for px in range(square.left, square.right) for py in range(square.top, square.bottom)
                       if tuple(surface.get_at((px, py)))[:3] != BACK]
            assert not covered, (square, covered[:3])


def test_a_moves_box_leaves_in_view_the_square_its_walk_stops_on_and_its_path() -> None:
    """On the ledge, a walk off the 30 ft ledge to a square by the map's right edge: the box went left
    of the hovered square, over the square where the walk steps off and falls, and the path's end."""
    from pathlib import Path

    from game.content.scenario import load_scenario
    from game.play.app import App
    from game.render import hints
    from game.render.inputs import Hover, Key

    scenario = load_scenario(Path(__file__).resolve().parent.parent / "assets/scenarios/ledge.toml")
    app = App(scenario.build(), {"hill"}, scenario=scenario, computer_delay=0)
    window = app.open_window(screen=pygame.Surface((1280, 800)))
    app.handle(Key("return"))  # (the goblin slinger acts first)
    me = app.ui.selected
    assert me is not None and app.may_order(me)
    boxes: list[pygame.Rect] = []
    real = hints.box_beside

    def spy(*args: object, **kwargs: object) -> pygame.Rect:
        boxes.append(real(*args, **kwargs))  # type: ignore[arg-type]
        return boxes[-1]

    checked = 0
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(hints, "box_beside", spy)
        for x in range(7, app.battle.width):
            for y in range(app.battle.height):
                app.handle(Hover((x, y)))
                preview = app.ui.move_preview
                if preview is None or not preview.legal or preview.stops_at is None:
                    continue
                boxes.clear()
                app.draw()
                assert len(boxes) == 1
                kept = [preview.stops_at, *preview.path[1:]]
                assert boxes[0].collidelist([window.renderer.square_rect(*square) for square in kept]) < 0, (x, y)
                checked += 1
    assert checked >= 4  # walks off the ledge, to squares near the map's right edge among them


def test_a_refused_moves_box_does_not_cover_the_creature_asked_to_move() -> None:
    """A square too far away: the refusal's long line went left of it, across the map and over the
    creature whose turn it is."""
    from game.battle.facade import Battle
    from game.play.app import App
    from game.render import hints
    from game.render.inputs import Hover

    b = Battle(seed=1, width=16, height=12)
    hero = b.spawn("Hero", 2, 5, team="blue", powers=["strike"], initiative_bonus=100)
    b.spawn("Orc", 14, 10, team="red", powers=["strike"])
    app = App(b, {"blue"}, computer_delay=0)
    window = app.open_window(screen=pygame.Surface((1280, 800)))
    assert b.current_actor == hero and app.ui.selected == hero
    boxes: list[pygame.Rect] = []
    real = hints.box_beside

    def spy(*args: object, **kwargs: object) -> pygame.Rect:
        boxes.append(real(*args, **kwargs))  # type: ignore[arg-type]
        return boxes[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(hints, "box_beside", spy)
        for x in (12, 14, 15):
            app.handle(Hover((x, 5)))
            assert app.ui.move_preview is not None and not app.ui.move_preview.legal
            boxes.clear()
            app.draw()
            assert len(boxes) == 1 and not boxes[0].colliderect(window.renderer.square_rect(2, 5)), (x, boxes)
