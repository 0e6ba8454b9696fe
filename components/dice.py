"""Dice notation ("2d6+3") parsed once into a value, rolled with the battle's own generator."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from components.values import shown

_NOTATION = re.compile(r"^(?:(\d*)d(\d+)([+-]\d+)?|([+-]?\d+))$", re.ASCII)  # (\d alone reads "２" as 2)
MAX_DICE = 1000
MAX_SIDES = 1000
MAX_BONUS = 1000


def _bonus(value: int, text: object) -> int:
    if not -MAX_BONUS <= value <= MAX_BONUS:
        what = f"dice {shown(text)}: a bonus" if isinstance(text, str) else f"{shown(text)}: a flat number"
        raise ValueError(f"{what} must be within -{MAX_BONUS}..{MAX_BONUS}")
    return value


def die(rng: random.Random, sides: int) -> int:
    """``rng.randint(1, sides)``, drawn exactly as CPython draws it (``1 + _randbelow(sides)``: the
    fewest bits that hold ``sides``, drawn again while the value is too big), without its three
    layers of calls: a battle rolls a few dice every turn. A generator of another kind (a subclass
    with its own ``random``) is asked the long way. ``tests/test_dice.py`` holds the two equal.
    """
    if type(rng) is not random.Random or sides < 1:
        return rng.randint(1, sides)
    bits = sides.bit_length()
    drawn = rng.getrandbits(bits)
    while drawn >= sides:
        drawn = rng.getrandbits(bits)
    return 1 + drawn


@dataclass(frozen=True, slots=True)
class Dice:
    """``count`` dice of ``sides`` sides plus ``bonus``; "2d6+3" is Dice(2, 6, 3), "4" is Dice(0, 0, 4)."""

    count: int
    sides: int
    bonus: int = 0

    @classmethod
    def parse(cls, text: object) -> Dice:
        """Parse notation like ``"2d6+3"``, ``"d20"``, ``"1d4-1"`` or ``"5"``.

        At most :data:`MAX_DICE` dice of 1..:data:`MAX_SIDES` sides, and a bonus (or a flat number)
        within +-:data:`MAX_BONUS`: past these a roll only costs time or overflows what reads it.
        ``"0d0"`` (``"0d0+3"``) is no dice, the flat number, as ``Dice(0, 0)`` is by hand: the range is
        :meth:`range_problem`'s, one for a file and for Python.

        Raises:
            ValueError: not dice notation, or a number out of its range; the message says which.
        """
        if isinstance(text, int) and not isinstance(text, bool):
            return cls(0, 0, _bonus(text, text))
        if not isinstance(text, str):
            raise ValueError(f"dice must be written like \"2d6+3\", not {shown(text)}")
        if len(text) > 64:
            raise ValueError(f"dice {shown(text)}: {len(text)} characters; dice notation is at most 64")
        match = _NOTATION.match(text.replace(" ", "").lower())
        if not match:
            raise ValueError(f"dice must be written like \"2d6+3\", not {shown(text)}")
        count_text, sides_text, dice_bonus, flat = match.groups()
        if flat is not None:
            return cls(0, 0, _bonus(int(flat), text))
        bonus = _bonus(int(dice_bonus), text) if dice_bonus else 0
        dice = cls(int(count_text) if count_text else 1, int(sides_text), bonus)
        problem = dice.range_problem()
        if problem is not None:
            raise ValueError(f"dice {shown(text)}: need {problem}")
        return dice

    def range_problem(self) -> str | None:
        """The range these dice are past (what :meth:`parse` takes, in words), or None within it.

        A ``Dice`` built by hand in Python never passes through :meth:`parse`; the battle asks this of
        a hand-made power's dice, so a file and a developer's code are held to one range: whole numbers,
        at most :data:`MAX_DICE` dice of 1..:data:`MAX_SIDES` sides (``Dice(0, 0, n)`` is the flat
        number ``n``), and a bonus within +-:data:`MAX_BONUS`.
        """
        count, sides, bonus = self.count, self.sides, self.bonus  # (type() is int: not a bool, and cheap;
        if type(count) is int and type(sides) is int and type(bonus) is int \
                and 0 <= count <= MAX_DICE and (1 <= sides <= MAX_SIDES or count == sides == 0) \
                and -MAX_BONUS <= bonus <= MAX_BONUS:  # a script's every roll is parsed)
            return None
        return f"at most {MAX_DICE} dice of 1..{MAX_SIDES} sides and a bonus within ±{MAX_BONUS}"

    def roll(self, rng: random.Random) -> int:
        """Roll with ``rng`` (the battle's generator, so a seed replays every roll); never below 0."""
        sides = self.sides
        return max(0, sum([die(rng, sides) for _ in range(self.count)]) + self.bonus)

    def average(self) -> float:
        return self.count * (self.sides + 1) / 2 + self.bonus

    def __str__(self) -> str:
        if not self.count:
            return str(self.bonus)
        tail = f"{self.bonus:+d}" if self.bonus else ""
        return f"{self.count}d{self.sides}{tail}"
