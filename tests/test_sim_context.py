"""A simulation worker's caches belong to its context: two contexts (two runs, two tests) share nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.sim.context import WorkerContext
from game.sim.runner import battle_seed, run_battle
from game.sim.worker import Chunk, run_chunk

ROOT = Path(__file__).resolve().parent.parent
KEEP = str(ROOT / "assets/scenarios/keep.toml")


def test_two_contexts_share_no_scenario_power_or_trust_state() -> None:
    first, second = WorkerContext(sandboxed=True), WorkerContext()
    scenario = first.scenario_for(KEEP, ())
    first.powers_for((("powers.strike.damage", "2d6"),), scenario)
    assert len(first.scenarios) == 1 and len(first.powers) == 1
    assert second.scenarios == {} and second.powers == {}           # nothing leaked into the other
    assert first.trusted is True and second.trusted is None
    assert second.scenario_for(KEEP, ()) is not scenario             # each parses its own copy
    assert first.scenario_for(KEEP, ()) is scenario                  # and reuses it


def test_a_battle_fills_only_the_context_it_was_given() -> None:
    context, other = WorkerContext(), WorkerContext()
    row = run_battle(KEEP, (("creatures.archer_west.health", 11),), battle_seed(3, 0), max_rounds=3, context=context)
    assert row["error"] == ""
    assert len(context.scenarios) == 2 and other.scenarios == {}     # the file's, and its variant's
    rows = run_chunk(Chunk(0, KEEP, (), ((0, battle_seed(3, 0)), (1, battle_seed(3, 1))), max_rounds=3), other)
    assert [r["battle"] for r in rows] == [0, 1] and len(other.scenarios) == 1
    assert len(context.scenarios) == 2


def _stranger_with_a_script(folder: Path) -> str:
    """A stranger's scenario folder (outside assets/): a Blade whose damage is an ``on_hit`` script."""
    (folder / "scripts").mkdir()
    (folder / "powers.toml").write_text('[blade]\nname = "Blade"\ndescription = "d"\naction = "action"\n'
                                        'range_ft = 5\ntargets = "enemy"\nattack = { bonus = 2 }\n'
                                        'script = "blade.star"\n', encoding="utf-8")
    (folder / "scripts" / "blade.star").write_text(
        'def on_hit(ctx, target):\n    ctx.damage(target, ctx.roll("1d8+2"))\n', encoding="utf-8")
    creatures = "".join(f'\n[[creatures]]\nkey = "{k}"\nteam = "{k}"\nx = {x}\ny = 1\npowers = ["blade"]\n'
                        for k, x in (("red", 1), ("blue", 3)))
    path = folder / "duel.toml"
    path.write_text('name = "Duel"\npower_files = ["powers.toml"]\n[map]\nrows = ["......", "......"]\n'
                    '[map.legend]\n"." = { ground = 0 }\n[teams.red]\n[teams.blue]\n' + creatures, encoding="utf-8")
    return str(path)


@pytest.mark.slow
def test_a_strangers_battles_share_one_script_host_process_until_the_context_closes(tmp_path: Path) -> None:
    path = _stranger_with_a_script(tmp_path)
    context = WorkerContext()
    rows = [run_battle(path, (), battle_seed(5, i), policy="random", context=context) for i in range(3)]
    assert [r["error"] for r in rows] == ["", "", ""] and sum(r["uses"].get("blade", 0) for r in rows) > 0
    hosts = list(context.script_hosts().started().values())
    assert len(hosts) == 1                                            # one untrusted host for all three
    host = hosts[0]
    assert host.pid is not None and getattr(host, "worker_starts", None) == 1
    alone = [run_battle(path, (), battle_seed(5, i), policy="random") for i in range(3)]
    assert [r["dealt"] for r in alone] == [r["dealt"] for r in rows]  # sharing changes no battle
    context.close()
    assert context.script_hosts().started() == {}                     # stopped; a new one starts on use
    assert run_battle(path, (), battle_seed(5, 0), policy="random", context=context)["dealt"] == rows[0]["dealt"]
    context.close()
