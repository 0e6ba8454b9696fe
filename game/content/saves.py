"""Saves and replays: a battle stored as its scenario, its seed and the commands issued after the build.

Why not pickle the world? Because the battle is deterministic (same seed + same commands = same
events), the command log is a complete, small, readable and version-tolerant description of the
state. Restoring replays it on a fresh build of the scenario, then *checks* the result against the
events (and a snapshot of every creature's Health and Position) recorded when saving: a save that
does not reproduce exactly is refused instead of quietly loading a different battle.

File layout (JSON)::

    {"format": "gridbattle-save" | "gridbattle-replay", "version": 2,
     "scenario": {"path": "assets/scenarios/ledge.toml", "name": "The ledge",
                  "text": "<the whole TOML file>", "overrides": [["rules.cover_bonus", 4]]},
     "files": {"power_files": {"my_powers.toml": "<its text>"}, "scripts": {"rally.star": "<its text>"},
               "shipped_power_files": {"martial.toml": "<its text>", ...}},
     "seed": 11, "build_commands": 63,
     "commands": [{"method": "move", "args": [2, 6, 3], "kwargs": {}}, ...],
     "events": [{"kind": "spawned", "round": 0, ...}, ...],
     "creatures": [{"entity": 1, "health": 12, "x": 3, "y": 1, "z": 30.0}, ...]}

The scenario text travels inside the file so a later edit of the ``.toml`` cannot silently change
an old save; the path is kept for people. So do the texts of the power files (the scenario's own
and the shipped ``assets/powers``) and of every script it or its battle read (``files``, from
version 2): the file is replayed from them, never from the disk, and its scripts then run
sandboxed (the texts came from a file, not from ``assets/``). A version 1 file still reads them
from beside its scenario's path; a version 2 file whose scenario text is null is refused, never read
from its path.

Command arguments that JSON cannot say exactly are tagged:
``{"$tuple": [x, y]}``, ``{"$visibility": "POOR"}``, ``{"$float": "inf"}``, ``{"$dict": {}}``.

Writes are atomic (a temporary file beside the target, flushed and fsynced, then ``os.replace``:
see game.content.atomic), so a crash or a kill mid-save leaves the previous file whole, and the
next save removes the temporary the killed one left. Every number a file gives is range-checked
where it is read: the seed, ``build_commands`` and the numbers of every command's arguments
(game.content.save_values), so a tampered save is refused with the key, never replayed into a
crash; and every text it carries at most as long as the file it stands for is read from disk (a
scenario 16 MiB, a power file 4 MiB, a script 64 KiB).
"""

from __future__ import annotations

import enum
import json
from pathlib import Path
from typing import Any

import numpy as np

from components import Health, Position
from components.powers import Power
from components.rules import RULES_VERSION
from game.battle.facade import Battle
from game.content.atomic import atomic_write
from game.content.powers import PowerError, apply_power_overrides
from game.content.rebuild import BuildMismatch, ReplayFile, past_the_file, rebuilt
from game.content.recorded import RecordedFiles, ScriptReads
from game.content.references import check_script_overrides
from game.content.save_format import (
    FORMAT_VERSION,
    REPLAY_FORMAT,
    SAVE_FORMAT,
    Command,
    failure,
    first_difference,
    read_document,
)
from game.content.save_values import SaveError, argument_problem, decode_value, encode_value
from game.content.scenario import Scenario, ScenarioError, load_scenario, load_scenario_text
from game.content.scenario_costs import scenario_area_problem
from game.content.toml_values import with_overrides

__all__ = [
    "FORMAT_VERSION",
    "REPLAY_FORMAT",
    "ReplayFile",
    "SAVE_FORMAT",
    "SaveError",
    "check_replay",
    "decode_value",
    "encode_value",
    "load_game",
    "play_replay",
    "read_replay",
    "save_game",
    "write_replay",
]


# ---------------------------------------------------------------------------------------------- values


def _encode_command(index: int, command: Command) -> dict[str, Any]:
    name, args, kwargs = command
    where = f"command #{index} ({name})"
    problem = argument_problem([args, kwargs])
    if problem:  # a save this game would refuse to read is not written
        raise SaveError(f"cannot save {where}: {problem}")
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


def _build_length(scenario: Scenario, battle: Battle, build_commands: int | None, files: RecordedFiles) -> int:
    """How many log entries are the scenario's build, checked by building it again.

    The check is what makes a save trustworthy: a battle not built from this scenario and seed
    would otherwise be written as a file that can never be restored. It is built from the scripts
    the battle read (as the save records them), not the folder's: a script broken on disk since
    must not stop a save of a battle that goes on without it.
    """
    fresh = scenario.build_with_ids(seed=battle.seed, scripts=files.scripts)[0]
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
    # what the battle read besides the scenario (its power files, every script): replayed from these
    # texts, never from the disk, and the build checked against them
    files = scenario.files.with_scripts(battle.scripts.sources())
    count = _build_length(scenario, battle, build_commands, files)
    log = list(battle.command_log)
    return {
        "format": kind,
        "version": FORMAT_VERSION,
        "scenario": {"path": scenario.path, "name": scenario.name, "text": scenario.text,
                     "overrides": [[k, encode_value(v, f"override {k}")] for k, v in scenario.overrides]},
        "files": files.as_json(),
        "seed": battle.seed,
        "build_commands": count,
        "commands": [_encode_command(i, c) for i, c in enumerate(log[count:], start=count)],
        "events": _events(battle),
        "creatures": _snapshot(battle),
        "powers": [[k, encode_value(v, f"power override {k}")] for k, v in battle.power_overrides],
        "rules_version": RULES_VERSION,
    }


def _write(path: str | Path, document: dict[str, Any]) -> None:
    target = Path(path)
    try:
        text = json.dumps(document, indent=1, allow_nan=True)
    except (TypeError, ValueError) as err:
        raise SaveError(f"{target}: cannot encode the battle: {err}") from None
    try:
        atomic_write(target, text.encode("utf-8"))
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


def _scenario(path: Path, document: dict[str, Any]) -> Scenario:
    info = document["scenario"]
    recorded = RecordedFiles.from_json(document["files"]) if "files" in document else None
    try:
        if info["text"] is not None:
            # Read as the file it came from (its power files and scripts: the ones the file recorded;
            # a version 1 file's are found beside it).
            scenario = load_scenario_text(info["text"], info["path"] or f"{path} (scenario)", path=info["path"],
                                          recorded=recorded)
        else:
            stored = Path(info["path"])
            candidates = [stored] if stored.is_absolute() else [path.parent / stored, stored]
            found = next((c for c in candidates if c.exists()), candidates[-1])
            scenario = load_scenario(found)
        if info["overrides"]:
            overrides = {k: decode_value(v, f"scenario.overrides {k}") for k, v in info["overrides"]}
            scenario = scenario.with_overrides(overrides)
    except (ScenarioError, SaveError) as err:
        old = "" if recorded is not None else (f" (a version {document['version']} file carries no power files or "
                                               f"scripts: they are read from beside {info['path']!r}, as they are now)")
        raise failure(path, f"its scenario does not load: {err}{old}") from None
    return scenario


def _power_table(path: Path, document: dict[str, Any], scenario: Scenario
                 ) -> tuple[dict[str, Power] | None, tuple[tuple[str, Any], ...]]:
    """The file's power overrides (a sweep's ``powers.ID.KEY``) applied to the scenario's powers:
    the table its battle was played with (None: the scenario's own), and the overrides."""
    try:
        changed = tuple((k, decode_value(v, f"power override {k}")) for k, v in document.get("powers", []))
        powers = apply_power_overrides(changed, scenario.library, scenario.script_dir,
                                       check_scripts=not scenario.recorded) if changed else None
        if powers is not None and scenario.recorded:  # a script the file carries, with an entry a use calls
            check_script_overrides(changed, powers, "the file", scenario.script_dir, scenario.trusted,
                                   ScriptReads(recorded=scenario.files.scripts))
    except (PowerError, SaveError) as err:
        raise failure(path, f"its power overrides do not apply: {err}") from None
    # held to the scenario's budgets, as a sweep's are (game.sim.context): a window that loads the file
    # has its computer players plan with this table (a blink of 10,000 ft for every creature)
    found = scenario_area_problem(scenario, powers) if powers is not None else None
    if found:
        raise failure(path, f"its power overrides do not apply: {with_overrides(changed)}: creatures: {found}")
    return powers, changed


def _restore(path: Path, document: dict[str, Any], found: ReplayFile) -> tuple[Battle, str | None]:
    """Rebuild and replay what was read; returns the battle and the first disagreement with the file
    (None if none).

    Raises SaveError (after closing the new battle) only when the battle cannot be rebuilt at all.
    """
    commands = found.commands
    try:
        battle = rebuilt(found.scenario, document["seed"], found.powers, found.power_overrides,
                         document["build_commands"])
    except BuildMismatch as err:
        raise failure(path, f"{err} (build_commands)") from None
    except (ScenarioError, ValueError) as err:
        raise failure(path, f"its scenario does not build: {err}") from None
    try:
        mismatch = None
        signatures: dict[str, Any] = {}  # (each command's signature once, across the entries)
        recorded = len(document["events"])
        for i, command in enumerate(commands, start=document["build_commands"]):
            try:
                battle.follow([command], first=i, signatures=signatures)
            except Exception as err:
                mismatch = f"command #{i} ({command[0]}) failed on replay: {type(err).__name__}: {err}"
                break
            if past_the_file(battle, recorded):
                left = len(commands) + document["build_commands"] - i - 1
                mismatch = (f"the file has {recorded} events, the replay gives more by command #{i} ({command[0]}); "
                            f"its {left} commands after it were not played")
                break
        if mismatch is None:
            mismatch = first_difference(document["events"], _events(battle), "event")
        if mismatch is None:
            mismatch = first_difference(document["creatures"], _snapshot(battle), "creature")
        made_under = document.get("rules_version", 1)
        if mismatch is not None and made_under != RULES_VERSION:
            mismatch = (f"it was played under rules version {made_under} and this game has rules version "
                        f"{RULES_VERSION}, whose rules play it differently")
        return battle, mismatch
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
    document, found = _read(Path(path), (SAVE_FORMAT,))
    battle, mismatch = _restore(Path(path), document, found)
    if mismatch is not None:
        battle.close()
        raise failure(Path(path), f"the saved battle does not replay: {mismatch}")
    return battle, found.scenario, document["build_commands"]


def _read(path: Path, kinds: tuple[str, ...]) -> tuple[dict[str, Any], ReplayFile]:
    """The file read once, checked, and its scenario and power table loaded, not played."""
    document, commands = read_document(path, kinds)
    scenario = _scenario(path, document)
    powers, changed = _power_table(path, document, scenario)
    return document, ReplayFile(scenario, document["seed"], commands, powers, changed, document["build_commands"],
                                len(document["events"]))


def read_replay(path: str | Path) -> ReplayFile:
    """A replay or save's scenario, seed, post-build commands and power overrides, without playing it.

    Raises:
        SaveError: the file is unreadable or malformed, its scenario does not load, or its power
            overrides do not apply.
    """
    return _read(Path(path), (REPLAY_FORMAT, SAVE_FORMAT))[1]


def check_replay(path: str | Path) -> tuple[Battle, str | None, ReplayFile]:
    """:func:`play_replay`'s battle and first mismatch (None: it matched) with :func:`read_replay`'s
    answer, from one reading of the file: ``replay FILE`` checks it, then steps it in a window, and a
    file changed between two readings was checked as one battle and shown as another."""
    document, found = _read(Path(path), (REPLAY_FORMAT, SAVE_FORMAT))
    battle, mismatch = _restore(Path(path), document, found)
    return battle, mismatch, found


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
    battle, mismatch, _ = check_replay(path)
    return battle, mismatch is None, mismatch
