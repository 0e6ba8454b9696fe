"""Cost of one script call: in-process host vs worker host (vs plain Python).

Run: ``.venv/bin/python bench/bench_scripting.py [iterations]``

Why it exists: the powers system decides per power whether a script runs in-process
(trusted assets) or in the worker (scenario files), and needs the price of each.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.args import count
from game.scripting import InProcessHost, WorkerHost

SRC = '''
def no_bridge(ctx, n):
    return n + ctx.user

def one_read(ctx, n):
    return ctx.health(ctx.target) - n

def read_and_command(ctx, n):
    hp = ctx.health(ctx.target)
    ctx.damage(ctx.target, n)
    return hp
'''

CTX = {"user": 3, "target": 7, "power": "fireball", "round": 2}


def bridge(method: str, args: tuple[Any, ...]) -> Any:
    """Trivial bridge so that only host overhead is measured."""
    return 10 if method == "health" else None


def python_equivalent(ctx: dict[str, Any], n: int) -> int:
    return int(ctx["user"]) + n


def per_call_us(fn: Callable[[], Any], iterations: int) -> float:
    fn()  # warm up (starts the worker, first-call caches)
    start = time.perf_counter()
    for _ in range(iterations):
        fn()
    return (time.perf_counter() - start) / iterations * 1e6


def main() -> None:
    iterations = count("bench_scripting", __doc__, "iterations", 5000, "calls per measure")
    print(f"python function: {per_call_us(lambda: python_equivalent(CTX, 7), iterations):8.2f} us/call")
    for host_cls in (InProcessHost, WorkerHost):
        host = host_cls(methods=("health", "damage"), commands=frozenset({"damage"}))
        try:
            host.load("bench.star", SRC)
            for fn in ("no_bridge", "one_read", "read_and_command"):
                cost = per_call_us(lambda h=host, f=fn: h.call("bench.star", f, (CTX, 7), bridge), iterations)
                print(f"{host_cls.__name__:>13} {fn:<17}: {cost:8.2f} us/call")
        finally:
            host.close()


if __name__ == "__main__":
    main()
