"""Numbers, flags and teams of the kinds asked for: a whole number is an int or a numpy integer (not a
bool), a number of feet any finite int or float (numpy's too), a flag True or False (numpy's bool
too), a team a non-empty name. A bool taken for a number (``end_power(h, True)`` ended effect 1), a
``"no"`` taken for True or a ``0`` for no team made something nobody asked for: each is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from components import Defense, Fatigue, Movement, Position, Readiness
from game import Battle, IllegalCommand


def named(value: object) -> str:
    """A test id that is the same in every worker (an object's repr holds its address)."""
    return "object()" if type(value) is object else repr(value)


def skirmish() -> tuple[Battle, int, int]:
    b = Battle(seed=1, width=8, height=8)
    hero = b.spawn("H", 1, 1, team="a", powers=["shoot", "darkness"])
    orc = b.spawn("O", 4, 1, team="b")
    b.start_combat()
    return b, hero, orc


Call = Callable[[Battle, int, int, Any], Any]
NOT_WHOLE = [True, False, 2.5, "3", None, object()]
NOT_FLAG = [float("nan"), {}, object(), "no", 1, 0]  # (None: cover as the blocks decide)
NOT_TEAM = [0, False, {}, "", 5, object()]

WHOLE: dict[str, tuple[Call, str]] = {
    "defense": (lambda b, h, o, v: b.spawn("X", 6, 6, team="b", defense=v), r"defense of 'X' must be a whole number"),
    "fatigue": (lambda b, h, o, v: b.spawn("X", 6, 6, team="b", fatigue=v), r"fatigue of 'X' must be a whole number"),
    "health": (lambda b, h, o, v: b.spawn("X", 6, 6, team="b", health=v), r"health of 'X' must be a whole number"),
    "attack bonus": (lambda b, h, o, v: b.spawn("X", 6, 6, team="b", attack_bonus=v),
                     r"attack bonus of 'X' must be a whole number"),
    "end_power": (lambda b, h, o, v: b.end_power(h, v), r"an effect id .* must be a whole number"),
    "run": (lambda b, h, o, v: b.run(v), r"rounds must be a whole number"),
    "remove_light": (lambda b, h, o, v: b.remove_light(v), r"a light id .* must be a whole number"),
}
FLAG: dict[str, tuple[Call, str]] = {
    "flying": (lambda b, h, o, v: b.spawn("X", 6, 6, team="b", flying=v), r"flying of 'X' must be True or False"),
    "prepared": (lambda b, h, o, v: b.spawn("X", 6, 6, team="b", prepared=v), r"prepared of 'X' must be True or False"),
    "soft": (lambda b, h, o, v: b.set_ground(5, 5, 0, soft=v), r"soft at \(5, 5\) must be True or False"),
    "cover": (lambda b, h, o, v: b.set_terrain(5, 5, ["sight"], cover=v), r"cover at \(5, 5\) must be True or False"),
}


def state(b: Battle) -> tuple[object, ...]:
    return list(b.events), list(b.command_log), repr(b.roster()), b.effects(), b.terrain.version


#: (argument, value) for every whole-number argument with every value that is not one, and every flag with
#: every value that is not True or False
KINDS = [(WHOLE, what, value) for what in sorted(WHOLE) for value in NOT_WHOLE] + \
    [(FLAG, what, value) for what in sorted(FLAG) for value in NOT_FLAG]


@pytest.mark.parametrize(("table", "what", "value"), KINDS,
                         ids=[f"{what}-{named(value)}" for _, what, value in KINDS])
def test_whole_numbers_refuse_bools_and_everything_else_and_flags_are_true_or_false(
        table: dict[str, Any], what: str, value: object) -> None:
    b, hero, orc = skirmish()
    call, words = table[what]
    before = state(b)
    with pytest.raises(IllegalCommand, match=words):
        call(b, hero, orc, value)
    assert state(b) == before


@pytest.mark.parametrize("team", NOT_TEAM, ids=named)
def test_a_team_is_a_name_and_none_means_alone(team: object) -> None:
    b, _, _ = skirmish()
    before = state(b)
    with pytest.raises(IllegalCommand, match=r"team of 'X' must be a non-empty name \(None: it fights alone\)"):
        b.spawn("X", 6, 6, team=team)  # type: ignore[arg-type]
    assert state(b) == before
    alone = b.spawn("X", 6, 6)
    assert b.team(alone).startswith("solo-")


def test_end_power_true_no_longer_ends_effect_1() -> None:
    b, hero, orc = skirmish()
    b.use_power(hero, "darkness", point=(4, 4))
    b.tick()
    assert [e["id"] for e in b.effects()] == [1]
    with pytest.raises(IllegalCommand, match=r"an effect id .* must be a whole number, not True"):
        b.end_power(hero, True)
    assert [e["id"] for e in b.effects()] == [1]


def test_numpy_numbers_and_flags_are_taken_as_python_ones() -> None:
    b, _, _ = skirmish()
    x = b.spawn("X", 6, 6, team="b", defense=np.int64(14), fatigue=np.int32(1), health=np.int16(9),
                z=np.float32(0.0), flying=np.bool_(False), prepared=np.bool_(True), initiative_bonus=np.int8(2))
    assert b.get(x, Defense).base == 14 and type(b.get(x, Defense).base) is int
    assert b.get(x, Fatigue).level == 1 and b.get(x, Movement).flying is False
    assert b.get(x, Readiness).prepared is True
    b.set_ground(5, 5, np.float32(2.5), soft=np.bool_(True))
    b.set_ground(5, 6, np.float64(3.5))
    b.set_ground(5, 7, np.int64(4))
    assert [float(b.terrain.ground[5, y]) for y in (5, 6, 7)] == [2.5, 3.5, 4.0]
    assert bool(b.terrain.soft[5, 5])
    b.run(np.int64(2))
    assert b.round == 2
    assert b.get(x, Position).square == (6, 6)
