"""A save (as any atomic write) aimed at a directory is refused before anything is written, naming
the directory: the whole file went to a temporary beside it first, and the rename's failure named
that temporary (``'/.tmp.14083.5248x8vy.tmp' -> '/tmp'``: a file in / the user never asked for)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.content.saves import SaveError, save_game
from tests.save_steps import small_scenario


def test_a_save_onto_a_directory_names_it_and_writes_nothing(tmp_path: Path) -> None:
    target = tmp_path / "saves"
    target.mkdir()
    scenario = small_scenario()
    battle = scenario.build()
    try:
        with pytest.raises(SaveError, match=r"saves: cannot write the file: .*a directory is there, not a file: "
                                            r"'[^']*saves'$") as caught:
            save_game(target, scenario, battle)
    finally:
        battle.close()
    assert ".tmp" not in str(caught.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["saves"] and not any(target.iterdir())

