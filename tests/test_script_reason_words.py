"""A script's failure reason keeps the script's own words when they hold control characters: the
escapes that spell them (``\\x1b``, ``\\u202e``) were read as the backslashes of a Windows path, whose
folders a reason drops (a log must read the same wherever the scenario is stored), so
``fail("\\x1b[31mred\\u202e")`` was logged as ``fail: u202e``. A folder is still dropped."""

from __future__ import annotations

from pathlib import Path

import pytest

from components.events import ScriptFailed
from game import Battle


def _reason(folder: Path, body: str) -> str:
    (folder / "s.star").write_text(f"def on_turn_start(ctx, event):\n    {body}\n", encoding="utf-8")
    with Battle(seed=1, width=8, height=8, script_dir=folder) as battle:
        battle.spawn("A", 1, 1, team="x")
        battle.spawn("C", 5, 5, team="y")
        battle.attach_reaction("s.star")
        battle.start_combat()
        battle.tick()
        return next(e.reason for e in battle.events if isinstance(e, ScriptFailed))


@pytest.mark.parametrize(("body", "said"), [
    (r"fail('\x1b[31mred\u202e')", r"fail: \x1b[31mred\u202e"),
    (r"fail('see \x1b[2J and \x07 too')", r"fail: see \x1b[2J and \x07 too"),
    ("fail('cannot read /home/someone/maps/x.star')", "fail: cannot read x.star"),
    (r"fail('in /tmp/bad\x01dir/s.star')", "fail: in s.star"),  # (a folder's control character, escaped)
    (r"fail('at C:\\Users\\me\\s.star')", "fail: at s.star"),
])
def test_a_reason_keeps_its_words_and_drops_folders(tmp_path: Path, body: str, said: str) -> None:
    assert _reason(tmp_path, body) == f"s.star:2 in on_turn_start: {said}"
