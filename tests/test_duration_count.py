"""How a power's ``duration`` is counted: through that many rounds after the round of its use (Dazzle's
2, used in round 1, ends as round 3 ends). The README said only "a duration in rounds", and a designer
reading Blind's ``duration = 1`` as "this round" saw it last a round more; it says how now."""

from __future__ import annotations

from pathlib import Path

from components.events import EffectEnded
from game import Battle

README = Path(__file__).resolve().parents[1] / "README.md"


def test_a_duration_runs_through_that_many_rounds_after_the_use_as_the_readme_says() -> None:
    b = Battle(seed=7, width=10, height=4)
    mage = b.spawn("Mage", 0, 0, team="x", powers=["dazzle"], initiative_bonus=50)
    foe = b.spawn("Foe", 5, 1, team="y", health=50)
    b.start_combat()
    b.use_power(mage, "dazzle", target=foe)  # (seed 7: the save fails)
    b.tick()
    assert "dazzled" in b.conditions(foe) and b.effects()[0]["ends_after_round"] == 3
    b.tick()
    assert "dazzled" in b.conditions(foe)
    b.tick()
    assert "dazzled" not in b.conditions(foe)
    assert [e.round for e in b.events if isinstance(e, EffectEnded)] == [3]
    text = " ".join(README.read_text(encoding="utf-8").split())
    assert "`duration = 2` used in round 1 ends as round 3 ends" in text
