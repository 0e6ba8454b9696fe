"""Ctrl+C stops a ``--engine dask`` run in the parent alone, without tracebacks from Dask's processes.

A terminal's Ctrl+C reaches every process of its group. The local cluster's worker processes each
printed a KeyboardInterrupt traceback from inside ``distributed``, and its nannies a CancelledError,
about a hundred lines over the interrupted run's table (the pool's workers ignore Ctrl+C since they
start; the Dask workers did not). The local cluster is now started with SIGINT ignored, which its
processes keep, and prints distributed's errors only.
"""

from __future__ import annotations

import logging
import signal

import pytest

from game.sim.engines import sigint_ignored


def test_sigint_is_ignored_inside_the_block_and_restored_after() -> None:
    before = signal.getsignal(signal.SIGINT)
    with sigint_ignored():
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    assert signal.getsignal(signal.SIGINT) is before


def test_sigint_is_restored_when_the_block_raises() -> None:
    before = signal.getsignal(signal.SIGINT)
    with pytest.raises(RuntimeError, match="no cluster"), sigint_ignored():
        raise RuntimeError("no cluster")
    assert signal.getsignal(signal.SIGINT) is before


def _worker_sigint() -> str:
    return repr(signal.getsignal(signal.SIGINT))


def _worker_log_levels() -> list[int]:
    """The levels distributed's own stream handlers print from (where its warnings went to stderr)."""
    handlers = logging.getLogger("distributed").handlers
    return sorted({h.level for h in handlers if isinstance(h, logging.StreamHandler)})


@pytest.mark.slow
def test_a_local_clusters_workers_leave_ctrl_c_to_the_parent() -> None:
    from game.sim.engines import DaskEngine

    engine = DaskEngine(None, 1)
    try:
        handlers = engine.client.run(_worker_sigint)
        levels = engine.client.run(_worker_log_levels)
    finally:
        engine.close(cancel=False)
    assert handlers and set(handlers.values()) == {repr(signal.SIG_IGN)}
    assert levels and all(found == [logging.ERROR] for found in levels.values())
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # the parent's own is as it was


def test_a_local_cluster_that_does_not_start_is_one_line_before_any_battle(monkeypatch, capsys, tmp_path) -> None:
    """A cluster that cannot start (no free port, no processes) was a traceback from inside distributed."""
    import distributed

    from game.sim.cli import main

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError("[Errno 98] Address already in use")

    monkeypatch.setattr(distributed, "LocalCluster", refuse)
    code = main(["assets/scenarios/ledge.toml", "--engine", "dask", "--battles", "2", "--no-progress",
                 "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert err.strip() == ("simulate: --engine dask: cannot start a local Dask cluster "
                           "(OSError: [Errno 98] Address already in use)")
