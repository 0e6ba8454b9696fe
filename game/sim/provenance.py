"""Where a simulation's numbers came from: the versions of the packages that decide them and the commit.

``summary.json`` records these so that two runs whose tables differ can be told apart by their
inputs: a new numpy or tcod can change a path, a new starlark-pyo3 a script's step count.
"""

from __future__ import annotations

import subprocess
from importlib import metadata
from pathlib import Path

#: The distributions whose versions a run records (rules, pathing, scripts, engines, drawing).
PACKAGES = ("esper", "numpy", "tcod", "starlark-pyo3", "dask", "pygame-ce")

#: The project's root: the directory holding the ``game`` package.
ROOT = Path(__file__).resolve().parent.parent.parent

UNKNOWN = "unknown"


def package_versions(names: tuple[str, ...] = PACKAGES) -> dict[str, str]:
    """``{distribution: version}``, ``"not installed"`` for one that is missing."""
    versions = {}
    for name in names:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def git_commit(root: Path = ROOT) -> str:
    """The commit checked out at ``root`` (with ``+dirty`` when files differ from it), or ``"unknown"``
    when ``root`` is not a git checkout or git is not there."""
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "--verify", "HEAD"], capture_output=True,
                              text=True, timeout=5, check=False)
        if head.returncode != 0 or not head.stdout.strip():
            return UNKNOWN
        inside = subprocess.run(["git", "-C", str(root), "rev-parse", "--show-toplevel"], capture_output=True,
                                text=True, timeout=5, check=False)
        if inside.returncode != 0 or Path(inside.stdout.strip()).resolve() != root.resolve():
            return UNKNOWN  # root is only somewhere inside another project's checkout
        status = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                                capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return UNKNOWN
    dirty = "+dirty" if status.returncode == 0 and status.stdout.strip() else ""
    return head.stdout.strip() + dirty


def provenance() -> dict[str, object]:
    """What ``summary.json`` records under ``"provenance"``."""
    return {"commit": git_commit(), "packages": package_versions()}
