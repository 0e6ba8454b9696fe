"""Results of a simulation: running totals per variant, the terminal table and the CSV (the plots
are drawn from these totals in :mod:`game.sim.plots`).

Totals are whole-number counters only (no running float means), so the table does not depend on
the order in which rows arrive: a process pool and a Dask cluster finishing battles in different
orders print exactly the same table for the same seeds (and the same notes under it: the refusal
and script failure they quote are those of the lowest battle index that had one). Nothing keeps the
rows themselves, so a million-battle run uses the memory of a hundred.
"""

from __future__ import annotations

import csv
import math
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from components.powers import OTHER, RESERVED_IDS
from components.values import escaped
from game.content.toml_values import toml_value
from game.sim.runner import DRAW
from game.sim.tally import COUNTERS

#: Failed battles whose seed and error are kept for the report (all are counted).
MAX_KEPT_FAILURES = 200

#: The first characters that make a spreadsheet read a cell of battles.csv as a formula (a tab or a
#: line break too, which no team name holds): a stranger's team named "@SUM(1+1)" or
#: "-2+3+cmd|' /C calc'!A0" would be run, as a formula or a command, by whoever opened the table.
FORMULA_STARTS = ("=", "+", "-", "@")


def team_column_problem(team: str) -> str | None:
    """Why ``team`` cannot be a value of battles.csv's ``winner`` and ``first`` columns (and a team of
    the table and summary.json), or None: ``draw``, which a drawn battle's row says (its wins would be
    counted as draws and its draws as wins), or a name a spreadsheet would run as a formula."""
    if team == DRAW:
        return (f"a team named {DRAW!r} cannot be told apart from a drawn battle in the table, battles.csv and "
                f"summary.json")
    if team.startswith(FORMULA_STARTS):
        return (f"a team name starting with {team[0]!r} would be run as a formula by a spreadsheet opening "
                f"battles.csv (its winner and first columns hold team names)")
    return None

_Z95 = 1.959963984540054
#: What the table shows for a rate or a mean over no battle (a variant whose every battle failed).
NO_BATTLES = "-"


def wilson(successes: int, n: int, z: float = _Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion: honest at 0 %, 100 % and small n, unlike p +- z*se."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # Clamped to the rate itself too: at 0 % or 100 % rounding could put a bound a hair past it.
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


@dataclass
class VariantStats:
    """Running totals of one variant (one combination of ``--set`` values)."""

    index: int
    overrides: tuple[tuple[str, Any], ...]
    teams: tuple[str, ...]
    battles: int = 0
    failed: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    rounds_total: int = 0
    rounds_hist: Counter[int] = field(default_factory=Counter)
    counts: Counter[str] = field(default_factory=Counter)
    uses: Counter[str] = field(default_factory=Counter)
    dealt: Counter[str] = field(default_factory=Counter)
    taken: Counter[tuple[str, str]] = field(default_factory=Counter)
    refused: int = 0
    #: the battles that had a refused AI command (``refused`` counts the commands)
    refused_battles: int = 0
    first_refusal: str = ""
    script_battles: int = 0
    first_wins: int = 0
    first_script_failure: str = ""
    #: every power some creature has: listed in the table with 0 uses where no battle used it
    known_powers: tuple[str, ...] = ()
    #: per battle seed, the winning team (paired differences between variants compare these)
    winners: dict[int, str] = field(default_factory=dict)
    #: the battles ``first_refusal`` and ``first_script_failure`` come from: the lowest index of those that
    #: had one, whatever order their rows arrived in (the notes under the table would differ between runs)
    refusal_battle: int = -1
    script_failure_battle: int = -1

    @property
    def label(self) -> str:
        """The variant as people write it: ``powers.fireball.damage=4d6 creatures.ogre.health=30``."""
        return " ".join(f"{k}={toml_value(v)}" for k, v in self.overrides) or "(as written)"

    @property
    def finished(self) -> int:
        """Battles that ran to an end (a win or a draw); the base of win rates."""
        return self.battles - self.failed

    def add(self, row: Mapping[str, Any]) -> None:
        """Fold one battle's row into the totals."""
        self.battles += 1
        battle = int(row.get("battle", self.battles))
        if row.get("script_failures"):
            self.script_battles += 1
            if self.script_failure_battle < 0 or battle < self.script_failure_battle:
                self.first_script_failure = f"seed {row['seed']}: {row.get('script_error')}"
                self.script_failure_battle = battle
        if row.get("error"):
            self.failed += 1
            return
        self.wins[row["winner"]] += 1
        self.winners[int(row["seed"])] = str(row["winner"])
        self.first_wins += bool(row.get("first")) and row.get("first") == row["winner"]
        self.rounds_total += int(row["rounds"])
        self.rounds_hist[int(row["rounds"])] += 1
        for key in COUNTERS:
            self.counts[key] += int(row.get(key, 0))
        self.uses.update(row.get("uses", {}))
        self.dealt.update(row.get("dealt", {}))
        for team, by in row.get("taken", {}).items():
            for source, amount in by.items():
                self.taken[team, source] += amount
        if row.get("refused"):
            self.refused += int(row["refused"])
            self.refused_battles += 1
            if self.refusal_battle < 0 or battle < self.refusal_battle:
                # with its battle's seed, as the script failure's note has it: "round 1: ..." alone named
                # no battle to replay (--only-seed) among the thousands of a run
                self.first_refusal, self.refusal_battle = f"seed {row['seed']}: {row.get('refusal', '')}", battle

    def mean(self, total: int | float) -> float:
        return total / self.finished if self.finished else 0.0

    def summary(self) -> dict[str, Any]:
        """Everything the table shows, as plain data (rates, intervals, per-battle means)."""
        n = self.finished
        teams = {}
        for team in self.teams:
            low, high = wilson(self.wins[team], n)
            teams[team] = {"wins": self.wins[team], "rate": self.wins[team] / n if n else 0.0, "low": low,
                           "high": high,
                           "taken": self.mean(sum(v for (t, _), v in self.taken.items() if t == team))}
        powers = sorted(set(self.uses) | set(self.dealt) | set(self.known_powers))
        return {
            "variant": self.label, "overrides": [list(o) for o in self.overrides], "battles": self.battles,
            "finished": n, "failed": self.failed, "draws": self.wins[DRAW],
            "draw_rate": self.wins[DRAW] / n if n else 0.0, "teams": teams,
            # Of the battles someone won (draws left out, as in bench/floor.py), how many went to the
            # side whose creature acted first: the first-mover advantage, with its interval.
            "first_mover": {"wins": self.first_wins, "decided": n - self.wins[DRAW],
                            "rate": self.first_wins / (n - self.wins[DRAW]) if n - self.wins[DRAW] else 0.0,
                            "low": wilson(self.first_wins, n - self.wins[DRAW])[0],
                            "high": wilson(self.first_wins, n - self.wins[DRAW])[1]},
            "mean_rounds": self.mean(self.rounds_total),
            **{key: self.mean(self.counts[key]) for key in COUNTERS},
            "powers": {p: {"uses": self.mean(self.uses[p]), "dealt": self.mean(self.dealt[p]),
                           "taken": {t: self.mean(self.taken[t, p]) for t in self.teams}} for p in powers},
            "refused": self.refused, "refused_battles": self.refused_battles, "script_battles": self.script_battles,
        }


def paired_difference(base: VariantStats, other: VariantStats, team: str, z: float = _Z95) -> dict[str, float]:
    """``other``'s win rate minus ``base``'s for ``team``, over the seeds both finished, with a 95%
    interval from the per-seed differences: the variants share their seeds, so the same battle's luck
    falls on both sides of the difference and the interval is much tighter than two separate ones."""
    seeds = sorted(set(base.winners) & set(other.winners))
    return winners_difference([base.winners[s] for s in seeds], [other.winners[s] for s in seeds], team, z)


def winners_difference(base: Sequence[str], other: Sequence[str], team: str, z: float = _Z95) -> dict[str, float]:
    """:func:`paired_difference` from two lists of winners, battle by battle on the same seeds
    (``diff``, its interval ``low``..``high`` and ``n``).

    The interval is Agresti and Min's for paired proportions (2005): the plain one (the mean of the
    per-seed differences, plus or minus z standard errors) with half a battle added to each of the
    four cells of won/lost under each variant. The plain one has no width when every pair agrees: 4
    battles that came out the same under both variants said "+0 [+0, +0]", where 40 of the same
    seeds said -12.5 [-26.9, +1.9]. The added halves keep it honest at small n and vanish at large n.
    """
    pairs = list(zip(base, other, strict=True))
    n = len(pairs)
    if n == 0:
        return {"diff": 0.0, "low": -1.0, "high": 1.0, "n": 0}
    gained = sum(1 for a, b in pairs if b == team and a != team) + 0.5  # won only under ``other``
    lost = sum(1 for a, b in pairs if a == team and b != team) + 0.5  # won only under ``base``
    m = n + 2
    centre = (gained - lost) / m
    spread = math.sqrt(max((gained + lost) - (gained - lost) ** 2 / m, 0.0)) / m
    mean = (gained - lost) / n
    return {"diff": mean, "low": max(-1.0, min(mean, centre - z * spread)),
            "high": min(1.0, max(mean, centre + z * spread)), "n": n}


def with_paired(summaries: list[dict[str, Any]], variants: Sequence[VariantStats]) -> list[dict[str, Any]]:
    """Each variant after the first gets ``paired``: per team, its paired difference from the first."""
    for summary, variant in zip(summaries[1:], variants[1:]):
        summary["paired"] = {t: paired_difference(variants[0], variant, t) for t in variant.teams}
    return summaries


@dataclass
class Failure:
    """A battle that raised (or whose worker died): enough to run it again alone."""

    variant: int
    battle: int
    seed: int
    error: str
    replay: str = ""


class CsvSink:
    """``battles.csv``: one row per battle written as it arrives (flushed), so memory stays flat; the
    file it writes is a temporary that replaces ``battles.csv`` when the run ends (a killed run's
    finished battles are in that temporary until the next run clears it).

    Columns are fixed before the first row from the scenario's teams and the powers any creature
    of any variant can use (every power of the battle's table when a ``--hook`` may give one), with
    ``fall`` and ``reaction`` (reaction scripts' hits) beside them; damage from anything else lands in
    ``other``. What a row holds that no column takes (a power or team a hook brought in) is named in
    ``unlisted``, for a note under the table: the CSV would disagree with the table unsaid.

    ``held``: each variant's powers (no ``--hook``, which may give a creature any power): a power's
    cells are empty in a row of a variant none of whose creatures has it, as the power table's row is
    ``-``: a 0 read as a power its AI left unused. Every row keeps every column.
    """

    BASE = ("variant", "battle", "seed", "winner", "first", "rounds", "error", *COUNTERS, "script_error", "refused",
            "refusal", "replay")
    TEXT = frozenset({"first", "winner", "error", "script_error", "refusal", "replay"})

    def __init__(self, handle: IO[str], variants: Sequence[VariantStats], powers: Iterable[str],
                 held: Mapping[int, Collection[str]] | None = None) -> None:
        self.powers = sorted(set(powers))
        self.held = held
        self.sources = [*self.powers, *RESERVED_IDS]  # (then what no power dealt)
        teams = variants[0].teams if variants else ()
        self.teams = teams
        self.labels = {v.index: v.label for v in variants}
        self.columns = [*self.BASE[:2], "overrides", *self.BASE[2:],
                        *(f"uses.{p}" for p in self.powers), *(f"dealt.{s}" for s in self.sources),
                        *(f"taken.{t}.{s}" for t in teams for s in self.sources)]
        self.handle = handle
        self.unlisted: set[str] = set()
        self.writer = csv.DictWriter(handle, self.columns)
        self.writer.writeheader()

    def _cell(self, key: str, row: Mapping[str, Any]) -> Any:
        """A base column's value; a text's control characters, and each \\udcXX that Python reads a
        folder name's non-UTF-8 byte as, spelt as escapes (a replay's path, an error naming a folder):
        the UTF-8 writer refused the latter, and the run died at its first row with its table lost."""
        if key not in self.TEXT:
            return row.get(key, 0)
        value = row.get(key, "")
        return escaped(value) if isinstance(value, str) else value

    def _source(self, key: str) -> str:
        return key if key in self.sources else OTHER

    def _blank_unheld(self, out: dict[str, Any], row: Mapping[str, Any]) -> None:
        """Empty the cells of each power this row's variant does not have (see ``held``), unless the
        row counted something of it."""
        if self.held is None:
            return
        held = self.held.get(row["variant"], ())
        taken = (source for by in row.get("taken", {}).values() for source in by)
        counted = {*row.get("uses", {}), *row.get("dealt", {}), *taken}
        for power in self.powers:
            if power not in held and power not in counted:
                for column in (f"uses.{power}", f"dealt.{power}", *(f"taken.{t}.{power}" for t in self.teams)):
                    out[column] = ""

    def write(self, row: Mapping[str, Any]) -> None:
        out: dict[str, Any] = {k: self._cell(k, row) for k in self.BASE}
        out["overrides"] = self.labels.get(row["variant"], "")
        for column in self.columns[len(self.BASE) + 1:]:
            out[column] = 0
        for power, n in row.get("uses", {}).items():
            if power in self.powers:
                out[f"uses.{power}"] = n
            else:
                self.unlisted.add(f"the uses of power {power!r} (left out)")
        for source, n in row.get("dealt", {}).items():
            if source not in self.sources:
                self.unlisted.add(f"the damage of power {source!r} (counted in dealt.{OTHER})")
            out[f"dealt.{self._source(source)}"] += n
        for team, by in row.get("taken", {}).items():
            for source, n in by.items():
                column = f"taken.{team}.{self._source(source)}"
                if column in out:
                    out[column] += n
                else:
                    self.unlisted.add(f"the damage team {team!r} took (left out)")
        self._blank_unheld(out, row)
        self.writer.writerow(out)
        self.handle.flush()


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def format_table(summaries: Sequence[Mapping[str, Any]], teams: Sequence[str]) -> str:
    """The terminal table: one line per variant, then damage and uses per power per variant."""
    head = ["variant", "n", "failed", *(f"{t} win [95% CI]" for t in teams), "draw", "1st-mover win [95% CI]", "rounds",
            "downs", "deaths", "falls"]
    lines = []
    for s in summaries:
        n = s["finished"]
        cells = [s["variant"], str(n), str(s["failed"])]
        for team in teams:
            t = s["teams"][team]
            cells.append(_rate(t, n))
        fm = s["first_mover"]
        cells += [_pct(s["draw_rate"]) if n else NO_BATTLES, _rate(fm, fm["decided"]),
                  *(f"{s[key]:.2f}" if n else NO_BATTLES for key in ("mean_rounds", "downs", "deaths", "falls"))]
        lines.append(cells)
    out = [_grid(head, lines)]
    power_head = ["variant", "power", "uses/battle", "dealt/battle", *(f"taken by {t}" for t in teams)]
    power_lines = []
    # damage no power dealt (falls, reactions, the GM's): a row in every variant once any variant has
    # one, 0 where none fell, so that variants compare row by row (the falls' row came and went)
    unowned = {k for s in summaries for k in s["powers"] if k in RESERVED_IDS}
    none = {"uses": 0.0, "dealt": 0.0, "taken": {t: 0.0 for t in teams}}
    # a power only another variant's creatures have: "-", not a 0 that reads as a power its AI never used
    unheld: dict[str, Any] = {k: None for s in summaries for k in s["powers"] if k not in RESERVED_IDS}
    for s in summaries:
        rows = {**unheld, **{k: none for k in unowned}, **s["powers"]}
        for power, p in sorted(rows.items()):
            label = f"({power}s)" if power in RESERVED_IDS else power  # damage that no power dealt
            figures = [p["uses"], p["dealt"], *(p["taken"][t] for t in teams)] if p else [None] * (2 + len(teams))
            cells = [f"{x:.2f}" if s["finished"] and p else NO_BATTLES for x in figures]
            if power in RESERVED_IDS:  # a fall is no use of anything: "0.00 uses" read as a count of none
                cells[0] = NO_BATTLES
            power_lines.append([s["variant"], label, *cells])
    if power_lines:
        out.append(_grid(power_head, power_lines))
    paired = [s for s in summaries if "paired" in s]
    if paired:
        base = summaries[0]
        out.append(_grid(["variant", *(f"{t} win - {base['variant']} [95% CI, paired]" for t in teams)],
                         [[s["variant"], *(_signed(s["paired"][t], max(s["finished"], base["finished"]))
                                           for t in teams)] for s in paired]))
    return "\n\n".join(out)


def _rate(rate: Mapping[str, float], n: int) -> str:
    """A rate with its interval, or :data:`NO_BATTLES` when it is a share of nothing (no battle of the
    variant finished, or none was won for the first mover's): "0.0% [0.0%-100.0%]" read as a measured 0."""
    if not n:
        return NO_BATTLES
    return f"{_pct(rate['rate'])} [{_pct(rate['low'])}-{_pct(rate['high'])}]"


def _signed(d: Mapping[str, float], finished: int) -> str:
    """A paired difference; with how many seeds it pairs when failed battles left fewer than both variants
    finished (it is then not the difference of the two rates above it, and a reader checking it should
    know why). Over no seed at all it is no difference: said so, not "+0.0 pts"."""
    if not d["n"]:
        return f"{NO_BATTLES} (no seed both finished)"
    seeds = f" ({d['n']:.0f} seeds both finished)" if d["n"] < finished else ""
    return f"{100 * d['diff']:+.1f} pts [{100 * d['low']:+.1f}, {100 * d['high']:+.1f}]{seeds}"


def _grid(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(str(c)) for c in column) for column in zip(head, *rows)]
    def line(cells: Sequence[str]) -> str:
        return "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))
    return "\n".join([line(head), "  ".join("-" * w for w in widths), *(line(r) for r in rows)])

