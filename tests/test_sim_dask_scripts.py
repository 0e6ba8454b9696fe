"""``--engine dask`` plays scripted scenarios: the script host starts as a subprocess inside the daemonic
Dask worker (multiprocessing refuses "daemonic processes are not allowed to have children"), and the
rows are the pool engine's, digit for digit."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from game.sim.config import SimConfig
from game.sim.flags import check_scheduler
from game.sim.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent
GAUNTLET = str(ROOT / "tests/golden/gauntlet.toml")


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        return sorted(csv.DictReader(handle), key=lambda r: (int(r["variant"]), int(r["battle"])))


@pytest.mark.slow
def test_a_scripted_scenario_on_dask_gives_the_pool_engines_rows(tmp_path: Path) -> None:
    from distributed import LocalCluster

    assert "scripts" in Path(GAUNTLET).read_text()
    common = {"battles": 3, "seed": 5, "max_rounds": 6}
    pool = simulate(SimConfig(GAUNTLET, workers=2, out_dir=str(tmp_path / "pool"), **common), progress=False)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                      scheduler_kwargs={"dashboard_address": "127.0.0.1:0"}) as cluster:
        address = cluster.scheduler_address
        assert check_scheduler(address) == address          # a real scheduler passes the --scheduler check
        dask = simulate(SimConfig(GAUNTLET, engine="dask", scheduler=address, out_dir=str(tmp_path / "dask"),
                                  **common), progress=False)
    assert [f.error for f in dask.failures] == [] and dask.done == 3
    assert pool.failed == 0
    assert _rows(tmp_path / "dask" / "battles.csv") == _rows(tmp_path / "pool" / "battles.csv")
    assert dask.table() == pool.table()


@pytest.mark.slow
def test_a_local_cluster_takes_no_fixed_port_so_two_runs_at_once_do_not_clash() -> None:
    import socket
    import warnings

    from game.sim.engines import DaskEngine

    with socket.socket() as busy:  # another run's scheduler (or anything) on the dashboard's usual port
        busy.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            busy.bind(("", 8787))
            busy.listen()
        except OSError:
            pass  # already taken by something else: the same situation
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            engine = DaskEngine(None, 1)
            try:
                assert engine.client.scheduler_info()["workers"]
            finally:
                engine.close(cancel=False)
    assert not [w for w in caught if "8787" in str(w.message)], [str(w.message) for w in caught]
