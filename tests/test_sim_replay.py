"""A battle of a power sweep replays from its file: the power overrides travel with it."""

from __future__ import annotations

from pathlib import Path

from game.content.saves import play_replay
from game.sim.runner import battle_seed, run_battle

ROOT = Path(__file__).resolve().parent.parent


def test_a_power_sweep_battle_replays_from_its_file(tmp_path: Path) -> None:
    overrides = (("powers.shoot.damage", "3d6"),)
    row = run_battle(str(ROOT / "assets/scenarios/ledge.toml"), overrides, battle_seed(5, 0),
                     replay_dir=str(tmp_path), always_replay=True)
    assert not row["error"] and row["replay"]
    battle, matched, mismatch = play_replay(row["replay"])
    assert matched, mismatch
    assert battle.power_overrides == overrides
    assert str(battle.power("shoot").damage) == "3d6"


def test_a_replays_script_override_is_checked_against_the_scripts_it_recorded(tmp_path: Path) -> None:
    """A replay carries its scripts; a power override in it that names a script it does not carry, or
    a reaction's script that no use calls, is refused when the file loads, naming the override (as
    ``--set`` refuses it), where it played on to a mismatch."""
    import json

    import pytest

    from game.content.saves import SaveError

    scenario = ROOT / "assets/scenarios/ambush.toml"  # (its rally.star reaction is recorded)
    row = run_battle(str(scenario), (), battle_seed(5, 0), replay_dir=str(tmp_path), always_replay=True,
                     max_rounds=2)
    document = json.loads(Path(row["replay"]).read_text(encoding="utf-8"))
    assert "rally.star" in document["files"]["scripts"]
    for script, says in (("nope.star", "nope.star: cannot read script from the file's recorded scripts: it is not "
                                       "among the scripts"),
                         ("rally.star", "rally.star, which defines none of the functions a power's use calls")):
        edited = tmp_path / f"edited-{script}.json"
        edited.write_text(json.dumps({**document, "powers": [["powers.strike.script", script]]}), encoding="utf-8")
        with pytest.raises(SaveError, match=r"its power overrides do not apply: the file: override "
                                            r"'powers\.strike\.script'.*" + says.replace(".", r"\.")):
            play_replay(edited)


def test_a_replays_power_overrides_are_held_to_the_scenarios_budgets(tmp_path: Path) -> None:
    """A sweep's power overrides are held to the budgets of squares a scenario's powers may reach
    (``game.content.scenario_costs``: a blink of 10,000 ft for every creature had not finished a round
    of planning in ten minutes), but the same overrides in a save or replay file were taken as they
    were: a stranger's save, loaded in the window, had its computer players plan with them. Refused
    when the file is read, naming the override and the budget, as ``--set`` refuses it."""
    import json

    import pytest

    from game.content.saves import SaveError, read_replay, write_replay
    from game.content.scenario import load_scenario_text

    row = "." * 300
    text = (f'name = "Wide"\n[map]\nrows = [{", ".join(repr(row) for _ in range(300))}]\n'
            '[map.legend]\n"." = { ground = 0 }\n[teams.a]\n[teams.b]\n'
            '[[creatures]]\nkey = "x"\nteam = "a"\nx = 1\ny = 1\npowers = ["blink", "strike"]\n'
            '[[creatures]]\nkey = "y"\nteam = "b"\nx = 9\ny = 1\npowers = ["strike"]\n')
    scenario = load_scenario_text(text, str(tmp_path / "wide.toml"), path=str(tmp_path / "wide.toml"))
    battle = scenario.build(seed=3)
    built = len(battle.command_log)
    battle.start_combat()
    path = tmp_path / "wide.json"
    write_replay(path, scenario, battle, built)
    battle.close()
    document = json.loads(path.read_text(encoding="utf-8"))
    assert read_replay(path).powers is None  # as written: it reads
    document["powers"] = [["powers.blink.range_ft", 10000]]
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(SaveError, match=r"wide\.json: its power overrides do not apply: \(with overrides "
                                        r"powers\.blink\.range_ft=10000\): creatures: the teleports of the powers 2 "
                                        r"creatures may use reach 90,000 squares together .*expected 0\.\.65,536"):
        read_replay(path)
