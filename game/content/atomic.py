"""Writing a file so that readers see the old one or the new one, never half of either.

The new bytes go to a temporary file beside the target (``os.replace`` is atomic only within one
file system), flushed and fsynced, then renamed over it.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

__all__ = ["atomic_write"]


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path``: readers see the old file or the new one, never a mix.

    The new file keeps the old one's permissions. The fsync before the rename makes sure the rename
    never points at unwritten blocks.

    Raises:
        OSError: the file cannot be written; the old file is then as it was, and no temporary is left.
    """
    directory = path.parent if str(path.parent) else Path(".")
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        mode = 0o644
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
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
