"""The bench's creatures, one side of its 4-against-4: the full battle writes them into its scenario
(:mod:`bench.bench_battles`) and the floors roll their numbers (:mod:`bench.floor`), so the floors'
figures are those of the same creatures, read from one table."""

from __future__ import annotations

CREATURES = (  # key, health, defense, attack bonus, initiative bonus, powers, y
    ("fighter", 16, 15, 5, 0, ["strike"], 6),
    ("archer", 10, 12, 4, 2, ["shoot"], 8),
    ("mage", 9, 11, 3, 1, ["fireball", "chain-lightning"], 9),
    ("priest", 12, 13, 3, 0, ["strike", "dazzle"], 7),
)
