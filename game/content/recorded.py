"""The texts of the files a scenario reads besides itself: power files (its own and the shipped ones)
and scripts.

A save or a replay records them beside the scenario's text, and is replayed from them, never from
the disk: an edit of ``my_powers.toml`` (``1d8+1`` -> ``3d8+1``) or of a script after the battle was
played must not change the battle it replays, and a deleted file must not stop it from loading.
While a scenario loads, :class:`ScriptReads` keeps the text of every script it reads (or hands out
the recorded ones), so the scenario knows exactly what it read.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.content.files import POWER_FILE_BYTES, UnreadableFile, file_problem, inside_folder, loop_problem, read_text
from game.scripting.errors import MAX_SOURCE_BYTES

__all__ = ["MAX_SCRIPTS", "MAX_SCRIPTS_BYTES", "RecordedFiles", "ScriptReads", "SCRIPT_BYTES", "script_problem"]

#: The longest script file read: the longest the script hosts load, so that a file too long to load is
#: refused as it is read, by its size, before a worker's clock is spent on it.
SCRIPT_BYTES = MAX_SOURCE_BYTES
#: The most scripts one scenario reads (its reactions, its creatures' and its powers' scripts), and
#: their bytes together: each is parsed when the scenario loads and again when its battle first runs
#: it, at 10-30 us a byte, so 2,000 small reactions took 24 s to load and build, and 8 scripts of
#: 64 KiB 14 s (docs/limits.md promises 5 s).
MAX_SCRIPTS = 32
MAX_SCRIPTS_BYTES = 128 * 1024
_EMPTY: Mapping[str, str] = types.MappingProxyType({})
_KEYS = ("power_files", "scripts", "shipped_power_files")


@dataclass(frozen=True)
class RecordedFiles:
    """File name -> text: ``power_files`` by the name the scenario's ``power_files`` gives,
    ``scripts`` by the script's file name (as ``reactions`` and a power's ``script`` name it),
    ``shipped`` the project's own power files (``assets/powers``) by file name: an edit of those
    must not change an old battle either."""

    power_files: Mapping[str, str] = field(default_factory=lambda: _EMPTY)
    scripts: Mapping[str, str] = field(default_factory=lambda: _EMPTY)
    shipped: Mapping[str, str] = field(default_factory=lambda: _EMPTY)

    def with_scripts(self, scripts: Mapping[str, str]) -> RecordedFiles:
        """These files, with more scripts (a battle's, which win over the ones of the same name)."""
        return RecordedFiles(self.power_files, types.MappingProxyType({**self.scripts, **scripts}), self.shipped)

    def as_json(self) -> dict[str, dict[str, str]]:
        """The ``files`` object of a save or replay, names sorted so that equal files write equal text."""
        return {key: dict(sorted(table.items())) for key, table in zip(_KEYS, (self.power_files, self.scripts,
                                                                             self.shipped))}

    @classmethod
    def from_json(cls, value: Any) -> RecordedFiles:
        """The ``files`` object of a save or replay, checked.

        Raises:
            ValueError: saying which key is wrong and what was expected.
        """
        if not isinstance(value, dict) or sorted(value) != sorted(_KEYS):
            raise ValueError(f"files must be an object with keys {', '.join(_KEYS)}")
        for key in _KEYS:
            table = value[key]
            if not isinstance(table, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                      for k, v in table.items()):
                raise ValueError(f"files.{key} must be an object from file names to their texts")
            bad = next((k for k in table if not k or "\0" in k or len(k) > 4096), None)
            if bad is not None:
                raise ValueError(f"files.{key}: {bad!r} is not a file name")
            # each text held to the size of the file it stands for, which the disk's copy is read to: a
            # 30 MB "martial.toml" took 47 s to be refused (a 4 MiB one reads in well under 10)
            most = SCRIPT_BYTES if key == "scripts" else POWER_FILE_BYTES
            big = next((k for k, v in table.items() if len(v) > most // 4 and len(v.encode("utf-8")) > most), None)
            if big is not None:
                raise ValueError(f"files.{key}[{big!r}]: {len(table[big].encode('utf-8')):,} bytes; expected at "
                                 f"most {most:,}, the most such a file is read to")
        return cls(*(types.MappingProxyType(dict(value[key])) for key in _KEYS))


@dataclass
class ScriptReads:
    """Where a loading scenario's scripts come from, and the text of each one read.

    ``recorded``: the scripts a save or replay recorded (None: read from the script folder on disk).
    ``read``: every script read so far, by file name; the scenario keeps it for its saves.
    ``known``: the files found inside the folder before, by path (``inside_folder``'s cache).
    ``failed``: scripts that did not load, by (file name, use: "power" or "reaction"), with the key
    that said why: a script that several creatures use is blamed once, not once per creature.
    ``bounded``: a scenario's reads, held to ``MAX_SCRIPTS`` scripts of ``MAX_SCRIPTS_BYTES`` together
    (a battle's own, which the Python API's ``attach_reaction`` adds to, are not).
    """

    recorded: Mapping[str, str] | None = None
    read: dict[str, str] = field(default_factory=dict)
    known: dict[str, tuple[int, int]] | None = None
    failed: dict[tuple[str, str], str] = field(default_factory=dict)
    bounded: bool = False
    #: the first script refused past those limits (the ones after it point back to it)
    past: str | None = None
    #: the functions of each script parsed, by (host name, trusted): a sweep's variant of the scenario
    #: is checked with its original's, so an unchanged script is not parsed (nor a sandbox started) again
    parsed: dict[tuple[str, bool], frozenset[str]] = field(default_factory=dict)

    def text(self, folder: Path, name: str) -> str:
        """The text of script ``name``: recorded, or a regular file inside ``folder`` of at most ``SCRIPT_BYTES``.

        Raises:
            UnreadableFile: it is not recorded, leads outside the folder, is missing, too big or not UTF-8,
                or (``bounded``) one script more than a scenario may read, or past their bytes together.
        """
        fresh = name not in self.read
        if self.bounded and fresh and self.past:  # said in full once, for the first script past the limit
            raise UnreadableFile(f"past this scenario's limit of scripts, as said above ({self.past})")
        if self.bounded and fresh and len(self.read) >= MAX_SCRIPTS:  # refused before it is read
            raise self._past(f"it would be script number {len(self.read) + 1} of this scenario; a scenario "
                             f"reads at most {MAX_SCRIPTS} (docs/limits.md)", name)
        if self.recorded is not None:
            if name not in self.recorded:
                raise UnreadableFile("it is not among the scripts this save or replay recorded")
            source = self.recorded[name]
        elif not fresh:  # read once, that text for good: a file edited since is not this battle's
            return self.read[name]
        else:
            path = folder / name
            outside = _outside(path, folder, self.known)
            if outside is not None:
                raise UnreadableFile(outside)
            source = read_text(path, SCRIPT_BYTES)
        total = sum(len(text.encode()) for text in self.read.values()) + len(source.encode())
        if self.bounded and fresh and total > MAX_SCRIPTS_BYTES:
            raise self._past(f"with it this scenario's scripts come to {total:,} bytes; expected at most "
                             f"{MAX_SCRIPTS_BYTES:,} together (docs/limits.md)", name)
        self.read[name] = source
        return source

    def keep(self, texts: Mapping[str, str]) -> None:
        """Serve ``texts`` (a scenario's load read and checked them) instead of the folder's files of
        those names: a script edited or swapped after the load, before a battle of it first runs the
        script, or before a rewind builds it again, must not play unchecked and differently."""
        if self.recorded is None:
            self.read.update(texts)

    def _past(self, reason: str, name: str) -> UnreadableFile:
        """The refusal of the first script past a limit; the ones after it point back to it."""
        self.past = name
        return UnreadableFile(reason)


def script_problem(folder: Path, name: str) -> str | None:
    """Why script ``name`` cannot be read from ``folder`` (it leads outside, is missing, not a regular
    file or too big), or None: the one check of a power's ``script`` when its file loads, giving the
    reason :meth:`ScriptReads.text` gives when a reaction names the same file."""
    path = folder / name
    return _outside(path, folder) or file_problem(path, SCRIPT_BYTES)


def _outside(path: Path, folder: Path, known: dict[str, tuple[int, int]] | None = None) -> str | None:
    """Why a script at ``path`` is outside its ``folder``, or None. The folder itself must lie inside
    the one that holds it (a scenario's ``scripts/`` inside the scenario's folder): a ``scripts``
    symlink out of it would read files from anywhere, as a power file's path may not."""
    if not inside_folder(folder, folder.parent, known):  # (known: the folder's own path is a key too)
        return (loop_problem(folder, f"{folder.name!r}")
                or f"{folder.name!r} leads outside the folder {folder.parent} (a symlink out of it is not followed)")
    if not inside_folder(path, folder, known):
        return loop_problem(path, f"{path.relative_to(folder).as_posix()!r}") or "it leads outside the script folder"
    return None
