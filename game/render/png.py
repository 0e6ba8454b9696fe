"""Writing a drawn surface to a PNG file whole, or saying why not.

``pygame.image.save`` to a path reports nothing when the disk is full (the file is left short or
empty): the picture is encoded in memory instead and written by the project's atomic writer, so a
failure is an ``OSError``, and an old picture of the same name is left as it was.
"""

from __future__ import annotations

import io
from pathlib import Path

import pygame

from game.content.atomic import atomic_write


def save_png(surface: pygame.Surface, path: str | Path) -> None:
    """Write ``surface`` to ``path`` as PNG.

    Raises:
        OSError: the file cannot be written; an old file of that name is left as it was, and no temporary.
    """
    buffer = io.BytesIO()
    try:
        pygame.image.save(surface, buffer, "picture.png")
    except pygame.error as err:  # the encoder's own failure (out of memory): told as a write that failed
        raise OSError(f"cannot encode the picture ({err})") from None
    atomic_write(Path(path), buffer.getvalue())
