"""How a battle names its scripts: the file names it accepts, and errors told by them.

A host knows a script by its file name and a digest of its text (see
:meth:`game.battle.reactions.ScriptHook.load`); a person reads the file name alone.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from types import MappingProxyType

from game.content.checks import did_you_mean, script_name_problem
from game.scripting import ScriptError

#: The most characters of a refused name an error shows.
_MAX_NAME = 120


def named_error(err: ScriptError, host_name: str, script: str) -> ScriptError:
    """The same error, told by the script's file name instead of the host's name for it."""
    return ScriptError(script, err.reason.replace(host_name, script), line=err.line, function=err.function,
                       kind=err.kind, steps=err.steps, detail=err.detail.replace(host_name, script))


def checked_name(script: object) -> str:
    """A script is named by a plain, printable file name ending in .star, inside the script folder.

    Raises:
        ScriptError: (kind ``missing``) any other name; the message shows it as ``repr`` (clipped),
            so a NUL, a newline or an escape sequence in it is visible, not acted upon.
    """
    if not isinstance(script, str) or script_name_problem(script) is not None:
        shown = repr(script)
        shown = shown if len(shown) <= _MAX_NAME else shown[:_MAX_NAME - 3] + "..."
        raise ScriptError(shown, "a script is a plain file name ending in .star, in the script folder",
                          kind="missing")
    return script


def failure_place(err: ScriptError | None, script: str) -> str:
    """``file:line in function`` of a failure, or the file alone."""
    if err is None:
        return script
    return str(err).removesuffix(f": {err.reason}")


#: A power script's entry points and the arguments the battle calls each with.
POWER_ENTRIES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {"on_use": ("ctx",), "on_hit": ("ctx", "target"), "on_end": ("ctx",)})


def no_reaction(script: str, functions: Collection[str], reactions: Sequence[str]) -> str | None:
    """Why a reaction script cannot be attached: none of its functions is a reaction. Its ``on_``
    functions are named, each with the reaction it looks like a slip for (``on_dowend``), or, for a
    power's entry point (``on_use``), as that: no slip, a power script given as a reaction."""
    if any(name in functions for name in reactions):
        return None
    slips = "".join(f"; it defines {name}" + (" (a power's entry point: name it as a power's script)"
                                              if name in POWER_ENTRIES else did_you_mean(name, reactions))
                    for name in sorted(functions) if name.startswith("on_"))
    return f"{script} defines no reaction{slips}; expected one of {', '.join(reactions)}"


def no_power_entry(script: str, functions: Collection[str]) -> str | None:
    """Why a power's script would never run: it defines none of the functions a use calls (an empty
    file, helpers alone, or only a reaction's ``on_downed``), so the power would quietly do what its
    data says and nothing more. Its ``on_`` functions are named, as a reaction script's are."""
    if any(name in functions for name in POWER_ENTRIES):
        return None
    defined = sorted(name for name in functions if name.startswith("on_"))
    slips = f"; it defines {', '.join(defined)}" if defined else ""
    wanted = " or ".join(f"def {name}({', '.join(args)})" for name, args in POWER_ENTRIES.items())
    return f"{script}, which defines none of the functions a power's use calls{slips}; expected {wanted}"
