"""Hot reload: the scenario, its powers and its scripts read again from disk, the battle restarted.

A designer edits a creature's health, a power's damage or a script and presses F5 (or Ctrl+R): the
scenario file is loaded afresh (which reads its power files and parses every script it names, so
a broken one is found now, not mid-battle) and built on the running battle's seed. Only when all
of that succeeded is the running battle replaced; a bad edit (broken TOML, a value out of range, a
script that does not parse) leaves it exactly as it was and puts the loader's own error in the
window: it names the file, the key and what was expected. Nothing here checks a value itself:
the loader is the one place that knows what a scenario may say.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from game.content.scenario import ScenarioError, load_scenario
from game.play.demo import human_teams, listed_powers, team_colours

if TYPE_CHECKING:
    from game.play.app import App


@dataclass(frozen=True)
class Reloaded:
    """A battle built from a scenario (the file as it is on disk now, or a save's), ready to replace
    the running one, with the scenario's powers of its creatures."""

    battle: Any
    scenario: Any
    build_commands: int
    powers: dict[int, tuple[str, ...]] | None


def load_fresh(app: App) -> Reloaded | None:
    """Read the app's scenario again and build it on the running battle's seed.

    On failure the app's UI shows the error (``ui.error``, and a line in the status bar) and None
    is returned; the running battle is not touched.
    """
    path = getattr(app.scenario, "path", None)
    if not path:
        app.ui.message = "Reload: this battle was not loaded from a scenario file"
        return None
    try:
        scenario = load_scenario(path)
        battle, ids = scenario.build_with_ids(app.battle.seed)
    except ScenarioError as err:
        _failed(app, str(err))
        return None
    except (ValueError, OSError) as err:  # a build the loader let through: still the designer's to fix
        _failed(app, f"{path}: {err}")
        return None
    return Reloaded(battle, scenario, len(battle.command_log), listed_powers(scenario, ids))


def _failed(app: App, error: str) -> None:
    """Show why the reload failed; the battle goes on."""
    app.ui.error = f"Reload failed, the battle goes on unchanged:\n{error}"
    first = error.splitlines()[0] if error else "unknown error"
    app.ui.message = f"Reload failed (Esc hides the error): {first}"


def install(app: App, fresh: Reloaded) -> str:
    """Make ``fresh`` the app's battle (a reload's, or a loaded save's): its scenario, build and powers
    follow, and so do the scenario's name (the panel's title) and its teams' colours, which an edit
    may change as well; the old battle is closed, and the error of an earlier failed reload goes. A
    save loaded after its file was edited plays the save's scenario: keys 1-9, the panel and the
    computer's choices kept the file's power lists, and an archer saved with Shoot was offered only
    the Strike the file now gave it.

    Returns:
        ``App.replace_battle``'s word for the person (a ``--policy`` team the new battle lacks), or "".
    """
    old = app.battle
    if app.ui.human_teams and app.ui.human_teams == human_teams(app.scenario):
        # the person plays the teams the file marks human: an edit of the file moves them too
        app.ui.human_teams = human_teams(fresh.scenario)
    app.scenario, app.build_commands, app.powers = fresh.scenario, fresh.build_commands, fresh.powers
    app.flow.powers = fresh.powers
    app.ui.title = fresh.scenario.name
    app.team_colours = team_colours(fresh.scenario)
    renderer = getattr(app.window, "renderer", None)
    if renderer is not None:
        renderer.powers = fresh.powers
        renderer.team_colours = dict(app.team_colours)  # (the tokens are drawn again for the new battle)
    retitle = getattr(app.window, "set_title", None)
    if retitle is not None:
        retitle(app.ui.title)
    app.ui.error = ""
    app.fog.forget()
    said = app.replace_battle(fresh.battle)
    if old is not fresh.battle:
        old.close()
    return said
