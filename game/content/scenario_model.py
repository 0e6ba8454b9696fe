"""The parts of a validated scenario, as plain frozen values, and the one error a bad scenario raises."""

from __future__ import annotations

from dataclasses import dataclass

from components import Visibility

__all__ = ["MAX_CREATURES", "CreatureSpec", "LegendEntry", "LightSpec", "ScenarioError", "TeamSpec"]

#: Creatures a scenario may hold: one round with the computer player on every side stays under 5 s
#: at this many on a 2-core machine (the computer player's planning is most of it; docs/limits.md).
MAX_CREATURES = 50

_SHOWN_PROBLEMS = 25  # a file with a mistake on every line says so without printing megabytes


class ScenarioError(ValueError):
    """A scenario file (or an override of one) that cannot be used, with every problem found.

    A ValueError so that callers that only know "bad input" catch it. ``source`` is the file (or
    the name given to :func:`~game.content.scenario.load_scenario_text`); ``problems`` holds one
    line per problem, each naming the key or square, so tools can show them separately.
    """

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = list(problems)
        if len(self.problems) == 1:
            message = f"{source}: {self.problems[0]}"
        else:
            shown = self.problems[:_SHOWN_PROBLEMS]
            listed = "\n".join(f"  - {p}" for p in shown)
            more = len(self.problems) - len(shown)
            tail = f"\n  ... and {more} more" if more else ""
            message = f"{source}: {len(self.problems)} problems:\n{listed}{tail}"
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class LegendEntry:
    """What one map character means."""

    ground: float = 0.0
    wall: bool = False
    soft: bool = False
    name: str = ""
    blocks: tuple[str, ...] = ()  # what see-through terrain stops (movement, sight, light, areas, ...)
    cover: bool | None = None  # whether it hides creatures behind it (default: when it blocks movement)


@dataclass(frozen=True, slots=True)
class LightSpec:
    """A light or an obscuring area, as the file gives it."""

    x: int
    y: int
    radius_ft: float
    level: Visibility


@dataclass(frozen=True, slots=True)
class TeamSpec:
    """A side: who controls it and the colour a renderer draws it in (``"#rrggbb"``; None when the
    file gives none: the window's palette then picks one, as for a battle built in code)."""

    name: str
    control: str
    colour: str | None


@dataclass(frozen=True, slots=True)
class CreatureSpec:
    """One creature of the scenario; ``z``/``speed`` None mean "the ground" / "the rules' speed"."""

    key: str
    name: str
    team: str
    x: int
    y: int
    z: float | None = None
    health: int = 10
    defense: int = 10
    attack_bonus: int = 0
    speed: int | None = None
    initiative_bonus: int = 0
    powers: tuple[str, ...] = ()
    prepared: bool = True
    flying: bool = False
    reactions: tuple[str, ...] = ()
    fatigue: int = 0
