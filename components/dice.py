"""Dice notation ("2d6+3") parsed once into a value, rolled with the battle's own generator."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

_NOTATION = re.compile(r"^(?:(\d*)d(\d+)([+-]\d+)?|([+-]?\d+))$")


@dataclass(frozen=True, slots=True)
class Dice:
    """``count`` dice of ``sides`` sides plus ``bonus``; "2d6+3" is Dice(2, 6, 3), "4" is Dice(0, 0, 4)."""

    count: int
    sides: int
    bonus: int = 0

    @classmethod
    def parse(cls, text: object) -> Dice:
        """Parse notation like ``"2d6+3"``, ``"d20"``, ``"1d4-1"`` or ``"5"``; ValueError says what was wrong."""
        if isinstance(text, int) and not isinstance(text, bool):
            return cls(0, 0, text)
        if not isinstance(text, str):
            raise ValueError(f"dice must be written like \"2d6+3\", not {text!r}")
        match = _NOTATION.match(text.replace(" ", "").lower())
        if not match:
            raise ValueError(f"dice must be written like \"2d6+3\", not {text!r}")
        count_text, sides_text, dice_bonus, flat = match.groups()
        if flat is not None:
            return cls(0, 0, int(flat))
        count = int(count_text) if count_text else 1
        sides = int(sides_text)
        if sides < 1 or count > 1000:
            raise ValueError(f"dice {text!r}: need at most 1000 dice of at least 1 side")
        return cls(count, sides, int(dice_bonus) if dice_bonus else 0)

    def roll(self, rng: random.Random) -> int:
        """Roll with ``rng`` (the battle's generator, so a seed replays every roll); never below 0."""
        return max(0, sum(rng.randint(1, self.sides) for _ in range(self.count)) + self.bonus)

    def average(self) -> float:
        return self.count * (self.sides + 1) / 2 + self.bonus

    def __str__(self) -> str:
        if not self.count:
            return str(self.bonus)
        tail = f"{self.bonus:+d}" if self.bonus else ""
        return f"{self.count}d{self.sides}{tail}"
