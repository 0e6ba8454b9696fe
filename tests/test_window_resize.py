"""The window follows its size: a window manager that maximises or tiles it, or a person dragging its
edge, gets a frame laid out for the new size (it used to keep drawing into the surface of the old
size, and pygame crashed with a segmentation fault when the window grew)."""

from __future__ import annotations

import pygame
import pytest

from game.battle.facade import Battle
from game.render import Renderer, UiState, Window, theme
from game.render.inputs import Button, Click
from game.render.notice import draw_banner
from game.render.panels import SIDEBAR_W, STATUS_H, draw_help, draw_status
from game.render.tooltip import box_beside, line_surfaces
from game.render.view import MIN_SIZE

pytestmark = pytest.mark.usefixtures("pygame_display")


def _resize(window: Window, size: tuple[int, int]) -> None:
    """What SDL does when the window manager resizes a resizable window, then the event it sends."""
    pygame.display.set_mode(size, pygame.RESIZABLE)
    assert window.translate(pygame.event.Event(pygame.VIDEORESIZE, w=size[0], h=size[1], size=size)) is None


@pytest.mark.filterwarnings("ignore:Please use Window.get_surface:DeprecationWarning")
def test_the_game_window_is_resizable_and_has_a_minimum_size() -> None:
    with Battle(width=16, height=12) as b:
        Window(b, size=(1280, 800))
        assert pygame.display.get_surface().get_flags() & pygame.RESIZABLE
        assert tuple(pygame.Window.from_display_module().minimum_size) == MIN_SIZE


def test_a_grown_window_lays_the_frame_out_for_its_new_size() -> None:
    with Battle(width=16, height=12) as b:
        b.spawn("Hero", 3, 4, team="blue")
        window = Window(b, size=(1000, 640))
        _resize(window, (1500, 950))
        r = window.renderer
        assert window.screen.get_size() == (1500, 950) and r.size == (1500, 950)
        assert r.map_rect.size == (1500 - SIDEBAR_W, 950 - STATUS_H)
        # a click lands on the square drawn under it, at the new tile size
        centre = r.square_centre(3, 4)
        assert window.translate(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=centre, button=1)) == Click((3, 4))
        window.draw(UiState())
        # the side panel is drawn at the new right edge, and the map where the old frame's panel was
        assert window.screen.get_at((1500 - SIDEBAR_W + 4, 4))[:3] == theme.PANEL
        assert r.square_at((700, 300)) is not None and window.screen.get_at((700, 300))[:3] != theme.PANEL


def test_a_window_made_smaller_than_the_minimum_keeps_the_minimum_layout() -> None:
    with Battle(width=16, height=12) as b:
        window = Window(b, size=(1000, 640))
        _resize(window, (300, 200))
        assert window.renderer.size == MIN_SIZE
        assert window.renderer.map_rect.w == MIN_SIZE[0] - SIDEBAR_W


def test_an_off_screen_window_ignores_the_displays_resizes() -> None:
    with Battle(width=16, height=12) as b:
        pygame.display.set_mode((1280, 800))
        window = Window(b, screen=pygame.Surface((1000, 640)))
        _resize(window, (1500, 950))
        assert window.screen.get_size() == (1000, 640) and window.renderer.size == (1000, 640)


def test_the_help_and_the_end_banner_stay_whole_in_the_smallest_window() -> None:
    with Battle(width=16, height=12) as b:
        b.spawn("Hero", 3, 4, team="blue")
        renderer = Renderer(b, MIN_SIZE)
        frame = pygame.Surface(MIN_SIZE)
        whole = frame.get_rect()
        for save in ("out/keep.save.json", "out/a_scenario_folder_with_a_long_name-skirmish.save.json"):
            help_box = draw_help(frame, MIN_SIZE, renderer.map_rect.center, renderer.texts, save)
            assert whole.contains(help_box), help_box
        banner = draw_banner(frame, renderer.map_rect, "Red won in round 5 - you lose", renderer.texts)
        assert whole.contains(banner) and banner.w > renderer.map_rect.w
        # drawn in a frame, the band is not cut at the map's edge: it covers part of the side panel
        plain, ended = pygame.Surface(MIN_SIZE), pygame.Surface(MIN_SIZE)
        renderer.draw(plain, UiState())
        renderer.draw(ended, UiState(banner="Red won in round 5 - you lose"))
        beyond = [(x, y) for x in range(renderer.map_rect.right + 2, banner.right - 2, 3)
                  for y in range(banner.top + 2, banner.bottom - 2, 3)]
        assert any(plain.get_at(p) != ended.get_at(p) for p in beyond)


def test_a_hover_box_in_the_smallest_window_wraps_its_lines_to_the_map() -> None:
    with Battle(width=16, height=12) as b:
        renderer = Renderer(b, MIN_SIZE)
        view = renderer.view
        long = "cannot move there: square (15, 11) is 90 ft away around the walls and it has 30 ft of movement left"
        assert renderer.texts.fonts["small"].size(long)[0] > view.map_rect.w  # it would not fit unwrapped
        surfaces = line_surfaces([(long, theme.TEXT)], renderer.texts, view)
        assert len(surfaces) > 1 and all(s.get_width() <= view.map_rect.w - 24 for s in surfaces)
        box = box_beside(pygame.Surface(MIN_SIZE), view, view.square_rect(8, 6), surfaces)
        assert view.map_rect.contains(box), box


def test_a_long_status_message_wraps_upward_instead_of_running_under_the_speed_label() -> None:
    with Battle(width=16, height=12) as b:
        renderer = Renderer(b, (1280, 800))
        frame = pygame.Surface((1280, 800))
        refusal = ("Load refused: out/mine-keep.save.json is a save of /home/designer/projects/castle/mine/keep.toml, "
                   "this window plays /home/designer/projects/siege/mine/keep.toml (another file named 'The keep')")
        small = renderer.texts.fonts["small"]
        assert small.size(refusal)[0] > 1280 - 300  # it ran under the speed label
        bar = draw_status(frame, (1280, 800), refusal, renderer.texts, reserve=300)
        assert bar.bottom == 800 and bar.h > STATUS_H
        assert draw_status(frame, (1280, 800), "Saved to out/keep.save.json", renderer.texts, reserve=300).h == STATUS_H
        small_window = Renderer(b, MIN_SIZE)
        frame = pygame.Surface(MIN_SIZE)
        small_window.draw(frame, UiState(message=refusal))  # a whole frame: the bar rises over the map
        assert frame.get_at((4, MIN_SIZE[1] - STATUS_H - 4))[:3] == (16, 17, 22)


def test_a_click_on_a_grown_status_bar_goes_to_no_square() -> None:
    """The bar grown by a long message covers the map's bottom rows: a click on it went to a square
    hidden under it."""
    with Battle(width=60, height=60) as b:
        b.spawn("Hero", 3, 4, team="blue")
        window = Window(b, size=MIN_SIZE)
        r = window.renderer
        refusal = "Load refused: " + "/home/designer/projects/castle/mine/keep.toml " * 4
        window.draw(UiState(message=refusal))
        bar = r.status_bar
        assert bar.h > STATUS_H and bar.bottom == MIN_SIZE[1]
        on_bar = (bar.x + 40, bar.y + 2)
        assert r.view.square_at(on_bar) is not None  # a square of the map lies under the bar
        assert window.translate(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=on_bar, button=1)) is None
        window.draw(UiState(message="Saved"))  # a short message: the bar shrinks, the map is clickable again
        assert r.status_bar.h == STATUS_H and r.square_at(on_bar) is not None


def test_a_long_status_message_in_the_smallest_window_leaves_the_buttons_whole_and_clickable() -> None:
    """At 700x560 a long refusal grew the status bar over the whole window's width: End turn, Skip
    wait, Undo and GM view were drawn over and a click on one pressed nothing."""
    from game.render.panels import button_rects

    with Battle(width=16, height=12) as b:
        b.spawn("Hero", 3, 4, team="blue")
        size = (700, 560)
        window = Window(b, screen=pygame.Surface(size))
        names = ("end_turn", "skip", "undo", "gm_view")
        plain = pygame.Surface(size)
        window.renderer.draw(plain, UiState(buttons=names))
        refusal = "Load refused: " + "/home/designer/projects/castle/mine/keep.toml " * 3
        ui = UiState(buttons=names, message=refusal)
        window.draw(ui)
        bar = window.renderer.status_bar
        assert bar.h > STATUS_H and bar.bottom == size[1]  # grown over the map
        for name, rect in button_rects(size, names).items():
            assert not bar.colliderect(rect), (name, rect, bar)
            assert window.renderer.button_at(rect.center, names) == name
            assert window.translate(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.center, button=1)) \
                == Button(name)
            # the button is drawn as it is without the message
            assert all(window.screen.get_at((x, rect.centery)) == plain.get_at((x, rect.centery))
                       for x in range(rect.x, rect.right, 3))
