"""Shared test setup: headless SDL, and esper's module-level worlds reset after every test.

esper 3 keeps its worlds in module state; a test that leaves worlds behind (a Battle it never
closed, a world it switched to) must not leak into the next one. Like esper's own
tests/test_world.py, switch back to "default", delete every other world and clear the database.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

# Set before anything can import pygame, so renderer tests never open a window or a sound device.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # the project root, so `import game` works without an install
    sys.path.insert(0, str(ROOT))

import esper  # noqa: E402
import pytest  # noqa: E402


def reset_esper() -> None:
    """Back to a fresh esper: only the "default" world, and it empty."""
    esper.switch_world("default")
    for name in list(esper.list_worlds()):
        if name != "default":
            esper.delete_world(name)
    esper.clear_database()


@pytest.fixture(autouse=True)
def _fresh_esper():
    """Every test starts and ends with esper holding only an empty "default" world."""
    yield
    reset_esper()


@pytest.fixture(autouse=True, scope="session")
def _headless_sdl():
    """Force the dummy SDL drivers for the whole session (renderer tests run without a display)."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    yield


@pytest.fixture
def pygame_display():
    """pygame's display and fonts, up for one test and down after it (the window and renderer tests,
    on the dummy driver the session forces)."""
    import pygame

    pygame.display.init()
    pygame.font.init()
    yield
    pygame.quit()


@pytest.fixture
def battle():
    """A 16x16 battle with seed 1, closed after the test."""
    from game import Battle

    b = Battle(seed=1, width=16, height=16)
    yield b
    b.close()  # idempotent


@pytest.fixture(scope="module")
def _one_warm_worker():
    """One spawned pool worker for a test module's tests, started once (each start imports the game
    afresh: seconds under load, more than the two battles most command tests play). Module scope,
    not session: the pool's manager thread is gone before another module runs, so no test that
    forks (the golden test's fork pool) forks a process with that thread alive."""
    from game.sim.engines import pool_executor

    pool = pool_executor(1)
    yield pool
    pool.shutdown(wait=True, cancel_futures=True)


@pytest.fixture
def warm_pool(_one_warm_worker, monkeypatch):
    """A warm one-worker pool for tests of what a run does with its battles, not of the pool itself:
    ``simulate(..., executor=warm_pool)`` plays on it, and so does the ``simulate`` command
    (``game.sim.cli.main``), which otherwise spawns a pool of its own each run. Only for runs whose
    battles neither kill nor stall a worker, and none that need a hook module the worker imports:
    the worker was started before the test, and it serves the tests after it. The tests of pools
    (recycling, a dying worker, Ctrl+C stopping the workers) start their own."""
    import functools

    from game.sim import cli
    from game.sim.simulate import simulate

    monkeypatch.setattr(cli, "simulate", functools.partial(simulate, executor=_one_warm_worker))
    return _one_warm_worker
