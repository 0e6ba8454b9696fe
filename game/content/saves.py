"""Saves and replays: a battle stored as its scenario, its seed and the commands issued after the build.

Why not pickle the world? Because the battle is deterministic (same seed + same commands = same
events), the command log is a complete, small, readable and version-tolerant description of the
state. Restoring replays it on a fresh build of the scenario, then *checks* the result against the
events (and a snapshot of every creature's Health and Position) recorded when saving: a save that
does not reproduce exactly is refused instead of quietly loading a different battle.

File layout (JSON)::

    {"format": "gridbattle-save" | "gridbattle-replay", "version": 1,
     "scenario": {"path": "assets/scenarios/ledge.toml", "name": "The ledge",
                  "text": "<the whole TOML file>", "overrides": [["rules.cover_bonus", 4]]},
     "seed": 11, "build_commands": 63,
     "commands": [{"method": "move", "args": [2, 6, 3], "kwargs": {}}, ...],
     "events": [{"kind": "spawned", "round": 0, ...}, ...],
     "creatures": [{"entity": 1, "health": 12, "x": 3, "y": 1, "z": 30.0}, ...]}

The scenario text travels inside the file so a later edit of the ``.toml`` cannot silently change
an old save; the path is kept for people. Command arguments that JSON cannot say exactly are
tagged: ``{"$tuple": [x, y]}``, ``{"$visibility": "POOR"}``, ``{"$float": "inf"}``, ``{"$dict": {}}``.

Writes are atomic (a temporary file beside the target, flushed and fsynced, then ``os.replace``),
so a crash or a kill mid-save leaves the previous file whole.
"""

from __future__ import annotations

import contextlib
import enum
import json
import math
import os
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from components import Health, Position, Visibility
from game.battle.facade import Battle
from game.content.files import MEGABYTE, UnreadableFile, read_bounded
from game.content.powers import apply_power_overrides
from game.content.scenario import Scenario, ScenarioError, load_scenario, load_scenario_text

__all__ = [
    "FORMAT_VERSION",
    "REPLAY_FORMAT",
    "SAVE_FORMAT",
    "SaveError",
    "decode_value",
    "encode_value",
    "load_game",
    "play_replay",
    "read_replay",
    "save_game",
    "write_replay",
]

SAVE_FORMAT = "gridbattle-save"
REPLAY_FORMAT = "gridbattle-replay"
FORMAT_VERSION = 1

#: Methods a file may never call while replaying, even if a tampered log names them.
_KEYS = ("format", "version", "scenario", "seed", "build_commands", "commands", "events", "creatures")
_OPTIONAL_KEYS = ("powers",)  # power overrides of a simulation's sweep, as [key, value] pairs
_SCENARIO_KEYS = ("path", "name", "text", "overrides")

Command = tuple[str, tuple[Any, ...], dict[str, Any]]


class SaveError(ValueError):
    """A save or replay that cannot be written or used; the message names the file and the problem."""


# ---------------------------------------------------------------------------------------------- values


def encode_value(value: Any, where: str = "value") -> Any:
    """A command argument as JSON data that :func:`decode_value` turns back into the same value.

    Raises:
        SaveError: a value of a type no command takes (better refused at save time than replayed wrong).
    """
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, Visibility):
        return {"$visibility": value.name}
    if isinstance(value, enum.Enum):
        raise SaveError(f"cannot save {where}: enum {value!r} has no encoding")
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        number = float(value)
        return number if math.isfinite(number) else {"$float": repr(number)}
    if isinstance(value, tuple):
        return {"$tuple": [encode_value(v, where) for v in value]}
    if isinstance(value, list):
        return [encode_value(v, where) for v in value]
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {"$dict": {k: encode_value(v, where) for k, v in value.items()}}
    raise SaveError(f"cannot save {where}: {type(value).__name__} {value!r} has no encoding")


_MAX_DEPTH = 32  # no command argument the game writes is nested more than a few levels


def decode_value(data: Any, where: str = "value", _depth: int = 0) -> Any:
    """The inverse of :func:`encode_value`; SaveError on anything it could not have written."""
    if _depth > _MAX_DEPTH:
        raise SaveError(f"{where}: nested more than {_MAX_DEPTH} levels deep; not something this game wrote")
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    if isinstance(data, list):
        return [decode_value(v, where, _depth + 1) for v in data]
    if isinstance(data, dict) and len(data) == 1:
        (tag, inner), = data.items()
        if tag == "$tuple" and isinstance(inner, list):
            return tuple(decode_value(v, where, _depth + 1) for v in inner)
        if tag == "$visibility" and isinstance(inner, str) and inner in Visibility.__members__:
            return Visibility[inner]
        if tag == "$float" and inner in ("inf", "-inf", "nan"):
            return float(inner)
        if tag == "$dict" and isinstance(inner, dict):
            return {k: decode_value(v, where, _depth + 1) for k, v in inner.items()}
    raise SaveError(f"{where}: {str(data)[:80]!r} is not an encoded value")


def _encode_command(index: int, command: Command) -> dict[str, Any]:
    name, args, kwargs = command
    where = f"command #{index} ({name})"
    return {"method": name, "args": [encode_value(a, where) for a in args],
            "kwargs": {k: encode_value(v, where) for k, v in kwargs.items()}}


def _event_default(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    return repr(value)


def _events(battle: Battle) -> list[dict[str, Any]]:
    """Events as plain JSON data, normalised exactly as they will read back from a file, so a
    freshly replayed battle and a loaded file compare equal when (and only when) they agree."""
    data: list[dict[str, Any]] = json.loads(json.dumps([e.as_dict() for e in battle.events], default=_event_default))
    return data


def _snapshot(battle: Battle) -> list[dict[str, Any]]:
    out = []
    for entity in battle.creatures():
        health, position = battle.get(entity, Health), battle.get(entity, Position)
        out.append({"entity": entity, "health": health.current, "x": position.x, "y": position.y,
                    "z": float(position.z)})
    return out


# ---------------------------------------------------------------------------------------------- writing


def _build_length(scenario: Scenario, battle: Battle, build_commands: int | None) -> int:
    """How many log entries are the scenario's build, checked by building it again.

    The check is what makes a save trustworthy: a battle not built from this scenario and seed
    would otherwise be written as a file that can never be restored.
    """
    fresh = scenario.build(seed=battle.seed)
    try:
        expected = fresh.command_log
        if build_commands is not None:
            if isinstance(build_commands, bool) or not isinstance(build_commands, int) \
                    or not 0 <= build_commands <= len(battle.command_log):
                raise SaveError(f"build_commands must be 0..{len(battle.command_log)}, not {build_commands!r}")
            if build_commands != len(expected):
                raise SaveError(f"build_commands is {build_commands} but scenario {scenario.source!r} builds "
                                f"with {len(expected)} commands")
        build_commands = len(expected)
        if build_commands > len(battle.command_log):
            raise SaveError(f"this battle was not built from scenario {scenario.source!r}: the scenario builds "
                            f"with {build_commands} commands, the battle has logged only {len(battle.command_log)}")
        ours = [_encode_command(i, c) for i, c in enumerate(battle.command_log[:build_commands])]
        theirs = [_encode_command(i, c) for i, c in enumerate(expected)]
        if ours != theirs:
            first = next(i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b)
            raise SaveError(f"this battle was not built from scenario {scenario.source!r} with seed "
                            f"{battle.seed}: command #{first} is {ours[first]}, the scenario gives {theirs[first]}")
        return build_commands
    finally:
        fresh.close()


def _document(kind: str, scenario: Scenario, battle: Battle, build_commands: int | None) -> dict[str, Any]:
    if not isinstance(scenario, Scenario):
        raise SaveError(f"expected a Scenario, not {type(scenario).__name__}")
    if not isinstance(battle, Battle):
        raise SaveError(f"expected a Battle, not {type(battle).__name__}")
    count = _build_length(scenario, battle, build_commands)
    log = list(battle.command_log)
    return {
        "format": kind,
        "version": FORMAT_VERSION,
        "scenario": {"path": scenario.path, "name": scenario.name, "text": scenario.text,
                     "overrides": [[k, encode_value(v, f"override {k}")] for k, v in scenario.overrides]},
        "seed": battle.seed,
        "build_commands": count,
        "commands": [_encode_command(i, c) for i, c in enumerate(log[count:], start=count)],
        "events": _events(battle),
        "creatures": _snapshot(battle),
        "powers": [[k, encode_value(v, f"power override {k}")] for k, v in battle.power_overrides],
    }


def _atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one, never a mix.

    The temporary file sits in the same directory because ``os.replace`` is only atomic within one
    file system; the fsync before the rename makes sure the rename never points at unwritten blocks.
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


def _write(path: str | Path, document: dict[str, Any]) -> None:
    target = Path(path)
    try:
        text = json.dumps(document, indent=1, allow_nan=True)
    except (TypeError, ValueError) as err:
        raise SaveError(f"{target}: cannot encode the battle: {err}") from None
    try:
        _atomic_write(target, text.encode("utf-8"))
    except OSError as err:
        raise SaveError(f"{target}: cannot write the file: {err}") from err


def save_game(path: str | Path, scenario: Scenario, battle: Battle, build_commands: int | None = None) -> None:
    """Save a battle built from ``scenario`` (versioned JSON, written atomically).

    Args:
        path: the file to write; an existing file is replaced only once the new one is complete.
        scenario: the scenario the battle was built from (its text goes into the save).
        battle: the battle to save; it is only read.
        build_commands: ``len(battle.command_log)`` right after the build; None works it out by
            building the scenario again. Either way it is checked against a fresh build.

    Raises:
        SaveError: the battle was not built from this scenario, an argument cannot be encoded, or
            the file cannot be written (the old file is then left as it was).
    """
    try:
        document = _document(SAVE_FORMAT, scenario, battle, build_commands)
    except SaveError as err:
        raise SaveError(f"{path}: {err}") from None
    _write(path, document)


def write_replay(path: str | Path, scenario: Scenario, battle: Battle, build_commands: int | None = None) -> None:
    """Write a replay: the same content as a save, marked as a replay (played, not resumed)."""
    try:
        document = _document(REPLAY_FORMAT, scenario, battle, build_commands)
    except SaveError as err:
        raise SaveError(f"{path}: {err}") from None
    _write(path, document)


# ---------------------------------------------------------------------------------------------- reading


def _fail(path: Path, message: str) -> SaveError:
    return SaveError(f"{path}: {message}")


def _read(path: Path, kinds: Sequence[str]) -> tuple[dict[str, Any], list[Command]]:
    """Read and check the structure of a file and decode its commands; nothing is built yet."""
    try:
        raw = read_bounded(path, 256 * MEGABYTE)
    except UnreadableFile as err:
        raise _fail(path, str(err)) from None
    try:
        document = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as err:
        raise _fail(path, f"not UTF-8 text (byte {err.start}); the file is corrupt") from None
    except json.JSONDecodeError as err:
        raise _fail(path, f"not valid JSON (line {err.lineno} column {err.colno}: {err.msg}); "
                          f"the file is corrupt or truncated") from None
    except (RecursionError, ValueError) as err:  # nesting too deep, a number of thousands of digits
        raise _fail(path, f"not a save this game wrote: {type(err).__name__}: {str(err)[:200]}") from None
    if not isinstance(document, dict):
        raise _fail(path, "expected a JSON object at the top")
    kind = document.get("format")
    if kind not in kinds:
        if kind == REPLAY_FORMAT:
            raise _fail(path, "this is a replay, not a save: play it with play_replay")
        raise _fail(path, f"format is {kind!r}; expected {' or '.join(repr(k) for k in kinds)}")
    version = document.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise _fail(path, f"version must be a whole number, not {version!r}")
    if version > FORMAT_VERSION:
        raise _fail(path, f"version {version} is newer than this game reads ({FORMAT_VERSION})")
    if version < 1:
        raise _fail(path, f"version {version} is not a known version")
    missing = [k for k in _KEYS if k not in document]
    unknown = [k for k in document if k not in _KEYS + _OPTIONAL_KEYS]
    if missing or unknown:
        raise _fail(path, "; ".join([f"missing key {k!r}" for k in missing] + [f"unknown key {k!r}" for k in unknown]))
    scenario = document["scenario"]
    if not isinstance(scenario, dict) or sorted(scenario) != sorted(_SCENARIO_KEYS):
        raise _fail(path, f"scenario must be an object with keys {', '.join(_SCENARIO_KEYS)}")
    if not isinstance(scenario["text"], (str, type(None))) or not isinstance(scenario["path"], (str, type(None))):
        raise _fail(path, "scenario.text and scenario.path must be strings or null")
    if scenario["text"] is None and scenario["path"] is None:
        raise _fail(path, "scenario has neither text nor path")
    overrides = scenario["overrides"]
    if not isinstance(overrides, list) or not all(
            isinstance(o, list) and len(o) == 2 and isinstance(o[0], str) for o in overrides):
        raise _fail(path, "scenario.overrides must be a list of [key, value] pairs")
    for key in ("seed", "build_commands"):
        value = document[key]
        if isinstance(value, bool) or not isinstance(value, int) or (key == "build_commands" and value < 0):
            raise _fail(path, f"{key} must be a whole number, not {value!r}")
    if not isinstance(document["commands"], list):
        raise _fail(path, "commands must be a list")
    for i, command in enumerate(document["commands"]):
        if not isinstance(command, dict) or sorted(command) != ["args", "kwargs", "method"] \
                or not isinstance(command["method"], str) or not isinstance(command["args"], list) \
                or not isinstance(command["kwargs"], dict):
            raise _fail(path, f"commands[{i}] must be an object with method, args (list) and kwargs (object)")
        method = command["method"]
        if not Battle.is_command(method):
            raise _fail(path, f"commands[{i}]: {method!r} is not a battle command")
    commands: list[Command] = []
    try:
        for i, command in enumerate(document["commands"], start=document["build_commands"]):
            where = f"command #{i} ({command['method']})"
            commands.append((command["method"], tuple(decode_value(a, where) for a in command["args"]),
                             {k: decode_value(v, where) for k, v in command["kwargs"].items()}))
        for key, value in overrides:
            decode_value(value, f"scenario.overrides {key}")
    except SaveError as err:
        raise _fail(path, str(err)) from None
    for key in ("events", "creatures"):
        if not isinstance(document[key], list) or not all(isinstance(e, dict) for e in document[key]):
            raise _fail(path, f"{key} must be a list of objects")
    return document, commands


def _scenario(path: Path, document: dict[str, Any]) -> Scenario:
    info = document["scenario"]
    try:
        if info["text"] is not None:
            # Read as the file it came from, so that its scripts and power files are found beside it.
            scenario = load_scenario_text(info["text"], info["path"] or f"{path} (scenario)", path=info["path"])
        else:
            stored = Path(info["path"])
            candidates = [stored] if stored.is_absolute() else [path.parent / stored, stored]
            found = next((c for c in candidates if c.exists()), candidates[-1])
            scenario = load_scenario(found)
        if info["overrides"]:
            overrides = {k: decode_value(v, f"scenario.overrides {k}") for k, v in info["overrides"]}
            scenario = scenario.with_overrides(overrides)
    except ScenarioError as err:
        raise _fail(path, f"its scenario does not load: {err}") from None
    return scenario


def _first_difference(saved: list[dict[str, Any]], replayed: list[dict[str, Any]], what: str) -> str | None:
    for i, (a, b) in enumerate(zip(saved, replayed)):
        if a != b:
            return f"{what} #{i} differs: the file has {a}, the replay gives {b}"
    if len(saved) != len(replayed):
        return f"the file has {len(saved)} {what}s, the replay gives {len(replayed)}"
    return None


def _restore(path: Path, document: dict[str, Any], commands: list[Command]) -> tuple[Battle, Scenario, str | None]:
    """Rebuild and replay; returns the battle and the first disagreement with the file (None if none).

    Raises SaveError (after closing the new battle) only when the battle cannot be rebuilt at all.
    """
    scenario = _scenario(path, document)
    overrides = document.get("powers", [])
    if not isinstance(overrides, list) or not all(
            isinstance(o, list) and len(o) == 2 and isinstance(o[0], str) for o in overrides):
        raise _fail(path, "powers must be a list of [key, value] pairs")
    try:
        changed = [(k, decode_value(v, f"power override {k}")) for k, v in overrides]
        powers = apply_power_overrides(changed, scenario.library, scenario.script_dir) if changed else None
    except ValueError as err:
        raise _fail(path, f"its power overrides do not apply: {err}") from None
    try:
        battle = scenario.build(seed=document["seed"])
    except (ScenarioError, ValueError) as err:
        raise _fail(path, f"its scenario does not build: {err}") from None
    if powers is not None:
        battle.powers, battle.power_overrides = powers, tuple(changed)
    try:
        if len(battle.command_log) != document["build_commands"]:
            raise _fail(path, f"build_commands is {document['build_commands']} but the scenario builds with "
                              f"{len(battle.command_log)} commands")
        for i, (method, args, kwargs) in enumerate(commands, start=document["build_commands"]):
            try:
                getattr(battle, method)(*args, **kwargs)
            except Exception as err:
                return battle, scenario, f"command #{i} ({method}) failed on replay: {type(err).__name__}: {err}"
        mismatch = _first_difference(document["events"], _events(battle), "event")
        if mismatch is None:
            mismatch = _first_difference(document["creatures"], _snapshot(battle), "creature")
        return battle, scenario, mismatch
    except BaseException:
        battle.close()
        raise


def load_game(path: str | Path) -> Battle:
    """Restore a saved battle: rebuild the scenario, replay the commands, check against the file.

    Nothing outside the new battle is touched, so on failure the caller's current battle is as it
    was (each battle has its own esper world).

    Raises:
        SaveError: unreadable or corrupt file, wrong format or version, unknown keys, a scenario
            that does not load, or a replay that does not reproduce the saved events exactly.
    """
    return restore_game(path)[0]


def restore_game(path: str | Path) -> tuple[Battle, Scenario, int]:
    """Like :func:`load_game`, also returning the scenario the save was made on and the length of
    its build, which a window needs to go on playing (and saving) that scenario."""
    target = Path(path)
    document, commands = _read(target, (SAVE_FORMAT,))
    battle, scenario, mismatch = _restore(target, document, commands)
    if mismatch is not None:
        battle.close()
        raise _fail(target, f"the saved battle does not replay: {mismatch}")
    return battle, scenario, document["build_commands"]


def read_replay(path: str | Path) -> tuple[Scenario, int, list[Command]]:
    """The scenario, seed and post-build commands of a replay or save, without playing it."""
    target = Path(path)
    document, commands = _read(target, (REPLAY_FORMAT, SAVE_FORMAT))
    return _scenario(target, document), document["seed"], commands


def play_replay(path: str | Path) -> tuple[Battle, bool, str | None]:
    """Play a replay (or a save) and say whether it reproduced the recorded events.

    Unlike :func:`load_game` a mismatch is a result, not an error: a replay is how one finds out
    that a rules change altered an old battle, and the battle as replayed is what one inspects.

    Returns:
        ``(battle, matched, first_mismatch)``: the replayed battle, whether events and creatures
        matched the file, and a description of the first difference (None when they matched).

    Raises:
        SaveError: the file is unreadable or malformed, or its scenario does not load.
    """
    target = Path(path)
    document, commands = _read(target, (REPLAY_FORMAT, SAVE_FORMAT))
    battle, _scenario_used, mismatch = _restore(target, document, commands)
    return battle, mismatch is None, mismatch
