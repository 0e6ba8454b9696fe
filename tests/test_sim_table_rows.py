"""The table a designer compares variants in, row by row.

A variant with no fall had no ``(falls)`` row while the variant beside it had one, so the rows of the
two did not line up; and a paired difference taken over fewer seeds than a variant finished (its
failed battles dropped from both sides) was printed bare, though it then is not the difference of the
two win rates above it (30.0% -> 42.9% read "+7.1 pts"): it says over how many seeds.
"""

from __future__ import annotations

from game.sim.report import VariantStats, format_table, with_paired


def _row(battle: int, winner: str, fall: int = 0, error: str = "") -> dict[str, object]:
    return {"battle": battle, "seed": battle, "winner": winner, "first": "a", "rounds": 3, "error": error,
            "uses": {"strike": 2}, "dealt": {"strike": 5, **({"fall": fall} if fall else {})},
            "taken": {"b": {"strike": 5, **({"fall": fall} if fall else {})}}}


def _table(base_rows: list[dict[str, object]], other_rows: list[dict[str, object]]) -> str:
    variants = [VariantStats(i, (("rules.cover_bonus", i),), ("a", "b"), known_powers=("strike",)) for i in (0, 1)]
    for row in base_rows:
        variants[0].add(row)
    for row in other_rows:
        variants[1].add(row)
    return format_table(with_paired([v.summary() for v in variants], variants), ["a", "b"])


def test_the_falls_row_is_in_every_variant_once_one_has_it() -> None:
    table = _table([_row(i, "a", fall=4) for i in range(4)], [_row(i, "a") for i in range(4)])
    falls = [line.split() for line in table.splitlines() if "(falls)" in line]
    assert [cells[0] for cells in falls] == ["rules.cover_bonus=0", "rules.cover_bonus=1"]
    assert falls[1][2:] == ["-", "0.00", "0.00", "0.00"]
    # a fall is no use of a power: its uses are "-", where "0.00" read as falls never used
    assert falls[0][2:] == ["-", "4.00", "0.00", "4.00"]


def test_a_paired_difference_over_fewer_seeds_says_how_many() -> None:
    base = [_row(i, "a" if i < 3 else "b") for i in range(10)]
    other = [_row(i, "a", error="RuntimeError: boom" if i < 4 else "") for i in range(10)]
    table = _table(base, other)
    assert "+100.0 pts" in table and "(6 seeds both finished)" in table  # 0 of the 6 won by a, then 6 of 6
    whole = _table(base, [_row(i, "a") for i in range(10)])
    assert "+70.0 pts" in whole and "seeds both finished" not in whole


def test_a_variant_whose_every_battle_failed_shows_no_rate() -> None:
    """A variant with no finished battle read "0.0% [0.0%-100.0%]" for every team, 0.00 rounds and uses,
    and "+0.0 pts [-100.0, +100.0]" from it: a measured nothing, where nothing was measured."""
    base = [_row(i, "a", error="RuntimeError: boom") for i in range(4)]
    table = _table(base, [_row(i, "a" if i % 2 else "b", error="RuntimeError: boom") for i in range(4)])
    first = next(line.split() for line in table.splitlines() if line.startswith("rules.cover_bonus=0 "))
    assert first[1:] == ["0", "4", "-", "-", "-", "-", "-", "-", "-", "-"]
    strikes = [line.split() for line in table.splitlines() if " strike " in line]
    assert strikes[0][2:] == ["-", "-", "-", "-"]
    assert "0.0%" not in table and "+0.0 pts" not in table
    assert table.count("- (no seed both finished)") == 2  # a and b, from the first variant
    half = _table(base, [_row(i, "a") for i in range(4)])  # the other variant finished: its rates stand
    assert "100.0% [ 51.0%-100.0%]" in half and "(no seed both finished)" in half


def test_a_first_mover_rate_over_no_decided_battle_is_none() -> None:
    draws = [_row(i, "draw") for i in range(5)]
    line = next(row for row in _table(draws, draws).splitlines() if row.startswith("rules.cover_bonus=0 "))
    assert line.split()[-6:] == ["100.0%", "-", "3.00", "0.00", "0.00", "0.00"]
