"""A sweep checks each variant in the parent before any battle: the file is read once, and a
variant's scripts that the file's own load parsed are not parsed (nor a sandbox started) again.

Each variant used to load the file afresh and then parse every script of it twice more, each time
in a new sandboxed worker: 100 values of ``--set creatures.a1.health`` on a stranger's two-script
scenario took 149 s before the first battle (0.8 s a variant; the limit of 1,000 variants, 13 minutes).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import game.sim.context as sim_context
from game.content.scenario import load_scenario
from game.scripting.host import InProcessHost
from game.sim.context import WorkerContext
from tests.scenario_steps import two_sided

SCENARIO = two_sided("sweep", 'reactions = ["rally.star"]')


def folder(tmp_path: Path) -> Path:
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "rally.star").write_text("def on_downed(ctx, event):\n    pass\n")
    (tmp_path / "scripts" / "other.star").write_text("def on_landed(ctx, event):\n    pass\n")
    path = tmp_path / "sweep.toml"
    path.write_text(SCENARIO)
    return path


def test_an_override_does_not_parse_the_scripts_its_original_parsed(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: list[str] = []
    load = InProcessHost.load

    def counted(self: InProcessHost, name: str, source: str) -> None:
        parsed.append(name.split("#")[0])
        load(self, name, source)

    monkeypatch.setattr(InProcessHost, "load", counted)
    scenario = load_scenario(folder(tmp_path), trusted=True)
    assert parsed == ["rally.star"]
    for health in range(5, 10):
        assert scenario.with_overrides({"creatures.one.health": health}).creature("one").health == health
    assert parsed == ["rally.star"]
    changed = scenario.with_overrides({"creatures.two.reactions": ["other.star"]})  # a script it never read
    assert changed.creature("two").reactions == ("other.star",) and parsed == ["rally.star", "other.star"]


def test_a_worker_context_reads_the_file_once_for_every_variant(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    path = str(folder(tmp_path))
    reads: list[str] = []
    real = sim_context.load_scenario

    def counted(*args: Any, **kwargs: Any) -> Any:
        reads.append(str(args[0]))
        return real(*args, **kwargs)

    monkeypatch.setattr(sim_context, "load_scenario", counted)
    context = WorkerContext()
    try:
        variants = [context.check_variant(path, (("creatures.one.health", h),)) for h in range(5, 15)]
    finally:
        context.close()
    assert [v.creature("one").health for v in variants] == list(range(5, 15))
    assert reads == [path]
