"""Power uses per second for one effect (an attack roll, then 1d6 damage to one target), three ways:

* data only: ``attack = { bonus = 0 }`` and ``damage = "1d6"`` in the power's table;
* data plus a script: the same attack in data, the damage from a Starlark ``on_hit`` doing
  ``ctx.damage(target, ctx.roll("1d6"))``, with the script in this process (trusted) and in the worker;
* a plain Python function: the same attack in data, the damage from a trusted handler
  ``b.on(AttackRolled, ...)``.

Run: ``python -m bench.bench_powers [uses]`` (from the project root).

Two measures, each the best of a few repeats: a whole use (``use_power`` + one ``tick``, what a turn
costs) and mostly the resolution (20 uses queued, then one tick; outside combat uses are not rationed).
The issue's target: a scripted use costs no more than 3x a data-only use. Last, it shows that each host
parsed the script once, however many battles used it.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.args import count
from components.dice import Dice
from components.events import AttackRolled
from components.powers import Power
from game import Battle
from game.battle.reactions import new_hosts
from game.content.powers import parse_power
from game.scripting import ScriptHosts, WorkerHost

SCRIPT = "bench_zap.star"
SCRIPT_SRC = 'def on_hit(ctx, target):\n    ctx.damage(target, ctx.roll("1d6"))\n'
TARGET = 3.0
D6 = Dice.parse("1d6")


def table() -> dict[str, Power]:
    base = {"description": "bench", "range_ft": 30, "targets": "enemy", "attack": {"bonus": 0}}
    return {
        "zap-data": parse_power("zap-data", {**base, "name": "Zap (data)", "damage": "1d6"}, "bench"),
        "zap-script": parse_power("zap-script", {**base, "name": "Zap (script)", "script": SCRIPT}, "bench"),
        "zap-python": parse_power("zap-python", {**base, "name": "Zap (python)"}, "bench"),
    }


def python_damage(battle: Battle, event: AttackRolled) -> None:
    """The plain-Python version of the script: on a hit of zap-python, 1d6 damage from the battle's dice."""
    if event.hit and event.power == "zap-python":
        battle.damage(event.target, D6.roll(battle.state.rng))


def arena(script_dir: Path, trusted: bool, hosts: ScriptHosts) -> tuple[Battle, int, int]:
    b = Battle(seed=1, powers=table(), script_dir=script_dir, trusted_scripts=trusted, script_hosts=hosts)
    user = b.spawn("user", 2, 2, team="a")
    target = b.spawn("target", 3, 2, team="b", health=100_000)  # the most a creature has: 8,000 zaps do at most 96,000
    b.on(AttackRolled, python_damage)
    return b, user, target


def uses_per_second(script_dir: Path, hosts: ScriptHosts, trusted: bool, power: str, uses: int, per_tick: int,
                    repeats: int = 3) -> float:
    """Best of ``repeats``: uses resolved per second, ``per_tick`` uses queued before each tick."""
    best = float("inf")
    for _ in range(repeats):
        b, user, target = arena(script_dir, trusted, hosts)
        try:
            b.use_power(user, power, target=target)  # warm up: loads the script, starts the worker
            b.tick()
            ticks = max(1, uses // per_tick)
            start = time.perf_counter()
            for _ in range(ticks):
                for _ in range(per_tick):
                    b.use_power(user, power, target=target)
                b.tick()
            best = min(best, (time.perf_counter() - start) / (ticks * per_tick))
            assert not [e for e in b.events if e.kind == "script_failed"], "the bench script failed"
            assert any(e.kind == "damaged" for e in b.events), f"{power} never did damage"
        finally:
            b.close()
    return 1 / best


def measure(script_dir: Path, hosts: ScriptHosts, uses: int, per_tick: int, label: str
            ) -> list[tuple[str, float, float]]:
    """(variant, uses/s, cost relative to data only) for every variant."""
    rows: list[tuple[str, float]] = [
        ("data only", uses_per_second(script_dir, hosts, True, "zap-data", uses, per_tick)),
        ("data + script, in-process", uses_per_second(script_dir, hosts, True, "zap-script", uses, per_tick)),
        ("data + script, worker", uses_per_second(script_dir, hosts, False, "zap-script", uses, per_tick)),
        ("data + Python handler", uses_per_second(script_dir, hosts, True, "zap-python", uses, per_tick)),
    ]
    data_rate = rows[0][1]
    print(f"\n{label}")
    print(f"  {'variant':<28}{'uses/s':>12}{'us/use':>10}{'x data':>9}")
    result = []
    for name, rate in rows:
        ratio = data_rate / rate
        print(f"  {name:<28}{rate:>12,.0f}{1e6 / rate:>10.1f}{ratio:>9.2f}")
        result.append((name, rate, ratio))
    return result


def verdict(rows: list[tuple[str, float, float]]) -> None:
    for name, _, ratio in rows:
        if "script" in name:
            met = "meets" if ratio <= TARGET else "MISSES"
            print(f"  {name}: {ratio:.2f}x a data-only use -> {met} the target (<= {TARGET:g}x)")


def parsed_once(script_dir: Path, hosts: ScriptHosts) -> None:
    """Several battles on each host; each host parsed and froze the script once."""
    for trusted in (True, False):
        for _ in range(3):
            b, user, target = arena(script_dir, trusted, hosts)
            b.use_power(user, "zap-script", target=target)
            b.tick()
            b.close()
    for (trusted, _), host in hosts.started().items():
        counts = host.stats()["load_counts"] if isinstance(host, WorkerHost) else host.load_counts
        kind = "in-process" if trusted else "worker"
        parsed = sum(n for name, n in counts.items() if name.split("#")[0] == SCRIPT)  # named file#digest
        print(f"  {kind:<10} host parsed {SCRIPT} {parsed} time(s), "
              "though every battle of this run used it")


def main() -> None:
    uses = count("bench_powers", __doc__, "uses", 2000, "power uses per measure")
    with tempfile.TemporaryDirectory() as directory:
        script_dir = Path(directory)
        (script_dir / SCRIPT).write_text(SCRIPT_SRC, encoding="utf-8")
        hosts = new_hosts()  # one owner for the run: each host parses the script once
        try:
            whole = measure(script_dir, hosts, uses, 1, f"A whole use: use_power + one tick ({uses} uses)")
            verdict(whole)
            resolution = measure(script_dir, hosts, uses * 4, 20,
                                 f"Resolution mostly: 20 uses queued per tick ({uses * 4} uses)")
            verdict(resolution)
            print("\nParsed once per host:")
            parsed_once(script_dir, hosts)
        finally:
            hosts.close()


if __name__ == "__main__":
    main()
