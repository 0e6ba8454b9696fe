"""What a simulation writes into ``--out``: checked before any battle, tidied when the run ends.

A run's outputs must agree with each other: an old ``paired.png`` beside a ``summary.json`` with no
paired figures, or an earlier run's ``replays/``, would contradict the table. So the run removes the
project's own output names it does not write this time, and nothing else: only these names (and
``replays/variant-N/seed-S.json``), only files (a link is removed, never followed), never a folder
with anything left in it, never a file of a name the simulation does not make.

An output is never written through a symlink found in ``--out``: each file is written beside its
name and renamed over it (game.content.atomic), which replaces a link instead of overwriting its
target, and a ``replays`` or ``replays/variant-N`` link is removed before the battles, so the
replays go into a real folder inside ``--out``.

A path the run could not write (``battles.csv`` that is a directory, say) is found before the
battles, not after every one of them has run.

One run at a time: a run holds a lock on its ``--out`` folder (:func:`holding`) from before it clears
an earlier run's replays to after its last file, and a second run into the same folder is refused at
once. Two runs side by side removed each other's replays and left one run's table beside the other's
replays and notes.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path

from game.content.atomic import remove_stale_temporaries
from game.sim.flags import FlagError

__all__ = ["FILES", "PAIRED_PLOT", "REPLAYS", "ROUNDS_PLOT", "SUMMARY", "TABLE", "WINRATE_PLOT",
           "Identity", "check_outputs", "earlier_replays", "holding", "identity_of", "remove_replay_links",
           "remove_stale_replays", "remove_unrecorded_replays", "remove_unwritten", "written_over"]

#: The files a run writes at the top of ``--out``: its table of battles, its summary and its plots
#: (win rates, rounds, and the paired differences when a sweep has variants to pair).
TABLE, SUMMARY = "battles.csv", "summary.json"
WINRATE_PLOT, ROUNDS_PLOT, PAIRED_PLOT = "winrate.png", "rounds.png", "paired.png"
#: Every file a run may write at the top of ``--out``.
FILES = (TABLE, SUMMARY, WINRATE_PLOT, ROUNDS_PLOT, PAIRED_PLOT)
#: The folder of replay files (``variant-N/seed-S.json``).
REPLAYS = "replays"
_VARIANT = re.compile(r"variant-\d{1,9}")
_REPLAY = re.compile(r"seed-\d{1,20}\.json")
_REPLAY_TEMPORARY = re.compile(r"\.(seed-\d{1,20}\.json)\..*\.tmp")  # (game.content.atomic names them)


def in_the_way(out_dir: Path, path: Path, flag: str = "--out") -> str | None:
    """Why a run into ``out_dir`` cannot replace its output file ``path`` (a folder, a device, a pipe
    is there), or None: the one test of an output file, for ``simulate`` and for ``play``/``demo``."""
    if path.is_symlink() or not path.exists() or path.is_file():  # a link is replaced, never followed
        return None
    kind = "a directory" if path.is_dir() else "not a regular file"
    return (f"{flag} {str(out_dir)!r}: {str(path)!r} is {kind}; expected a file this run can replace "
            f"(move it away, or choose another {flag})")


def check_outputs(out_dir: Path, flag: str = "--out") -> None:
    """Each output path of a run into ``out_dir`` can be written: a file name that is not a folder
    (or a device), a replays folder that is not a file.

    Raises:
        FlagError: naming the flag, the directory and the path in the way.
    """
    for name in FILES:
        problem = in_the_way(out_dir, out_dir / name, flag)
        if problem:
            raise FlagError(problem)
    replays = out_dir / REPLAYS
    if not replays.is_symlink() and replays.exists() and not replays.is_dir():
        raise FlagError(f"{flag} {str(out_dir)!r}: {str(replays)!r} is a file; expected the folder of replays "
                        f"(move it away, or choose another {flag})")


def _unlink(path: Path, removed: list[Path]) -> None:
    if path.is_symlink() or path.is_file():
        path.unlink(missing_ok=True)
        removed.append(path)


#: A replay file as it was found: its inode and the time it was last written (a file this run wrote
#: over, or renamed into its place, is another).
Identity = tuple[int, int]


def _identity(path: Path) -> Identity:
    info = path.lstat()
    return info.st_ino, info.st_mtime_ns


def identity_of(path: Path) -> Identity | None:
    """The file at ``path`` as it is now, or None when there is none (or it cannot be asked)."""
    try:
        return _identity(path)
    except OSError:
        return None


def remove_replay_links(out_dir: Path) -> list[Path]:
    """Before the battles: a ``replays`` or ``replays/variant-N`` that is a symlink (the link only: the
    battles would write their replays through it, wherever it leads).

    Raises:
        OSError: one cannot be removed.
    """
    removed: list[Path] = []
    replays = out_dir / REPLAYS
    if replays.is_symlink():
        _unlink(replays, removed)
    elif replays.is_dir():
        for variant in sorted(replays.iterdir()):
            if _VARIANT.fullmatch(variant.name) and variant.is_symlink():
                _unlink(variant, removed)
    return removed


def _variant_folders(out_dir: Path) -> Iterator[Path]:
    """The real ``replays/variant-N`` folders of ``out_dir``, in order: never through a link (a
    ``replays`` or ``variant-N`` that is one is left to :func:`remove_replay_links`)."""
    replays = out_dir / REPLAYS
    if replays.is_symlink() or not replays.is_dir():
        return
    for variant in sorted(replays.iterdir()):
        if _VARIANT.fullmatch(variant.name) and not variant.is_symlink() and variant.is_dir():
            yield variant


def _remove_if_empty(folder: Path) -> None:
    """``folder`` if nothing is left in it (a ``variant-N`` or ``replays`` the removals emptied)."""
    if folder.is_dir() and not folder.is_symlink() and not any(folder.iterdir()):
        folder.rmdir()


def earlier_replays(out_dir: Path) -> dict[Path, Identity]:
    """Before the battles: the replay files an earlier run left, each with its identity, for
    :func:`remove_stale_replays` after them. Removed only then, and only once a battle finished: a
    run stopped before any battle came back used to have removed them already, for nothing."""
    return {file: _identity(file) for variant in _variant_folders(out_dir)
            for file in sorted(variant.iterdir()) if _REPLAY.fullmatch(file.name)}


def remove_stale_replays(out_dir: Path, earlier: Mapping[Path, Identity]) -> list[Path]:
    """An earlier run's replay files (and the folders they leave empty), and a ``replays`` or
    ``replays/variant-N`` that is a symlink (the link only). ``earlier``: the files found before the
    battles (:func:`earlier_replays`); only those not written since, by this run, are removed.

    Raises:
        OSError: one cannot be removed.
    """
    removed = remove_replay_links(out_dir)
    for variant in _variant_folders(out_dir):
        for file in sorted(variant.iterdir()):
            if _REPLAY.fullmatch(file.name) and earlier.get(file) == _identity(file):
                _unlink(file, removed)
        _remove_if_empty(variant)
    _remove_if_empty(out_dir / REPLAYS)
    return removed


def remove_unrecorded_replays(out_dir: Path, earlier: Mapping[Path, Identity],
                              recorded: Collection[tuple[str, str]]) -> list[Path]:
    """After the battles, the workers stopped: the replay files this run wrote for battles that have no
    row (their chunk was cut short by Ctrl+C, or by a worker's death, after they were written), and
    the temporaries of replays a stopped worker was writing, then the folders they leave empty.
    ``recorded``: the ``(variant-N, seed-S.json)`` of each row's replay. An interrupted run said
    "0/30 battles" and "wrote nothing" beside the 8 replays of battles battles.csv did not have.

    Raises:
        OSError: one cannot be removed.
    """
    removed: list[Path] = []
    for variant in _variant_folders(out_dir):
        for file in sorted(variant.iterdir()):
            if (_REPLAY.fullmatch(file.name) and (variant.name, file.name) not in recorded
                    and earlier.get(file) != _identity(file)):
                _unlink(file, removed)
            elif (temporary := _REPLAY_TEMPORARY.fullmatch(file.name)) is not None:
                removed += remove_stale_temporaries(variant / temporary[1])  # (a writer still alive: kept)
        _remove_if_empty(variant)
    _remove_if_empty(out_dir / REPLAYS)
    return removed


def written_over(found: Mapping[Path, Identity | None]) -> list[Path]:
    """The paths of ``found`` (each with the file there before, or None) that hold another file now:
    the ``earlier`` replays (:func:`earlier_replays`) this run's workers wrote the same variant and
    seed over, the plots drawn before a Ctrl+C stopped the drawing."""
    return [path for path, before in found.items() if identity_of(path) not in (None, before)]


def remove_unwritten(out_dir: Path, written: Collection[Path]) -> list[Path]:
    """After the run: the output files it did not write (an earlier run's, which would contradict it).

    Raises:
        OSError: one cannot be removed.
    """
    removed: list[Path] = []
    mine = {Path(p) for p in written}
    for name in FILES:
        if out_dir / name not in mine:
            _unlink(out_dir / name, removed)
    return removed


@contextlib.contextmanager
def holding(out_dir: Path, flag: str = "--out") -> Iterator[None]:
    """An exclusive lock on the folder ``out_dir`` itself (``flock`` on its descriptor: no lock file is
    left in it, and the lock goes with the process however it ends), held for the ``with`` block.

    Best effort where there is no ``flock`` (Windows) or the file system refuses one: the run goes on.

    Raises:
        FlagError: another run holds the folder now.
    """
    try:
        import fcntl
    except ImportError:  # not POSIX
        yield
        return
    try:
        fd = os.open(out_dir, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        yield  # (a folder that cannot be opened fails at its first write, with its own reason)
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as err:
            if err.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise FlagError(f"{flag} {str(out_dir)!r} is in use by another run (simulate, play or demo), "
                                f"which would remove this run's files, or this run its own; wait for it to end, "
                                f"or choose another {flag}") from None
        yield
    finally:
        os.close(fd)  # (and with it the lock)
