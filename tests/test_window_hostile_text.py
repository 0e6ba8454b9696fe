"""A stranger's text in the window: pygame's font raises on a NUL (ValueError) and on a folder name's
non-UTF-8 byte (a lone surrogate, UnicodeEncodeError), so each string the window measures or draws
is escaped first, as the command line's lines are: a failed reload of a scenario in a folder named
with byte 0xff stopped the next frame."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pygame
import pytest

from game.content.scenario import load_scenario
from game.play.app import App
from game.render.draw import Texts, wrap
from game.render.inputs import Key

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ["seed\udcff.toml", "a\x00b", "\x1b[2J cleared", "\u202eright to left", "plain"]

pytestmark = pytest.mark.usefixtures("pygame_display")


@pytest.mark.parametrize("text", HOSTILE)
def test_every_string_is_measured_wrapped_and_drawn(text: str) -> None:
    texts = Texts()
    surface = texts(text)
    assert surface.get_width() > 0
    lines = wrap(f"{text} " * 20, texts.fonts["body"], 120)
    assert len(lines) > 1 and all(texts.fonts["body"].size(line)[0] <= 120 for line in lines)


def test_a_failed_reload_in_a_folder_with_a_non_utf8_name_is_drawn(tmp_path: Path) -> None:
    folder = Path(os.fsdecode(bytes(tmp_path) + b"/win\xffdir"))
    folder.mkdir()
    shutil.copy(ROOT / "assets" / "scenarios" / "ledge.toml", folder / "ledge.toml")
    scenario = load_scenario(folder / "ledge.toml")
    battle, _ = scenario.build_with_ids()
    app = App(battle, frozenset(), scenario=scenario)
    window = app.open_window(screen=pygame.Surface((1000, 640)))
    try:
        (folder / "ledge.toml").write_text("broken = [")
        app.handle(Key("f5"))
        assert app.ui.message.startswith("Reload failed") and "\udcff" in app.ui.error
        app.draw()  # raised UnicodeEncodeError from the font before
    finally:
        window.close()
