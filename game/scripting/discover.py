"""Which top-level names of a loaded script are functions (its entry points and helpers), found cheaply.

starlark-pyo3 offers no list of a module's globals, so the host asks the module itself: a probe
evaluated into it, ``sbx__probe = [n for n, v in (("f", f), ...) if sbx__type(v) == "function"]``.
Each evaluation costs about the module's size, so a probe a name made a script of thousands of
functions take seconds to load (quadratic in its length), and a probe that names a non-global fails
whole. So the candidates are found from the source once and asked about in one probe:

* every top-level statement starts in column 0, so ``def NAME`` / ``NAME =`` at the start of a line
  give a superset of the top-level names; a long string or a call's keyword arguments can add false
  ones, by the thousand;
* if the probe of them all fails, Python's syntax tree of the top level (its defs and assignments)
  drops the false ones, and one more probe answers;
* only for a source Python cannot read, the candidates are halved until the globals are found.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from typing import Final

from .diagnose import DEF_RE

__all__ = ["PROBE", "discover_functions", "probe_source", "top_level_names"]

#: The global the probe leaves its answer in.
PROBE: Final = "sbx__probe"
_ASSIGN_RE: Final = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)[ \t]*=(?!=)", re.M)

#: Asks the module which of the names are functions; None when one of them is not a global.
FunctionsAmong = Callable[[list[str]], "set[str] | None"]


def probe_source(names: list[str]) -> str:
    """The probe that leaves in :data:`PROBE` those of *names* that are functions."""
    pairs = "".join(f"({name!r}, {name}), " for name in names)
    return f"{PROBE} = [n for n, v in ({pairs}) if sbx__type(v) == 'function']\n"


def discover_functions(source: str, functions_among: FunctionsAmong) -> frozenset[str]:
    """The public (not ``_``-prefixed) top-level functions of the script *source*, asking
    ``functions_among`` once in the usual case, twice when false candidates hide among the names."""
    candidates = {m.group(1) for m in DEF_RE.finditer(source)}
    candidates |= {m.group(1) for m in _ASSIGN_RE.finditer(source)}
    public = sorted(c for c in candidates if not c.startswith("_"))  # private helpers are not entry points
    if not public:
        return frozenset()
    found = functions_among(public)
    if found is None:
        bound = top_level_names(source)
        found = functions_among([name for name in public if name in bound])
    pending = [public] if found is None else []
    while pending:  # a source Python cannot read: halves, until the names that are globals are found
        names = pending.pop()
        some = functions_among(names)
        if some is None and len(names) > 1:
            pending += [names[: len(names) // 2], names[len(names) // 2:]]
        found = (found or set()) | (some or set())
    return frozenset(found or ())


def top_level_names(source: str) -> frozenset[str]:
    """The names the statements of *source*'s top level bind (defs and assignments), read by Python's
    parser; empty when it cannot read the source. The host's probe for a script's functions starts
    from the ``NAME =`` lines in column 0, which a long string or a call's keyword arguments can hold
    by the thousand: this leaves those out, so its one probe names only globals."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset()
    names: set[str] = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef):
            names.add(stmt.name)
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [getattr(stmt, "target", None)]
        for target in targets:
            if isinstance(target, ast.AST) and not isinstance(stmt, ast.For):
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return frozenset(names)
