"""The layers import only downwards: components <- systems <- game, and only game/render/ sees pygame.

Every .py file under components/, systems/ and game/ is parsed with ``ast`` (nothing is imported,
so a broken layer is reported, not executed). Imports anywhere in a module count: at the top, inside
functions, under ``if TYPE_CHECKING``, and ``importlib.import_module("...")`` / ``__import__("...")``
with a literal name.

* components/ imports nothing of ours but components, and neither esper nor pygame;
* systems/ imports neither game nor pygame;
* game/ outside game/render/ does not import pygame.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("components", "systems", "game")


def _our_packages(root: Path = ROOT) -> frozenset[str]:
    """Top-level names that are this project's own code (a package or a module at the root)."""
    names = {p.name for p in root.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    names |= {p.stem for p in root.glob("*.py")}
    names |= set(LAYERS) | {"bench", "tests"}
    return frozenset(names)


OURS = _our_packages()


def _is_pygame(top: str) -> bool:
    return top == "pygame" or top.startswith("pygame_")


def module_name(path: Path, root: Path = ROOT) -> str:
    """Dotted module name of a file under ``root`` (``game/render/__init__.py`` -> ``game.render``)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(source: str, module: str, is_package: bool = False) -> list[tuple[int, str]]:
    """Every module ``source`` imports, absolute and dotted, with the line it is imported on.

    Relative imports are resolved against ``module`` (a package's own ``__init__`` resolves
    ``from . import x`` inside itself).
    """
    tree = ast.parse(source)
    package = module if is_package else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".") if package else []
                if node.level - 1 > len(base_parts):
                    found.append((node.lineno, "<relative import beyond the top package>"))
                    continue
                base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                base = ".".join(base_parts)
                if node.module:
                    found.append((node.lineno, f"{base}.{node.module}" if base else node.module))
                else:
                    found.extend((node.lineno, f"{base}.{a.name}" if base else a.name) for a in node.names)
            else:
                assert node.module is not None
                found.append((node.lineno, node.module))
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in ("import_module", "__import__"):
                found.append((node.lineno, node.args[0].value))
    return found


def violations(source: str, module: str, is_package: bool = False, ours: frozenset[str] = OURS) -> list[str]:
    """What ``source`` (the text of ``module``) imports that its layer may not."""
    layer = module.split(".")[0]
    problems: list[str] = []
    for line, name in imported_modules(source, module, is_package):
        top = name.split(".")[0]
        why = None
        if name.startswith("<"):
            why = name
        elif layer == "components":
            if top == "esper":
                why = "components/ is plain data and must not import esper"
            elif _is_pygame(top):
                why = "components/ must not import pygame"
            elif top in ours and top != "components":
                why = f"components/ may import only components, not {top}"
        elif layer == "systems":
            if top == "game":
                why = "systems/ must not import game"
            elif _is_pygame(top):
                why = "systems/ must not import pygame"
        elif layer == "game":
            in_render = module == "game.render" or module.startswith("game.render.")
            if _is_pygame(top) and not in_render:
                why = "only game/render/ may import pygame"
        if why:
            problems.append(f"{module}:{line}: imports {name}: {why}")
    return problems


def _layer_files() -> list[Path]:
    return sorted(p for layer in LAYERS for p in (ROOT / layer).rglob("*.py"))


def test_there_are_files_to_check():
    files = _layer_files()
    for layer in LAYERS:
        assert any(p.relative_to(ROOT).parts[0] == layer for p in files), f"no .py files under {layer}/"


@pytest.mark.parametrize("path", _layer_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_layer_imports(path: Path):
    source = path.read_text(encoding="utf-8")
    problems = violations(source, module_name(path), path.name == "__init__.py")
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------- the checker itself can fail


@pytest.mark.parametrize(("module", "source"), [
    ("components.creature", "import esper\n"),
    ("components.creature", "import pygame\n"),
    ("components.creature", "from systems.state import BattleState\n"),
    ("components.creature", "from game import Battle\n"),
    ("components.creature", "import game.battle.facade\n"),
    ("components.creature", "from bench import run\n"),
    ("components.creature", "def f():\n    from systems import cover\n"),
    ("components.creature", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import esper\n"),
    ("components.creature", "import importlib\nimportlib.import_module('systems.cover')\n"),
    ("components.creature", "from .. import systems\n"),
    ("systems.cover", "from game.battle.facade import Battle\n"),
    ("systems.cover", "import game\n"),
    ("systems.cover", "import pygame.draw\n"),
    ("systems.cover", "from pygame import Rect\n"),
    ("systems.cover", "__import__('pygame')\n"),
    ("game.battle.facade", "import pygame\n"),
    ("game.scripting.host", "from pygame import Surface\n"),
    ("game.render_helpers", "import pygame\n"),  # not game/render/, only named like it
])
def test_checker_catches_a_bad_import(module: str, source: str):
    assert violations(source, module), f"the checker let {source!r} through in {module}"


@pytest.mark.parametrize(("module", "source", "is_package"), [
    ("components.creature", "import numpy as np\nfrom dataclasses import dataclass\n", False),
    ("components.creature", "from components.rules import Rules\nfrom .terrain import Terrain\n", False),
    ("components", "from . import creature\n", True),
    ("systems.cover", "import esper\nimport numpy\nimport tcod.map\nfrom components import Cover\n", False),
    ("systems.cover", "from systems.state import BattleState\nfrom .geometry import within_radius\n", False),
    ("game.battle.facade", "import esper\nfrom systems import schedule\nfrom components import Health\n", False),
    ("game.render.view", "import pygame\n", False),
    ("game.render", "import pygame\nfrom . import view\n", True),
])
def test_checker_allows_a_good_import(module: str, source: str, is_package: bool):
    assert violations(source, module, is_package) == []


def test_relative_imports_are_resolved():
    assert imported_modules("from .errors import X\n", "game.scripting.host") == [(1, "game.scripting.errors")]
    assert imported_modules("from . import host\n", "game.scripting", is_package=True) == [(1, "game.scripting.host")]
    assert imported_modules("from ..battle import Battle\n", "game.scripting.host") == [(1, "game.battle")]
    # game/scripting/x.py reaching up to systems through a relative import is still game -> systems
    assert violations("from ...systems import cover\n", "game.scripting.host") == []
    assert violations("from ..game import battle\n", "systems.cover")  # systems -> game, relatively
