"""pygame-ce drawing and the window: the only package of the project that imports pygame.

``Renderer`` draws a battle into any surface (a window or an off-screen one for screenshots and
tests); ``Window`` opens the display, turns pygame's events into the plain values of
:mod:`game.render.inputs` and shows frames. What those inputs mean is decided by the application in
``game.play.app``. The package reads battles but never changes one.

Names are loaded on first use (PEP 562), so the plain modules (``theme``, ``ui``, ``inputs``) can be
imported without loading pygame.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

# pygame greets on stdout when imported: that line would open every headless combat log printed there
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

if TYPE_CHECKING:
    from game.render.ui import UiState
    from game.render.view import Renderer
    from game.render.window import Window

#: public name -> the module that defines it
_PUBLIC: Mapping[str, str] = MappingProxyType({
    "Renderer": "game.render.view",
    "UiState": "game.render.ui",
    "Window": "game.render.window",
})

__all__ = ["Renderer", "UiState", "Window"]


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'game.render' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
