"""``Battle(script_texts=...)`` keeps a copy of the texts: the battle runs what it was given.

It kept the caller's mapping and read a script from it when first used, so a caller that changed the
mapping after making the battle (to make the next one) changed the first battle's scripts too: its
reaction healed where the text it was given hurt.
"""

from __future__ import annotations

from components.events import Damaged, Healed
from game import Battle

HIT = "def on_turn_start(ctx, event):\n    ctx.damage(event['entity'], 1)\n"
HEAL = "def on_turn_start(ctx, event):\n    ctx.heal(event['entity'], 1)\n"


def test_texts_changed_after_the_battle_was_made_change_nothing() -> None:
    texts = {"tick.star": HIT}
    b = Battle(seed=1, width=6, height=3, script_texts=texts)
    hero = b.spawn("A", 0, 0, team="x", health=10)
    b.spawn("C", 3, 0, team="y", health=10)
    texts["tick.star"] = HEAL  # the caller prepares the next battle's texts
    b.attach_reaction("tick.star")
    b.start_combat()
    b.tick()
    assert [(e.entity, e.amount) for e in b.events if isinstance(e, Damaged)][:1] == [(hero, 1)]
    assert not [e for e in b.events if isinstance(e, Healed)]
