"""The small scenario the save tests play, and what they compare of its battles."""

from __future__ import annotations

from components import Health, Position, Visibility
from game.battle.facade import Battle
from game.content.scenario import Scenario, load_scenario_text

SMALL = """\
name = "Small"
seed = 4

[map]
rows = [
  "^^....",
  "^^h.#.",
  "^^....",
  "......",
  "..#...",
]

[map.legend]
"." = { ground = 0 }
"^" = { ground = 20 }
"h" = { ground = 0, soft = true }
"#" = { wall = true }

[teams.a]
control = "human"

[teams.b]

[[creatures]]
key = "hero"
team = "a"
x = 1
y = 1
health = 12
powers = ["strike"]

[[creatures]]
key = "foe"
team = "b"
x = 5
y = 3
health = 9
powers = ["shoot"]

[[creatures]]
key = "sleeper"
team = "b"
x = 3
y = 4
prepared = false
powers = ["strike"]
"""


def small_scenario() -> Scenario:
    """The shared scenario: a ledge over hay, a wall, a shooter and an unprepared sleeper."""
    return load_scenario_text(SMALL, "small.toml")


def state_of(battle: Battle) -> list[tuple[int, int, tuple[int, int], float]]:
    """Each creature's id, hit points, square and height."""
    return [(e, battle.get(e, Health).current, battle.get(e, Position).square, battle.get(e, Position).z)
            for e in battle.creatures()]


def played(scenario: Scenario) -> tuple[Battle, int, dict[str, int]]:
    """A few rounds of moves, damage, light and heals; with the build's command count and ids."""
    battle, ids = scenario.build_with_ids()
    count = len(battle.command_log)
    battle.start_combat()
    battle.move(ids["hero"], 2, 1)  # off the ledge onto the hay
    battle.damage(ids["foe"], 4)
    battle.add_light(3, 3, 10.0, Visibility.POOR)
    battle.tick()
    battle.heal(ids["hero"], 2)
    battle.move(ids["foe"], 3, 3)
    battle.tick()
    return battle, count, ids
