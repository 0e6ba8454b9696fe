"""Run every benchmark in turn: ``python -m bench`` (what ``make bench`` does).

Each benchmark runs in its own process, so one's memory and caches do not colour the next, and
each prints its own figures: ours beside a baseline measured in the same run, then absolutes.
"""

from __future__ import annotations

import subprocess
import sys

BENCHMARKS = ("bench_core", "bench_api_tick", "bench_powers", "bench_scripting", "bench_script_battles",
              "bench_script_rounds", "bench_render", "bench_battles", "bench_ai", "bench_limits")


def main() -> int:
    failed = []
    for name in BENCHMARKS:
        print(f"\n=== bench.{name} ===", flush=True)
        if subprocess.call([sys.executable, "-m", f"bench.{name}"]) != 0:
            failed.append(name)
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
