"""The structure of a save or replay file, checked before anything is built from it.

Every key is checked for its type, every number for its range (the seed, ``build_commands``, and
the numbers in each command's arguments: see game.content.save_values), every key is given once in
its object, and every command is one the battle has; a problem raises :class:`SaveError` naming the
file and the key or command.
"""

from __future__ import annotations

import inspect
import json
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from components.values import SEEDS, Bound, clipped, shown
from game.battle.facade import Battle
from game.content.files import MEGABYTE, SCENARIO_BYTES, UnreadableFile, read_text, too_long_number
from game.content.recorded import RecordedFiles
from game.content.save_values import SaveError, argument_problem, decode_value

__all__ = ["FORMAT_VERSION", "REPLAY_FORMAT", "SAVE_FORMAT", "Command", "call_problem", "first_difference",
           "read_document"]

SAVE_FORMAT = "gridbattle-save"
REPLAY_FORMAT = "gridbattle-replay"
#: 2: the file carries the text of its scenario's power files and scripts (``files``) and is
#: replayed from them; a version 1 file reads them from beside its scenario's path, as it always did.
FORMAT_VERSION = 2
SAVE_BYTES = 256 * MEGABYTE
BUILD_COMMANDS = Bound(0, 10_000_000)

_KEYS = ("format", "version", "scenario", "seed", "build_commands", "commands", "events", "creatures")
#: "powers": power overrides of a simulation's sweep, as [key, value] pairs; "rules_version": the
#: rules it was played under (files from before it was recorded are version 1); "files": the power
#: files' and scripts' texts (game.content.recorded), required from version 2 on.
_OPTIONAL_KEYS = ("powers", "rules_version", "files")
RULES_VERSIONS = Bound(1, 1000)
_SCENARIO_KEYS = ("path", "name", "text", "overrides")

Command = tuple[str, tuple[Any, ...], dict[str, Any]]
#: A battle command's signature, by its name.
Signatures = dict[str, inspect.Signature]


def failure(path: Path, message: str) -> SaveError:
    """A save's error: the file's path, then what is wrong with it."""
    return SaveError(f"{path}: {message}")


class _KeyTwice(Exception):
    """A JSON object that holds one key twice (not a ValueError: that is a number too long to read)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object as a dict, refusing a key given twice: ``json`` keeps the last silently, so a
    file could show a reader one seed, script or command and be played with another."""
    document = dict(pairs)
    if len(document) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _KeyTwice(key)
            seen.add(key)
    return document


def _parse_json(path: Path) -> dict[str, Any]:
    try:
        text = read_text(path, SAVE_BYTES)
    except UnreadableFile as err:
        raise failure(path, str(err)) from None
    try:
        document = json.loads(text, object_pairs_hook=_unique_keys)
    except _KeyTwice as err:
        raise failure(path, f"not a save this game wrote: an object holds the key {shown(err.key)} twice "
                            f"(which one counts would be a guess; this game writes each key once)") from None
    except json.JSONDecodeError as err:
        raise failure(path, f"not valid JSON (line {err.lineno} column {err.colno}: {err.msg}); "
                          f"the file is corrupt or truncated") from None
    except RecursionError:
        raise failure(path, "not a save this game wrote: arrays or objects nested too deeply") from None
    except ValueError:  # a number of more digits than Python converts (sys.get_int_max_str_digits)
        raise failure(path, f"not a save this game wrote: {too_long_number(text)}") from None
    if not isinstance(document, dict):
        raise failure(path, "expected a JSON object at the top")
    if _SURROGATE_ESCAPE.search(text):  # (rare: a pair is an emoji; only a lone one is refused)
        place = lone_surrogate(document)
        if place is not None:
            expected = ("a file path (a byte of a name that is not UTF-8 is written \\udc80..\\udcff)"
                        if place == _PATH_PLACE else "text (no file's text holds one, and this game never writes one)")
            raise failure(path, f"{place}: a string with a lone surrogate escape; expected {expected}")
    return document


#: A JSON escape of half a surrogate pair (``\\ud83d``), the only way a lone one gets into a string:
#: the file's own bytes are read as strict UTF-8.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
#: The one string read from the file system, not from a file's text: a folder whose name is not UTF-8
#: (``bad\xffdir``) is recorded as Python decodes it, with ``\udcff`` for the byte, and loads.
_PATH_PLACE = "scenario.path"


def _unwritable(text: str, place: str) -> bool:
    """Whether ``text`` holds a lone surrogate that its place cannot take: any in text, one that
    stands for no byte of a file name (outside U+DC80..U+DCFF) in the scenario's path."""
    try:
        os.fsencode(text) if place == _PATH_PLACE else text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def lone_surrogate(document: Any) -> str | None:
    """Where in ``document`` a string (or a key) holds a lone surrogate (``files.scripts['a.star']``),
    or None. JSON can spell one (``"\\ud800"`` in the file) where no file's text can: a script, power
    file or path carrying one failed deep inside (a UnicodeEncodeError from the script host or the
    path resolver, a traceback) instead of naming the file and the key. Walked without recursion."""
    stack: list[tuple[str, Any]] = [("", document)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, str):
            if _unwritable(value, where):
                return where or "the document"
        elif isinstance(value, dict):
            for key, item in reversed(value.items()):
                if _unwritable(key, ""):
                    return f"{where or 'the document'}: key {shown(key)}"
                stack.append((f"{where}.{key}" if where and key.isidentifier() else
                               f"{where}[{shown(key)}]" if where else key, item))
        elif isinstance(value, list):
            stack.extend((f"{where}[{i}]", item) for i, item in reversed(list(enumerate(value))))
    return None


def _check_header(path: Path, document: dict[str, Any], kinds: Sequence[str]) -> None:
    kind = document.get("format")
    if kind not in kinds:
        if kind == REPLAY_FORMAT:
            raise failure(path, "this is a replay, not a save: play it with play_replay")
        raise failure(path, f"format is {shown(kind)}; expected {' or '.join(repr(k) for k in kinds)}")
    version = document.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= FORMAT_VERSION:
        newer = isinstance(version, int) and not isinstance(version, bool) and version > FORMAT_VERSION
        raise failure(path, f"version {shown(version)} is newer than this game reads ({FORMAT_VERSION})" if newer
                    else f"version must be a whole number in 1..{FORMAT_VERSION}, not {shown(version)}")
    missing = [k for k in (*_KEYS, *(("files",) if version >= 2 else ())) if k not in document]
    unknown = [k for k in document if k not in _KEYS + _OPTIONAL_KEYS]
    if missing or unknown:
        listed = [f"missing key {k!r}" for k in missing] + [f"unknown key {shown(k)}" for k in unknown]
        raise failure(path, "; ".join(listed))
    for key, bound in (("seed", SEEDS), ("build_commands", BUILD_COMMANDS)):
        problem = bound.problem(document[key])
        if problem:
            raise failure(path, f"{key}: {problem}")
    for key in ("events", "creatures"):
        if not isinstance(document[key], list) or not all(isinstance(e, dict) for e in document[key]):
            raise failure(path, f"{key} must be a list of objects")


#: The longest override key a save holds: ``creatures.KEY.FIELD``, ``teams.NAME.FIELD`` and the like are
#: at most about 100 characters; a stranger's key of a megabyte was echoed whole in the load's refusal.
MAX_OVERRIDE_KEY = 200


def _pairs(value: Any) -> bool:
    """A list of ``[key, value]`` pairs with string keys (overrides) of at most ``MAX_OVERRIDE_KEY``."""
    return isinstance(value, list) and all(isinstance(o, list) and len(o) == 2 and isinstance(o[0], str)
                                           and len(o[0]) <= MAX_OVERRIDE_KEY for o in value)


def _check_scenario_info(path: Path, document: dict[str, Any]) -> None:
    scenario = document["scenario"]
    if not isinstance(scenario, dict) or sorted(scenario) != sorted(_SCENARIO_KEYS):
        raise failure(path, f"scenario must be an object with keys {', '.join(_SCENARIO_KEYS)}")
    if not isinstance(scenario["text"], (str, type(None))) or not isinstance(scenario["path"], (str, type(None))):
        raise failure(path, "scenario.text and scenario.path must be strings or null")
    if scenario["text"] is None and scenario["path"] is None:
        raise failure(path, "scenario has neither text nor path")
    if scenario["text"] is not None and len(scenario["text"]) > SCENARIO_BYTES // 4 \
            and len(scenario["text"].encode("utf-8")) > SCENARIO_BYTES:  # the scenario file's own limit
        raise failure(path, f"scenario.text: {len(scenario['text'].encode('utf-8')):,} bytes; expected at most "
                          f"{SCENARIO_BYTES:,}, the most a scenario file is read to")
    if scenario["text"] is None and document["version"] >= 2:  # else the path's file, and the files beside it
        raise failure(path, "scenario.text: expected the scenario's TOML text, which a version 2 file carries and is "
                          "played from (never a file on this disk), got null")
    if scenario["path"] is not None and ("\0" in scenario["path"] or len(scenario["path"]) > 4096):
        raise failure(path, f"scenario.path {shown(scenario['path'])} is not a file path")
    if not _pairs(scenario["overrides"]):
        raise failure(path, f"scenario.overrides must be a list of [key, value] pairs, each key at most "
                            f"{MAX_OVERRIDE_KEY} characters")
    if not _pairs(document.get("powers", [])):
        raise failure(path, f"powers must be a list of [key, value] pairs, each key at most {MAX_OVERRIDE_KEY} "
                            "characters")
    problem = RULES_VERSIONS.problem(document.get("rules_version", 1))
    if problem:
        raise failure(path, f"rules_version: {problem}")
    _check_files(path, document)


def _check_files(path: Path, document: dict[str, Any]) -> None:
    """``files`` (the power files' and scripts' texts): from version 2 on, and well formed."""
    if document["version"] < 2 and "files" in document:
        raise failure(path, "files: a version 1 file does not carry files; expected version 2")
    if "files" in document:
        try:
            RecordedFiles.from_json(document["files"])
        except ValueError as err:
            raise failure(path, str(err)) from None


def _decode_commands(path: Path, document: dict[str, Any]) -> list[Command]:
    signatures: Signatures = {}  # each command's, worked out once per file, not once per command
    if not isinstance(document["commands"], list):
        raise failure(path, "commands must be a list")
    commands: list[Command] = []
    for i, command in enumerate(document["commands"], start=document["build_commands"]):
        index = i - document["build_commands"]
        if not isinstance(command, dict) or sorted(command) != ["args", "kwargs", "method"] \
                or not isinstance(command["method"], str) or not isinstance(command["args"], list) \
                or not isinstance(command["kwargs"], dict):
            raise failure(path, f"commands[{index}] must be an object with method, args (list) and kwargs (object)")
        method = command["method"]
        if not Battle.is_command(method):
            raise failure(path, f"commands[{index}]: {shown(method)} is not a battle command")
        where = f"command #{i} ({method})"
        try:
            args = tuple(decode_value(a, where) for a in command["args"])
            kwargs = {k: decode_value(v, where) for k, v in command["kwargs"].items()}
        except SaveError as err:
            raise failure(path, str(err)) from None
        problem = argument_problem([args, kwargs]) or call_problem(method, args, kwargs, signatures)
        if problem:
            raise failure(path, f"commands[{index}] ({where}): {problem}")
        commands.append((method, args, kwargs))
    return commands


def call_problem(method: str, args: Sequence[Any], kwargs: Mapping[str, Any],
                 signatures: Signatures | None = None) -> str | None:
    """Why the battle's command ``method`` cannot be called with these arguments (an unknown keyword,
    one too many or missing), or None; for a ``tick``, the same of each order it recorded. Found
    when the file is read, it is the file's error naming the command, never a replay that "fails"
    with a TypeError as though the battle had played differently.

    ``signatures``: the commands' signatures worked out so far, by name (filled in as they are
    needed). ``inspect.signature`` took most of the time a file of many commands took to read: a
    replay of 240,000 commands spent about 26 s of CPU before its first command was replayed.
    """
    known = {} if signatures is None else signatures
    problem = Battle.call_problem(method, args, kwargs, known)
    if problem or method != "tick":
        return problem
    bound = known[method].bind(None, *args, **kwargs)
    if bound.arguments.get("controller") is not None:
        return "a recorded tick holds the orders its controllers issued, never a controller"
    return _orders_problem(bound.arguments.get("orders"), known)


def _orders_problem(orders: Any, signatures: Signatures) -> str | None:
    """What is wrong with a recorded tick's ``orders`` (``[[actor, [[name, args, kwargs], ...]], ...]``)."""
    shape = "orders: expected [[actor, [[command, args, kwargs], ...]], ...]"
    if orders is None:
        return None
    if not isinstance(orders, list) or not all(isinstance(o, list) and len(o) == 2 and isinstance(o[1], list)
                                               for o in orders):
        return shape
    first: dict[Any, int] = {}
    for turn, (actor, issued) in enumerate(orders):
        if type(actor) is int and first.setdefault(actor, turn) != turn:  # the battle would keep only the last
            return f"orders[{turn}]: actor {actor} is given orders twice in one round (orders[{first[actor]}] too)"
        for n, order in enumerate(issued):
            if not (isinstance(order, list) and len(order) == 3 and isinstance(order[0], str)
                    and isinstance(order[1], list) and isinstance(order[2], dict)):
                return f"{shape}; orders[{turn}][1][{n}] is not [command, args, kwargs]"
            name, args, kwargs = order
            problem = Battle.order_problem(name, args, kwargs, signatures)
            if problem:
                return f"orders[{turn}][1][{n}]: {problem}"
    return None


def read_document(path: Path, kinds: Sequence[str]) -> tuple[dict[str, Any], list[Command]]:
    """Read and check the structure of a file and decode its commands; nothing is built yet.

    Raises:
        SaveError: naming the file and what is wrong (the key, the command, the range).
    """
    document = _parse_json(path)
    _check_header(path, document, kinds)
    _check_scenario_info(path, document)
    commands = _decode_commands(path, document)
    try:
        for key, value in [*document["scenario"]["overrides"], *document.get("powers", [])]:
            decode_value(value, f"override {key}")
    except SaveError as err:
        raise failure(path, str(err)) from None
    return document, commands


def first_difference(saved: list[dict[str, Any]], replayed: list[dict[str, Any]], what: str) -> str | None:
    """Where the file and the replay first part, each side shown clipped: the file's side is whatever
    a stranger wrote (a 4 MB value in one event was printed whole to the terminal)."""
    for i, (a, b) in enumerate(zip(saved, replayed)):
        if a != b:
            return f"{what} #{i} differs: the file has {clipped(str(a), 300)}, the replay gives {clipped(str(b), 300)}"
    if len(saved) != len(replayed):
        return f"the file has {len(saved)} {what}s, the replay gives {len(replayed)}"
    return None
