"""Golden image: the first frame of the ledge scenario, as the window shows it to its human side,
matches ``tests/golden/ledge-first-frame.png`` within a small tolerance for font rendering.

The frame is drawn by the window application itself (off-screen, SDL's dummy driver), so a change
to any layer (terrain, light, tokens, panels, the turn strip, the status bar) shows here. Fonts
are pygame's bundled one, but its anti-aliasing may differ by a shade between builds, so the test
allows a mean difference of at most ``MEAN_MAX`` per channel and at most ``FRACTION_MAX`` of the
pixels differing by more than ``PIXEL_STEP`` in any channel.

When a change to the picture is meant (a new layer, other colours), look at the new frame and
regenerate the golden file::

    GOLDEN_IMAGES=regenerate SDL_VIDEODRIVER=dummy .venv/bin/python -m pytest tests/test_golden_image.py

(the test then writes the file and is skipped; commit the PNG with the change that made it).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pygame
import pytest

from game.play import demo
from game.play.app import App

GOLDEN = Path(__file__).resolve().parent / "golden" / "ledge-first-frame.png"
SCENARIO = demo.DEMO_SCENARIO.with_name("ledge.toml")
SIZE = (960, 600)
MEAN_MAX = 1.5
PIXEL_STEP = 48
FRACTION_MAX = 0.005

pytestmark = pytest.mark.usefixtures("pygame_display")


def first_frame(path: Path) -> np.ndarray:
    """The ledge's first frame written to ``path``, as an (x, y, rgb) array."""
    loaded = demo.load(SCENARIO, human=True)
    app = App(loaded.battle, loaded.human_teams, loaded.team_colours, loaded.scenario, loaded.build_commands,
              seed=1, title=loaded.title, powers=loaded.powers)
    window = app.open_window(SIZE, offscreen=True)
    app.animate()
    window.screenshot(str(path), app.ui)
    return pygame.surfarray.array3d(pygame.image.load(str(path))).astype(np.int16)


def test_the_ledges_first_frame_matches_the_golden_image(tmp_path: Path) -> None:
    frame = first_frame(tmp_path / "frame.png")
    if os.environ.get("GOLDEN_IMAGES") == "regenerate":
        GOLDEN.write_bytes((tmp_path / "frame.png").read_bytes())
        pytest.skip(f"regenerated {GOLDEN.name}")
    golden = pygame.surfarray.array3d(pygame.image.load(str(GOLDEN))).astype(np.int16)
    assert frame.shape == golden.shape
    diff = np.abs(frame - golden)
    mean = float(diff.mean())
    differing = float((diff.max(axis=2) > PIXEL_STEP).mean())
    assert mean <= MEAN_MAX and differing <= FRACTION_MAX, (
        f"the first frame differs from {GOLDEN.name}: mean {mean:.2f} per channel (at most {MEAN_MAX}), "
        f"{differing:.2%} of pixels by more than {PIXEL_STEP} (at most {FRACTION_MAX:.1%}); if the change "
        "is meant, regenerate it (see the docstring)")


def test_the_comparison_notices_a_real_change(tmp_path: Path) -> None:
    """The tolerance is for anti-aliasing, not for a missing token: one token's square repainted fails."""
    golden = pygame.surfarray.array3d(pygame.image.load(str(GOLDEN))).astype(np.int16)
    changed = golden.copy()
    changed[100:160, 100:160] = (255, 0, 255)  # a 60 px square painted over
    diff = np.abs(changed - golden)
    assert float(diff.mean()) > MEAN_MAX or float((diff.max(axis=2) > PIXEL_STEP).mean()) > FRACTION_MAX
