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
