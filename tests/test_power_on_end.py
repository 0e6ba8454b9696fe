"""A scripted power's on_end runs when its duration is over, after its grants are taken back."""

from __future__ import annotations

from pathlib import Path

from game import Battle
from game.content.powers import default_powers, parse_power


def test_on_end_runs_once_when_the_effect_ends_and_its_commands_resolve(tmp_path: Path) -> None:
    (tmp_path / "ward.star").write_text("def on_end(ctx):\n    ctx.heal(ctx.user, 3)\n")
    ward = parse_power("ward", {"name": "Ward", "description": "hidden for a round, then a little healing",
                                "targets": "self", "conditions": ["hidden"], "duration": 1,
                                "script": "ward.star"}, "test")
    b = Battle(seed=1, powers={**default_powers(), "ward": ward}, script_dir=tmp_path)
    user = b.spawn("u", 2, 2, health=10)
    b.damage(user, 5)
    b.use_power(user, "ward")
    b.tick()
    assert "hidden" in b.conditions(user)
    b.tick()  # the duration ends at the end of this round: hidden goes, and on_end's heal resolves
    assert "hidden" not in b.conditions(user)
    kinds = [e.kind for e in b.events]
    assert kinds.count("effect_ended") == 1
    assert kinds.index("effect_ended") < kinds.index("healed") < len(kinds) - 1  # before the round ends
    healed = [e for e in b.events if e.kind == "healed"]
    assert len(healed) == 1 and healed[0].amount == 3 and healed[0].health == 8
    b.tick()
    assert len([e for e in b.events if e.kind == "healed"]) == 1
