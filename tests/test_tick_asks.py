"""Whom ``tick`` asks for orders, as its docstring says: every creature's turn but the dead's and the
unconscious's (it said "each living creature's turn", and an unconscious creature is alive)."""

from __future__ import annotations

from game import Battle


def test_the_controller_is_asked_for_the_downed_and_not_the_unconscious():
    b = Battle(seed=5, width=8, height=8)
    up = b.spawn("Up", 1, 1, team="a")
    down = b.spawn("Down", 2, 1, team="a", health=5)
    out = b.spawn("Out", 5, 5, team="b", fatigue=5)
    b.damage(down, 5)
    b.tick()
    assert b.is_alive(out) and "unconscious" in b.conditions(out) and "downed" in b.conditions(down)
    asked: list[int] = []
    b.tick(controller=lambda battle, actor: asked.append(actor))
    assert sorted(asked) == [up, down]
