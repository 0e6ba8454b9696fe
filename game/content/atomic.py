"""Writing a file so that readers see the old one or the new one, never half of either.

The new bytes go to a temporary file beside the target (``os.replace`` is atomic only within one
file system), flushed and fsynced, then renamed over it. A writer killed mid-write cannot remove
its temporary, so every write first removes the stale temporaries of the same target: those
whose writing process is gone, or that are older than :data:`STALE_SECONDS` (a writer that writes
for long, a simulation's table, flushes as it goes, so its temporary stays fresh).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

__all__ = ["STALE_SECONDS", "atomic_write", "remove_stale_temporaries", "replacing", "temporary_prefix"]

#: A temporary this old is stale whoever wrote it: a save takes milliseconds.
STALE_SECONDS = 600.0
_OURS = re.compile(r"^(?P<pid>\d{1,10})\.[A-Za-z0-9_]+\.tmp$")  # ".save.json.<pid>.<random>.tmp"
_OLDER = re.compile(r"^[A-Za-z0-9_]{8}\.tmp$")  # ".save.json.<random>.tmp", before pids were named


def temporary_prefix(path: Path) -> str:
    """The start of the names of ``path``'s temporaries (``.save.json.<pid>.``), hidden on POSIX."""
    return f".{path.name}.{os.getpid()}."


def _writer_gone(pid: int) -> bool:
    """Whether no process ``pid`` exists (only asked on POSIX, where signal 0 merely checks)."""
    if os.name != "posix" or pid == os.getpid():
        return False
    if pid <= 0:
        return True  # no process has such an id (and signal 0 to 0 or less would ask about groups)
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):  # no such process; or a pid past any the system gives
        return True
    except OSError:  # it exists, owned by someone else
        return False
    return False


def remove_stale_temporaries(path: Path, now: float | None = None) -> list[Path]:
    """Remove the temporaries an interrupted write of ``path`` left behind; the paths removed.

    Only names this module makes for this very target are considered (``.NAME.<pid>.<random>.tmp``
    and the older ``.NAME.<random>.tmp``), never another file's: a temporary whose writer is gone,
    or one older than :data:`STALE_SECONDS`. A live writer's fresh temporary is left alone.
    """
    directory = path.parent if str(path.parent) else Path(".")
    prefix = f".{path.name}."
    now = time.time() if now is None else now
    removed: list[Path] = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return removed
    for entry in entries:
        if not entry.name.startswith(prefix):
            continue
        rest = entry.name[len(prefix):]
        ours, older = _OURS.match(rest), _OLDER.match(rest)
        if not (ours or older):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode):
            continue
        if now - info.st_mtime > STALE_SECONDS or (ours is not None and _writer_gone(int(ours["pid"]))):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
    return removed


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path``: readers see the old file or the new one, never a mix.

    Raises:
        OSError: the file cannot be written; the old file is then as it was, and no temporary is left.
    """
    with replacing(path, binary=True) as handle:
        handle.write(data)


@contextlib.contextmanager
def replacing(path: Path, binary: bool = False) -> Iterator[IO[Any]]:
    """A handle on a temporary beside ``path`` that replaces it when the ``with`` block ends, for a
    file written a little at a time (a simulation's table); an exception in the block leaves the old
    file as it was and no temporary.

    Stale temporaries of ``path`` are removed first; the new file keeps the old one's permissions.
    The fsync before the rename makes sure the rename never points at unwritten blocks.

    Raises:
        OSError: the file cannot be written (as :func:`atomic_write`); IsADirectoryError, before
            anything is written, when ``path`` is a directory; before it too, when it holds a NUL character.
    """
    directory = path.parent if str(path.parent) else Path(".")
    if "\0" in str(path):  # (os.stat would raise a ValueError, "embedded null byte", which no caller expects)
        raise OSError(errno.EINVAL, "a file's name cannot hold a NUL character", str(path))
    if path.is_dir():  # (the rename would fail only after the whole file was written, naming the temporary)
        raise IsADirectoryError(errno.EISDIR, "a directory is there, not a file", str(path))
    remove_stale_temporaries(path)
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        mode = 0o644
    fd, temp = tempfile.mkstemp(prefix=temporary_prefix(path), suffix=".tmp", dir=directory)
    try:
        with (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", newline="", encoding="utf-8")) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    # Make the rename itself durable; not every platform lets a directory be opened, so best effort.
    with contextlib.suppress(OSError):
        dir_fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
