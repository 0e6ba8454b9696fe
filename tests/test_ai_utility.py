"""The tactical player's powers that deal no damage (light, darkness, fog, flight, blink), weighed by
trying them on the battle itself: on fixed boards it uses them where they change the odds, and the
trying leaves the battle exactly as it was. Fixed boards and seeds, no timing."""

from __future__ import annotations

import hashlib
import pickle
from typing import Any

import pytest

from components.events import AttackRolled, Fell
from game import ai
from game.battle.facade import Battle


def _uses(decision: ai.Decision) -> list[str]:
    return [args[1] for name, args, _ in decision.commands if name == "use_power"]


def _play(b: Battle, decision: ai.Decision) -> None:
    for name, args, kwargs in decision.commands:  # every command is legal in the order given
        getattr(b, name)(*args, **kwargs)


def state_hash(b: Battle) -> str:
    """Everything a snapshot keeps, the dice included, as one hash (a plan must leave it as it was)."""
    snap = b.snapshot()
    parts = (sorted(snap.components.items()), sorted((k, repr(v)) for k, v in snap.state.items()),
             snap.rng, snap.round, list(b.command_log))
    return hashlib.sha256(pickle.dumps(repr(parts))).hexdigest()


def chasm(fx: int, powers: list[str], foe_powers: tuple[str, ...] = ("strike",)) -> tuple[Battle, int, int]:
    """Two plateaus 20 ft up, a chasm (x 5..7) between them that stops walkers but not fliers."""
    b = Battle(seed=2, width=16, height=7)
    for x in range(16):
        for y in range(7):
            if x in (5, 6, 7):
                b.set_terrain(x, y, blocks=["movement", "pushes"])
            else:
                b.set_ground(x, y, 20)
    me = b.spawn("flier", fx, 3, team="a", powers=powers, initiative_bonus=20)
    foe = b.spawn("foe", 10, 3, team="b", powers=list(foe_powers), health=8)
    b.start_combat()
    b.begin_round()
    return b, me, foe


def test_a_creature_cut_off_by_a_chasm_flies_over_it_and_strikes():
    b, me, foe = chasm(3, ["fly", "strike"])
    decision = ai.decide(b, me, "tactical")
    assert _uses(decision) == ["fly", "strike"], decision.why
    _play(b, decision)
    b.end_turn()
    assert b.square_of(me)[0] > 7 and any(e.target == foe for e in b.events if isinstance(e, AttackRolled))


def test_a_flight_never_ends_over_the_chasm_where_it_would_fall():
    for fx in (0, 1):  # too far to cross in one flight
        b, me, _ = chasm(fx, ["fly", "strike"])
        decision = ai.decide(b, me, "tactical")
        _play(b, decision)
        b.end_turn()
        assert not any(isinstance(e, Fell) for e in b.events), decision.why
        assert b.square_of(me)[0] not in (5, 6, 7), decision.why


def test_a_walker_with_a_blow_in_reach_does_not_fly():
    b = Battle(seed=2, width=10, height=5)
    me = b.spawn("flier", 3, 2, team="a", powers=["fly", "strike"], initiative_bonus=20)
    b.spawn("foe", 4, 2, team="b", powers=["strike"], health=8)
    b.start_combat()
    b.begin_round()
    assert _uses(ai.decide(b, me, "tactical")) == ["strike"]


def archers_in_light(powers: list[str]) -> tuple[Battle, int]:
    """A mage and its archer in poor light facing two archers who stand in a bright light: a darkness
    or fog on them cuts their hit chance on its side more than its side's on them."""
    b = Battle(seed=4, width=16, height=7)
    b.set_ambient("poor")
    me = b.spawn("mage", 1, 3, team="a", powers=powers, initiative_bonus=20, health=9)
    b.spawn("archer", 1, 5, team="a", powers=["shoot"])
    b.spawn("archer", 13, 2, team="b", powers=["shoot"])
    b.spawn("archer", 13, 4, team="b", powers=["shoot"])
    b.add_light(13, 3, 20, "normal")
    b.add_light(1, 3, 10, "normal")
    b.start_combat()
    b.begin_round()
    return b, me


@pytest.mark.parametrize("veil", ["darkness", "fog-cloud"])
def test_an_archer_facing_archers_in_bright_light_veils_them(veil: str):
    b, me = archers_in_light([veil])
    before = b.threat(me).expected
    decision = ai.decide(b, me, "tactical")
    assert _uses(decision) == [veil], decision.why
    _play(b, decision)
    b.resolve_orders()
    assert b.threat(me).expected < before, decision.why


def _blinker() -> tuple[Battle, int]:
    b, me, _ = chasm(3, ["blink", "strike"])
    return b, me


def _flier() -> tuple[Battle, int]:
    b, me, _ = chasm(3, ["fly", "strike"])
    return b, me


def _veiler() -> tuple[Battle, int]:
    return archers_in_light(["darkness", "fog-cloud", "light"])


def _prone_flier() -> tuple[Battle, int]:
    b, me, _ = chasm(3, ["fly", "strike"])
    b.add_condition(me, "prone")
    return b, me


@pytest.mark.parametrize("board", [_blinker, _flier, _veiler, _prone_flier])
def test_planning_leaves_the_battle_byte_identical(board: Any):
    b, me = board()
    log, events, hashed = list(b.command_log), list(b.events), state_hash(b)
    first = ai.decide(b, me, "tactical")
    assert _uses(first), first.why  # it did try something on a snapshot
    assert b.command_log == log and b.events == events and state_hash(b) == hashed
    assert ai.decide(b, me, "tactical") == first  # and the same board gives the same plan
