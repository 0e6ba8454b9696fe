"""How good is the tactical computer player, and does it notice the rules a designer tunes?

Printed in one run:

* match-ups on every shipped scenario: tactical against the fixed greedy baseline and against random,
  sides swapped (tactical plays each team in turn on the same seeds), the two results averaged, with
  a 95% Wilson interval; a draw counts half. The aim is at least 70% on every scenario.
* for each side, tactical's win rate against greedy beside greedy's own (the greedy mirror) on the
  same seeds, with the paired difference and its 95% interval: what tactical adds where a lopsided
  scenario caps what any player of the weaker side can reach;
* sensitivity: the win rate of the side behind arrow slits at cover bonus 0 and 10 on ``keep.toml``
  and ``bench/data/slits.toml`` (shots only), with the tactical player on either side, on both and on
  neither, and the paired difference (the slits hide both sides of them, so more cover helps whichever
  side uses them); then, tactical on every side, falls and shoves a battle on each scenario, and how
  often each power of each scenario was used, and how many enemies and friends each use of a
  damaging area caught (beside greedy's on the same seeds);
* the cost of planning one turn, tactical beside greedy (a ratio, then microseconds).

Run: ``python -m bench.bench_ai [--battles N] [--seeds M]`` (N battles per side and match-up on the
seeds of master M; ``make bench`` runs all).
"""

from __future__ import annotations

import multiprocessing
from collections import Counter
from pathlib import Path
from typing import Any

from bench.args import command_line
from components.events import AttackRolled, Fell, PowerUsed, Pushed, SaveRolled, TurnStarted
from game.sim.context import WorkerContext, split_overrides
from game.sim.flags import SEED, whole
from game.sim.report import wilson, winners_difference
from game.sim.runner import DRAW, ai_rng, battle_seed, play
from game.sim.template import build

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "assets" / "scenarios").glob("*.toml"))
#: Brawlers with Strike and Shove on a cliff over a ravine (do shoves and falls happen?)
CLIFF = ROOT / "bench" / "data" / "cliff.toml"
#: Archers behind arrow slits against archers in the open: shots only (does cover matter, and to whom?)
SLITS = ROOT / "bench" / "data" / "slits.toml"
#: Every shipped power on one board (the golden test's gauntlet): which of them the player uses at all.
GAUNTLET = ROOT / "tests" / "golden" / "gauntlet.toml"
#: Light, darkness, fog, blind, dazzle, flight and blinks each useful to someone (which are used where useful?)
ARSENAL = ROOT / "bench" / "data" / "arsenal.toml"
MAX_ROUNDS = 40
OPPONENTS = ("greedy", "random")


def play_teams(path: str, seeds: tuple[int, ...], policies: str, overrides: tuple[tuple[str, Any], ...] = ()
               ) -> list[dict[str, Any]]:
    """Battles on these seeds, each team under its policy (``game.sim.runner.play``, the runner's own
    loop, with ``--policy``'s per-team spec); per battle the winner, events counted, planning time."""
    context = WorkerContext()  # one per task: the scenario is loaded once for its seeds
    powers, rules = split_overrides(overrides)
    scenario = context.scenario_for(path, rules)
    table = context.powers_for(powers, scenario)
    found = []
    for seed in seeds:
        battle, _ = build(scenario, seed, table, powers)
        try:
            timings: dict[str, float] = {}
            winner, _, refused, _, _ = play(battle, policies, ai_rng(seed), MAX_ROUNDS, timings)
            found.append({"winner": "" if winner == DRAW else winner, "ai": timings.get("ai", 0.0),
                          "turns": sum(isinstance(e, TurnStarted) for e in battle.events),
                          "falls": sum(isinstance(e, Fell) for e in battle.events),
                          "shoves": sum(isinstance(e, Pushed) for e in battle.events),
                          "uses": Counter(e.power for e in battle.events if isinstance(e, PowerUsed)),
                          "areas": area_catches(battle),
                          "refused": refused})
        finally:
            battle.close()
    return found


def area_catches(battle: Any) -> tuple[int, int, int]:
    """The battle's uses of damaging areas, and the enemies and friends of the user they caught
    (each creature that rolled a save or was rolled against for the use)."""
    uses = enemies = friends = 0
    current = None
    for event in battle.events:
        if isinstance(event, PowerUsed):
            power = battle.power(event.power)
            current = event if power.area is not None and power.damage is not None else None
            uses += current is not None
        elif current is not None and isinstance(event, SaveRolled | AttackRolled) and event.power == current.power:
            caught = event.entity if isinstance(event, SaveRolled) else event.target
            if battle.team(caught) == battle.team(current.entity):
                friends += 1
            else:
                enemies += 1
    return uses, enemies, friends


def _task(task: tuple[str, tuple[int, ...], str, tuple[tuple[str, Any], ...]]) -> list[dict[str, Any]]:
    return play_teams(*task)


def _run(pool: Any, path: str, seeds: list[int], policies: str, overrides: tuple[tuple[str, Any], ...] = ()
         ) -> list[dict[str, Any]]:
    """The battles of ``seeds`` over the pool, in chunks of eight."""
    chunks = [(path, tuple(seeds[i:i + 8]), policies, overrides) for i in range(0, len(seeds), 8)]
    return [row for rows in pool.map(_task, chunks) for row in rows]


def teams_of(path: Path) -> list[str]:
    return sorted({c.team for c in WorkerContext().scenario_for(str(path), ()).creatures})


def matchups(pool: Any, battles: int, master: int = 11) -> list[tuple[str, str, float, tuple[float, float]]]:
    """Tactical's averaged score against each opponent on each scenario (a draw counts half), on the
    seeds ``battle_seed(master, 0..battles-1)``."""
    found = []
    seeds = [battle_seed(master, i) for i in range(battles)]
    for path in SCENARIOS:
        teams = teams_of(path)
        for opponent in OPPONENTS:
            score, n = 0.0, 0
            for team in teams:
                spec = ",".join(f"{t}={'tactical' if t == team else opponent}" for t in teams)
                for row in _run(pool, str(path), seeds, spec):
                    score += 1.0 if row["winner"] == team else 0.5 if not row["winner"] else 0.0
                    n += 1
            found.append((path.stem, opponent, score / n, wilson(round(score), n)))
    return found


def gains(pool: Any, battles: int, master: int = 11) -> list[str]:
    """For each side of each scenario: tactical's win rate beside greedy's in its place (the greedy
    mirror) on the same seeds, and the paired difference with its 95% interval. A lopsided scenario
    caps what any player of its weaker side can reach; the difference says what tactical adds."""
    lines = []
    seeds = [battle_seed(master, i) for i in range(battles)]
    for path in SCENARIOS:
        teams = teams_of(path)
        mirror = [row["winner"] for row in _run(pool, str(path), seeds, "greedy")]
        for team in teams:
            spec = ",".join(f"{t}={'tactical' if t == team else 'greedy'}" for t in teams)
            ours = [row["winner"] for row in _run(pool, str(path), seeds, spec)]
            won = sum(w == team for w in ours) / len(ours)
            base = sum(w == team for w in mirror) / len(mirror)
            lines.append(f"  {path.stem:8s} as {team:9s}: tactical {won:6.1%}, greedy in its place {base:6.1%}: "
                         + _signed(winners_difference(mirror, ours, team)))
    return lines


def _signed(d: dict[str, float]) -> str:
    return f"{d['diff']:+.1%} [{d['low']:+.1%}, {d['high']:+.1%}]"


def cover_sensitivity(pool: Any, battles: int) -> list[str]:
    """On the two maps built around arrow slits (keep.toml, and slits.toml with shots only), the win
    rate of the side behind them at cover bonus 0 and 10, on the same seeds, by who plays which side,
    with the paired difference: more cover helps whichever side uses the slits, so with the tactical
    player on both sides it may help both alike, and against greedy it should help the tactical side."""
    seeds = [battle_seed(13, i) for i in range(battles)]
    lines = []
    for path, inside, outside in ((ROOT / "assets" / "scenarios" / "keep.toml", "keep", "raiders"),
                                  (SLITS, "wall", "field")):
        for spec in (f"{inside}=tactical,{outside}=greedy", f"{inside}=greedy,{outside}=tactical", "tactical",
                     "greedy"):
            winners = [[r["winner"] for r in _run(pool, str(path), seeds, spec, (("rules.cover_bonus", bonus),))]
                       for bonus in (0, 10)]
            rates = [sum(w == inside for w in found) / len(found) for found in winners]
            lines.append(f"  {path.name:10s} {spec:28s}: {inside} wins {rates[0]:6.1%} at cover bonus 0, "
                         f"{rates[1]:6.1%} at 10: {_signed(winners_difference(winners[0], winners[1], inside))}")
    return lines


def sensitivity(pool: Any, battles: int) -> None:
    print("\n".join(cover_sensitivity(pool, battles)))
    for path in [*SCENARIOS, CLIFF, GAUNTLET, ARSENAL]:
        rows = _run(pool, str(path), [battle_seed(17, i) for i in range(battles)], "tactical")
        uses: Counter[str] = Counter()
        used_in: Counter[str] = Counter()
        for r in rows:
            uses.update(r["uses"])
            used_in.update(p for p, n in r["uses"].items() if n)
        falls = sum(r["falls"] for r in rows) / len(rows)
        shoves = sum(r["shoves"] for r in rows) / len(rows)
        listed = ", ".join(f"{p} {uses.get(p, 0) / len(rows):.1f}" for p in sorted(set(powers_of_scenario(path))))
        refused = sum(r["refused"] for r in rows)
        print(f"  {path.stem:8s} falls {falls:4.2f}/battle, shoves {shoves:4.2f}/battle, refused {refused}; "
              f"uses/battle: {listed}")
        areas = [sum(r["areas"][i] for r in rows) for i in range(3)]
        if areas[0]:
            greedy = _run(pool, str(path), [battle_seed(17, i) for i in range(battles)], "greedy")
            theirs = [sum(r["areas"][i] for r in greedy) for i in range(3)]
            print(f"           damaging areas caught a use, enemies / friends: tactical {areas[1] / areas[0]:.2f} / "
                  f"{areas[2] / areas[0]:.2f} ({areas[0]} uses), greedy {theirs[1] / max(theirs[0], 1):.2f} / "
                  f"{theirs[2] / max(theirs[0], 1):.2f} ({theirs[0]} uses)")
        rare = sorted(p for p in set(powers_of_scenario(path)) if used_in[p] * 10 < len(rows))
        if rare:
            print(f"           used in fewer than 1 battle in 10: {', '.join(rare)}")


def powers_of_scenario(path: Path) -> list[str]:
    scenario = WorkerContext().scenario_for(str(path), ())
    return [p for c in scenario.creatures for p in c.powers]


def main() -> None:
    parser = command_line("bench_ai", __doc__)
    parser.add_argument("--battles", type=whole(1, 100_000), default=30,
                        help="battles per side and match-up (default: 30)")
    parser.add_argument("--seeds", type=SEED, default=11,
                        help="master seed of the match-ups' battles (default: 11); another checks for overfitting")
    args = parser.parse_args()
    with multiprocessing.get_context("fork").Pool(2) as pool:
        print(f"tactical against each opponent, sides swapped, {args.battles} battles a side (aim: >= 70%):")
        rows = matchups(pool, args.battles, args.seeds)
        for scenario, opponent, share, (low, high) in sorted(rows):
            mark = "ok" if share >= 0.7 else "BELOW 70%"
            print(f"  {scenario:8s} vs {opponent:6s}: {share:6.1%}  [{low:.1%}, {high:.1%}]  {mark}")
        print("\neach side: tactical against greedy beside greedy's own mirror, same seeds (paired difference):")
        print("\n".join(gains(pool, args.battles, args.seeds)))
        print("\nsensitivity:")
        sensitivity(pool, args.battles)
    spent: Counter[str] = Counter()
    turns: Counter[str] = Counter()
    for path in SCENARIOS:
        for policy in ("tactical", "greedy"):
            for row in play_teams(str(path), tuple(battle_seed(19, i) for i in range(3)), policy):
                spent[policy] += row["ai"]
                turns[policy] += row["turns"]
    per = {p: spent[p] / max(turns[p], 1) * 1e6 for p in ("tactical", "greedy")}
    print(f"\nplanning a turn: tactical / greedy = {per['tactical'] / per['greedy']:.1f}x  "
          f"(tactical {per['tactical']:.0f} us, greedy {per['greedy']:.0f} us, same battles' seeds)")


if __name__ == "__main__":
    main()
