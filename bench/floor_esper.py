"""The esper floor: the bench's 4-against-4 with only attacks and damage, as esper processors.

The same battle as :mod:`bench.floor` (same creatures, same dice drawn in the same order, so the
same winners), but the way the real rules are built: each battle in its own esper world, the
creatures as entities with components, and each turn one ``esper.process`` call through two
processors (an attack system that rolls against the weakest standing enemy and queues a hit, a
damage system that applies it). No map, sight, cover, conditions, scripts or events. Printed
beside the full rules and the plain-Python floor in ``bench.bench_battles``: what the ECS alone
costs a battle.

Run alone: ``python -m bench.floor_esper [BATTLES]``.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass

import esper

from bench.args import count
from bench.floor import SIDE, measure


@dataclass(slots=True)
class Side:
    team: int


@dataclass(slots=True)
class Vitals:
    health: int
    defense: int


@dataclass(slots=True)
class Attack:
    bonus: int
    dice: int
    sides: int
    plus: int
    initiative: int


class Turn:
    """Whose turn it is and the hits queued this turn: the state the processors share."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.hits: list[tuple[int, int]] = []


class AttackSystem(esper.Processor):
    """The acting creature hits the weakest standing enemy: d20 + bonus against its Defense."""

    def __init__(self, turn: Turn) -> None:
        self.turn = turn

    def process(self, actor: int) -> None:
        rng = self.turn.rng
        side = esper.component_for_entity(actor, Side)
        attack = esper.component_for_entity(actor, Attack)
        enemies = [(e, v) for e, (s, v) in esper.get_components(Side, Vitals) if s.team != side.team and v.health > 0]
        if not enemies:
            return
        target, vitals = min(enemies, key=lambda ev: ev[1].health)
        if rng.randint(1, 20) + attack.bonus >= vitals.defense:
            damage = sum(rng.randint(1, attack.sides) for _ in range(attack.dice)) + attack.plus
            self.turn.hits.append((target, damage))


class DamageSystem(esper.Processor):
    """Queued hits come off Health."""

    def __init__(self, turn: Turn) -> None:
        self.turn = turn

    def process(self, actor: int) -> None:
        for target, damage in self.turn.hits:
            esper.component_for_entity(target, Vitals).health -= damage
        self.turn.hits.clear()


def battle(rng: random.Random, world: str) -> tuple[int, int]:
    """One battle in its own world; returns (winning team or -1 for a draw, team that acted first)."""
    esper.switch_world(world)
    turn = Turn(rng)
    esper.add_processor(AttackSystem(turn), priority=2)
    esper.add_processor(DamageSystem(turn), priority=1)
    for team in (0, 1):
        for _, health, defense, bonus, power_bonus, dice, sides, plus, init in SIDE:
            esper.create_entity(Side(team), Vitals(health, defense),
                                Attack(bonus + power_bonus, dice, sides, plus, init))
    entities = [e for e, _ in esper.get_component(Side)]
    order = sorted(entities, key=lambda e: (-(rng.randint(1, 20) + esper.component_for_entity(e, Attack).initiative),
                                            rng.random()))
    first = esper.component_for_entity(order[0], Side).team
    try:
        for _ in range(50):
            for actor in order:
                if esper.component_for_entity(actor, Vitals).health <= 0:
                    continue
                team = esper.component_for_entity(actor, Side).team
                if not any(s.team != team and v.health > 0 for _, (s, v) in esper.get_components(Side, Vitals)):
                    return team, first
                esper.process(actor)
            standing = {s.team for _, (s, v) in esper.get_components(Side, Vitals) if v.health > 0}
            if len(standing) == 1:
                return standing.pop(), first
        return -1, first
    finally:
        esper.switch_world("default")
        esper.delete_world(world)


def run(battles: int = 5000, seed: int = 0) -> dict[str, float]:
    """Battles per CPU second and the first mover's win rate (with its 95 % interval) over ``battles``."""
    return measure(lambda rng, i: battle(rng, f"floor-esper-{i}"), battles, seed)


def main(argv: list[str] | None = None) -> int:
    result = run(count("floor_esper", __doc__, "battles", 5000, "battles to play", argv))
    print(f"esper floor (attacks and damage only, as esper processors): {result['rate']:.0f} battles/s on 1 core "
          f"({result['battles']} battles in {result['seconds']:.2f} CPU s); first mover wins "
          f"{100 * result['first_mover']:.1f}% [{100 * result['low']:.1f}-{100 * result['high']:.1f}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
