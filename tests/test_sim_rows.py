"""Every battle's row has one shape: a battle that failed in its worker and one whose worker died are
read by the report and written to the CSV alike (the worker's rows once lacked the script columns)."""

from __future__ import annotations

from pathlib import Path

from game.sim.runner import run_battle
from game.sim.worker import Chunk, failed_rows


def test_a_dead_workers_rows_have_the_shape_of_a_failed_battles(tmp_path: Path) -> None:
    missing = str(tmp_path / "nowhere.toml")
    failed = run_battle(missing, (), seed=5)
    assert failed["error"] and failed["script_failures"] == 0 and failed["script_error"] == ""
    [dead] = failed_rows(Chunk(2, missing, (), ((7, 5),)), "the worker died")
    assert (dead["variant"], dead["battle"], dead["error"]) == (2, 7, "the worker died")
    assert {k: v for k, v in dead.items() if k not in ("variant", "battle", "error")} == \
        {k: v for k, v in failed.items() if k != "error"}
