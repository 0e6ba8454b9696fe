"""Fog of war on the map: the squares the person's team does not see are shaded, and an enemy out
of sight is drawn only as a dim mark where it was last seen.

Which squares are seen and who is hidden are the battle's answer, kept in the
:class:`game.render.ui.UiState` by the application (``game.play.fog``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from game.render import theme
from game.render.overlays import Overlays
from game.render.ui import UiState
from game.render.viewport import Viewport

TextFn = Callable[[str, str, theme.Colour], pygame.Surface]
#: how dark the unseen squares are drawn (alpha of black)
FOG_ALPHA = 150


def draw_fog(surface: pygame.Surface, view: Viewport, overlays: Overlays, ui: UiState,
             known: tuple[Any, pygame.Surface] | None = None) -> None:
    """Shade the squares out of the team's sight; ``known``, the map as the team knows it (without the
    lights and areas it did not see made: ``ui.unseen_sources``) and what it was drawn from, is what
    those squares show."""
    if ui.visible is None:
        return
    unseen = ~ui.visible
    if known is not None:
        known_layer = overlays.cutout_surface("fog terrain", known[1], unseen,
                                              (unseen.tobytes(), view.tile, known[0]), view)
        view.blit_world(surface, known_layer, overlays.bounds.get("fog terrain"))
    key = (unseen.tobytes(), view.tile)
    layer = overlays.mask_surface("fog", unseen, (0, 0, 0), FOG_ALPHA, key, view)
    view.blit_world(surface, layer, overlays.bounds.get("fog"))


def draw_ghosts(surface: pygame.Surface, view: Viewport, ui: UiState, colour_of: Callable[[int], theme.Colour],
                text: TextFn) -> None:
    """A dim ring and a "?" where each hidden enemy was last seen."""
    for entity in ui.hidden:
        square = ui.seen_at.get(entity)
        if square is None:
            continue
        centre = view.square_centre(*square)
        dim = tuple(c // 2 for c in colour_of(entity))
        pygame.draw.circle(surface, dim, centre, max(4, int(view.tile * 0.34)), 2)
        label = text("?", "small", theme.TEXT_DIM)
        surface.blit(label, label.get_rect(center=centre))


def visible_looks(looks: list[Any], ui: UiState) -> list[Any]:
    """The tokens the person may see (all of them in the GM view): besides those in sight, one out of
    sight now while the animation shows it on its way across squares in sight (``ui.motion``)."""
    if not ui.hidden:
        return looks
    walking = ui.motion.positions if ui.motion is not None else {}
    return [look for look in looks if look.entity not in ui.hidden or walking.get(look.entity) is not None]
