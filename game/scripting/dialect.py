"""The Starlark the game's scripts are written in: the dialect, the builtins on offer, and their prelude.

Standard Starlark without ``load``, plus f-strings and top-level ``if``/``for``; the standard
builtins plus ``struct``, ``json``, ``map``, ``filter`` and ``partial``. No I/O of any kind. The
builtins that do unbounded work natively are shadowed by counted definitions, and the operators
that build big values are routed through counted helpers (see :class:`Environment`).
"""

from __future__ import annotations

from typing import Final

import starlark as sl

from .checked import CHECKED_SRC, checked_names
from .errors import ScriptError
from .prelude import COUNTED_BUILTINS, NATIVE_ALIASES, PRELUDE_SRC, RENAMED_BUILTINS
from .rewrite import RewriteError, rewrite

__all__ = ["Environment", "make_dialect", "make_globals", "refuse_load"]


def make_dialect() -> sl.Dialect:
    """Standard Starlark minus ``load``, plus f-strings and top-level ``if``/``for``.

    ``while`` is a reserved word in the standard dialect, so no loop runs unbounded; a function
    may call itself, which the host's call-depth limit bounds. Top-level loops are allowed
    because load-time code runs under the same step budget as calls.
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


_HOST_FILE: Final = "<sbx>"
_PRELUDE_MODULE: Final = "sbx__prelude"
_BASICS: Final = "sbx__struct = struct\nsbx__type = type\n"
_NESTING_HINTS: Final = ("too many nested", "nested too deeply", "RecursionError", "MemoryError")


class Environment:
    """What every script module of one host starts from: the dialect, the builtins, the counted prelude.

    The counted builtins (:mod:`game.scripting.prelude`) and the checked-operation helpers
    (:mod:`game.scripting.checked`) are evaluated once, here, into one frozen module; each script
    module gets them through a host-owned ``load`` evaluated before the script (about 10 us, where
    evaluating their source into each module would cost milliseconds). Loaded names are module
    globals, so they shadow the builtins for the script, and a script may still rebind them.

    Args:
        counted: shadow the builtins that iterate or call back natively with counted definitions.
        checked: also rewrite the script's operators and methods (needs ``counted``).

    Raises:
        ValueError: ``checked`` without ``counted``.
    """

    def __init__(self, counted: bool = True, checked: bool = True) -> None:
        if checked and not counted:
            raise ValueError("checked operations need the counted builtins")
        self.dialect = make_dialect()
        self.globals = make_globals()
        self.loader = sl.FileLoader(refuse_load)
        self.checked = checked
        self.basics = sl.parse(_HOST_FILE, _BASICS, self.dialect)
        self._counted: sl.AstModule | None = None
        self._counted_loader: sl.FileLoader | None = None
        if counted:
            frozen = self._build_prelude(checked)
            names = [repr(n) for n in list(COUNTED_BUILTINS) + (checked_names() if checked else [])]
            names += [f"{n} = {own!r}" for n, own in RENAMED_BUILTINS.items()]
            load_dialect = make_dialect()
            load_dialect.enable_load = True
            self._counted = sl.parse(
                _HOST_FILE, f'load("{_PRELUDE_MODULE}", {", ".join(names)})\n', load_dialect)
            self._counted_loader = sl.FileLoader(lambda path: frozen)

    @property
    def counted(self) -> bool:
        """Whether script modules get the counted builtins."""
        return self._counted is not None

    def _build_prelude(self, checked: bool) -> sl.FrozenModule:
        """Evaluates the counted builtins (and the checked-operation helpers) once, frozen."""
        module = sl.Module()
        sl.eval(module, sl.parse(_HOST_FILE, _BASICS + NATIVE_ALIASES, self.dialect), self.globals)
        own = make_dialect()
        own.enable_keyword_only_arguments = True  # sorted(x, *, key = None, reverse = False)
        source = PRELUDE_SRC + (CHECKED_SRC if checked else "")
        sl.eval(module, sl.parse(_HOST_FILE, source, own), self.globals)
        return module.freeze()

    def prepare(self, module: sl.Module, opts: sl.EvalOptions) -> None:
        """Evaluates the host's own names into a fresh script module, before the script."""
        sl.eval_with(opts, module, self.basics, self.globals)
        if self._counted is not None:
            sl.eval_with(opts, module, self._counted, self.globals, self._counted_loader)

    def instrumented(self, name: str, source: str) -> str:
        """The source the interpreter runs: *source* with its operators counted (when ``checked``).

        Python's parser runs first: it refuses deep nesting cleanly, where starlark's parser
        would overflow its stack and take the process down.

        Raises:
            ScriptError: the source is nested too deeply to parse.
            RewriteError: the source holds something the rewrite refuses (or Python cannot parse;
                starlark's parser then has the better message).
        """
        if not self.checked:
            return source
        try:
            return rewrite(source)
        except RewriteError as exc:
            if any(hint in str(exc) for hint in _NESTING_HINTS):
                raise ScriptError(name, "nested too deeply to parse", kind="syntax") from None
            raise
