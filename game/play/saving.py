"""Ctrl+S and Ctrl+L: a battle saved against its scenario, and loaded back into the same window.

A save is the scenario and the commands given so far (``game.content.saves``); a battle saved in
the middle of a round replays its turn steps, so the loaded one is at the same creature's turn.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from game.content import saves
from game.content.powers import ASSETS
from game.play import reload
from game.play.demo import built_ids, listed_powers
from game.render.ui import banner_hint

if TYPE_CHECKING:
    from game.content.scenario import Scenario
    from game.play.app import App


def slot_for(folder: Path, scenario_path: str) -> Path:
    """Where Ctrl+S keeps a scenario's battle: ``folder/STEM.save.json`` for a shipped scenario; a
    file elsewhere adds the name of its own folder (``mine-keep.save.json``), so that a copy of the
    keep edited in another folder never writes over the shipped keep's save, and a folder moved
    elsewhere keeps its saves."""
    where = Path(scenario_path).resolve()
    if where.is_relative_to(ASSETS / "scenarios"):
        return folder / f"{_fitted(where.stem)}.save.json"
    own = re.sub(r"[^A-Za-z0-9_.-]+", "_", where.parent.name).strip("._") or "scenario"
    return folder / f"{_fitted(f'{own}-{where.stem}')}.save.json"


#: The most bytes of a save's name before ``.save.json``: a file name may have 255, and the save's
#: temporary (``game.content.atomic``: ``.NAME.<pid>.<random>.tmp``) adds 35 to the whole name.
SLOT_NAME_BYTES = 200


def _fitted(name: str) -> str:
    """``name`` as it is when it fits :data:`SLOT_NAME_BYTES`; else its start, cut to fit, and a digest
    of all of it (two long folder names alike up to the cut keep their own saves). A folder and a
    file of long names made a save name past what a file name may have: every Ctrl+S failed with
    "File name too long"."""
    whole = os.fsencode(name)
    if len(whole) <= SLOT_NAME_BYTES:
        return name
    digest = hashlib.sha256(whole).hexdigest()[:12]
    kept = name
    while len(os.fsencode(kept)) > SLOT_NAME_BYTES - len(digest) - 3:
        kept = kept[:-1]  # (a character at a time: a letter may be several bytes)
    return f"{kept}...{digest}"


def another_file(saved: Scenario, playing: Scenario) -> bool:
    """Whether a save of a scenario of this name is of another file: saved from another path, with
    other text (a folder moved elsewhere keeps its text, and its saves load)."""
    if saved.path is None or playing.path is None:
        return False
    return Path(saved.path).resolve() != Path(playing.path).resolve() and saved.text != playing.text


def refused(saved: Scenario, playing: Scenario, save_path: Path) -> str | None:
    """Why a save is not loaded into this window, or None: it is of another file (another path and
    other text), or, where a path is not known, of a scenario of another name. The same file saved
    before an edit loads as it was saved, its title too: a save refused for the title alone
    (renamed "Big hills" to "Big hills II" after a save) was a save nobody could load again."""
    if saved.path is None or playing.path is None:
        if saved.name == playing.name:
            return None
        return f"Load refused: {save_path} is a save of {saved.name!r}, this window plays {playing.name!r}"
    if not another_file(saved, playing):
        return None
    if saved.name != playing.name:
        return (f"Load refused: {save_path} is a save of {saved.path} ({saved.name!r}), this window plays "
                f"{playing.path} ({playing.name!r})")
    return (f"Load refused: {save_path} is a save of {saved.path}, this window plays "
            f"{playing.path} (another file named {saved.name!r})")


def save(app: App) -> None:
    """Save the scenario and the commands given so far to ``app.save_path``."""
    if app.scenario is None:
        app.ui.message = "This battle was not loaded from a scenario: nothing to save it against"
        return
    folder = app.save_path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:  # a file in its way, a read-only disk: say which folder, in words
        in_way = next((p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()), None)
        app.ui.message = f"Save failed: {in_way} is a file, where saves go in a folder of that name " \
                         f"(move it away)" if in_way is not None else \
                         f"Save failed: cannot make the folder {folder}: {err.strerror or err}"
        return
    try:
        saves.save_game(app.save_path, app.scenario, app.battle, build_commands=app.build_commands)
    except Exception as err:  # whatever went wrong, the player reads it and the game goes on
        app.ui.message = f"Save failed: {err}"
        return
    app.ui.message = f"Saved to {app.save_path}"
    if app.ui.banner:  # a decided battle's banner names Ctrl+L now (it waited for the next hover to)
        app.ui.banner_hint = decided_hint(app)


def decided_hint(app: App) -> str:
    """What a decided battle's banner says can still be done: a reload when the scenario has a file,
    a load when a save is there (the app's banner and a save made after the end ask this one place)."""
    return banner_hint(bool(getattr(app.scenario, "path", None)), app.save_path.is_file())


def load(app: App) -> None:
    """Replace the battle by the one saved at ``app.save_path``, if it is of this scenario: the save's
    scenario comes with it (its creatures' powers, its title and colours), as a reload's does."""
    try:
        battle, scenario, build_commands = saves.restore_game(app.save_path)
    except Exception as err:  # a missing or broken save is a message, not a crash
        app.ui.message = f"Load failed: {err}"
        return
    refusal = None if app.scenario is None else refused(scenario, app.scenario, app.save_path)
    if refusal is not None:
        battle.close()
        app.ui.message = refusal
        return
    if app.scenario is not None and app.scenario.path is not None:
        # the save's text, at the path of the file this window plays: F5 after loading the save of a
        # folder since moved read the path the save recorded (gone, or a copy the designer was not
        # editing), and the next Ctrl+S recorded that path again
        scenario = dataclasses.replace(scenario, path=app.scenario.path, source=app.scenario.source)
    powers = listed_powers(scenario, built_ids(scenario, battle))
    said = reload.install(app, reload.Reloaded(battle, scenario, build_commands, powers))
    # the computer draws from the battle's seed, as the window that saved it did: a window started
    # with another --seed played the same save on otherwise (under --policy random, another battle)
    app.flow.seed = battle.seed
    app.ui.message = f"Loaded {app.save_path} (round {battle.round})" + (f". {said}" if said else "")
