"""The lines ``python -m game`` prints about what it did name files as their errors do: a control
character or a bidi override in a folder's name is spelt as an escape (an ESC in an --out folder a
stranger's archive held went to the terminal as it was, colouring or retitling it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.play import cli

ROOT = Path(__file__).resolve().parent.parent
ODD = "out\x1b[31m\u202e"


def test_play_says_where_it_wrote_with_the_folder_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / ODD
    assert cli.main(["play", str(ROOT / "assets/scenarios/ledge.toml"), "--headless", "--rounds", "1",
                     "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "\\x1b[31m\\u202e/" in err and "\x1b" not in err and "\u202e" not in err


@pytest.mark.slow
@pytest.mark.parametrize(("runs", "said"), [(["--battles", "2"], "\\x1b[31m\\u202e/battles.csv"),
                                           (["--only-seed", "5"], "replay of variant 0 seed 5: ")])
def test_simulate_names_what_it_wrote_and_kept_escaped(runs: list[str], said: str, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / ODD
    assert cli.main(["simulate", str(ROOT / "assets/scenarios/ledge.toml"), *runs, "--workers", "1",
                     "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert said in printed and "\x1b" not in printed and "\u202e" not in printed
