"""Reading files a stranger may have handed over: regular files only, of a bounded size.

A scenario, a save or a script path can name ``/dev/zero``, a FIFO or a huge file; reading such a
thing whole would exhaust memory or block for ever, so every data file goes through here.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from pathlib import Path

MEGABYTE = 2**20


class UnreadableFile(ValueError):
    """The path is not a regular file we are willing to read; the message says why."""


_LONG_NUMBER = re.compile(rf"\d{{{(sys.get_int_max_str_digits() or 4300) + 1},}}")


def too_long_number(text: str) -> str:
    """Why a parser refused a number of thousands of digits, and the line it is on (the parsers'
    own ValueError says neither): "line 3: a number of 5000 digits; ..."."""
    match = _LONG_NUMBER.search(text)
    if match is None:
        return "a number of too many digits to read"
    line = text.count("\n", 0, match.start()) + 1
    return (f"line {line}: a number of {len(match.group())} digits; at most {sys.get_int_max_str_digits()} "
            f"are read (and no number here needs more than a few)")


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
