"""``Battle.supposing``: forecasts as a granted condition would leave the battle, without changing it.

The planner weighs blinding and dazzling powers by the threats as if the enemy had the condition.
Whichever way the battle answers (in place, or on a snapshot when something else waits to settle),
the answers must be the ones a real grant gives, and the battle after the question exactly as before.
"""

from __future__ import annotations

import esper
import pytest

from components import Conditions, Vision
from game import Battle, IllegalCommand


def skirmish() -> tuple[Battle, int, int, int]:
    """An archer and a fighter against an archer, in combat, in the open and behind a wall."""
    b = Battle(seed=5, width=12, height=8)
    b.add_wall(6, 3)
    archer = b.spawn("Archer", 2, 3, team="blue", powers=["shoot"])
    fighter = b.spawn("Fighter", 5, 5, team="blue", powers=["strike"])
    foe = b.spawn("Foe", 9, 3, team="red", powers=["shoot", "strike"])
    b.start_combat()
    return b, archer, fighter, foe


def answers(b: Battle, foe: int, friends: list[int]) -> list[tuple[float, tuple[object, ...]]]:
    """What the foe could do to each friend, and they to it, where they stand (the planner's duel)."""
    found = [(t.expected, t.sources) for f in friends for t in b.threats(f, [b.square_of(f)], [foe])]
    found += [(t.expected, t.sources) for t in b.threats(foe, [b.square_of(foe)], friends)]
    return found


def granted_for_real(b: Battle, foe: int, friends: list[int], condition: str) -> list[tuple[float, tuple[object, ...]]]:
    before = b.snapshot()
    try:
        b.add_condition(foe, condition)
        return answers(b, foe, friends)
    finally:
        b.restore(before)


@pytest.mark.parametrize("condition", [
    "blinded", "dazzled", "restrained", "prone", "slowed", "surprised", "flying", "hidden"])
def test_supposing_answers_as_a_real_grant_and_changes_nothing(condition: str) -> None:
    b, archer, fighter, foe = skirmish()
    friends = [archer, fighter]
    expected = granted_for_real(b, foe, friends, condition)
    events, log = list(b.events), list(b.command_log)
    conditions = esper.component_for_entity(foe, Conditions)
    granted, active, level = dict(conditions.granted), conditions.active, b.get(foe, Vision).level
    with b.supposing(foe, condition):
        assert condition in b.conditions(foe)
        assert answers(b, foe, friends) == expected
    assert b.events == events and b.command_log == log
    assert conditions.granted == granted and conditions.active == active and b.get(foe, Vision).level == level
    assert condition not in b.conditions(foe)


def test_blinding_changes_the_answers() -> None:
    """The what-if is not a no-op: a blinded archer shoots at nothing and is flat-footed."""
    b, archer, fighter, foe = skirmish()
    plain = answers(b, foe, [archer, fighter])
    with b.supposing(foe, "blinded"):
        assert "flat-footed" in b.conditions(foe)
        blind = answers(b, foe, [archer, fighter])
    assert blind != plain
    assert sum(e for e, _ in blind[:2]) < sum(e for e, _ in plain[:2])  # it strikes less


def test_a_trusted_system_in_the_gm_phase_takes_the_snapshot_way() -> None:
    """A processor of the caller's may react to a grant as only the real settling pass shows: then the
    battle grants it for real on a snapshot, and still restores everything."""
    b, archer, fighter, foe = skirmish()
    seen: list[object] = []

    class Watcher(esper.Processor):
        def process(self, phase: object, actor: object = None) -> None:
            seen.append(phase)

    b.add_system(Watcher(), priority=0)
    expected = granted_for_real(b, foe, [archer, fighter], "blinded")
    seen.clear()
    events = list(b.events)
    with b.supposing(foe, "blinded"):
        assert answers(b, foe, [archer, fighter]) == expected
    assert seen, "the grant settled through the real GM phase"
    assert b.events == events and "blinded" not in b.conditions(foe)


def test_the_dead_stay_as_they_are() -> None:
    b, archer, fighter, foe = skirmish()
    b.damage(foe, 500)
    for _ in range(6):
        b.damage(foe, 1)
    b.tick()
    assert "dead" in b.conditions(foe)
    before = b.conditions(foe)
    with b.supposing(foe, "blinded"):
        assert b.conditions(foe) == before
    assert b.conditions(foe) == before


def test_supposing_refuses_what_add_condition_refuses() -> None:
    b, archer, _, foe = skirmish()
    with pytest.raises(IllegalCommand, match="follows from Health and Fatigue"):
        with b.supposing(foe, "downed"):
            pass
    with pytest.raises(IllegalCommand, match="unknown condition"):
        with b.supposing(foe, "sleepy"):
            pass


@pytest.mark.parametrize("trusted_system", [False, True])
def test_no_command_may_be_issued_inside_the_block(trusted_system: bool) -> None:
    """A command inside would be undone with the grant (or, in place, outlive a state that never was):
    refused, either way, and the battle after the block is as it was."""
    b, archer, fighter, foe = skirmish()
    if trusted_system:  # the snapshot way
        b.add_system(type("Watcher", (esper.Processor,), {"process": lambda self, *a: None})(), priority=0)
    events, log = list(b.events), list(b.command_log)
    with b.supposing(fighter, "flying"):
        with pytest.raises(IllegalCommand, match="no command may be issued inside a supposing block"):
            b.move(fighter, 6, 5)
        with pytest.raises(IllegalCommand, match="inside a supposing block"):
            b.add_condition(foe, "prone")
    assert b.events == events and b.command_log == log and "flying" not in b.conditions(fighter)
    b.move(fighter, 6, 5)  # and after it, commands are taken again


def melee() -> tuple[Battle, list[int], list[int]]:
    """Two against three, in combat, with powers of every kind the threats read (attacks at range and
    in reach, a save), so each side's menaces, walks, saves and chances all land in the memo."""
    b = Battle(seed=7, width=12, height=8)
    b.add_wall(6, 3)
    blue = [b.spawn("Archer", 2, 3, team="blue", powers=["shoot", "fireball"]),
            b.spawn("Fighter", 5, 5, team="blue", powers=["strike"])]
    red = [b.spawn("Foe", 9, 3, team="red", powers=["shoot", "strike"]),
           b.spawn("Brute", 7, 5, team="red", powers=["strike"]),
           b.spawn("Mage", 10, 6, team="red", powers=list(b.powers))]
    b.start_combat()
    return b, blue, red


def every_threat(b: Battle, blue: list[int], red: list[int]) -> list[tuple[float, tuple[object, ...]]]:
    """The threats on every creature where it stands, from all its enemies and from each alone."""
    asked = [b.threats_where_they_stand(blue + red)]
    asked += [b.threats_where_they_stand(blue + red, [e]) for e in blue + red]
    return [(t.expected, t.sources) for found in asked for t in found]


@pytest.mark.parametrize("side", ["blue", "red"])
@pytest.mark.parametrize("condition", [
    "blinded", "dazzled", "restrained", "prone", "slowed", "surprised", "flying", "hidden"])
def test_answers_kept_into_the_what_if_are_a_real_grants(condition: str, side: str) -> None:
    """The memo's answers taken into the block (the threats asked just before it) give what a real
    grant gives, for a creature of either side."""
    b, blue, red = melee()
    for entity in blue if side == "blue" else red:
        before = b.snapshot()
        try:
            b.add_condition(entity, condition)
            expected = every_threat(b, blue, red)
        finally:
            b.restore(before)
        plain = every_threat(b, blue, red)  # the memo, full of answers for the battle as it is
        with b.supposing(entity, condition):
            assert every_threat(b, blue, red) == expected
        assert every_threat(b, blue, red) == plain
