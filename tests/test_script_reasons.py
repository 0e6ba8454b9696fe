"""A script's failure reason never carries a control character into a log line or a terminal.

A ``fail()`` message is the script's own text: before, ``fail("\\x1b[2J")`` in a stranger's script
put a raw ESC into the combat log, ``battles.csv`` and the terminal that ``play --headless`` and
``simulate`` print to (clearing it, colouring it, or forging a log line). The reason now spells such
a character as an escape, in both hosts, and everything built from it (the ScriptFailed event, the
log line, the simulation's note) reads the same.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from components.events import ScriptFailed
from game import Battle
from game.battle.log import describe
from game.scripting import InProcessHost, ScriptError, WorkerHost

HOSTILE = 'def f(ctx):\n    fail("boom\\x1b[31m\\x00\\x07red")\n'


def test_a_fail_message_is_spelt_without_control_characters_in_process() -> None:
    host = InProcessHost()
    host.load("evil.star", HOSTILE)
    with pytest.raises(ScriptError, match=r"boom\\x1b\[31m\\x00\\x07red") as info:
        host.call("evil.star", "f", ({},))
    assert str(info.value).isprintable()


def test_the_worker_spells_it_the_same() -> None:
    with WorkerHost() as host:
        host.load("evil.star", HOSTILE)
        with pytest.raises(ScriptError, match=r"boom\\x1b\[31m\\x00\\x07red") as info:
            host.call("evil.star", "f", ({},))
    assert str(info.value).isprintable()


def test_a_load_failure_is_spelt_so_too() -> None:
    with pytest.raises(ScriptError, match=r"top\\x1b\[2J") as info:
        InProcessHost().load("evil.star", 'fail("top\\x1b[2J")\n')
    assert str(info.value).isprintable()


def test_readable_leaves_ordinary_text_and_unicode_alone() -> None:
    from game.scripting.errors import readable

    assert readable("ctx.damage: 1.5 is not whole; é ✓") == "ctx.damage: 1.5 is not whole; é ✓"
    assert readable("a\nb\tc") == "a\\nb\\tc"
    assert readable("win\u202eniw") == "win\\u202eniw"  # a right-to-left override turns the line around


def test_the_battles_log_line_is_one_printable_line(tmp_path: Path) -> None:
    (tmp_path / "evil.star").write_text('def on_turn_start(ctx, event):\n    fail("x\\n\\x1b[2JRound 9: forged")\n')
    with Battle(seed=1, width=6, height=3, script_dir=tmp_path, trusted_scripts=False) as b:
        b.spawn("A", 0, 0, team="a")
        b.spawn("B", 4, 0, team="b")
        b.attach_reaction("evil.star")
        b.start_combat()
        b.tick()
        failed = [e for e in b.events if isinstance(e, ScriptFailed)]
        assert failed and all(e.reason.isprintable() for e in failed)
        line = describe(b, failed[0])
    assert line.isprintable() and "\\x1b[2JRound 9: forged" in line


def test_the_host_spells_every_character_a_name_may_not_hold() -> None:
    """The stand-alone host keeps its own copy of what a name refuses (it may not import components):
    the two lists must not drift apart, or a reason could carry what a name may not."""
    from components.values import unprintable
    from game.scripting.errors import readable

    for code in [*range(0x20), 0x7F, 0x85, 0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]:
        ch = chr(code)
        assert unprintable(ch) is not None and readable(ch) != ch, hex(code)
