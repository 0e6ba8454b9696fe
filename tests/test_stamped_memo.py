"""What the battle keeps for a turn (``game.battle.memo``) is asked again whenever the battle changes.

The planner's threats keep each enemy's reading (powers, walk, sight, fatigue, bonus) while the
battle's stamp holds. Every way the battle can change under them must show in the answers: a new
power table, a trusted system's phase, a restore, a GM command.
"""

from __future__ import annotations

import dataclasses

import esper
import pytest

from components import Cover, Movement
from game import Battle, IllegalCommand


def duel() -> tuple[Battle, int, int]:
    b = Battle(seed=8, width=10, height=6)
    me = b.spawn("Me", 1, 1, team="a", powers=["strike"])
    foe = b.spawn("Foe", 4, 1, team="b", powers=["strike"], speed=5)
    b.start_combat()
    return b, me, foe


def fresh_answer(b: Battle, me: int, square: tuple[int, int] = (1, 1)) -> float:
    """The threat on ``square`` worked out with nothing kept (the menaces kept by what they read too)."""
    b.memo.forget()
    b.memo.lasting["menaces"].clear()
    return b.threat(me, square).expected


def test_a_new_power_table_is_seen_at_once() -> None:
    b, me, foe = duel()
    before = b.threat(me, (3, 1)).expected
    strike = b.power("strike")
    b.powers = {**b.powers, "strike": dataclasses.replace(strike, attack_bonus=strike.attack_bonus + 10)}
    after = b.threat(me, (3, 1)).expected
    assert after > before
    b.memo.forget()
    assert b.threat(me, (3, 1)).expected == after


def test_the_power_table_cannot_be_replaced_once_a_power_was_used() -> None:
    """A replay gives every use the table the battle has: a use under an older one would replay apart."""
    b = Battle(seed=8, width=6, height=3)
    me = b.spawn("Me", 1, 1, team="a", powers=["strike"])
    foe = b.spawn("Foe", 2, 1, team="b", powers=["strike"])
    b.start_combat()
    actor = b.begin_round()
    b.use_power(actor, "strike", target=foe if actor == me else me)
    b.resolve_orders()
    strike = b.power("strike")
    with pytest.raises(IllegalCommand, match="before the battle's first use of a power"):
        b.powers = {**b.powers, "strike": dataclasses.replace(strike, attack_bonus=strike.attack_bonus + 10)}
    assert b.power("strike") is strike


def test_the_power_table_cannot_be_changed_in_place() -> None:
    b, _, _ = duel()
    with pytest.raises(TypeError, match="does not support item assignment"):
        b.powers["strike"] = b.power("shoot")  # type: ignore[index]


def test_a_trusted_system_that_changes_a_creature_is_seen() -> None:
    """A processor of trusted Python's may change anything in any phase it runs in, a query's too."""
    b, me, foe = duel()

    class Haste(esper.Processor):
        def process(self, phase: object, actor: object = None) -> None:
            esper.component_for_entity(foe, Movement).speed_ft = 30

    b.add_system(Haste(), priority=0)
    assert b.threat(me, (1, 1)).expected == 0.0  # the foe walks 5 ft: it cannot reach (1, 1); now kept
    b.get(me, Cover)  # a query whose phase (cover worked out) lets the trusted system run: the foe hastens
    assert b.get(foe, Movement).speed_ft == 30
    assert b.threat(me, (1, 1)).expected == fresh_answer(b, me) > 0.0


def test_a_restore_forgets_what_was_kept() -> None:
    """After a restore the same stamp may stand for another history: a dazzled foe's threat, kept,
    must not answer for a prone one reached by as many events."""
    b, me, foe = duel()
    start = b.snapshot()
    b.add_condition(foe, "dazzled")
    dazzled = b.threat(me, (3, 1)).expected
    b.restore(start)
    b.add_condition(foe, "prone")
    prone = b.threat(me, (3, 1)).expected
    assert prone == fresh_answer(b, me, (3, 1))
    assert prone != dazzled


def test_an_attack_chance_by_its_parts_outlasts_the_stamp() -> None:
    """A chance is a function of its parts and the rules alone (a battle keeps its rules for its whole
    life): its table is the same one in every stamp's answers, and after a restore's forgetting."""
    b, me, _ = duel()
    b.threat(me, (3, 1))
    first = b.memo.table(b.state)
    chances = first["attack_chances"]
    assert chances  # the foe's strike at (3, 1)
    b.begin_round()
    later = b.memo.table(b.state)
    assert later is not first and later["attack_chances"] is chances
    b.memo.forget()
    assert b.memo.table(b.state)["attack_chances"] is chances
    assert b.threat(me, (3, 1)).expected == fresh_answer(b, me, (3, 1))


def test_a_menace_outlasts_the_stamp_while_what_it_reads_holds() -> None:
    """An enemy's menace is kept by all it reads: a new stamp in which the foe is as it was finds it
    again; a foe dazzled or moved (what its sight and square read) is read anew."""
    b, me, foe = duel()
    before = b.threat(me, (3, 1)).expected
    menaces = b.memo.table(b.state)["menaces"]
    assert len(menaces) == 1
    b.begin_round()  # a new stamp, the foe unchanged
    assert b.threat(me, (3, 1)).expected == before and len(menaces) == 1
    b.add_condition(foe, "dazzled")
    dazzled = b.threat(me, (3, 1)).expected
    assert len(menaces) == 2 and dazzled == fresh_answer(b, me, (3, 1)) != before
    while b.current_actor != foe:
        b.end_turn()
    b.move(foe, 5, 1)
    b.resolve_orders()
    moved = b.threat(me, (3, 1)).expected
    assert len(menaces) == 2 and moved == fresh_answer(b, me, (3, 1))  # (the dazzled foe where it stood, and moved)
    assert len(menaces) == 1  # (the fresh answer's own, alone)
