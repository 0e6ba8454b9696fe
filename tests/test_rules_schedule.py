"""The order of the systems is declared once (systems/schedule.py ORDER) and pinned here.

Changing it changes what happens in a round (falls must become hits before hits become fatigue,
vision must settle before flat-footed is derived...), so a change has to be made here on purpose.
"""

from __future__ import annotations

import esper
import pytest

from game import Battle
from systems import schedule

PINNED = (
    "RoundSystem",
    "GmSystem",
    "ActionSystem",
    "PowerSystem",
    "EffectSystem",
    "FallingSystem",
    "DamageSystem",
    "FatigueSystem",
    "VisibilitySystem",
    "CoverSystem",
    "ConditionSystem",
    "RoundEndSystem",
)


def test_the_schedule_order_is_pinned():
    assert tuple(cls.__name__ for cls in schedule.ORDER) == PINNED


def test_the_order_keeps_its_dependencies():
    names = [cls.__name__ for cls in schedule.ORDER]
    at = names.index
    assert names[0] == "RoundSystem" and names[-1] == "RoundEndSystem"
    assert at("GmSystem") < at("VisibilitySystem")         # a blinding grant is seen in the same call
    assert at("ActionSystem") < at("FallingSystem")        # a move off a ledge falls in the same turn
    assert at("PowerSystem") < at("DamageSystem")          # a power's hits land in the same turn
    assert at("FallingSystem") < at("DamageSystem")        # a landing is a hit
    assert at("DamageSystem") < at("FatigueSystem")
    assert at("VisibilitySystem") < at("ConditionSystem")  # no vision -> flat-footed
    assert at("DamageSystem") < at("ConditionSystem") and at("FatigueSystem") < at("ConditionSystem")
    assert len(set(names)) == len(names)


def test_a_battle_runs_its_systems_in_that_order(monkeypatch: pytest.MonkeyPatch) -> None:
    b = Battle(seed=1)
    b.turn_order()  # any public call switches esper to the battle's world
    installed = [esper.get_processor(cls) for cls in schedule.ORDER]
    assert all(p is not None for p in installed)
    priorities = [p.priority for p in installed]
    assert priorities == sorted(priorities, reverse=True) and len(set(priorities)) == len(priorities)
    # and esper itself will call them in this order: its public ``process`` is asked, each processor
    # only noting that it was called (nothing of the battle runs, so nothing changes)
    called: list[type[esper.Processor]] = []
    for processor in installed:
        monkeypatch.setattr(processor, "process", lambda *args, kind=type(processor), **kwargs: called.append(kind))
    esper.process()
    assert called == list(schedule.ORDER)
    b.close()


def test_each_battle_gets_its_own_processors():
    a, b = Battle(seed=1), Battle(seed=2)
    a.turn_order()
    pa = esper.get_processor(schedule.ORDER[0])
    b.turn_order()
    pb = esper.get_processor(schedule.ORDER[0])
    assert pa is not pb
    assert pa.state is a.state and pb.state is b.state
