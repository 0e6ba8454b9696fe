"""Reading files a stranger may have handed over: regular files only, of a bounded size.

A scenario, a save or a script path can name ``/dev/zero``, a FIFO or a huge file; reading such a
thing whole would exhaust memory or block for ever, so every data file goes through here.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

MEGABYTE = 2**20


class UnreadableFile(ValueError):
    """The path is not a regular file we are willing to read; the message says why."""


def read_bounded(path: str | Path, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes.

    Raises:
        UnreadableFile: missing, a directory, a device or pipe, or larger than ``limit``.
    """
    try:
        info = os.stat(path)
    except OSError as err:
        raise UnreadableFile(f"cannot read the file: {err.strerror or err}") from None
    if not stat.S_ISREG(info.st_mode):
        raise UnreadableFile("not a regular file (a directory, device or pipe cannot be read as data)")
    if info.st_size > limit:
        raise UnreadableFile(f"the file is {info.st_size} bytes; at most {limit} are read")
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as err:
        raise UnreadableFile(f"cannot read the file: {err.strerror or err}") from None
    if len(data) > limit:
        raise UnreadableFile(f"the file grew past {limit} bytes while being read")
    return data
