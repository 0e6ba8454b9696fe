"""How good is the tactical computer player, and does it notice the rules a designer tunes?

Printed in one run:

* match-ups on every shipped scenario: tactical against the fixed greedy baseline and against random,
  sides swapped (tactical plays each team in turn on the same seeds), the two results averaged, with
  a 95% Wilson interval; a draw counts half. The aim is at least 70% on every scenario.
* sensitivity, tactical on every side: the keep's win rate at cover bonus 0 and 10 (the keep is built
  around arrow slits, so more cover should help it), falls and shoves a battle on ``ledge.toml``, and
  how often each power of each scenario was used;
* the cost of planning one turn, tactical beside greedy (a ratio, then microseconds).

Run: ``python -m bench.bench_ai [--battles N]`` (N battles per side and match-up; ``make bench`` runs all).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

from components.events import Fell, PowerUsed, Pushed
from game import ai
from game.battle.errors import IllegalCommand
from game.sim.report import wilson
from game.sim.runner import battle_seed, build, powers_for, scenario_for, split_overrides

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "assets" / "scenarios").glob("*.toml"))
MAX_ROUNDS = 40
OPPONENTS = ("greedy", "random")


def play_teams(path: str, seed: int, policies: dict[str, str], overrides: tuple[tuple[str, Any], ...] = ()
               ) -> dict[str, Any]:
    """One battle, each team under its own policy; the winner, events counted, planning time by policy."""
    powers, rules = split_overrides(overrides)
    scenario = scenario_for(path, rules)
    battle, _ = build(scenario, seed, powers_for(powers, scenario))
    rng = random.Random(f"ai:{seed}")
    spent: Counter[str] = Counter()
    turns: Counter[str] = Counter()
    refused = 0

    def take_turn(b: Any, entity: int) -> None:
        nonlocal refused
        if not b.can_act(entity):
            return
        policy = policies.get(b.team(entity), "tactical")
        started = time.perf_counter()
        plan = ai.plan_turn(b, entity, policy, rng)
        spent[policy] += time.perf_counter() - started
        turns[policy] += 1
        for name, args, kwargs in plan:
            try:
                getattr(b, name)(*args, **kwargs)
            except IllegalCommand:
                refused += 1
                break

    try:
        battle.start_combat()
        for _ in range(MAX_ROUNDS):
            if len(battle.standing_teams()) <= 1:
                break
            battle.tick(controller=take_turn)
        standing = battle.standing_teams()
        uses = Counter(e.power for e in battle.events if isinstance(e, PowerUsed))
        return {"winner": standing.pop() if len(standing) == 1 else "", "spent": dict(spent), "turns": dict(turns),
                "falls": sum(isinstance(e, Fell) for e in battle.events),
                "shoves": sum(isinstance(e, Pushed) for e in battle.events), "uses": dict(uses),
                "refused": refused, "teams": sorted({battle.team(c) for c in battle.creatures()})}
    finally:
        battle.close()


def _task(task: tuple[str, int, dict[str, str], tuple[tuple[str, Any], ...]]) -> dict[str, Any]:
    return play_teams(*task)


def teams_of(path: Path) -> list[str]:
    return sorted({c.team for c in scenario_for(str(path), ()).creatures})


def matchups(pool: Any, battles: int) -> list[tuple[str, str, float, tuple[float, float]]]:
    """Tactical's averaged score against each opponent on each scenario."""
    tasks, keys = [], []
    for path in SCENARIOS:
        teams = teams_of(path)
        for opponent in OPPONENTS:
            for team in teams:
                policies = {t: ("tactical" if t == team else opponent) for t in teams}
                for i in range(battles):
                    tasks.append((str(path), battle_seed(11, i), policies, ()))
                    keys.append((path.stem, opponent, team))
    results = pool.map(_task, tasks, chunksize=4)
    score: Counter[tuple[str, str]] = Counter()
    count: Counter[tuple[str, str]] = Counter()
    for (scenario, opponent, team), row in zip(keys, results):
        score[scenario, opponent] += 1.0 if row["winner"] == team else 0.5 if not row["winner"] else 0.0
        count[scenario, opponent] += 1
    found = []
    for (scenario, opponent), n in count.items():
        share = score[scenario, opponent] / n
        found.append((scenario, opponent, share, wilson(round(score[scenario, opponent]), n)))
    return found


def sensitivity(pool: Any, battles: int) -> None:
    keep = str(ROOT / "assets" / "scenarios" / "keep.toml")
    for bonus in (0, 10):
        rows = pool.map(_task, [(keep, battle_seed(13, i), {}, (("rules.cover_bonus", bonus),))
                                for i in range(battles)])
        wins = sum(r["winner"] == "keep" for r in rows)
        low, high = wilson(wins, len(rows))
        print(f"  keep.toml, cover bonus {bonus:2d}: keep wins {wins / len(rows):6.1%}  [{low:.1%}, {high:.1%}]")
    for path in SCENARIOS:
        rows = pool.map(_task, [(str(path), battle_seed(17, i), {}, ()) for i in range(battles)])
        uses: Counter[str] = Counter()
        for r in rows:
            uses.update(r["uses"])
        falls = sum(r["falls"] for r in rows) / len(rows)
        shoves = sum(r["shoves"] for r in rows) / len(rows)
        powers = sorted(set(powers_of_scenario(path)))
        listed = ", ".join(f"{p} {uses.get(p, 0) / len(rows):.1f}" for p in powers)
        refused = sum(r["refused"] for r in rows)
        print(f"  {path.stem:8s} falls {falls:4.2f}/battle, shoves {shoves:4.2f}/battle, refused {refused}; "
              f"uses/battle: {listed}")


def powers_of_scenario(path: Path) -> list[str]:
    scenario = scenario_for(str(path), ())
    return [p for c in scenario.creatures for p in c.powers]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=30, help="battles per side and match-up (default: 30)")
    args = parser.parse_args()
    if not 1 <= args.battles <= 100_000:
        parser.error("--battles must be in 1..100000")
    with multiprocessing.get_context("fork").Pool(2) as pool:
        print(f"tactical against each opponent, sides swapped, {args.battles} battles a side (aim: >= 70%):")
        rows = matchups(pool, args.battles)
        for scenario, opponent, share, (low, high) in sorted(rows):
            mark = "ok" if share >= 0.7 else "BELOW 70%"
            print(f"  {scenario:8s} vs {opponent:6s}: {share:6.1%}  [{low:.1%}, {high:.1%}]  {mark}")
        print("\nsensitivity (tactical on every side):")
        sensitivity(pool, args.battles)
    timing = [play_teams(str(p), battle_seed(19, i), {t: pol for t, pol in zip(teams_of(p), ("tactical", "greedy"))})
              for p in SCENARIOS for i in range(3)]
    spent: Counter[str] = Counter()
    turns: Counter[str] = Counter()
    for row in timing:
        spent.update(row["spent"])
        turns.update(row["turns"])
    per = {p: spent[p] / max(turns[p], 1) * 1e6 for p in ("tactical", "greedy")}
    print(f"\nplanning a turn: tactical / greedy = {per['tactical'] / per['greedy']:.1f}x  "
          f"(tactical {per['tactical']:.0f} us, greedy {per['greedy']:.0f} us, {sum(turns.values())} turns)")


if __name__ == "__main__":
    main()
