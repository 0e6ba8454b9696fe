"""Where the project's own files are, and whose a file is: what decides where a scenario's or a
power file's scripts are read from, and whether they may run in this process."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["ASSETS", "POWERS_DIR", "SCRIPTS_DIR", "runs_in_process", "script_folder"]

ASSETS = Path(__file__).resolve().parents[2] / "assets"
POWERS_DIR = ASSETS / "powers"
SCRIPTS_DIR = ASSETS / "scripts"


def runs_in_process(file: str | Path | None, recorded: bool) -> bool:
    """Whether a scenario's scripts may run in this process: only the project's own (a file under
    ``assets/``). Any other file may come from a stranger, so its scripts run in the sandboxed worker,
    where a memory bomb or a runaway loop cannot take the game down; so do a save's (``recorded``: the
    texts it carries, whoever wrote them) and those of a scenario with no file. The one rule of the
    sandbox's boundary, for a scenario and for the parse that loads it."""
    return file is not None and not recorded and Path(file).resolve().is_relative_to(ASSETS)


def script_folder(file: str | Path | None) -> Path:
    """Where the scripts named by a file (a scenario, a power file) are read from: the ``scripts``
    beside it if there is one (whatever it is: a file or a symlink out of the folder is then refused
    when a script is read, never silently replaced), else (or with no file) the shipped ``assets/scripts``.

    Never a parent folder's: a scenario folder must play the same wherever it is copied, so nothing
    above it may change which scripts it reads. The shipped files need no exception:
    ``assets/scenarios`` and ``assets/powers`` have no ``scripts`` of their own, so theirs are the
    shipped ones.
    """
    if file is None:
        return SCRIPTS_DIR
    beside = Path(file).resolve().parent / "scripts"
    return beside if os.path.lexists(beside) else SCRIPTS_DIR
