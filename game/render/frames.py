"""What an animation looks like at one instant, as plain data the renderer draws: no pygame here.

``game.play.motion`` builds a :class:`MotionFrame` from its timeline for the clock's instant; the
renderer only places tokens where it says and draws its marks. Nothing here knows a rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

#: A point of the map in squares (fractions between two squares while a token moves).
Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Mark:
    """A short floating number or word over a square ("-7", "miss", "+4", "fall -3").

    ``kind`` picks its colour ("hit", "miss", "heal", "fall", "down"); ``progress`` runs from 0 (just
    shown) to 1 (gone); ``lane`` stacks marks shown together over one creature.
    """

    at: Point
    text: str
    kind: str
    progress: float
    lane: int = 0


@dataclass(frozen=True, slots=True)
class MotionFrame:
    """The animations at one instant.

    ``positions``: creature -> where its token is drawn now (None: it is in the fog at this point of
    its way, so it is not drawn); creatures not named are drawn on their squares. ``marks``: the
    floating numbers shown. ``speed``: the speed setting's name (the status bar shows it). ``drops``:
    creature -> how many squares above its square its token is drawn, dropping at the end of a fall.
    """

    positions: Mapping[int, Point | None] = field(default_factory=dict)
    marks: tuple[Mark, ...] = ()
    speed: str = "normal"
    drops: Mapping[int, float] = field(default_factory=dict)

    @property
    def busy(self) -> bool:
        """Whether anything is animating."""
        return bool(self.positions or self.marks or self.drops)
