"""Plain data for the battle: components, events, the terrain grid and the rules table.

Nothing here knows about esper, pygame or the systems: these are dataclasses that validate their
own fields and nothing more, so that tests, saves and scripts can build and compare them freely.
"""

from components.creature import (
    Abilities,
    Conditions,
    Cover,
    Creature,
    Defense,
    Falling,
    Fatigue,
    Health,
    Movement,
    Position,
    Readiness,
    Visibility,
    Vision,
)
from components.rules import Rules
from components.terrain import Area, Light, Terrain

__all__ = [
    "Abilities",
    "Area",
    "Conditions",
    "Cover",
    "Creature",
    "Defense",
    "Falling",
    "Fatigue",
    "Health",
    "Light",
    "Movement",
    "Position",
    "Readiness",
    "Rules",
    "Terrain",
    "Vision",
    "Visibility",
]
