"""The entry points of a script checked against how the battle will call them, from its source.

The battle calls ``on_downed(ctx, event)``, ``on_hit(ctx, target)`` and the like; a script whose
``on_downed(ctx)`` takes one argument, or whose ``on_dwned`` is misspelt, would otherwise be found
only when the event first happens (a ``ScriptFailed`` in the middle of a battle), or never. A loader
asks :func:`entry_problems` when a scenario loads, with the functions it expects.

Starlark offers no way to ask a function for its parameters, so they are read from the source: each
top-level ``def NAME(...)`` (or ``NAME = lambda ...:``) header is cut out and read by Python's own
parser, whose parameter syntax Starlark's is a subset of. A header this cannot read is not judged
(the call at run time still reports it), so nothing that works is ever refused.
"""

from __future__ import annotations

import ast
import difflib
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Final

__all__ = ["ENTRY_PREFIX", "Params", "entry_problems", "parameters"]

#: Names starting with this are entry points the battle calls; helpers take other names (``_rally``).
ENTRY_PREFIX: Final = "on_"

_DEF: Final = re.compile(r"^def[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]*\(", re.M)
_LAMBDA: Final = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*lambda\b", re.M)
_OPEN, _CLOSE = "([{", ")]}"


@dataclass(frozen=True, slots=True)
class Params:
    """What a function takes: ``required`` positional parameters (no default), ``most`` positional
    ones in all (None: ``*args`` takes any number), and whether a keyword-only one has no default."""

    text: str
    required: int
    most: int | None
    keyword_needed: bool

    def takes(self, count: int) -> bool:
        """Whether a call with ``count`` positional arguments and no keywords binds."""
        fits = self.required <= count and (self.most is None or count <= self.most)
        return fits and not self.keyword_needed


def _masked(source: str) -> str:
    """``source`` with the insides of its strings and comments blanked (lines and offsets kept), so
    that a ``def`` inside a docstring is not taken for one and a ``)`` in a default is not the end."""
    out, i, size = list(source), 0, len(source)
    while i < size:
        ch = source[i]
        if ch == "#":
            end = source.find("\n", i)
            end = size if end == -1 else end
            _blank(out, i, end)
            i = end
        elif ch in "\"'":
            quote = ch * 3 if source.startswith(ch * 3, i) else ch
            j = i + len(quote)
            while j < size and not source.startswith(quote, j):
                j += 2 if source[j] == "\\" else 1
            _blank(out, i + len(quote), min(j, size))
            i = j + len(quote)
        else:
            i += 1
    return "".join(out)


def _blank(chars: list[str], start: int, end: int) -> None:
    for j in range(start, end):
        if chars[j] != "\n":
            chars[j] = " "


def _until(masked: str, start: int, stop: str) -> int | None:
    """Index of the first ``stop`` character at bracket depth 0 from ``start`` in masked source."""
    depth = 0
    for i in range(start, len(masked)):
        ch = masked[i]
        if depth == 0 and ch in stop:
            return i
        depth += 1 if ch in _OPEN else -1 if ch in _CLOSE else 0
    return None


def _read(params: str, lambda_form: bool) -> Params | None:
    """A header's parameters as Python reads them; None when it does not (that header is not judged)."""
    try:
        if lambda_form:
            node: ast.AST = ast.parse(f"lambda {params}: 0", mode="eval").body
        else:
            module = ast.parse(f"def f({params}): pass")
            node = module.body[0] if len(module.body) == 1 else module
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not isinstance(node, (ast.Lambda, ast.FunctionDef)):
        return None
    args = node.args
    positional = len(args.posonlyargs) + len(args.args)
    return Params(ast.unparse(args), positional - len(args.defaults),
                  None if args.vararg is not None else positional,
                  any(default is None for default in args.kw_defaults))


def parameters(source: str) -> dict[str, Params]:
    """The parameters of each top-level function whose header can be read, by name (a later
    definition of a name replaces an earlier one, as it would at run time)."""
    found: list[tuple[int, str, Params]] = []
    masked = _masked(source)
    for pattern, stop in ((_DEF, ")"), (_LAMBDA, ":")):
        for match in pattern.finditer(masked):
            end = _until(masked, match.end(), stop)
            read = _read(source[match.end():end], stop == ":") if end is not None else None
            if read is not None:
                found.append((match.start(), match.group(1), read))
    return {name: params for _, name, params in sorted(found, key=lambda item: item[0])}


def entry_problems(script: str, source: str, entries: Mapping[str, tuple[str, ...]],
                   others: Collection[str] = (), defined: Collection[str] | None = None) -> list[str]:
    """Why the battle could not call this script's entry points, one line each naming the file and
    the function: an ``on_`` function that is no entry point (with a "did you mean"), or one that
    cannot take the arguments the battle passes.

    Args:
        script: the file name, for the messages.
        source: its text.
        entries: the entry points this use of the script calls, and the arguments each is given
            (``{"on_downed": ("ctx", "event")}``).
        others: entry points of other uses, allowed but not called here (a reaction script may
            also serve a power).
        defined: the top-level functions the host found, when it parsed the script: a header
            inside a string is then not taken for a function.
    """
    known = sorted({*entries, *others})
    problems = []
    for name, params in parameters(source).items():
        if not name.startswith(ENTRY_PREFIX) or (defined is not None and name not in defined):
            continue
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            problems.append(f"{script}: {name} is no entry point{hint}; names starting with {ENTRY_PREFIX!r} are "
                            f"the battle's ({', '.join(known)}), so a helper takes another name")
        elif name in entries and not params.takes(len(entries[name])):
            wanted = ", ".join(entries[name])
            problems.append(f"{script}: {name}({params.text}) cannot take the battle's call {name}({wanted}); "
                            f"expected def {name}({wanted})")
    return problems
