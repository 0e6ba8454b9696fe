"""The layers import only downwards: components <- systems <- game, and only game/render/ sees pygame.

Every .py file under components/, systems/ and game/ is parsed with ``ast`` (nothing is imported,
so a broken layer is reported, not executed). Imports anywhere in a module count: at the top, inside
functions, under ``if TYPE_CHECKING``, and ``importlib.import_module("...")`` / ``__import__("...")``
with a literal name.

* components/ imports nothing of ours but components, and neither esper nor pygame;
* systems/ imports only components/, systems/, esper, numpy, tcod and the standard library (an
  allow-list: a new third-party import there is a decision to make, not a slip to let through);
* game/ outside game/render/ does not import pygame (so game/play/app.py, the window application,
  does not either: it decides what clicks mean, the window in game/render/ only reports them);
* game/render/ draws and reads battles but never decides: it imports neither the computer players
  (game.ai), the simulations (game.sim), saves (game.content.saves), nor any module that issues or
  resolves commands (game.play, game.scripting, scenarios' builders, and every game.battle module
  but the few that change no battle: each is named in one of RENDER_MAY_NOT and RENDER_MAY_READ),
  and not the top ``game`` package, whose lazy names are the facade and the loaders. ``from
  game.content import saves`` counts as importing ``game.content.saves``.
"""

from __future__ import annotations

import ast
import sys
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


#: What game/render/ may not import (the name or anything under it), and why.
RENDER_MAY_NOT: dict[str, str] = {
    "game.ai": "the computer players decide moves",
    "game.sim": "simulations run battles",
    "game.content.saves": "saving and loading is the application's",
    "game.content.scenario": "scenarios build battles (they issue the commands that set one up)",
    "game.play": "the application issues the commands; it imports the renderer, not the other way",
    "game.scripting": "scripts issue commands",
    "game.battle.facade": "the facade issues and resolves commands; the renderer is handed a battle to read",
    "game.battle.world": "the core of every command: recording it and settling the battle after it",
    "game.battle.recording": "the command log and what is under way as commands run (handlers, controllers)",
    "game.battle.creatures": "creatures' commands: spawn, damage, heal, fatigue, move, stand, conditions",
    "game.battle.mapping": "the map's commands: ground, walls, lights, areas, ambient light",
    "game.battle.uses": "using and ending powers",
    "game.battle.turns": "starting combat and playing rounds and turns",
    "game.battle.orders": "queueing a creature's orders",
    "game.battle.reactions": "reactions issue commands",
    "game.battle.script_bridge": "a script's commands, checked and applied",
    "game.battle.extending": "attaching reactions, handlers and systems to a battle",
    "game.battle.snapshots": "restoring puts a battle back",
    "game.battle.template": "building and copying battles",
    "game.battle.supposing": "a what-if grants a condition for real inside its block",
    "game.battle.reach": "a what-if takes unseen creatures out of the battle's square index",
    "game.battle.foresight": "runs scripts' hooks as what-ifs",
    "game.battle.forecasts": "its Forecasts is a part of the Battle class, carrying the commands it builds on",
    "game.battle.move_forecasts": "its MoveForecasts is a part of the Battle class, built on Creatures",
    "game.battle.outcomes": "its Outcomes is a part of the Battle class, built on Forecasts",
    "game.battle.tactics": "its Tactics is a part of the Battle class, built on Outcomes",
    "game.battle.tactic_maps": "its TacticMaps is a part of the Battle class (cover_map, open_shots, approach_map)",
    "game.battle.script_forecasts": "its ScriptForecasts is a part of the Battle class and runs scripts",
}

#: The game.battle modules game/render/ may import: none changes a battle. Every module of game/battle/
#: is named here or in RENDER_MAY_NOT (a test holds it), so a new one is placed on purpose.
RENDER_MAY_READ: dict[str, str] = {
    "game.battle": "the package itself (nothing but its docstring)",
    "game.battle.log": "the combat log's sentences, pure functions over events",
    "game.battle.log_lines": "a log line's round prefix and tone, pure functions",
    "game.battle.naming": "the names a reader sees",
    "game.battle.errors": "the two error types a caller may catch",
    "game.battle.validate": "checks of arguments, raising before anything changes",
    "game.battle.validate_whole": "checks of what a caller hands the battle whole (logs, power tables, snapshots)",
    "game.battle.power_fields": "checks of each field of a power handed to the battle, pure functions",
    "game.battle.copies": "copying plain values",
    "game.battle.logged": "copies of a command's arguments as the log keeps them, pure functions",
    "game.battle.memo": "a planner's remembered answers, kept beside the state",
    "game.battle.script_names": "how scripts are named in messages",
}

#: What systems/ may import besides the standard library: the layer below, itself and the engine's
#: libraries (the house rule; anything else is for game/ to bring in).
SYSTEMS_MAY_IMPORT = frozenset({"components", "systems", "esper", "numpy", "tcod"})


def imported_modules(source: str, module: str, is_package: bool = False,
                     with_names: bool = False) -> list[tuple[int, str]]:
    """Every module ``source`` imports, absolute and dotted, with the line it is imported on.

    Relative imports are resolved against ``module`` (a package's own ``__init__`` resolves
    ``from . import x`` inside itself). With ``with_names``, ``from a.b import c`` also lists
    ``a.b.c``, since ``c`` may be a module (``from game.content import saves``).
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
                    continue
            else:
                assert node.module is not None
                found.append((node.lineno, node.module))
            if with_names:
                source_module = found[-1][1]
                found.extend((node.lineno, f"{source_module}.{a.name}") for a in node.names if a.name != "*")
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in ("import_module", "__import__"):
                found.append((node.lineno, node.args[0].value))
    return found


def _in_render(module: str) -> bool:
    return module == "game.render" or module.startswith("game.render.")


def render_violation(name: str) -> str | None:
    """Why game/render/ may not import ``name`` (None: it may)."""
    if name == "game":
        return "game/render/ imports modules by their full name, not the top game package (the facade, loaders)"
    for banned, why in RENDER_MAY_NOT.items():
        if name == banned or name.startswith(banned + "."):
            return f"game/render/ never decides: it may not import {banned} ({why})"
    return None


def _components_rule(module: str, name: str, ours: frozenset[str]) -> str | None:
    top = name.split(".")[0]
    if top == "esper":
        return "components/ is plain data and must not import esper"
    if _is_pygame(top):
        return "components/ must not import pygame"
    if top in ours and top != "components":
        return f"components/ may import only components, not {top}"
    return None


def _systems_rule(module: str, name: str, ours: frozenset[str]) -> str | None:
    top = name.split(".")[0]
    if top == "game":
        return "systems/ must not import game"
    if _is_pygame(top):
        return "systems/ must not import pygame"
    if top not in SYSTEMS_MAY_IMPORT and top not in sys.stdlib_module_names:
        return (f"systems/ imports only {', '.join(sorted(SYSTEMS_MAY_IMPORT))} and the standard library, "
                f"not {top}")
    return None


#: game/ subpackage -> the game/ subpackages it may not import (the layers above it).
GAME_MAY_NOT = {
    "game.battle": ("game.content.saves", "game.ai", "game.sim", "game.play", "game.render"),
    "game.content": ("game.ai", "game.sim", "game.play", "game.render"),
    "game.sim": ("game.play", "game.render"),
    "game.ai": ("game.sim", "game.play", "game.render", "game.content"),
}


def _subpackage(module: str) -> str:
    return ".".join(module.split(".")[:2])


def _scripting_rule(name: str, ours: frozenset[str]) -> str | None:
    """The script host stands alone: a worker process imports it and must load nothing of the battle."""
    top = name.split(".")[0]
    if top in ("esper", "numpy", "tcod") or _is_pygame(top):
        return f"game/scripting/ imports nothing of the battle, and not {top}"
    if top in ours and not (name == "game" or name.startswith("game.scripting")):
        return f"game/scripting/ imports nothing of the battle: not {name}"
    return None


def _game_rule(module: str, name: str, ours: frozenset[str]) -> str | None:
    if _in_render(module):
        return render_violation(name)
    if _is_pygame(name.split(".")[0]):
        return "only game/render/ may import pygame"
    if module.startswith("game.scripting"):
        return _scripting_rule(name, ours)
    for banned in GAME_MAY_NOT.get(_subpackage(module), ()):
        if name == banned or name.startswith(banned + "."):
            return f"{_subpackage(module)} is below {banned} and must not import it"
    return None


#: Layer -> why one of its modules may not import a name (None: it may).
RULES = {"components": _components_rule, "systems": _systems_rule, "game": _game_rule}


def violations(source: str, module: str, is_package: bool = False, ours: frozenset[str] = OURS) -> list[str]:
    """What ``source`` (the text of ``module``) imports that its layer may not."""
    rule = RULES.get(module.split(".")[0])
    problems: list[str] = []
    for line, name in imported_modules(source, module, is_package, with_names=_in_render(module)):
        why = name if name.startswith("<") else rule(module, name, ours) if rule is not None else None
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
    ("systems.cover", "import scipy.spatial\n"),
    ("systems.cover", "from bench import run\n"),
    ("systems.cover", "def f():\n    import pandas\n"),
    ("systems.cover", "import importlib\nimportlib.import_module('networkx')\n"),
    ("game.battle.facade", "import pygame\n"),
    ("game.scripting.host", "from pygame import Surface\n"),
    ("game.render_helpers", "import pygame\n"),  # not game/render/, only named like it
    ("game.play.app", "import pygame\n"),
    ("game.play.app", "def run():\n    from pygame import display\n"),
    ("game.play.controls", "import pygame.key\n"),
    ("game.render.view", "from game import ai\n"),
    ("game.render.view", "import game.ai.policy\n"),
    ("game.render.view", "from game.sim.runner import play\n"),
    ("game.render.window", "from game.content import saves\n"),
    ("game.render.window", "from game.content.saves import save_game\n"),
    ("game.render.window", "from ..content import saves\n"),
    ("game.render.window", "from game.play.app import App\n"),
    ("game.render.window", "from ..play import controls\n"),
    ("game.render.view", "from game.battle.facade import Battle\n"),
    ("game.render.view", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from game.battle import facade\n"),
    ("game.render.view", "from game import Battle\n"),
    ("game.render.view", "import game\n"),
    ("game.render.view", "from game.scripting import host\n"),
    ("game.render.view", "import importlib\nimportlib.import_module('game.ai')\n"),
    ("game.render.view", "from ..content.scenario import load_scenario\n"),
    ("game.render.view", "from game.battle.mapping import MapCommands\n"),
    ("game.render.view", "from game.battle import creatures\n"),
    ("game.render.view", "from ..battle.turns import Turns\n"),
    ("game.render.view", "from game.battle.orders import queue\n"),
    ("game.render.view", "from game.battle.uses import PowerUses\n"),
    ("game.render.view", "from game.battle.snapshots import Snapshots\n"),
    ("game.scripting.host", "import esper\n"),
    ("game.scripting.worker", "import numpy as np\n"),
    ("game.scripting.host", "from game.battle.facade import Battle\n"),
    ("game.scripting.hosts", "from components.events import Event\n"),
    ("game.scripting.host", "from systems import state\n"),
    ("game.battle.world", "from game.play.app import App\n"),
    ("game.battle.turns", "from game.ai import controller\n"),
    ("game.battle.world", "from game.content.saves import save_game\n"),
    ("game.content.scenario", "from game.sim.runner import play\n"),
    ("game.sim.runner", "from game.play import demo\n"),
    ("game.ai.policy", "from game.sim.report import plot\n"),
])
def test_checker_catches_a_bad_import(module: str, source: str):
    assert violations(source, module), f"the checker let {source!r} through in {module}"


@pytest.mark.parametrize(("module", "source", "is_package"), [
    ("components.creature", "import numpy as np\nfrom dataclasses import dataclass\n", False),
    ("components.creature", "from components.rules import Rules\nfrom .terrain import Terrain\n", False),
    ("components", "from . import creature\n", True),
    ("systems.cover", "import esper\nimport numpy\nimport tcod.map\nfrom components import Cover\n", False),
    ("systems.cover", "from __future__ import annotations\nimport math\nfrom collections import deque\n", False),
    ("systems.cover", "from systems.state import BattleState\nfrom .geometry import within_radius\n", False),
    ("game.battle.facade", "import esper\nfrom systems import schedule\nfrom components import Health\n", False),
    ("game.render.view", "import pygame\n", False),
    ("game.render", "import pygame\nfrom . import view\n", True),
    ("game.render.view", "from game.battle.log import format_events\nfrom components import Position\n", False),
    ("game.render.feed", "from components.events import Landed\nfrom systems.geometry import within_radius\n", False),
    ("game.render.window", "from game.render.inputs import Click\nfrom .ui import UiState\n", False),
    ("game.render.view", "from game.content import files\n", False),  # a sibling of saves, not saves
    ("game.render.feed", "from game.battle import log, naming\nfrom game.battle.errors import IllegalCommand\n",
     False),
    ("game.play.app", "from game import ai\nfrom game.content import saves\nfrom game.render.ui import UiState\n",
     False),
    ("game.play.app", "def open_window():\n    from game.render.window import Window\n", False),
])
def test_checker_allows_a_good_import(module: str, source: str, is_package: bool):
    assert violations(source, module, is_package) == []


def _battle_modules() -> set[str]:
    return {module_name(p) for p in (ROOT / "game" / "battle").glob("*.py")}


def test_every_module_the_renderer_is_barred_from_exists():
    """A ban on a module that is not there (renamed, never written) guards nothing."""
    ours = {module_name(p) for p in _layer_files()}
    missing = [name for name in RENDER_MAY_NOT if name not in ours]
    assert not missing, f"RENDER_MAY_NOT names modules that do not exist: {missing}"


def test_every_battle_module_is_either_banned_from_the_renderer_or_read_only():
    battle = _battle_modules()
    banned = {name for name in RENDER_MAY_NOT if name.startswith("game.battle")}
    assert not banned & set(RENDER_MAY_READ), banned & set(RENDER_MAY_READ)
    assert battle == banned | set(RENDER_MAY_READ), (
        f"unplaced: {sorted(battle - banned - set(RENDER_MAY_READ))}, "
        f"gone: {sorted((banned | set(RENDER_MAY_READ)) - battle)}")


def test_relative_imports_are_resolved():
    assert imported_modules("from .errors import X\n", "game.scripting.host") == [(1, "game.scripting.errors")]
    assert imported_modules("from . import host\n", "game.scripting", is_package=True) == [(1, "game.scripting.host")]
    assert imported_modules("from ..battle import Battle\n", "game.scripting.host") == [(1, "game.battle")]
    # game/battle/x.py reaching up to systems through a relative import is still game -> systems
    assert imported_modules("from ...systems import cover\n", "game.battle.world") == [(1, "systems")]
    assert violations("from ...systems import cover\n", "game.battle.world") == []
    assert violations("from ..game import battle\n", "systems.cover")  # systems -> game, relatively


def test_from_imports_can_list_the_names_they_import():
    assert imported_modules("from game.content import saves\n", "game.render.view", with_names=True) == [
        (1, "game.content"), (1, "game.content.saves")]
    assert imported_modules("from .ui import UiState, Square\n", "game.render.view", with_names=True) == [
        (1, "game.render.ui"), (1, "game.render.ui.UiState"), (1, "game.render.ui.Square")]


@pytest.mark.slow
def test_the_window_application_runs_without_pygame():
    """Importing the application (and what it imports) loads no pygame: tests and headless tools
    drive it with plain inputs, and only opening a window brings SDL in."""
    import subprocess
    import sys

    code = ("import sys; import game.play.app, game.play.controls; "
            "sys.exit('pygame' in sys.modules or any(m.startswith('pygame.') for m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"importing game.play.app loaded pygame\n{done.stderr}"
