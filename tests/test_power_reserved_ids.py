"""A power may not take an id that already names a source of damage: ``fall``, ``reaction``, ``other``.

A scenario's own power called ``fall`` was counted by ``simulate`` as the falls: the table showed
its uses on the ``(falls)`` row and ``battles.csv`` got two ``dealt.fall`` columns (one of them
the power's, one the falls', both holding their sum); a power ``reaction``'s script hits were
logged as ``script:reaction``, as a reaction script's are. The power file is now refused, naming
the file, the power and what was expected.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from components.powers import (
    FALL,
    RESERVED_IDS,
    effect_of,
    effect_source,
    power_source,
    script_source,
    source_parts,
)
from game import Battle
from game.content.powers import read_power_file
from game.content.scenario import ScenarioError, load_scenario_text
from game.sim.tally import tally

POWER = 'name = "Trip"\ndescription = "a blow"\naction = "action"\ndamage = "1d4"\nattack = { bonus = 2 }\n'


@pytest.mark.parametrize("power_id", sorted(RESERVED_IDS))
def test_a_power_file_naming_a_reserved_id_is_refused(tmp_path: Path, power_id: str) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(f"[{power_id}]\n{POWER}")
    loaded = read_power_file(path)
    assert loaded.error is not None
    assert str(loaded.error) == (f"{path}: power id '{power_id}' is reserved (the log and the simulation's table "
                                 f"count falls, reaction scripts and damage of no power as fall, other, reaction); "
                                 f"expected another id")


def test_a_scenario_with_such_a_power_does_not_load(tmp_path: Path) -> None:
    (tmp_path / "mine.toml").write_text(f"[fall]\n{POWER}")
    text = ('power_files = ["mine.toml"]\n[map]\nrows = ["....."]\n[map.legend]\n"." = {}\n[teams.a]\n[teams.b]\n'
            '[[creatures]]\nkey = "x"\nteam = "a"\nx = 0\ny = 0\npowers = ["fall"]\n'
            '[[creatures]]\nkey = "y"\nteam = "b"\nx = 4\ny = 0\n')
    with pytest.raises(ScenarioError, match=r"power_files\[0\]: .*mine.toml: power id 'fall' is reserved"):
        load_scenario_text(text, "clash.toml", path=tmp_path / "clash.toml")


def test_an_id_that_only_looks_like_one_is_a_power_like_any(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(f"[Fall]\n{POWER}\n[falls]\n{POWER}")
    loaded = read_power_file(path)
    assert loaded.error is None and set(loaded.powers) == {"Fall", "falls"}


def test_what_the_table_counts_apart_from_powers_is_reserved(tmp_path: Path) -> None:
    (tmp_path / "hurt.star").write_text('def on_turn_start(ctx, event):\n    ctx.damage(ctx.me, 1)\n')
    with Battle(seed=4, width=6, height=3, script_dir=tmp_path) as b:
        b.set_ground(0, 0, 30)
        hero = b.spawn("Hero", 0, 0, team="a", health=50, powers=["strike"])
        b.spawn("Orc", 4, 0, team="b", health=50, powers=["strike"])
        b.attach_reaction("hurt.star", entity=hero)
        b.start_combat()
        b.move(hero, 1, 0)                 # off the 30 ft ledge
        b.damage(hero, 2)                  # the GM's: damage of no power
        b.tick()
        dealt = tally(b)["dealt"]
    assert set(dealt) == {"fall", "reaction", "other"} == set(RESERVED_IDS)


def test_a_reaction_scripts_hits_have_a_row_and_columns_of_their_own() -> None:
    """They were shown in the table as if 'reaction' were a power, and lumped into ``other`` in the
    CSV: the two outputs of one run disagreed. Now ``(reactions)`` and ``dealt.reaction`` alike."""
    import csv
    import io

    from game.sim.report import CsvSink, VariantStats, format_table

    row = {"variant": 0, "battle": 0, "seed": 7, "winner": "a", "first": "a", "rounds": 3,
           "uses": {"strike": 2}, "dealt": {"strike": 5, "reaction": 2, "fall": 4, "other": 1},
           "taken": {"b": {"strike": 5, "reaction": 2}, "a": {"fall": 4, "other": 1}}}
    stats = VariantStats(0, (), ("a", "b"), known_powers=("strike",))
    stats.add(row)
    handle = io.StringIO()
    CsvSink(handle, [stats], ["strike"]).write(row)
    written = next(csv.DictReader(io.StringIO(handle.getvalue())))
    assert (written["dealt.strike"], written["dealt.reaction"], written["dealt.fall"], written["dealt.other"]) == \
        ("5", "2", "4", "1")
    assert (written["taken.b.reaction"], written["taken.a.other"]) == ("2", "1")
    labels = [line.split()[2] for line in format_table([stats.summary()], ["a", "b"]).splitlines()
              if line.startswith("(as written)") and len(line.split()) == 7]
    assert labels == ["(falls)", "(others)", "(reactions)", "strike"]


@pytest.mark.parametrize("power_id", RESERVED_IDS)
def test_a_power_table_given_through_the_api_refuses_the_reserved_ids_too(power_id: str) -> None:
    """A power file refused them, but a table handed to ``Battle`` took a power called ``fall``, whose
    uses and hits the tally then counted as the falls'."""
    from dataclasses import replace

    from game import IllegalCommand
    from game.content.powers import default_powers

    table = default_powers()
    words = f"the power table's '{power_id}': id: expected an id other than fall, reaction, other, kept for damage"
    with pytest.raises(IllegalCommand, match=words):
        Battle(seed=1, width=4, height=4, powers={**table, power_id: replace(table["strike"], id=power_id)})


def test_each_source_reads_back_as_what_made_it() -> None:
    """The log, the tally and the grants read sources back by their parts: each form round-trips."""
    assert source_parts(power_source("strike")) == ("power", "strike")
    assert source_parts(script_source("chain_lightning")) == ("script", "chain_lightning")
    assert source_parts(script_source(None)) == ("script", "reaction")
    assert source_parts(FALL) == ("fall", "")
    assert effect_of(effect_source(12)) == 12
    assert effect_of(power_source("12")) is None and effect_of("effect:x") is None
