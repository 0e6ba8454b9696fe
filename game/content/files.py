"""Reading files a stranger may have handed over: regular files only, of a bounded size.

A scenario, a save or a script path can name ``/dev/zero``, a FIFO or a huge file; reading such a
thing whole would exhaust memory or block for ever, so every data file goes through here.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import sys
from pathlib import Path

MEGABYTE = 2**20
#: The largest scenario and power file read (a save or replay's copy of one is held to the same size).
SCENARIO_BYTES = 16 * MEGABYTE
POWER_FILE_BYTES = 4 * MEGABYTE


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


def bom_hint(text: str) -> str:
    """What to say after a parser's error when ``text`` starts with a UTF-8 byte order mark, else "".

    Some editors save one; neither TOML nor Starlark allows it, and their errors point at an
    invisible character: "Invalid statement (at line 1, column 1)"."""
    if not text.startswith("\ufeff"):
        return ""
    return " (the file starts with a UTF-8 byte order mark, which is not allowed here: save it as UTF-8 without a BOM)"


def inside_folder(path: Path, folder: Path, known: dict[str, tuple[int, int]] | None = None) -> bool:
    """Whether ``path`` leads inside ``folder`` once its symlinks are followed (a link out of it could
    read any file on the machine into an error message); False for a symlink loop.

    ``known`` maps paths already found inside to their file's (device, inode): the same file at the
    same path is not resolved again (a map's battles read their scripts through one such table).
    """
    identity: tuple[int, int] | None = None
    if known is not None:
        try:
            info = os.stat(path)
            identity = (info.st_dev, info.st_ino)
        except OSError:
            pass  # missing: resolved below, and refused by whoever reads it
        if identity is not None and known.get(str(path)) == identity:
            return True
    try:
        inside = path.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):  # a symlink loop
        return False
    if inside and known is not None and identity is not None:
        known[str(path)] = identity
    return inside


def loop_problem(path: Path, what: str) -> str | None:
    """"{what} is a symlink loop ...", or None: why a path :func:`inside_folder` found not inside it
    cannot be read when the reason is a loop (a link to itself, or a ring of links), which is no link
    out of the folder and must not be reported as one."""
    try:
        os.stat(path)
    except OSError as err:
        if err.errno == errno.ELOOP:
            return (f"{what} is a symlink loop (a link that leads back to itself, directly or through "
                    "other links): replace it with the real file or folder")
    return None


def file_problem(path: str | Path, limit: int) -> str | None:
    """Why ``path`` is not a regular file of at most ``limit`` bytes (missing, a directory, a device
    or pipe, too big), or None: what :func:`read_bounded` refuses, asked without reading, so that a
    check that only needs the file to exist gives the same reason as the read that follows.

    Raises:
        TypeError: ``path`` is not a path. ``os.stat`` takes an int as an open file descriptor, so
            ``load_scenario(5)`` asked descriptor 5 and said "5: cannot read the file: Bad file
            descriptor", or, where 5 was open, failed later inside ``os.open``.
    """
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(f"expected a file's path (a str or a pathlib.Path), not {type(path).__name__} {path!r:.40}")
    try:
        info = os.stat(path)
    except OSError as err:
        return f"cannot read the file: {err.strerror or err}"
    except ValueError:  # os.stat says only "embedded null byte", a ValueError no reader caught, naming no file
        return "cannot read the file: its path holds a NUL character, which no file's name can"
    return _kind_problem(info, limit)


def _kind_problem(info: os.stat_result, limit: int) -> str | None:
    """Why a file with this ``stat`` is not a regular file of at most ``limit`` bytes, or None."""
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file (a directory, device or pipe cannot be read as data)"
    if info.st_size > limit:
        return f"the file is {info.st_size} bytes; at most {limit} are read"
    return None


def read_bounded(path: str | Path, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes.

    The file is checked again once it is open, on what was opened: a path swapped for a FIFO between
    the check and the open (a file changed between load and use) would otherwise block the open for
    ever, so it is opened without blocking and its kind asked of the open file.

    Raises:
        UnreadableFile: missing, a directory, a device or pipe, or larger than ``limit``.
    """
    problem = file_problem(path, limit)
    if problem is not None:
        raise UnreadableFile(problem)
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as err:
        raise UnreadableFile(f"cannot read the file: {err.strerror or err}") from None
    with os.fdopen(descriptor, "rb") as handle:
        try:
            problem = _kind_problem(os.fstat(descriptor), limit)
            if problem is not None:
                raise UnreadableFile(problem)
            data = handle.read(limit + 1)
        except OSError as err:
            raise UnreadableFile(f"cannot read the file: {err.strerror or err}") from None
    if len(data) > limit:
        raise UnreadableFile(f"the file grew past {limit} bytes while being read")
    return data


def read_text(path: str | Path, limit: int) -> str:
    """:func:`read_bounded`'s bytes as UTF-8 text: the one reading of a scenario, power file, script
    or save, so a bad byte is told alike in each.

    Raises:
        UnreadableFile: as :func:`read_bounded`, or not UTF-8 text (the first bad byte's offset said).
    """
    raw = read_bounded(path, limit)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise UnreadableFile(f"not UTF-8 text (byte {err.start})") from None
