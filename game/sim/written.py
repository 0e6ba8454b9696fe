"""What a run writes into ``--out`` once its battles are over: beside battles.csv (written as the rows
came), the plots and summary.json, and an earlier run's files that would contradict them removed.

Apart from :mod:`game.sim.simulate`, which plays the battles, as this is the part a second Ctrl+C can
land in: drawing the plots takes seconds, and a Ctrl+C then used to end the run with one line,
"simulate: interrupted", its whole table unprinted and no summary.json, for battles that had all
finished and were in battles.csv.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from game.content.atomic import atomic_write
from game.sim.command import battle_settings
from game.sim.flags import one_line
from game.sim.outputs import (
    PAIRED_PLOT,
    ROUNDS_PLOT,
    SUMMARY,
    TABLE,
    WINRATE_PLOT,
    Identity,
    identity_of,
    remove_stale_replays,
    remove_unwritten,
    written_over,
)
from game.sim.plots import plot
from game.sim.provenance import provenance

if TYPE_CHECKING:
    from game.sim.simulate import SimResult

__all__ = ["write_files"]


def write_files(result: SimResult, out_dir: Path, seeds_per_variant: int, earlier: Mapping[Path, Identity]) -> None:
    """battles.csv is written already; remove the ``earlier`` replays this run did not write over, add
    the plots (when a battle finished) and summary.json, then remove the output files of an earlier run
    that this one did not write. A file that cannot be written is noted in ``result.write_errors``:
    the table, in memory, is never lost with it. Ctrl+C while the plots are drawn leaves those not drawn
    yet undrawn (and says so), and the run is then interrupted: summary.json and the report still follow."""
    config = result.config
    if not result.write_errors:  # battles.csv replaced the last run's
        result.files.append(out_dir / TABLE)
    try:
        result.removed += remove_stale_replays(out_dir, earlier)
    except OSError as err:
        result.write_errors.append(f"cannot remove an earlier run's replays in {out_dir}: {err.strerror or err}")
    plots = {out_dir / name: identity_of(out_dir / name) for name in (WINRATE_PLOT, ROUNDS_PLOT, PAIRED_PLOT)}
    try:
        if result.done > result.failed:
            result.files += plot(result.summaries(), result.variants, result.teams, config.sets, out_dir,
                                 config.max_rounds)
    except OSError as err:
        result.write_errors.append(f"cannot write the plots in {out_dir}: {err.strerror or err}")
    except KeyboardInterrupt:  # those not drawn yet are removed below; one drawn before it is this run's, whole
        result.interrupted = True  # (it was removed too, named "an earlier run's ... not written by this run")
        drawn = written_over(plots)
        result.files += drawn
        but = f" (but for {', '.join(map(str, drawn))}, drawn before it)" if drawn else ""
        result.write_errors.append(f"the plots in {out_dir} were not drawn{but}: interrupted (Ctrl+C) while drawing")
    except Exception as err:  # matplotlib failing to draw must not cost the run its table and summary
        result.write_errors.append(f"cannot draw the plots in {out_dir}: {type(err).__name__}: {one_line(err)}")
    summary = {"scenario": str(config.scenario), "seed": config.seed, **battle_settings(config),
               "battles_per_variant": seeds_per_variant, "done": result.done, "failed": result.failed,
               "interrupted": result.interrupted, "variants": result.summaries(),
               "failures": [f.__dict__ for f in result.failures], "provenance": provenance()}
    try:
        atomic_write(out_dir / SUMMARY, json.dumps(summary, indent=1, default=str).encode("utf-8"))
        result.files.append(out_dir / SUMMARY)
    except OSError as err:
        result.write_errors.append(f"cannot write {out_dir / SUMMARY}: {err.strerror or err}")
    try:
        result.removed += remove_unwritten(out_dir, result.files)
    except OSError as err:
        result.write_errors.append(f"cannot remove an earlier run's output in {out_dir}: {err.strerror or err}")
