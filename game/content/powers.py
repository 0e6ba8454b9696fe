"""Powers as data: ``assets/powers/*.toml`` and a scenario's own power files, one power per table.

A designer adds a power by writing a table; nothing in the engine changes. Every error names the
file, the power, the key and what was expected; keys, ranges and what each combination of range,
area and targets reaches are in :mod:`game.content.power_parse`.

Example::

    [fire-bolt]
    name = "Fire bolt"
    description = "A streak of flame at one creature you can see."
    action = "action"
    range_ft = 60
    attack = { bonus = 1 }
    damage = "2d6"

The library is read per file (:class:`PowerLibrary`): a file with an error adds no power at all and
is blamed alone, so one broken file fails only the scenarios that use a power from it, never the
others. A power's ``script`` must exist when its file loads: in ``scripts/`` beside the file if it has
one, else in ``assets/scripts`` (see :func:`script_folder`).
"""

from __future__ import annotations

import copy
import dataclasses
import os
import tomllib
import types
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from components.powers import Power
from components.values import shown
from game.battle.validate_whole import CheckedPowers
from game.content.checks import did_you_mean
from game.content.files import POWER_FILE_BYTES, UnreadableFile, bom_hint, read_text, too_long_number
from game.content.places import ASSETS, POWERS_DIR, SCRIPTS_DIR, runs_in_process, script_folder
from game.content.power_parse import KEYS, PowerError, parse_power

__all__ = [
    "ASSETS", "MAX_POWERS", "POWERS_DIR", "SCRIPTS_DIR", "PowerError", "PowerFile", "PowerFileCache", "PowerLibrary",
    "apply_power_overrides", "default_powers", "load_power_file", "load_powers", "parse_power", "power_file_text",
    "runs_in_process", "script_folder", "shipped_library",
]

#: The most powers one battle's table holds (the shipped ones and a scenario's own files'): the computer
#: player weighs every power a creature may use each turn (a creature that lists none may use them all),
#: so 1,024 took 16 s a round for 50 creatures, and 30,000 14 s a round for two (docs/limits.md).
MAX_POWERS = 128


@dataclass(frozen=True)
class PowerFile:
    """One power file as read: its powers, or the error that kept every one of them out.

    ``ids`` are the power ids the file names, known even when it is broken (unless it is not TOML
    at all), so that a scenario using one of them is told which file to fix.
    """

    path: str
    powers: Mapping[str, Power]
    tables: Mapping[str, Mapping[str, Any]]
    ids: tuple[str, ...] = ()
    error: PowerError | None = None
    #: the file's text as read: saves and replays record it, so a later edit cannot change them
    text: str = dataclasses.field(default="", repr=False, compare=False)


def read_power_file(path: str | Path, script_dir: Path | None = None) -> PowerFile:
    """Read and check one power file; a problem is kept in the result (``error``), never raised.

    Args:
        path: the TOML file.
        script_dir: where its powers' scripts must be (default: :func:`script_folder` of the file).
    """
    where = str(path)
    folder = script_folder(path) if script_dir is None else script_dir
    try:
        text = read_text(path, POWER_FILE_BYTES)
    except UnreadableFile as err:
        return _broken(where, PowerError(f"{where}: cannot read: {err}"))
    return power_file_text(where, text, folder)


def power_file_text(where: str, text: str, script_dir: Path | None) -> PowerFile:
    """Check one power file given as its text (read from disk, or recorded in a save or replay);
    a problem is kept in the result (``error``), never raised.

    Args:
        where: what its powers' ``source`` and its errors call it (its path).
        text: the TOML.
        script_dir: where its powers' scripts must be; None checks their names only (a recorded
            file's scripts are recorded beside it, and checked when its scenario loads).
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        return _broken(where, PowerError(f"{where}: not valid TOML: {err}{bom_hint(text)}"))
    except RecursionError:
        return _broken(where, PowerError(f"{where}: cannot read: arrays or tables nested too deeply"))
    except ValueError:  # a number of more digits than Python converts (sys.get_int_max_str_digits)
        return _broken(where, PowerError(f"{where}: cannot read: {too_long_number(text)}"))
    if len(data) > MAX_POWERS:  # refused before each is checked: 30,000 took 4 s to check
        return _broken(where, PowerError(f"{where}: {len(data):,} powers; expected at most {MAX_POWERS}, the most "
                                         f"a battle takes (docs/limits.md)"), tuple(data))
    try:
        powers = {power_id: parse_power(power_id, table, where, script_dir) for power_id, table in data.items()}
    except PowerError as err:
        return _broken(where, err, tuple(data))
    tables = types.MappingProxyType({power_id: types.MappingProxyType(table) for power_id, table in data.items()})
    return PowerFile(where, types.MappingProxyType(powers), tables, tuple(data), text=text)


def _broken(where: str, error: PowerError, ids: tuple[str, ...] = ()) -> PowerFile:
    return PowerFile(where, types.MappingProxyType({}), types.MappingProxyType({}), ids, error)


class PowerFileCache:
    """Power files already read, so the shipped ones are parsed once per process, not per battle.

    Reading the shipped powers takes milliseconds (tomllib is pure Python) while a battle builds
    in about one, so the parse is worth keeping. Each entry is keyed by the file's identity, size
    and modification time and by its script folder, so an edited file is simply read again; the
    cache holds at most ``most`` files and :meth:`clear` empties it.
    """

    def __init__(self, most: int = 256) -> None:
        self.most = most
        self._files: dict[tuple[Any, ...], PowerFile] = {}
        self._libraries: dict[tuple[Any, ...], PowerLibrary] = {}

    @staticmethod
    def _key(path: str | Path, script_dir: Path | None) -> tuple[Any, ...] | None:
        try:
            info = os.stat(path)
        except OSError:
            return None
        return (str(path), info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, str(script_dir))

    def _get(self, key: tuple[Any, ...] | None, path: str | Path, script_dir: Path | None) -> PowerFile:
        if key is None:
            return read_power_file(path, script_dir)  # its error says why; nothing to keep
        found = self._files.get(key)
        if found is None:
            if len(self._files) >= self.most:
                self._files.clear()
            found = self._files[key] = read_power_file(path, script_dir)
        return found

    def get(self, path: str | Path, script_dir: Path | None = None) -> PowerFile:
        """The file as :func:`read_power_file` reads it, from the cache while it is unchanged."""
        return self._get(self._key(path, script_dir), path, script_dir)

    def library(self, paths: Iterable[str | Path]) -> PowerLibrary:
        """The files merged in order (:meth:`PowerLibrary.of`), the merge kept while none changed."""
        listed = [(self._key(path, None), path) for path in paths]
        key = tuple(k for k, _ in listed)
        found = self._libraries.get(key) if None not in key else None
        if found is None:
            found = PowerLibrary.of(self._get(k, path, None) for k, path in listed)
            if None not in key:
                if len(self._libraries) >= self.most:
                    self._libraries.clear()
                self._libraries[key] = found
        return found

    def clear(self) -> None:
        """Forget every file read (tests that rewrite a file within one clock tick use this)."""
        self._files.clear()
        self._libraries.clear()


@dataclass(frozen=True)
class PowerLibrary:
    """The powers of several files, merged; files that did not load are in ``broken``.

    Ids are unique across files: a file redefining an id of an earlier file is broken itself (the
    earlier power stays). ``tables`` keeps each power's raw table for :func:`apply_power_overrides`.
    """

    powers: Mapping[str, Power]
    tables: Mapping[str, Mapping[str, Any]]
    files: tuple[PowerFile, ...] = ()
    broken: tuple[PowerFile, ...] = ()

    @classmethod
    def of(cls, files: Iterable[PowerFile]) -> PowerLibrary:
        """Merge files in order."""
        powers: dict[str, Power] = {}
        tables: dict[str, Mapping[str, Any]] = {}
        kept: list[PowerFile] = []
        for file in files:
            twice = next((power_id for power_id in file.powers if power_id in powers), None)
            if twice is not None:
                file = dataclasses.replace(file, powers=types.MappingProxyType({}), error=PowerError(
                    f"{file.path}: power [{twice}] is already defined in {powers[twice].source}"))
            kept.append(file)
            powers.update(file.powers)
            tables.update(file.tables)
        return cls(CheckedPowers(powers), types.MappingProxyType(tables), tuple(kept),
                   tuple(f for f in kept if f.error is not None))

    def extended(self, files: Iterable[PowerFile]) -> PowerLibrary:
        """This library with more files after its own (a scenario's power files)."""
        return PowerLibrary.of((*self.files, *files))

    def problem(self, power_id: str, told: set[str] | None = None) -> str | None:
        """Why ``power_id`` cannot be used (naming the broken file that defines it), or None.

        ``told``: the broken files' errors said already by the caller's earlier problems; each is
        said in full once and then pointed at (a scenario of thirteen creatures would repeat it).
        """
        if power_id in self.powers:
            return None

        def error_of(file: PowerFile) -> str:
            error = str(file.error)
            if told is None or error not in told:
                if told is not None:
                    told.add(error)
                return error
            return f"{file.path}, whose error is said above"

        for file in self.broken:
            if power_id in file.ids:
                return f"power {power_id!r} is in a power file that did not load: {error_of(file)}"
        known = sorted(self.powers)
        listing = f"known powers: {', '.join(known)}"
        if told is not None and listing in told:
            listing = "the known powers as above"
        elif told is not None:
            told.add(listing)
        message = f"unknown power {power_id!r}{did_you_mean(power_id, known)}; {listing}"
        unread = [file for file in self.broken if not file.ids]
        if unread:
            message += f" (and {error_of(unread[0])}, so it may be defined there)"
        return message


def shipped_library(files: PowerFileCache | None = None) -> PowerLibrary:
    """The project's own powers (``assets/powers``), each file loaded or blamed on its own.

    ``files`` is the caller's cache of files already read (a window, a simulation worker); without
    one they are read afresh.
    """
    return (files or PowerFileCache()).library(_toml_files(Path(POWERS_DIR)))


def _toml_files(directory: Path) -> list[str]:
    try:
        names = sorted(entry.name for entry in os.scandir(directory) if entry.name.endswith(".toml"))
    except OSError:
        return []
    return [os.path.join(directory, name) for name in names]


def default_powers(files: PowerFileCache | None = None) -> dict[str, Power]:
    """The shipped powers that loaded (a broken shipped file leaves its own powers out, see
    :func:`shipped_library`, whose ``broken`` says which and why)."""
    return dict(shipped_library(files).powers)


def load_power_file(path: str | Path, script_dir: Path | None = None, files: PowerFileCache | None = None
                    ) -> dict[str, Power]:
    """Every power of one file.

    Raises:
        PowerError: naming the file, on its first problem; nothing of the file is loaded.
    """
    file = (files or PowerFileCache()).get(Path(path), script_dir)
    if file.error is not None:
        raise file.error
    return dict(file.powers)


def load_powers(directory: Path | str = POWERS_DIR, files: PowerFileCache | None = None) -> dict[str, Power]:
    """Every power under ``directory`` (``*.toml``), checked, ids unique across files.

    Raises:
        PowerError: the first file that does not load (this is the strict check of a folder; a
            game uses :class:`PowerLibrary`, which keeps the files that do load).
    """
    cache = files or PowerFileCache()
    library = PowerLibrary.of(cache.get(path) for path in _toml_files(Path(directory)))
    if library.broken:
        error = library.broken[0].error
        assert error is not None
        raise error
    return dict(library.powers)


# ---------------------------------------------------------------------------------------------- overrides


def _library_of(base: PowerLibrary | Mapping[str, Power] | None, files: PowerFileCache
                ) -> tuple[dict[str, Power], PowerLibrary]:
    if base is None:
        library = shipped_library(files)
        return dict(library.powers), library
    if isinstance(base, PowerLibrary):
        return dict(base.powers), base
    sources = sorted({power.source for power in base.values() if power.source and Path(power.source).is_file()})
    return dict(base), PowerLibrary.of(files.get(source) for source in sources)


def _split(item: object, powers: Mapping[str, Power], library: PowerLibrary) -> tuple[str, list[str], str, Any]:
    """``(powers.ID.KEY[.SUBKEY], value)`` -> (ID, [KEY, SUBKEY], key, value); PowerError naming the
    override if it is not one."""
    if not isinstance(item, (tuple, list)) or len(item) != 2:
        raise PowerError(f"power override {shown(item)}: expected a (key, value) pair")
    key, value = item
    if not isinstance(key, str):
        raise PowerError(f"power override {shown(key)}: keys are strings like 'powers.fireball.damage'")
    parts = key.split(".")
    if len(parts) < 3 or parts[0] != "powers":
        raise PowerError(f"override {key!r}: a power override is powers.ID.KEY, like powers.fireball.damage")
    power_id, path = parts[1], parts[2:]
    if power_id not in powers:
        problem = library.problem(power_id) if power_id not in library.powers else None
        known = sorted(powers)
        raise PowerError(f"override {key!r}: " + (
            problem or f"unknown power {power_id!r}{did_you_mean(power_id, known)}; known: {', '.join(known)}"))
    if path[0] not in KEYS:
        raise PowerError(f"override {key!r}: unknown power key {path[0]!r}{did_you_mean(path[0], KEYS)}; "
                         f"known keys: {', '.join(sorted(KEYS))}")
    return power_id, path, key, value


def apply_power_overrides(overrides: Iterable[tuple[str, Any]],
                          base: PowerLibrary | Mapping[str, Power] | None = None,
                          script_dir: Path | None = None, files: PowerFileCache | None = None,
                          check_scripts: bool = True) -> dict[str, Power]:
    """The power table with some fields replaced, each changed power re-validated by ``parse_power``.

    Keys are ``powers.ID.KEY`` where KEY is the power's TOML key (``damage``, ``range_ft``,
    ``attack.bonus``, ``save.dc``, ``area.radius_ft``, ...). The changed table goes through
    :func:`parse_power` exactly as a designer's edit of the file would, so "9d" or a negative
    range is refused with the same message, rather than silently simulated.

    Args:
        overrides: ``(key, value)`` pairs.
        base: the powers to change: a library (a scenario's), a table of powers, or None for the
            shipped powers.
        script_dir: where the battle will read a changed ``script`` (a scenario's script folder);
            None: where the power's own file finds its scripts.
        files: the caller's cache of power files already read.
        check_scripts: False checks a changed ``script``'s name only (a replay's scripts are the
            texts it recorded, not files on this disk).

    Raises:
        PowerError: an unknown power or key (with a "did you mean"), a power with no file to
            re-validate, or a value the power loader refuses (naming the power's file).
    """
    powers, library = _library_of(base, files or PowerFileCache())
    tables: dict[str, dict[str, Any]] = {}
    keys: dict[str, str] = {}
    for item in overrides:
        power_id, path, key, value = _split(item, powers, library)
        if power_id not in tables:
            raw = library.tables.get(power_id)
            if raw is None:  # a power made in code: its table cannot be rebuilt from the dataclass
                raise PowerError(f"override {key!r}: power {power_id!r} has no source file to re-validate")
            tables[power_id] = copy.deepcopy(dict(raw))
        keys[power_id] = key
        table: dict[str, Any] = tables[power_id]
        for part in path[:-1]:
            inner = table.setdefault(part, {})
            if not isinstance(inner, dict):
                raise PowerError(f"override {key!r}: {part!r} of power {power_id!r} is not a table")
            table = inner
        table[path[-1]] = value
    for power_id, table in tables.items():
        source = powers[power_id].source
        folder = None if not check_scripts else script_dir if script_dir is not None \
            else script_folder(source) if Path(source).is_file() else None
        parsed = parse_power(power_id, table, f"{source} (overridden by {keys[power_id]})", folder)
        powers[power_id] = dataclasses.replace(parsed, source=source)
    return powers
