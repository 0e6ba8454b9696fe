"""The Starlark the game's scripts are written in: the dialect and the builtins on offer.

Standard Starlark without ``load``, plus f-strings and top-level ``if``/``for``; the standard
builtins plus ``struct``, ``json``, ``map``, ``filter`` and ``partial``. No I/O of any kind.
"""

from __future__ import annotations

import starlark as sl

__all__ = ["make_dialect", "make_globals", "refuse_load"]


def make_dialect() -> sl.Dialect:
    """Standard Starlark minus ``load``, plus f-strings and top-level ``if``/``for``.

    ``while`` and recursion-free guarantees come from the standard dialect (``while``
    is a reserved word there); top-level loops are allowed because load-time code runs
    under the same step budget as calls.
    """
    dialect = sl.Dialect.standard()
    dialect.enable_load = False
    dialect.enable_f_strings = True
    dialect.enable_top_level_stmt = True
    return dialect


def make_globals() -> sl.Globals:
    """Builtins offered to scripts: the standard set plus pure helpers.

    Deliberately absent: ``print``/``pprint`` (unbounded output to the game's stderr),
    ``breakpoint`` (reads stdin), ``debug``, ``call_stack``.
    """
    ext = sl.LibraryExtension
    return sl.Globals.extended_by([ext.StructType, ext.Json, ext.Map, ext.Filter, ext.Partial])


def refuse_load(path: str) -> sl.FrozenModule:
    """FileLoader callback: scripts may not load anything (defence in depth; the
    dialect already rejects ``load`` at parse time)."""
    raise PermissionError(f"load({path!r}) is not allowed in game scripts")
