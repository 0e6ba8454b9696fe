"""A stranger's file is checked on what was opened, not only on its path before: a scenario, save,
power file or script swapped for a FIFO between the check and the open (a file changed between load
and use) blocked the game in ``open`` for ever, waiting for a writer that never came."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from game.content import files
from game.content.files import UnreadableFile, read_bounded


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_path_swapped_for_a_fifo_after_its_check_is_refused_without_blocking(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fifo = tmp_path / "scenario.toml"
    os.mkfifo(fifo)
    # the check ran while the path was still a regular file; the swap came after it
    monkeypatch.setattr(files, "file_problem", lambda path, limit: None)
    # A writer, so that a reader blocked in open() (as the old read was) is let go and reads nothing,
    # instead of hanging the test: the old read returned b"", the new one refuses before reading. It
    # opens without blocking, again until told to stop: it never waits for a reader that may not come.
    stop = threading.Event()

    def write_once_read() -> None:
        while not stop.is_set():
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:  # ENXIO: nobody has it open for reading yet
                stop.wait(0.001)

    writer = threading.Thread(target=write_once_read, daemon=True)
    writer.start()
    try:
        with pytest.raises(UnreadableFile, match="not a regular file"):
            read_bounded(fifo, 1024)
    finally:
        stop.set()
        writer.join()


def test_a_regular_file_still_reads_whole_and_a_long_one_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "powers.toml"
    path.write_bytes(b"[zap]\n" * 10)
    assert read_bounded(path, 60) == b"[zap]\n" * 10
    with pytest.raises(UnreadableFile, match="the file is 60 bytes; at most 59 are read"):
        read_bounded(path, 59)
