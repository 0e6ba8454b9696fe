"""A file that is not UTF-8 is told alike whichever kind it is: a scenario, a power file, a save, a
script. The power file once gave Python's own words ("'utf-8' codec can't decode byte 0xff ..."), a
script none of the byte's place."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.content.powers import load_power_file
from game.content.recorded import ScriptReads
from game.content.saves import load_game
from game.content.scenario import load_scenario

BAD = b"name = \"x\"\n\xff oops\n"  # the bad byte is at offset 11


def test_a_bad_byte_is_told_by_its_place_in_every_kind_of_file(tmp_path: Path) -> None:
    file = tmp_path / "bad.toml"
    file.write_bytes(BAD)
    said = r"not UTF-8 text \(byte 11\)"
    with pytest.raises(ValueError, match=rf"bad\.toml.*{said}"):
        load_scenario(file)
    with pytest.raises(ValueError, match=rf"bad\.toml: cannot read: {said}"):
        load_power_file(file)
    save = tmp_path / "bad.json"
    save.write_bytes(BAD)
    with pytest.raises(ValueError, match=rf"bad\.json.*{said}"):
        load_game(save)
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "bad.star").write_bytes(BAD)
    with pytest.raises(ValueError, match=said):
        ScriptReads(None).text(tmp_path / "scripts", "bad.star")
