"""``Battle.roster``: every creature as a planner reads it, in one call, equal to asking one by one."""

from __future__ import annotations

from components import Fatigue, Health, Movement, Position
from game import Battle


def test_the_roster_is_what_the_single_questions_answer() -> None:
    b = Battle(seed=2, width=10, height=8)
    b.set_ground(6, 6, 20)
    hero = b.spawn("Hero", 1, 1, team="blue", powers=["strike", "shoot"], fatigue=2)
    orc = b.spawn("Orc", 6, 6, z=20, team="red", health=9, prepared=False)
    ghost = b.spawn("Ghost", 8, 2, team="red", speed=40)
    b.start_combat()
    b.damage(ghost, 500)
    for _ in range(6):
        b.damage(ghost, 1)  # past the fatigue track: dead, and still on the roster
    b.add_condition(hero, "dazzled")
    b.tick()
    glances = b.roster()
    assert [g.entity for g in glances] == b.creatures() == [hero, orc, ghost]
    for g in glances:
        e = g.entity
        assert (g.team, g.square, g.z) == (b.team(e), b.square_of(e), float(b.get(e, Position).z))
        assert set(g.conditions) == b.conditions(e) and g.can_act == b.can_act(e)
        health, fatigue = b.get(e, Health), b.get(e, Fatigue)
        assert (g.health, g.max_health, g.fatigue, g.max_fatigue) == (health.current, health.maximum,
                                                                      fatigue.level, fatigue.maximum)
        assert g.speed_ft == b.get(e, Movement).speed_ft and list(g.powers) == b.powers_of(e)
        assert g.name == b.display_name(e)
    assert "dead" in glances[2].conditions and not glances[2].can_act
    assert "dazzled" in glances[0].conditions and glances[1].z == 20.0
