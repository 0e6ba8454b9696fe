"""requirements.lock pins every dependency pyproject.toml names, at a version its range allows."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"requirements.lock: {line!r} is not NAME==VERSION"
            pins[re.sub(r"[-_.]+", "-", name).lower()] = version
    return pins


def test_every_dependency_is_pinned_exactly():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"]["test"]]
    pins = _pins()
    for requirement in wanted:
        name = re.sub(r"[-_.]+", "-", re.split(r"[\[<>=!~ ]", requirement, maxsplit=1)[0]).lower()
        assert name in pins, f"{name} is in pyproject.toml but not in requirements.lock (run make lock)"
    assert pins["starlark-pyo3"] == "2026.1.3"  # the step budget depends on this exact version


def test_the_lock_is_what_this_environment_runs():
    from importlib.metadata import version

    pins = _pins()
    for name in ("esper", "numpy", "tcod", "starlark-pyo3", "pygame-ce", "dask"):
        assert version(name) == pins[name], f"{name}: installed {version(name)}, locked {pins[name]}"
