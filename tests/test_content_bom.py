"""A file saved with a UTF-8 byte order mark is refused saying so.

Some editors start a UTF-8 file with U+FEFF; neither TOML nor Starlark allows it, and their errors
point at an invisible character ("TOML syntax error: Invalid statement (at line 1, column 1)", or a
script's "invalid input `\ufeff`"), which reads as a file that is fine. The error now says what is
there and what to do, for a scenario, a power file and a script alike.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from game.content.powers import PowerError, load_power_file
from game.content.scenario import ScenarioError, load_scenario

ROOT = Path(__file__).resolve().parent.parent
BOM = "\ufeff"
HINT = r"\(the file starts with a UTF-8 byte order mark, which is not allowed here: save it as UTF-8 without a BOM\)"
BOLT = textwrap.dedent('''
    [bolt]
    name = "Bolt"
    description = "d"
    action = "action"
    range_ft = 30
    targets = "enemy"
    attack = { bonus = 2 }
    script = "bolt.star"
''')


def test_a_scenario_with_a_bom_says_so(tmp_path: Path) -> None:
    keep = (ROOT / "assets" / "scenarios" / "keep.toml").read_text(encoding="utf-8")
    (tmp_path / "keep.toml").write_text(BOM + keep, encoding="utf-8")
    with pytest.raises(ScenarioError, match=rf"keep\.toml: TOML syntax error: .*line 1, column 1\) {HINT}"):
        load_scenario(tmp_path / "keep.toml")


def test_a_power_file_with_a_bom_says_so(tmp_path: Path) -> None:
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "bolt.star").write_text("def on_hit(ctx, target):\n    pass\n", encoding="utf-8")
    (tmp_path / "bolts.toml").write_text(BOM + BOLT, encoding="utf-8")
    with pytest.raises(PowerError, match=rf"bolts\.toml: not valid TOML: .* {HINT}"):
        load_power_file(tmp_path / "bolts.toml")


def test_a_script_with_a_bom_says_so(tmp_path: Path) -> None:
    keep = (ROOT / "assets" / "scenarios" / "keep.toml").read_text(encoding="utf-8")
    keep = keep.replace("[map]", 'power_files = ["bolts.toml"]\n\n[map]', 1)
    keep = keep.replace('powers = ["shoot"]', 'powers = ["shoot", "bolt"]', 1)
    (tmp_path / "keep.toml").write_text(keep, encoding="utf-8")
    (tmp_path / "bolts.toml").write_text(BOLT, encoding="utf-8")
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "bolt.star").write_text(BOM + "def on_hit(ctx, target):\n    pass\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match=rf"battles cannot load: bolt\.star:1: .* {HINT}"):
        load_scenario(tmp_path / "keep.toml")
