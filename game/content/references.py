"""What a scenario names outside itself, checked when it loads: its scripts and its power files.

A scenario that names a missing script, one that does not parse, or a power file that does not
load is refused at load with the key that names it (``reactions[0]``, ``power_files[1]``,
``creatures[2].powers``), so that ``simulate`` refuses it before any battle exactly as ``play`` does,
instead of every battle failing later.

Scripts are read the way a battle reads them (a regular file inside the script folder, at most
64 KiB: ``SCRIPT_BYTES``) and parsed by the script host of the scenario's trust level: a stranger's script is parsed in
the sandboxed worker, because a pathological one can crash the interpreter that parses it.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import types
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import Any

from components.powers import Power
from game.battle.reactions import REACTIONS, new_hosts, reaction_entries
from game.battle.script_names import POWER_ENTRIES, no_power_entry, no_reaction
from game.content.checks import Problems
from game.content.files import UnreadableFile, bom_hint, inside_folder, loop_problem
from game.content.powers import (
    MAX_POWERS,
    POWERS_DIR,
    SCRIPTS_DIR,
    PowerError,
    PowerFile,
    PowerFileCache,
    PowerLibrary,
    power_file_text,
    shipped_library,
)
from game.content.recorded import SCRIPT_BYTES, RecordedFiles, ScriptReads
from game.scripting import ScriptError, ScriptHosts
from game.scripting.signatures import entry_problems

#: The most power files a scenario names: each may be 4 MiB of TOML, which tomllib reads at about a
#: megabyte a second, and together they may define at most ``MAX_POWERS`` powers anyway.
MAX_POWER_FILES = 16

__all__ = ["MAX_POWER_FILES", "SCRIPT_BYTES", "check_reactions", "check_power_scripts", "check_script_overrides",
           "scenario_library", "scenario_power_files"]


def load_script(folder: Path, name: str, trusted: bool, hosts: ScriptHosts,
                entries: Mapping[str, tuple[str, ...]], others: Collection[str],
                reads: ScriptReads | None = None) -> frozenset[str] | None:
    """Read and parse one script as a battle will; the functions it defines. Its ``entries`` (the
    functions this use calls, with the arguments each gets) must take those arguments, and each
    ``on_`` function must be one of them or of ``others`` (see game.scripting.signatures).

    The host knows it by its file name and a digest of its text (as the battle's script hook
    does), so the battle that loads it next finds it already parsed. A daemonic process (a
    ``multiprocessing.Pool`` worker) cannot start the sandbox, so there a stranger's script is only
    read, not parsed, and None is returned: it is parsed when a battle runs it.

    Raises:
        ScriptError: the file is missing or unreadable (kind "missing"), does not parse, or has an
            entry point the battle cannot call (kind "signature"); the message names the file and
            the function, never the host's name for the file.
    """
    reads = reads if reads is not None else ScriptReads()
    try:
        source = reads.text(folder, name)
    except UnreadableFile as err:
        shipped = " (the shipped scripts: a file's own go in a scripts/ folder beside it)" \
            if folder == SCRIPTS_DIR and reads.recorded is None else ""
        where = "from the file's recorded scripts" if reads.recorded is not None else f"in {folder}{shipped}"
        raise ScriptError(name, f"cannot read script {where}: {err}", kind="missing") from None
    if not trusted and multiprocessing.current_process().daemon:
        _check_entries(name, source, entries, others, None)  # read from the text: no host to parse it
        return None
    host_name = f"{name}#{hashlib.sha256(source.encode()).hexdigest()[:12]}"
    functions = reads.parsed.get((host_name, trusted))
    if functions is None:  # parsed already for this scenario (its original, when a sweep checks a variant)
        host = hosts.host(trusted)
        try:
            host.load(host_name, source)
        except ScriptError as err:
            raise ScriptError(name, err.reason.replace(host_name, name) + bom_hint(source), line=err.line,
                              function=err.function, kind=err.kind) from None
        functions = reads.parsed[(host_name, trusted)] = host.functions(host_name)
    _check_entries(name, source, entries, others, functions)
    return functions


def _check_entries(name: str, source: str, entries: Mapping[str, tuple[str, ...]], others: Collection[str],
                   functions: frozenset[str] | None) -> None:
    problems = entry_problems(name, source, entries, others, functions)
    if problems:
        raise ScriptError(name, "; ".join(p.removeprefix(f"{name}: ") for p in problems), kind="signature")


def check_reactions(scripts: tuple[str, ...], where: str, folder: Path, trusted: bool, problems: Problems,
                    reads: ScriptReads | None = None) -> None:
    """Every reaction script exists, parses and defines at least one reaction (``reads`` as for
    :func:`load_script`)."""
    reads = reads if reads is not None else ScriptReads()
    with new_hosts() as hosts:
        for i, script in enumerate(scripts):
            _check_reaction(i, script, where, folder, trusted, problems, hosts, reads)


def _check_reaction(i: int, script: str, where: str, folder: Path, trusted: bool, problems: Problems,
                    hosts: ScriptHosts, reads: ScriptReads) -> None:
    earlier = reads.failed.get((script, "reaction"))
    if earlier is not None:  # its error (a parse error can list a dozen tokens) is said once
        problems.add(f"{where}[{i}]", f"{script} cannot load as a reaction (see {earlier})")
        return
    try:
        functions = load_script(folder, script, trusted, hosts, reaction_entries(), POWER_ENTRIES, reads)
    except ScriptError as err:
        problems.add(f"{where}[{i}]", str(err))
        reads.failed[(script, "reaction")] = f"{where}[{i}]"
        return
    problem = None if functions is None else no_reaction(script, functions, tuple(REACTIONS.values()))
    if problem:
        problems.add(f"{where}[{i}]", problem)


def check_power_scripts(powers: tuple[str, ...], where: str, library: PowerLibrary | Mapping[str, Power],
                        folder: Path, trusted: bool, problems: Problems, reads: ScriptReads | None = None) -> None:
    """The scripts of these powers exist in the scenario's script folder (where its battles look),
    parse, and define a function a use calls (``reads`` as for :func:`load_script`; ``library``: the
    scenario's, or a power table a sweep changed)."""
    table = library.powers if isinstance(library, PowerLibrary) else library
    scripted = [(power_id, table[power_id]) for power_id in powers
                if power_id in table and table[power_id].script is not None]
    if not scripted:
        return
    reads = reads if reads is not None else ScriptReads()
    with new_hosts() as hosts:
        for power_id, power in scripted:
            _check_power_script(power_id, power, where, folder, trusted, problems, hosts, reads)


def _check_power_script(power_id: str, power: Power, where: str, folder: Path, trusted: bool, problems: Problems,
                        hosts: ScriptHosts, reads: ScriptReads) -> None:
    assert power.script is not None
    earlier = reads.failed.get((power.script, "power"))
    if earlier is not None:  # each creature with the power: the script's error is said once
        problems.add(where, f"power {power_id!r} runs {power.script}, which cannot load (see {earlier})")
        return
    try:
        functions = load_script(folder, power.script, trusted, hosts, POWER_ENTRIES, reaction_entries(), reads)
    except ScriptError as err:
        problems.add(where, f"power {power_id!r} ({power.source}) runs a script this scenario's battles "
                            f"cannot load: {err}")
        reads.failed[(power.script, "power")] = where
        return
    problem = None if functions is None else no_power_entry(power.script, functions)
    if problem:
        problems.add(where, f"power {power_id!r} ({power.source}) runs {problem}")
        reads.failed[(power.script, "power")] = where


def check_script_overrides(overrides: Iterable[tuple[str, Any]], powers: Mapping[str, Power], source: str,
                           folder: Path, trusted: bool, reads: ScriptReads | None = None) -> None:
    """The scripts a sweep gives powers (``powers.ID.script``), checked as the scenario's own are when
    it loads: read from its script folder, parsed, each entry point able to take the battle's call,
    and one a use calls. The power loader checks only that the file is there, so a script that does
    not parse ran in every battle of the variant, failing each time, instead of being refused before
    the first. ``reads`` as for :func:`load_script` (a replay's recorded scripts).

    Raises:
        PowerError: naming the scenario, the override and what is wrong with its script.
    """
    changed = sorted({key.split(".")[1] for key, _ in overrides if key.count(".") == 2 and key.endswith(".script")})
    problems = Problems()
    for power_id in changed:
        check_power_scripts((power_id,), f"override 'powers.{power_id}.script'", powers, folder, trusted, problems,
                            reads)
    if problems:
        raise PowerError(f"{source}: {'; '.join(problems.items)}")


def scenario_power_files(names: tuple[str, ...], folder: Path | None, script_dir: Path,
                         problems: Problems, cache: PowerFileCache, recorded: Mapping[str, str] | None = None
                         ) -> list[tuple[int, PowerFile]]:
    """The scenario's own power files (``power_files``) that load, with their index; each one that
    does not is reported by its key (``power_files[1]``). ``recorded``: the texts a save or replay
    recorded, read instead of the disk (None: the files in the scenario's folder)."""
    files: list[tuple[int, PowerFile]] = []
    if len(names) > MAX_POWER_FILES:  # refused before any is read
        problems.add("power_files", f"{len(names)} files; expected at most {MAX_POWER_FILES} (docs/limits.md)")
        return files
    for i, name in enumerate(names):
        where = f"power_files[{i}]"
        if recorded is not None:
            file = _recorded_power_file(name, folder, recorded)
            if file.error is not None:
                problems.add(where, str(file.error))
            else:
                files.append((i, file))
            continue
        if folder is None:
            problems.add(where, f"a scenario given as text has no folder to read {name!r} from; load it from its file")
            continue
        path = folder / name
        if not inside_folder(path, folder):
            problems.add(where, loop_problem(path, repr(name))
                         or f"{name!r} leads outside the scenario's folder {folder}")
            continue
        file = cache.get(path, script_dir)
        if file.error is not None:
            problems.add(where, str(file.error))
            continue
        files.append((i, file))
    return files


def _recorded_power_file(name: str, folder: Path | None, recorded: Mapping[str, str]) -> PowerFile:
    """A power file from the text a save or replay recorded; named by its path where it was read,
    and its scripts checked by name only (they are recorded too, and checked when the scenario loads)."""
    where = str(folder / name) if folder is not None else name
    if name not in recorded:
        return PowerFile(where, {}, {}, error=PowerError(f"{where}: not among the power files this save or "
                                                         "replay recorded"))
    return power_file_text(where, recorded[name], None)


def scenario_library(names: tuple[str, ...], folder: Path | None, script_dir: Path, problems: Problems,
                     cache: PowerFileCache, recorded: RecordedFiles | None = None
                     ) -> tuple[PowerLibrary, RecordedFiles]:
    """The shipped powers and the scenario's own files (:func:`scenario_power_files`), read from
    ``recorded`` when a save or replay gave them; and the text of each file that loaded (its own by
    their names in ``power_files``, the shipped ones by file name), which saves record."""
    own = scenario_power_files(names, folder, script_dir, problems, cache,
                               None if recorded is None else recorded.power_files)
    if recorded is None:
        shipped = shipped_library(cache)
    else:  # as the file recorded them, scripts checked by name (they are recorded too)
        shipped = PowerLibrary.of(power_file_text(str(POWERS_DIR / name), text, None)
                                  for name, text in sorted(recorded.shipped.items()))
    library = shipped.extended(file for _, file in own)
    index = {file.path: i for i, file in own}
    for file in library.broken:
        if file.path in index:  # one of its own redefines a shipped power (or an earlier file's)
            problems.add(f"power_files[{index[file.path]}]", str(file.error))
    if len(library.powers) > MAX_POWERS:
        mine = len(library.powers) - len(shipped.powers)
        problems.add("power_files", f"the battle would have {len(library.powers):,} powers ({len(shipped.powers)} "
                                    f"shipped and {mine:,} of its own); expected at most {MAX_POWERS} "
                                    f"(docs/limits.md)")
    texts = RecordedFiles(types.MappingProxyType({names[i]: file.text for i, file in own}),
                          shipped=types.MappingProxyType({Path(f.path).name: f.text for f in shipped.files if f.text}))
    return library, texts
