"""Error type and resource limits shared by the in-process and worker script hosts.

Kept in a module of its own (no ``starlark`` import) so that code which only needs to
*catch* script errors, or to configure limits, does not pay for loading the interpreter.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any, Final

__all__ = ["MAX_SOURCE_BYTES", "ScriptError", "Limits", "STEPS_PER_TICK", "readable", "refuse_long_source"]

#: How many "steps" one call of starlark's ``check_cancelled`` hook stands for.
#: starlark-pyo3 calls the hook about once per 1000 loop iterations plus Starlark
#: function calls (``for``/comprehension iterations and calls of non-inlined ``def``s;
#: measured: 3000 iterations each calling a helper = 6 hook calls), deterministically,
#: so one hook call is accounted as 1000 steps.  See ``Limits.max_steps``.
STEPS_PER_TICK: int = 1000

#: The longest script (UTF-8 bytes) a host loads. Checking and parsing a script costs 5-10 us a byte
#: on the 2-core machine when it is loaded (load average 5), so 64 KiB loads in at most about 0.7 s
#: in-process and 1.2 s through a worker, inside the worker's 2 s clock (``Limits.wall_seconds``)
#: (128 KiB took up to 2 s); the shipped scripts are under 1 KiB. A script of several hundred KB
#: took seconds, and a worker's clock cut it with only "took longer than 2.0 s" to say why.
MAX_SOURCE_BYTES: int = 64 * 1024

#: Unicode categories of the characters a reason may not carry as they are: control characters (an
#: ESC starts a terminal's colour or cursor sequence, a NUL stops a font), lone surrogates, and line
#: or paragraph separators.
_UNREADABLE: Final = frozenset({"Cc", "Cs", "Zl", "Zp"})

#: Bidirectional embeddings, overrides and isolates (U+202E turns the rest of a line around): spelt
#: as escapes too, as names refuse them (``components.values.BIDI_CONTROLS``, which this
#: stand-alone host may not import).
_REORDERING: Final = frozenset({"LRE", "RLE", "PDF", "LRO", "RLO", "LRI", "RLI", "FSI", "PDI"})


def readable(text: str) -> str:
    """``text`` with each character that has no place in a log line spelt as an escape (``\\x1b``).

    A reason is the script's own words (``fail("...")``, the text of a failed parse) and goes into
    the combat log, the terminal, ``battles.csv`` and the window: a stranger's script must not be
    able to colour, clear or move a user's terminal, nor forge a line of the log, through it.
    """
    if text.isprintable():  # the common case, at C speed
        return text
    return "".join(repr(ch)[1:-1] if unicodedata.category(ch) in _UNREADABLE
                   or unicodedata.bidirectional(ch) in _REORDERING else ch for ch in text)


class ScriptError(Exception):
    """A designer script failed; the game goes on.

    Raised for every failure that is the *script's* fault or the script host's
    (syntax errors, runtime errors, exhausted budgets, a bridge request refused by
    the game, a killed worker...).  It never means the game state is corrupt, but it
    does mean: **discard every command the bridge received during this call** --
    the host does not roll anything back itself; the caller buffers commands and
    applies them only if ``call`` returned normally.

    Attributes:
        file: Name the script was loaded under (e.g. ``assets/scripts/chain.star``).
        line: 1-based line in that file where the failure happened, if known.
        function: Top-level script function that was executing, if known.
        reason: Human-readable cause, without the location prefix; a character that has no place in
            a log line (a control character of the script's ``fail()``) is spelt as an escape.
        kind: Machine-readable category, one of ``"syntax"``, ``"runtime"``,
            ``"budget"``, ``"callstack"``, ``"bridge"``, ``"commands"``,
            ``"bridge_calls"``, ``"result"``, ``"missing"``, ``"signature"`` (an entry point the
            battle cannot call as it will, found when a scenario loads), ``"timeout"``,
            ``"died"`` (worker crashed, e.g. SIGABRT on out-of-memory), ``"panic"``
            (Rust panic caught, e.g. arena out of memory; the worker is restarted),
            ``"protocol"`` (worker misbehaved; it is restarted), ``"lost"`` (a script that
            loaded once failed to load again in a restarted worker).  ``timeout``, ``died``,
            ``panic``, ``protocol`` and ``lost`` are the failures no count decides.
        steps: Deterministic steps the call had used when it failed (None if unknown).
        detail: The raw interpreter diagnostic (traceback), for logs only.
    """

    def __init__(
        self,
        file: str,
        reason: str,
        *,
        line: int | None = None,
        function: str | None = None,
        kind: str = "runtime",
        steps: int | None = None,
        detail: str = "",
    ) -> None:
        self.file = file
        self.line = line
        self.function = function
        self.reason = readable(reason)
        self.kind = kind
        self.steps = steps
        self.detail = detail
        super().__init__(self._render())

    def _render(self) -> str:
        """Formats ``file:line in function: reason`` leaving out unknown parts."""
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
        if self.function:
            where += f" in {self.function}"
        return f"{where}: {self.reason}"

    def __str__(self) -> str:
        return self._render()

    def to_dict(self) -> dict[str, Any]:
        """Returns a JSON-safe dict; the worker host ships errors across the pipe this way."""
        return {
            "file": self.file,
            "reason": self.reason,
            "line": self.line,
            "function": self.function,
            "kind": self.kind,
            "steps": self.steps,
            "detail": self.detail,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ScriptError:
        """Rebuilds an error from :meth:`to_dict` output, tolerating junk field types.

        The data comes from the worker process, which we treat as less trusted than the
        parent, so every field is coerced rather than trusted.
        """
        line = data.get("line")
        steps = data.get("steps")
        function = data.get("function")
        return cls(
            str(data.get("file", "?")),
            str(data.get("reason", "unknown error")),
            line=line if type(line) is int else None,
            function=function if isinstance(function, str) else None,
            kind=str(data.get("kind", "runtime")),
            steps=steps if type(steps) is int else None,
            detail=str(data.get("detail", "")),
        )

    def __reduce__(self) -> tuple[Any, ...]:
        # Keyword-only constructor arguments need help to survive pickling
        # (e.g. if a caller ships errors through multiprocessing).
        return (_rebuild_script_error, (self.to_dict(),))


def _rebuild_script_error(data: dict[str, Any]) -> ScriptError:
    """Unpickling helper for :class:`ScriptError`."""
    return ScriptError.from_dict(data)


@dataclass(frozen=True)
class Limits:
    """Resource limits applied to every script load and call.

    Attributes:
        max_steps: Deterministic budget per call (and per load, for top-level code).
            Steps are loop iterations and function calls as counted by the
            interpreter's cancellation hook, in units of ``STEPS_PER_TICK`` (1000): the
            call is aborted at the first hook call where ``hooks * 1000 > max_steps``
            (so the default, 200,000, stops a runaway loop after about 200,000 iterations).  What a
            step does is bounded: an operation whose cost grows with its operands
            (``"x" * n``, ``a == b``, ``x in l``, ``d[k]``, ``s.count(p)``, ``sorted``...)
            pays for their size first (:mod:`game.scripting.checked`), and a long loop or
            function body pays per pass (:mod:`game.scripting.loops`), so a call within
            its budget ends in well under a second on any machine; the worker's memory
            limit and wall clock are the last line, not the count's stand-in.
        ctx_call_steps: Steps every ``ctx.<method>(...)`` call costs, on top of what the bridge
            charges for a costly answer (see ``Weighed``): the game's side of a call is paid
            from the same budget as the script's loops.
        call_steps: Steps every call costs against ``round_steps`` and ``battle_steps`` before it
            runs (the host's own work, and the up to 999 steps a call's ticks do not show).
        round_steps: Budget of all the script calls of one battle round together; the script whose
            call runs past it is out for the rest of the battle.
        battle_steps: Budget of all the script calls of one battle together, likewise.
        max_callstack: Maximum Starlark call depth (stops runaway recursion).
        max_commands: Bridge calls per script call whose method is a command.
        max_bridge_calls: Bridge calls of any kind per script call.
        wall_seconds: Worker only: time the worker may compute for one call or load
            (time the parent spends inside the bridge is not counted) before it is
            killed and restarted.
        memory_bytes: Worker only: ``RLIMIT_AS`` of the worker process.
        max_message_bytes: Largest message (result, bridge request) a worker may send; larger
            ones fail the call instead of flooding the parent. The in-process host fails such a
            call alike (``game.scripting.messages``), so that both hosts record the same battle.
        startup_seconds: Worker only: how long a freshly spawned worker may take to
            report ready (interpreter start-up plus imports).
    """

    max_steps: int = 200_000
    ctx_call_steps: int = 1_000
    call_steps: int = 1_000
    round_steps: int = 1_000_000
    battle_steps: int = 20_000_000
    max_callstack: int = 50
    max_commands: int = 64
    max_bridge_calls: int = 10_000
    wall_seconds: float = 2.0
    memory_bytes: int = 512 * 2**20
    max_message_bytes: int = 2**20
    startup_seconds: float = 30.0

    def __post_init__(self) -> None:
        for name in ("max_steps", "max_callstack", "max_message_bytes", "memory_bytes"):
            if getattr(self, name) <= 0:
                raise ValueError(f"Limits.{name} must be positive")
        for name in ("max_commands", "max_bridge_calls", "ctx_call_steps", "call_steps", "round_steps",
                     "battle_steps"):
            if getattr(self, name) < 0:
                raise ValueError(f"Limits.{name} must not be negative")
        if not self.wall_seconds > 0 or not self.startup_seconds > 0:
            raise ValueError("Limits.wall_seconds and startup_seconds must be positive")


def refuse_long_source(name: str, source: str) -> None:
    """Refuse *source* before a host spends anything on it when it is longer than :data:`MAX_SOURCE_BYTES`.

    Raises:
        ScriptError: (kind ``syntax``) it is longer, saying its size and the limit.
    """
    if len(source) <= MAX_SOURCE_BYTES // 4:  # at most 4 UTF-8 bytes a character: surely short enough
        return
    size = len(source.encode("utf-8", "surrogatepass"))
    if size > MAX_SOURCE_BYTES:
        raise ScriptError(name, f"the script is {size:,} bytes; at most {MAX_SOURCE_BYTES:,} are loaded "
                                f"(checking and parsing one takes 5-10 us a byte: make it shorter, or keep large "
                                f"tables out of it)", kind="syntax")
