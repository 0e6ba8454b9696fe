"""What the log says of a creature's height and of a reaction's effects: a knight standing on a 20 ft
hill was logged "20 ft up" (a flier's words) and one in a pit "-20 ft up"; the light a reaction
script made ended as "#-1's script ends"."""

from __future__ import annotations

from pathlib import Path

from game import Battle
from game.battle.log import format_events
from game.content.scenario import load_scenario
from tests.scenario_steps import two_sided


def _entered(ground: float) -> str:
    b = Battle(seed=1, width=4, height=3)
    b.set_ground(1, 1, ground)
    b.spawn("Knight", 1, 1, team="a")
    [line] = [line for line in format_events(b, b.events) if "enters" in line]
    return line


def test_a_creature_on_a_hill_enters_at_its_height_not_up() -> None:
    line = _entered(20)
    assert line.endswith("Knight (a) enters at (1, 1), at height 20 ft") and " up" not in line


def test_a_creature_in_a_pit_enters_at_a_height_below_level() -> None:
    assert _entered(-20).endswith("Knight (a) enters at (1, 1), at height -20 ft")


def test_a_creature_on_level_ground_says_no_height() -> None:
    assert _entered(0).endswith("Knight (a) enters at (1, 1)")




def test_what_a_reaction_script_made_ends_without_a_creature_number(tmp_path: Path) -> None:
    """A reaction has no user: the light it made ended as "#-1's script ends (duration over)"."""
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "glow.star").write_text('def on_round_end(ctx, event):\n'
                                                    '    ctx.create_light(2, 1, 5, "poor", 1)\n')
    (tmp_path / "light.toml").write_text(two_sided("Reaction light", 'reactions = ["glow.star"]'))
    battle = load_scenario(tmp_path / "light.toml").build(seed=3)
    try:
        battle.start_combat()
        battle.run(3)
        lines = format_events(battle, battle.events)
    finally:
        battle.close()
    ended = [line for line in lines if " ends (" in line]
    assert ended and all("What a reaction script made ends (duration over)" in line for line in ended)
    assert not any("#-1" in line for line in lines)


def test_a_use_is_logged_with_the_aim_its_power_reads() -> None:
    """``use_power(mage, "fly", target=friend)`` flies the mage; the log said "Mage uses Fly on Friend".
    A point given a strike is left out alike; the event still records the aim as given."""
    b = Battle(seed=2, width=8, height=4)
    mage = b.spawn("Mage", 1, 1, team="a", powers=["fly", "strike", "fireball"], initiative_bonus=50)
    friend = b.spawn("Friend", 1, 2, team="a")
    foe = b.spawn("Foe", 2, 1, team="b")
    b.start_combat()
    b.begin_round()
    assert b.current_actor == mage
    b.use_power(mage, "fly", target=friend)
    b.use_power(mage, "strike", target=foe, point=(6, 3))
    b.resolve_orders()
    used = [line for line in format_events(b, b.events) if " uses " in line]
    assert used[:2] == ["Round 1: Mage uses Fly", "Round 1: Mage uses Strike on Foe"]
    assert [e.target for e in b.events if e.kind == "power_used"][:1] == [friend]


def test_a_save_names_the_number_it_is_rolled_against() -> None:
    """A save read "West blinker saves against Blind: 19 = 19 vs 14": an attack names its "Defense",
    a save now its "DC"."""
    from components.events import SaveRolled

    b = Battle(seed=1, width=4, height=3)
    blinker = b.spawn("Blinker", 1, 1, team="a")
    event = SaveRolled(round=1, entity=blinker, power="blind", roll=19, mode="normal", total=19, dc=14, success=True)
    [line] = format_events(b, [event])
    assert line.endswith("Blinker saves against Blind: 19 = 19 vs DC 14"), line
