"""README.md must stay true: its Python example runs, and what it quotes from assets/ is really there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, re.S)


def test_readme_starts_with_the_two_commands() -> None:
    first = _blocks("sh")[0]
    assert first.splitlines()[0].startswith("make demo") and first.splitlines()[1].startswith("make test")


def test_the_python_examples_run(capsys) -> None:
    examples = [b for b in _blocks("python") if b.startswith("from ")]
    assert len(examples) >= 2
    for example in examples:
        exec(compile(example, "README.md", "exec"), {})
    assert "Landed" in capsys.readouterr().out


def test_the_quoted_power_and_script_are_the_shipped_ones() -> None:
    power = _blocks("toml")[0]
    assert power in (ROOT / "assets/powers/arcane.toml").read_text(encoding="utf-8")
    script = next(b for b in _blocks("python") if b.startswith("def on_hit"))
    assert script in (ROOT / "assets/scripts/vampiric_touch.star").read_text(encoding="utf-8")
