"""Text arguments of the GM's and the creatures' commands (sources, reasons, names, scripts).

A source that was not text was granted first and failed after (``add_condition(o, "prone",
source=None)`` left the orc prone, unlogged, and the next tick crashed deriving its conditions); a
light's ``source=object()`` broke the save. Each is refused with IllegalCommand before anything changes.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from components import Health
from game import Battle, IllegalCommand

BAD_TEXT = [None, 5, True, 2.5, object(), ["gm"], b"gm", "torch\x00", "a\nb"]


def named(value: object) -> str:
    """A test id that is the same in every worker (an object's repr holds its address)."""
    return "object()" if type(value) is object else repr(value)


def skirmish() -> tuple[Battle, int, int]:
    b = Battle(seed=5, width=10, height=10)
    hero = b.spawn("Hero", 2, 2, team="blue", powers=["strike"])
    orc = b.spawn("Orc", 3, 2, team="red")
    b.start_combat()
    return b, hero, orc


def state(b: Battle) -> tuple[object, ...]:
    """All a refused command must leave as it was."""
    return (list(b.events), list(b.command_log), repr(b.roster()), b.effects(), dict(b.terrain.lights),
            dict(b.terrain.areas))


CALLS: dict[str, Callable[[Battle, int, object], object]] = {
    "damage source": lambda b, o, v: b.damage(o, 3, source=v),
    "healing source": lambda b, o, v: b.heal(o, 3, source=v),
    "fatigue reason": lambda b, o, v: b.add_fatigue(o, 1, reason=v),
    "recovery reason": lambda b, o, v: b.recover_fatigue(o, 1, reason=v),
    "condition source": lambda b, o, v: b.add_condition(o, "prone", source=v),
    "light source": lambda b, o, v: b.add_light(5, 5, 10, source=v),
    "area source": lambda b, o, v: b.add_area(5, 5, 10, source=v),
    "a creature's name": lambda b, o, v: b.spawn(v, 6, 6, team="red"),
    "a reaction script's file name": lambda b, o, v: b.attach_reaction(v),
}


@pytest.mark.parametrize("what", sorted(CALLS))
@pytest.mark.parametrize("value", BAD_TEXT, ids=named)
def test_non_text_is_refused_before_anything_changes(what: str, value: object) -> None:
    b, _, orc = skirmish()
    before = state(b)
    with pytest.raises(IllegalCommand, match=rf"^{what} (must be text|may not hold control characters)"):
        CALLS[what](b, orc, value)
    assert state(b) == before


def test_a_refused_condition_source_grants_nothing_and_the_battle_plays_on() -> None:
    b, hero, orc = skirmish()
    with pytest.raises(IllegalCommand, match=r"condition source must be text, not None"):
        b.add_condition(orc, "prone", source=None)
    assert "prone" not in b.conditions(orc)
    assert b.command_log[-1][0] == "start_combat"
    b.use_power(hero, "strike", target=orc)
    b.tick()
    b.tick()
    assert b.round == 2


def test_remove_condition_takes_text_or_none() -> None:
    b, _, orc = skirmish()
    b.add_condition(orc, "prone", source="trip")
    with pytest.raises(IllegalCommand, match=r"condition source must be text, not 5"):
        b.remove_condition(orc, "prone", source=5)
    assert "prone" in b.conditions(orc)
    b.remove_condition(orc, "prone", source=None)
    assert "prone" not in b.conditions(orc)


def test_a_refused_light_source_leaves_no_light_and_no_log_entry() -> None:
    b, _, _ = skirmish()
    with pytest.raises(IllegalCommand, match="light source must be text, not <object object"):
        b.add_light(5, 5, 10, source=object())
    assert b.terrain.lights == {}
    assert [name for name, _, _ in b.command_log].count("add_light") == 0


def test_text_sources_still_work() -> None:
    b, _, orc = skirmish()
    b.damage(orc, 2, source="trap")
    b.add_fatigue(orc, 1, reason="forced march")
    light = b.add_light(5, 5, 10, source="brazier")
    b.tick()
    assert b.get(orc, Health).current == 8
    assert b.terrain.lights[light].source == "brazier"
