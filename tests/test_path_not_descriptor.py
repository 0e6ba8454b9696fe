"""A loader handed an int, not a path, refuses it as not a path: ``os.stat`` takes an int as an open
file descriptor, so ``load_scenario(5)`` asked descriptor 5 ("5: cannot read the file: Bad file
descriptor"), and where one was open, it was checked as the scenario file before ``os.open`` failed
with a TypeError from deep inside."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from game.content.files import read_bounded
from game.content.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent


def test_a_scenario_is_not_read_from_an_open_descriptor() -> None:
    descriptor = os.open(ROOT / "assets" / "scenarios" / "keep.toml", os.O_RDONLY)
    try:
        with pytest.raises(TypeError, match=r"expected a file's path \(a str or a pathlib\.Path\), not int"):
            load_scenario(descriptor)  # type: ignore[arg-type]
    finally:
        os.close(descriptor)


@pytest.mark.parametrize("path", [3, None, 2.5])
def test_the_bounded_read_takes_only_paths(path: object) -> None:
    with pytest.raises(TypeError, match=f"not {type(path).__name__}"):
        read_bounded(path, 100)  # type: ignore[arg-type]
