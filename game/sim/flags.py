"""Checks for command-line flag values: a hostile value is one line naming the flag, exit status 2.

``python -m game`` takes scenarios from strangers and flags from scripts, so every number a flag
gives is range-checked where it is parsed, and every path before anything is written. Each checker
is an argparse ``type=`` (argparse adds ``argument --flag:`` to the message) or raises
:class:`FlagError`, whose message already names the flag. :class:`OneLineParser` makes argparse's own
errors (an unknown flag, a bad choice) one line too, instead of a usage block.

Nothing here imports the battle, Dask or pygame: the checks run before any of them is needed.
"""

from __future__ import annotations

import argparse
import errno
import math
import os
import re
import socket
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn
from urllib.parse import urlsplit

from components.values import MAX_SEED, clipped, escaped, shown_text
from game.content.files import loop_problem

#: How long ``--scheduler`` may take to answer a TCP connect before the command gives up.
CONNECT_SECONDS = 5.0


class FlagError(ValueError):
    """A flag value that cannot be used; the message names the flag and what was expected."""


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (``prog: error: ...``) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: error: {one_line(message)}", file=sys.stderr)
        raise SystemExit(2)


#: The longest word of a message a line shows whole (a long path passes; a megabyte flag does not).
LONG_WORD = 300
_LONG_WORD_RE = re.compile(rf"\S{{{LONG_WORD + 1},}}")


def one_line(text: object) -> str:
    """Any message as a single line (a multi-problem scenario error lists its problems with ``;``), each
    character that has no place in a terminal's line spelt as an escape (see :func:`escaped`), and each
    word of more than ``LONG_WORD`` characters cut to its start and its length: a refusal quotes what it
    refused (argparse's invalid choice, a scenario path the system calls too long), and a flag a
    megabyte long made a line a megabyte long."""
    problems = getattr(text, "problems", None)
    source = getattr(text, "source", None)
    if isinstance(problems, list) and len(problems) > 1 and source:
        line = f"{source}: {len(problems)} problems: " + "; ".join(" ".join(str(p).split()) for p in problems)
    else:
        line = " ".join(str(text).split())
    return escaped(_LONG_WORD_RE.sub(lambda m: clipped(m[0], 80), line))


def decimal(text: str) -> int | None:
    """``text`` as a whole number written in the digits 0-9 (a leading sign allowed), else None:
    ``int`` also takes '1_0', ' 5' and other scripts' digits, which no one means on a command line."""
    if len(text) > 30 or not re.fullmatch(r"[-+]?[0-9]+", text):
        return None
    return int(text)


def whole(low: int, high: int, what: str = "a whole number") -> Callable[[str], int]:
    """An argparse type: an integer from ``low`` to ``high`` inclusive."""

    def check(text: str) -> int:
        value = decimal(text)
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected {what} from {low:,} to {high:,}, got {shown_text(text)}")
        return value

    check.__name__ = what
    return check


def seconds(low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a finite number of seconds from ``low`` to ``high`` (no nan, no inf)."""

    def check(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected seconds from {low:g} to {high:g}, got {shown_text(text)}")
        return value

    check.__name__ = "seconds"
    return check


SEED = whole(0, MAX_SEED, "a seed")


def check_out_dir(flag: str, text: str) -> Path:
    """The output directory a flag names, checked without creating anything.

    It must be a directory already, or be creatable: its nearest existing ancestor is a directory in
    which a directory can really be made (tried with a temporary one, removed at once; ``access``
    says yes to root even on /proc).

    Raises:
        FlagError: an empty value, an existing file or device (``/dev/null``), or a place where
            nothing can be created.
    """
    if not text.strip():
        raise FlagError(f"{flag} {shown_text(text)}: expected a directory to write into, got an empty name")
    path = Path(text).expanduser()
    try:
        if path.is_symlink() and not path.exists():  # (a loop of links is none to nothing: said as what it is)
            why = loop_problem(path, "it") or "it is a link to nothing"
            raise FlagError(f"{flag} {shown_text(text)}: expected a directory, but {why}")
        if path.exists() and not path.is_dir():
            kind = "file" if path.is_file() else "device or special file"
            raise FlagError(f"{flag} {shown_text(text)}: expected a directory, but it is an existing {kind}")
        ancestor = path
        while not ancestor.exists():
            ancestor = ancestor.parent
    except OSError as err:  # a name too long for the file system, say
        raise FlagError(f"{flag} {shown_text(text)}: cannot be used ({err.strerror or err})") from None
    if not ancestor.is_dir():
        raise FlagError(f"{flag} {shown_text(text)}: cannot be created, {str(ancestor)!r} is not a directory")
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".write-check-", dir=ancestor))
    except OSError as err:
        raise FlagError(f"{flag} {shown_text(text)}: cannot write in {str(ancestor)!r} "
                        f"({_why_not_made(err)})") from None
    return path


def _why_not_made(err: OSError) -> str:
    """Why no folder could be made in an existing folder: the system's reason, but for ENOENT. /proc
    answers a mkdir with "No such file or directory" of a folder that exists (the reason a user read,
    "cannot write in '/proc' (No such file or directory)", was false: it is there, and is not writable)."""
    if err.errno == errno.ENOENT:
        return "it exists, but its file system lets no file or folder be made in it"
    return err.strerror or str(err)


def check_scheduler(text: str, timeout: float = CONNECT_SECONDS) -> str:
    """A Dask scheduler address that answers within ``timeout`` seconds.

    Dask's own client waits without limit on a port that accepts but never speaks, so this checks
    first: the TCP connect must succeed and (for ``tcp://``) the scheduler must send its handshake,
    which it does unasked as soon as a connection opens, both within ``timeout``.

    Raises:
        FlagError: no host and port in the address, nothing listening there, or a silent listener.
    """
    parsed = urlsplit(text if "://" in text else f"tcp://{text}")
    try:
        host, port = parsed.hostname, parsed.port
    except ValueError:
        host, port = None, None
    if parsed.scheme not in ("tcp", "tls") or not host or port is None:
        raise FlagError(f"--scheduler {shown_text(text)}: expected a Dask scheduler address like tcp://HOST:8786")
    try:
        with socket.create_connection((host, port), timeout=timeout) as conn:
            if parsed.scheme == "tcp" and not conn.recv(1):
                raise ConnectionResetError("closed without a word")
    except OSError as err:
        reason = "timed out" if isinstance(err, TimeoutError) else (err.strerror or str(err))
        raise FlagError(f"--scheduler {shown_text(text)}: no Dask scheduler answered within {timeout:g} s "
                        f"({one_line(reason)})") from None
    return text


def policy_spec(text: str) -> str:
    """An argparse type: a policy for every team (``tactical``) or per team (``keep=tactical,raiders=greedy``)."""
    from game.ai.policy import parse_policies  # the AI's own check; imported late, as the CLI loads lazily

    if len(text) > 1_000:  # some teams each: a longer one is a mistake, and is not echoed whole
        raise argparse.ArgumentTypeError(f"expected TEAM=POLICY,... of at most 1,000 characters, got "
                                         f"{shown_text(text)}")
    try:
        parse_policies(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return text.strip()



def with_policies_help(parser: argparse.ArgumentParser) -> None:
    """List every computer player under ``--help`` with what it does in two lines (``ai.POLICY_HELP``):
    issue 13 asks for the policies documented where ``--policy`` is chosen, and ``--help`` only named them."""
    from game.ai.policy import POLICY_HELP  # imported late, as the CLI loads lazily

    width = max(len(name) for name in POLICY_HELP)
    lines = ["computer players (--policy):"]
    for name, text in POLICY_HELP.items():
        first, *rest = text.split("\n")
        lines += [f"  {name.ljust(width)}  {first}", *(f"  {'':{width}}  {line}" for line in rest)]
    parser.epilog = "\n".join(lines)
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
