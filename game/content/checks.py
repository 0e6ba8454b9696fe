"""Field checks for scenario tables: each value's type and range, every problem collected.

A checker returns the converted value or raises :class:`Bad` saying what was expected (with the
allowed range) and what was found; :func:`check_fields` runs a table through its field spec and
adds each problem, keyed (``creatures[2].health``), to a :class:`Problems`, so one error lists
them all. Values are shown through :func:`components.values.shown`, so a 5000-digit number or a
table where a string was expected makes a message, never a crash.
"""

from __future__ import annotations

import difflib
import posixpath
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from components import Visibility
from components.creature import level_words
from components.terrain import BLOCK_NAMES
from components.values import MAX_NAME, Bound, is_int, is_number, shown, unprintable
from game.battle.naming import lone_team_problem
from game.content.recorded import MAX_SCRIPTS

Checker = Callable[[Any], Any]
#: name -> (checker, default); MISSING as the default means required
FieldSpec = Mapping[str, tuple[Checker, Any]]
MISSING: Any = object()

_KEY_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # as long as a power's id: a name defaults to it
_COLOUR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")


#: The most of a key path a problem shows: a file's keys are the file's, a stranger's megabyte included.
MAX_KEY_SHOWN = 160


class Bad(Exception):
    """One value refused; the message says what was expected and what was found."""


class Problems:
    """Collects problems so that one error lists them all, instead of one per attempt."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, key: str, message: str) -> None:
        """One problem at ``key``, which may hold the file's own keys: shown escaped (``readable``) and
        cut to ``MAX_KEY_SHOWN`` characters (a team or an unknown key a megabyte long was echoed whole)."""
        shown_key = readable(key)
        if len(shown_key) > MAX_KEY_SHOWN:
            shown_key = f"{shown_key[:MAX_KEY_SHOWN]}... ({len(key):,} characters)"
        self.items.append(f"{shown_key}: {message}" if key else message)

    def __len__(self) -> int:
        return len(self.items)


def readable(text: str) -> str:
    """``text`` as it is when a person can read it as written, else escaped as Python writes it
    (``a\\u202eb``): a key of the file (``[teams."x\\u202ey"]``, an unknown ``"a\\u2028b" = 1``) is part
    of the key path an error names, and a bidirectional override or a line separator in it turned the
    rest of the line around or broke it in two."""
    return text if unprintable(text) is None else repr(text)[1:-1]


def type_name(value: object) -> str:
    """What a TOML reader would call the value's type ("a whole number", "a table")."""
    names = {bool: "true/false", int: "a whole number", float: "a number", str: "a string", list: "an array",
             dict: "a table"}
    return names.get(type(value), type(value).__name__)


def describe(value: object) -> str:
    """Its type, and the value itself when it is short enough to be worth showing."""
    if isinstance(value, (dict, list)):
        return type_name(value)
    text = shown(value)
    return text if text.startswith("a whole number of about") else f"{type_name(value)} ({text})"


def did_you_mean(word: object, options: Iterable[str]) -> str:
    """`` (did you mean 'health'?)`` when one of ``options`` is close to ``word``, else ``""``."""
    close = difflib.get_close_matches(str(word), sorted(options), n=1)  # sorted: a set's order is not fixed
    return f" (did you mean {close[0]!r}?)" if close else ""


def join(where: str, name: str) -> str:
    """``creatures[2]`` + ``health`` -> ``creatures[2].health``; top-level keys stand alone."""
    return f"{where}.{name}" if where else name


def unknown_keys(table: Mapping[str, Any], known: Iterable[str], where: str, problems: Problems) -> None:
    """One problem per key of ``table`` not in ``known``, with a "did you mean" when one is close."""
    known = list(known)
    for key in table:
        if key not in known:
            problems.add(join(where, str(key)), f"unknown key{did_you_mean(key, known)}; "
                                                f"expected one of {', '.join(known)}")


def check_fields(table: Mapping[str, Any], spec: FieldSpec, where: str, problems: Problems) -> dict[str, Any] | None:
    """Check one table against its field spec; None when any field is wrong (already reported)."""
    before = len(problems)
    unknown_keys(table, tuple(spec), where, problems)
    out: dict[str, Any] = {}
    for name, (check, default) in spec.items():
        if name not in table:
            if default is MISSING:
                problems.add(join(where, name), "missing (required)")
            else:
                out[name] = default
            continue
        try:
            out[name] = check(table[name])
        except Bad as bad:
            problems.add(join(where, name), str(bad))
    return out if len(problems) == before else None


def check_each(table: Mapping[str, Any], spec: FieldSpec, problems: Problems) -> dict[str, Any]:
    """The fields of ``spec`` that ``table`` gives rightly (or their defaults), each checked on its own.

    Unlike :func:`check_fields` one wrong field does not lose the others: a scenario's bad
    ``ambient`` must not lose its ``power_files``, or each creature's own power would be reported
    unknown as well. Keys ``spec`` does not know are not looked at.
    """
    out: dict[str, Any] = {}
    for name, one in spec.items():
        out.update(check_fields({name: table[name]} if name in table else {}, {name: one}, "", problems) or {})
    return out


def table_of(value: Any, where: str, problems: Problems) -> dict[str, Any] | None:
    """``value`` when it is a table, else None with the problem reported."""
    if not isinstance(value, dict):
        problems.add(where, f"expected a table, got {describe(value)}")
        return None
    return value


def tables_of(value: Any, where: str, problems: Problems) -> list[dict[str, Any]]:
    """``value`` when it is an array of tables, else [] with the problem reported."""
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        problems.add(where, f"expected an array of tables ([[{where}]]), got {describe(value)}")
        return []
    return value


# ---------------------------------------------------------------------------------------------- checkers


def _outside(bound: Bound, value: Any, right_kind: bool) -> Bad:
    """A number of the right kind is shown as it is (``got 10001``); its kind is named only when wrong."""
    return Bad(f"expected {bound}, got {shown(value) if right_kind else describe(value)}")


def whole(bound: Bound) -> Checker:
    """A checker of whole numbers within ``bound``."""
    def check(value: Any) -> int:
        if bound.problem(value):
            raise _outside(bound, value, is_int(value))
        return int(value)
    return check


def number(bound: Bound) -> Checker:
    """A checker of finite numbers within ``bound``, as floats."""
    def check(value: Any) -> float:
        if bound.problem(value):
            raise _outside(bound, value, is_number(value))
        return float(value)
    return check


def boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise Bad(f"expected true or false, got {describe(value)}")
    return value


def string(value: Any) -> str:
    if not isinstance(value, str):
        raise Bad(f"expected a string, got {describe(value)}")
    return value


#: The longest description (several paragraphs; the window shows it in its help).
MAX_TEXT = 4_000


def name(value: Any) -> str:
    """A name people read: a string that is not blank (the battle refuses a creature without one), at
    most ``MAX_NAME`` characters, with no control characters."""
    if not isinstance(value, str) or not value.strip():
        raise Bad(f"expected a name (a string that is not blank), got {describe(value)}")
    return text_line(value)


def text_line(value: Any) -> str:
    """A one-line text people read (a name, which may be blank): at most ``MAX_NAME`` characters, no
    control characters."""
    return _printable(value, MAX_NAME, "")


def text(value: Any) -> str:
    """A description: at most ``MAX_TEXT`` characters; line breaks and tabs, but no other control
    characters."""
    return _printable(value, MAX_TEXT, "\n\t\r")


def _printable(value: Any, most: int, allowed: str) -> str:
    if not isinstance(value, str):
        raise Bad(f"expected a string, got {describe(value)}")
    if len(value) > most:
        raise Bad(f"expected at most {most:,} characters, got {len(value):,}")
    if (bad := unprintable(value, allowed)) is not None:
        raise Bad(f"expected printable text, got the control character {bad}")
    return value


def team_name(value: Any) -> str:
    """A team's name: a name that ``--policy TEAM=POLICY,...`` can spell (no '=' or ',', no space at
    either end)."""
    value = name(value)
    if "=" in value or "," in value or value != value.strip():
        raise Bad(f"expected a team name without '=', ',' or spaces at its ends (--policy names teams "
                  f"with them), got {shown(value)}")
    if lone_team_problem(value):
        raise Bad(f"expected another team name: {lone_team_problem(value)}")
    return value


def level(value: Any) -> Visibility:
    if not isinstance(value, str):
        raise Bad(f"expected a visibility level name ({level_words()}), got {describe(value)}")
    try:
        return Visibility.parse(value)
    except ValueError:
        raise Bad(f"unknown visibility level {shown(value)}: expected one of {level_words()}") from None


def one_of(options: tuple[str, ...]) -> Checker:
    """A checker of strings that must be one of ``options``."""
    def check(value: Any) -> str:
        if not isinstance(value, str) or value not in options:
            raise Bad(f"expected one of {', '.join(repr(o) for o in options)}{did_you_mean(value, options)}, "
                      f"got {describe(value)}")
        return value
    return check


def colour(value: Any) -> str:
    if not isinstance(value, str) or not _COLOUR_RE.match(value):
        raise Bad(f"expected a colour as \"#rrggbb\", got {describe(value)}")
    return value.lower()


def is_key(value: object) -> bool:
    """Whether ``value`` is a creature's key as :func:`key` takes it (an override names it so)."""
    return isinstance(value, str) and bool(_KEY_RE.match(value))


def key(value: Any) -> str:
    if not is_key(value):
        raise Bad(f"expected a key of 1 to 64 letters, digits, '_' and '-', got {describe(value)}")
    return value


#: The longest file name a script may have (what file systems take).
MAX_SCRIPT_NAME = 255


def scripts(value: Any) -> tuple[str, ...]:
    """Script file names (``reactions``): each a plain ``.star`` name, read from the script folder, and
    each once (a script listed twice would hear every event twice)."""
    wanted = "an array of script file names ending in .star (like \"rally.star\")"
    if not isinstance(value, list):
        raise Bad(f"expected {wanted}, got {describe(value)}")
    if len(value) > MAX_SCRIPTS:  # each once: a longer list names more scripts than a scenario may read
        raise Bad(f"expected at most {MAX_SCRIPTS} scripts, the most a scenario reads (docs/limits.md), "
                  f"got {len(value):,}")
    for name in value:
        problem = script_name_problem(name)
        if problem:  # the entry itself, not "an array": a designer sees which one is wrong, and why
            raise Bad(f"expected {wanted}, got an array holding {shown(name)} ({problem})")
    each_once(value, "script")
    return tuple(value)


def script_name_problem(name: object) -> str | None:
    """Why ``name`` cannot name a script, or None: a script is a plain, printable file name ending in
    ``.star`` (``rally.star``), read from the script folder. The one test of a power's ``script``, a
    scenario's ``reactions`` and a name a battle is given."""
    if not isinstance(name, str):
        return f"not a string but {describe(name)}"
    if "/" in name or "\\" in name or ".." in name:
        return "a path: a script is named by its file name alone, and read from the scripts/ folder"
    if "\0" in name:
        return "a NUL character"
    if unprintable(name) is not None:
        return f"the character {unprintable(name)}, which no file name here holds"
    if not name.isprintable():
        return "a character that cannot be printed"
    if len(name) > MAX_SCRIPT_NAME:
        return f"{len(name)} characters long: at most {MAX_SCRIPT_NAME}"
    if not (name.endswith(".star") and len(name) > len(".star")):
        return "not a file name ending in .star"
    return None


def each_once(value: list[Any], what: str) -> None:
    """Refuse a list that names something twice, naming it: a second listing is a slip."""
    twice = sorted(str(p) for p, n in Counter(value).items() if n > 1)
    if twice:
        raise Bad(f"expected each {what} once, got {', '.join(repr(p) for p in twice)} more than once")


def power_ids(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(p, str) and p for p in value):
        raise Bad(f"expected an array of power ids (strings), got {describe(value)}")
    each_once(value, "power")  # a creature has a power or not: a second listing is a typo for another?
    return tuple(value)


def relative_files(value: Any) -> tuple[str, ...]:
    """An array of ``.toml`` paths relative to the scenario's folder, never leaving it."""
    def fits(name: object) -> bool:
        return (isinstance(name, str) and name.endswith(".toml") and not name.startswith(("/", "\\"))
                and ".." not in name.replace("\\", "/").split("/") and "\0" not in name and ":" not in name
                and unprintable(name) is None)
    wanted = "an array of .toml file paths inside the scenario's folder (like \"powers.toml\" or \"powers/hexes.toml\")"
    if not isinstance(value, list):
        raise Bad(f"expected {wanted}, got {describe(value)}")
    seen: dict[str, str] = {}
    for name in value:
        if not fits(name):  # the entry itself, not "an array": a designer sees which one is wrong
            raise Bad(f"expected {wanted}, got an array holding {shown(name)}")
        same = posixpath.normpath(name.replace("\\", "/"))
        if same in seen:  # (else its powers would be "already defined" in the very same file)
            raise Bad(f"expected each file once: {shown(seen[same])} and {shown(name)} name the same file")
        seen[same] = name
    return tuple(value)


def block_names(value: Any) -> tuple[str, ...]:
    """What a square of terrain stops: names from ``components.terrain.BLOCK_NAMES``, each once."""
    known = sorted(BLOCK_NAMES)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise Bad(f"expected an array of what the terrain blocks ({', '.join(known)}), got {describe(value)}")
    for name in value:
        if name not in BLOCK_NAMES:
            raise Bad(f"unknown thing to block {shown(name)}{did_you_mean(name, known)}: expected some of "
                      f"{', '.join(known)}")
    each_once(value, "thing blocked")
    return tuple(value)
