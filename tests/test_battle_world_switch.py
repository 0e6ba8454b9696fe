"""Every public call reads its own battle's world, and a closed battle's raise RuntimeError.

``square_of`` read whichever battle's world esper had current: with two battles alive it answered the
other battle's creature of the same id, and after ``close()`` it still answered (README: "any later
command or query raises RuntimeError"); ``on`` and ``make_current`` took a closed battle too (the latter
made esper an empty world of its name). ``settle`` and ``mid_battle``, the map commands' own steps, were
public: called from outside a command, the MapChanged one emitted was in no log, so a replay (and a
save's load) no longer matched the battle.
"""

from __future__ import annotations

import esper
import pytest

from components import Position
from components.events import Damaged
from game import Battle


def _two_battles() -> tuple[Battle, int, Battle, int]:
    first = Battle(seed=1, width=10, height=10)
    hero = first.spawn("A-hero", 1, 1, team="x")
    first.spawn("A-foe", 8, 8, team="y")
    second = Battle(seed=2, width=10, height=10)
    other = second.spawn("B-hero", 5, 5, team="x")
    second.spawn("B-foe", 7, 7, team="y")
    return first, hero, second, other


def test_square_of_answers_its_own_battles_creature() -> None:
    first, hero, second, other = _two_battles()
    assert hero == other  # the same id in two worlds
    second.get(other, Position)  # the second battle's world is esper's current one now
    assert first.square_of(hero) == (1, 1)
    assert second.square_of(other) == (5, 5)


@pytest.mark.parametrize("call", [
    lambda b, e: b.square_of(e),
    lambda b, e: b.on(Damaged, lambda battle, event: None),
    lambda b, e: b.make_current(),
])
def test_a_closed_battle_refuses(call) -> None:
    first, hero, second, other = _two_battles()
    first.close()
    worlds = set(esper.list_worlds())
    with pytest.raises(RuntimeError, match="closed"):
        call(first, hero)
    assert set(esper.list_worlds()) == worlds  # no empty world made under the closed battle's name
    assert second.square_of(other) == (5, 5)


def test_only_commands_announce_map_changes() -> None:
    """What a battle announces comes from its commands alone, so its replay announces the same."""
    b = Battle(seed=1, width=6, height=3)
    b.spawn("A", 0, 0, team="x")
    b.spawn("C", 3, 0, team="y")
    b.start_combat()
    b.tick()
    assert not hasattr(b, "mid_battle") and not hasattr(b, "settle")
    b.set_ground(2, 2, 10)  # a map command announces its change itself
    replayed = Battle.replay(1, 6, 3, None, b.command_log)
    assert [repr(e) for e in replayed.events] == [repr(e) for e in b.events]
