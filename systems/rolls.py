"""Rolling dice for the rules: one function for a d20 (or any die) under a roll mode."""

from __future__ import annotations

import random


def roll_die(rng: random.Random, sides: int, mode: str = "normal") -> int:
    """One die roll as the roll mode says: with advantage the higher of two, with disadvantage the
    lower; any other mode (normal, critical failure) rolls once."""
    first = rng.randint(1, sides)
    if mode in ("advantage", "disadvantage"):
        second = rng.randint(1, sides)
        return max(first, second) if mode == "advantage" else min(first, second)
    return first
