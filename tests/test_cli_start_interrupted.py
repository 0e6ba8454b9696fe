"""A Ctrl+C while ``python -m game`` is still importing its command line (about half a second) says it
was interrupted and exits 130, as a Ctrl+C once a command runs does; it ended on a bare
``KeyboardInterrupt`` traceback from deep inside the imports (the review of stop 54)."""

from __future__ import annotations

import importlib.abc
import runpy
import sys
from collections.abc import Sequence
from types import ModuleType

import pytest


class _CtrlCOnImport(importlib.abc.MetaPathFinder):
    """Raises KeyboardInterrupt as ``game.play.cli`` is imported: the key pressed at that moment."""

    def find_spec(self, name: str, path: Sequence[str] | None, target: ModuleType | None = None) -> None:
        if name == "game.play.cli":
            raise KeyboardInterrupt
        return None


def test_a_ctrl_c_while_starting_says_so_and_exits_130(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delitem(sys.modules, "game.play.cli", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_CtrlCOnImport(), *sys.meta_path])
    try:
        runpy.run_module("game", run_name="__main__")
    except KeyboardInterrupt:  # (caught here: let through, it would stop the whole test run)
        pytest.fail("the Ctrl+C came out of python -m game as a bare KeyboardInterrupt")
    except SystemExit as ended:
        assert ended.code == 130
    else:
        pytest.fail("python -m game went on after a Ctrl+C while starting")
    assert "interrupted while starting" in capsys.readouterr().err
