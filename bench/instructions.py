"""Instructions a bench battle costs, under callgrind: the figure a speed change is judged by.

Wall clock and even CPU time move by 5-15 % from run to run on a shared machine; instructions do not.
This runs the 4v4 bench battle of ``bench.bench_battles`` (tactical AI, scripts in-process as in a
pool worker) under ``valgrind --tool=callgrind`` twice, once for ``--short`` battles and once for
``--long``, after five warm battles and with the collector off, and prints the difference over the
battles between (start-up, imports and the warm battles cancel out). ``PYTHONHASHSEED`` is fixed:
left random it alone moves a result by about 0.2 M; fixed, runs of one tree agree within 0.04 M.
Where the code lives changes the count a little (paths are hashed and compared), so compare two
commits from checkouts whose paths have one length (``/work/wt-a`` beside ``/work/wt-b``).

Run: ``python -m bench.instructions [--short 10] [--long 30]`` (about two minutes; needs valgrind).
``make bench`` runs the ``bench_*`` modules, not this one: it is a developer's measure of a change,
not a figure of the issue.
``--battles N`` plays N battles in this process without valgrind (what each callgrind run executes).
"""

from __future__ import annotations

import gc
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.args import command_line
from bench.bench_battles import sandboxed_like_a_worker, scenario_text
from game.sim.flags import whole
from game.sim.runner import battle_seed, run_battle

#: The warm battles before the counted ones (the scenario's caches and its script host).
WARM = 5


def play(battles: int) -> None:
    """Play ``battles`` bench battles after the warm ones, the collector off (what callgrind counts)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "bench.toml")
        Path(path).write_text(scenario_text(), encoding="utf-8")
        context = sandboxed_like_a_worker()
        for i in range(WARM):
            run_battle(path, (), battle_seed(9, i), policy="tactical", context=context)
        gc.collect()
        gc.disable()
        for i in range(battles):
            row = run_battle(path, (), battle_seed(1, i), policy="tactical", context=context)
            assert not row["error"], row["error"]


def counted(battles: int, out_dir: Path) -> int:
    """Instructions callgrind counts for a process that plays ``battles`` battles."""
    out = out_dir / f"callgrind.{battles}"
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1")
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-m",
                    "bench.instructions", "--battles", str(battles)],
                   check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for line in out.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("summary:"):
            return int(line.split()[1])
    raise RuntimeError(f"callgrind wrote no summary line to {out}")


def main(argv: list[str] | None = None) -> int:
    args = command_line("instructions", __doc__)
    args.add_argument("--short", type=whole(1, 1000), default=10, help="battles of the first run (default 10)")
    args.add_argument("--long", type=whole(2, 1000), default=30, help="battles of the second run (default 30)")
    args.add_argument("--battles", type=whole(0, 1000), default=None,
                      help="play this many battles here, without valgrind (what each run executes)")
    options = args.parse_args(argv)
    if options.battles is not None:
        play(options.battles)
        return 0
    if options.long <= options.short:
        args.error(f"--long ({options.long}) must be more battles than --short ({options.short})")
    if shutil.which("valgrind") is None:
        print("bench.instructions: valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        short, long = counted(options.short, Path(tmp)), counted(options.long, Path(tmp))
    per_battle = (long - short) / (options.long - options.short)
    print(f"instructions a bench battle: {per_battle / 1e6:.2f} M (battles {options.short} to {options.long}, "
          f"callgrind, PYTHONHASHSEED=0, collector off; {options.short}: {short / 1e6:,.0f} M, "
          f"{options.long}: {long / 1e6:,.0f} M in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
