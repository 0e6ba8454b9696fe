"""Helpers shared by the power tests (test_powers.py and test_power_*.py): a custom power, the
default power table with extras, and a creature's hit points (events of one kind: tests.event_steps)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from components import Health
from game import Battle
from game.content.powers import default_powers, parse_power

#: The shipped ledge scenario's text, which the scenario-folder tests edit into packs of their own.
LEDGE = (Path(__file__).resolve().parent.parent / "assets" / "scenarios" / "ledge.toml").read_text(encoding="utf-8")

#: A scenario's own power file holding one power, a longbow (the archers' shot in those packs).
LONGBOW = textwrap.dedent('''
    [longbow]
    name = "Longbow"
    description = "A long shot."
    action = "action"
    range_ft = 90
    targets = "enemy"
    attack = { bonus = 2 }
    damage = "1d8+1"
''')


def custom(power_id: str, **table) -> object:
    return parse_power(power_id, {"name": power_id.title(), "description": "test power", **table}, "test")


def powers(*extra) -> dict:
    table = dict(default_powers())
    table.update({p.id: p for p in extra})
    return table


def hp(b: Battle, e: int) -> int:
    return b.get(e, Health).current
