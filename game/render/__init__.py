"""pygame-ce rendering and the playable window: the only package of the project that imports pygame.

``Renderer`` draws a battle into any surface (a window or an off-screen one for screenshots and
tests); ``App`` adds input, the computer's side and saving on top of it.
"""

from game.render.app import App
from game.render.view import Renderer, UiState

__all__ = ["App", "Renderer", "UiState"]
