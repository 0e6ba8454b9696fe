"""The tactical player weighs a scripted power aimed at a square that has no area of its own (a light,
a darkness or fog, a blink, each with a script that adds to it) without failing: such a power is
one of the README's aims (``range_ft`` with ``light``, ``area_effect`` or ``teleport``) and may name a
script, and a stranger's scenario that gives one to a creature must play, not end every battle with
an AttributeError from inside the planner."""

from __future__ import annotations

from pathlib import Path

import pytest

from game import ai
from game.battle.facade import Battle
from tests.power_steps import custom, powers


@pytest.mark.parametrize("shape", [
    {"light": {"radius_ft": 5, "level": "normal"}},
    {"area_effect": {"radius_ft": 5, "level": "poor"}},
    {"teleport": True},
])
def test_a_scripted_point_power_without_an_area_is_planned(tmp_path: Path, shape: dict[str, object]):
    (tmp_path / "zap.star").write_text("def on_use(ctx):\n    ctx.damage(ctx.user, 0)\n", encoding="utf-8")
    zap = custom("zap", action="action", range_ft=30, script="zap.star", **shape)
    with Battle(seed=5, width=8, height=4, powers=powers(zap), script_dir=tmp_path) as b:
        me = b.spawn("a1", 0, 0, team="a", powers=["strike", "zap"], initiative_bonus=50)
        foe = b.spawn("b1", 3, 0, team="b", powers=["strike"])
        b.start_combat()
        b.begin_round()
        assert b.current_actor == me
        decision = ai.decide(b, me, "tactical")  # raised AttributeError: a point aim's area was read
        for name, args, kwargs in decision.commands:
            getattr(b, name)(*args, **kwargs)
        b.end_turn()  # its orders, whatever they were, were legal and resolved
        assert b.current_actor == foe
