"""The floor: the bench's 4-against-4 with only attacks and damage, in plain Python (no ECS, no map).

What a battle costs when nothing but the dice is simulated: initiative, then each creature in
turn hits the weakest standing enemy (d20 + bonus against Defense, its power's damage dice) until
one side is down. No movement, sight, cover, conditions, scripts or events. Printed beside the full
rules in ``bench.bench_battles`` so the figure of the real thing has a ceiling to be read against.

It also measures the first-mover advantage of an even fight: the two sides are mirror images, so
any edge of the side that acts first is the turn order's alone.

Run alone: ``python -m bench.floor [BATTLES]``.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from bench.args import count
from bench.roster import CREATURES
from components.dice import Dice
from game.content.powers import default_powers
from game.sim.report import wilson

#: The blow each creature of the bench's roster strikes in the floor: a shipped power, whose attack
#: bonus and damage dice it rolls, or, for the mage, (attack bonus, damage) as the floor has always
#: rolled chain lightning's first bolt: 2d6 at +1 (the power file's bonus is +2; kept, so that the
#: floor's figures stay comparable with those printed before).
BLOWS: Mapping[str, str | tuple[int, str]] = MappingProxyType({
    "fighter": "strike", "archer": "shoot", "mage": (1, "2d6"), "priest": "strike"})


def side() -> tuple[tuple[str, int, int, int, int, int, int, int, int], ...]:
    """One side, from the bench's roster and the shipped powers: (name, health, defense, creature
    attack bonus, power attack bonus, damage dice count, sides, plus, initiative bonus)."""
    powers = default_powers()
    rows = []
    for key, health, defense, attack, initiative, _, _ in CREATURES:
        blow = BLOWS[key]
        if isinstance(blow, str):
            power_bonus, damage = powers[blow].attack_bonus or 0, powers[blow].damage
        else:
            power_bonus, damage = blow[0], Dice.parse(blow[1])
        assert damage is not None, f"{key}'s blow {blow!r} deals no damage"
        rows.append((key, health, defense, attack, power_bonus, damage.count, damage.sides, damage.bonus, initiative))
    return tuple(rows)


#: The side both teams field (mirror images).
SIDE = side()


@dataclass(slots=True)
class Fighter:
    team: int
    health: int
    defense: int
    attack: int
    dice: int
    sides: int
    plus: int
    initiative: int


def battle(rng: random.Random) -> tuple[int, int]:
    """One battle; returns (winning team or -1 for a draw, team that acted first)."""
    fighters = [Fighter(team, health, defense, bonus + power_bonus, dice, sides, plus, init)
                for team in (0, 1)
                for _, health, defense, bonus, power_bonus, dice, sides, plus, init in SIDE]
    order = sorted(fighters, key=lambda f: (-(rng.randint(1, 20) + f.initiative), rng.random()))
    first = order[0].team
    for _ in range(50):
        for f in order:
            if f.health <= 0:
                continue
            enemies = [e for e in fighters if e.team != f.team and e.health > 0]
            if not enemies:
                return f.team, first
            target = min(enemies, key=lambda e: e.health)
            if rng.randint(1, 20) + f.attack >= target.defense:
                target.health -= sum(rng.randint(1, f.sides) for _ in range(f.dice)) + f.plus
        standing = {f.team for f in fighters if f.health > 0}
        if len(standing) == 1:
            return standing.pop(), first
    return -1, first


def run(battles: int = 20000, seed: int = 0) -> dict[str, float]:
    """Battles per CPU second and the first mover's win rate (with its 95 % interval) over ``battles``."""
    return measure(lambda rng, _: battle(rng), battles, seed)


def measure(play: Callable[[random.Random, int], tuple[int, int]], battles: int, seed: int) -> dict[str, float]:
    """Time ``play(rng, i)`` (one battle: its winner, -1 for none, and the side that moved first) over
    ``battles``: battles per CPU second and the first mover's win rate with its 95 % interval."""
    rng = random.Random(seed)
    first_wins = decided = 0
    started = time.process_time()
    for i in range(battles):
        winner, first = play(rng, i)
        if winner >= 0:
            decided += 1
            first_wins += winner == first
    elapsed = time.process_time() - started
    low, high = wilson(first_wins, decided)
    return {"battles": battles, "seconds": elapsed, "rate": battles / elapsed,
            "first_mover": first_wins / max(decided, 1), "low": low, "high": high, "draws": battles - decided}


def main(argv: list[str] | None = None) -> int:
    result = run(count("floor", __doc__, "battles", 20000, "battles to play", argv))
    print(f"floor (plain Python, attacks and damage only): {result['rate']:.0f} battles/s on 1 core "
          f"({result['battles']} battles in {result['seconds']:.2f} s); first mover wins "
          f"{100 * result['first_mover']:.1f}% [{100 * result['low']:.1f}-{100 * result['high']:.1f}] of even battles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
