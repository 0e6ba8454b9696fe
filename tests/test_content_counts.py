"""How many of each thing a scenario may name, besides its map, lights and creatures
(tests/test_content_limits.py): powers, power files, scripts and teams. Each count a stranger's file
gives is bounded where it is read, so that the file is refused with one line naming the key and the
limit, instead of a battle whose round or whose report takes minutes (docs/limits.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.content.powers import MAX_POWERS, default_powers
from game.content.recorded import MAX_SCRIPTS, MAX_SCRIPTS_BYTES
from game.content.references import MAX_POWER_FILES
from game.content.scenario import ScenarioError, load_scenario, load_scenario_text
from game.content.scenario_costs import MAX_LEAP_SQUARES
from game.content.scenario_parse import MAX_AREA_SQUARES, MAX_CREATURES, MAX_MAP_SIDE, MAX_TEAMS, MAX_WALK_SQUARES
from game.sim.context import WorkerContext
from tests.scenario_steps import TWO_TEAMS, two_sided
from tests.test_content_limits import refusal as limit_refusal
from tests.test_content_limits import scenario as limit_scenario


def power_table(power_id: str) -> str:
    return (f'[{power_id}]\nname = "{power_id}"\ndescription = "a jab"\naction = "action"\nrange_ft = 30\n'
            'attack = { bonus = 1 }\ndamage = "1d4"\n')


def folder(tmp_path: Path, top: str = "", teams: str = TWO_TEAMS) -> Path:
    path = tmp_path / "counts.toml"
    path.write_text(two_sided("counts", top, teams))
    return path


def refusal(path: Path) -> str:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: ")
    return message


def test_a_battle_takes_as_many_powers_as_the_limit_and_one_more_is_refused(tmp_path: Path) -> None:
    room = MAX_POWERS - len(default_powers())
    (tmp_path / "mine.toml").write_text("".join(power_table(f"p{i}") for i in range(room)))
    (tmp_path / "more.toml").write_text(power_table("one-more"))
    assert len(load_scenario(folder(tmp_path, 'power_files = ["mine.toml"]')).powers) == MAX_POWERS
    message = refusal(folder(tmp_path, 'power_files = ["mine.toml", "more.toml"]'))
    assert f"power_files: the battle would have {MAX_POWERS + 1} powers" in message
    assert f"expected at most {MAX_POWERS}" in message


def test_a_power_file_of_too_many_powers_is_refused_before_each_is_checked(tmp_path: Path) -> None:
    (tmp_path / "huge.toml").write_text("".join(f"[p{i}]\n" for i in range(MAX_POWERS + 1)))  # none would pass
    message = refusal(folder(tmp_path, 'power_files = ["huge.toml"]'))
    assert f"power_files[0]: {tmp_path / 'huge.toml'}: {MAX_POWERS + 1} powers; expected at most {MAX_POWERS}" \
        in message


def test_too_many_power_files_are_refused_before_any_is_read(tmp_path: Path) -> None:
    names = ", ".join(f'"f{i}.toml"' for i in range(MAX_POWER_FILES + 1))  # none of them exists
    message = refusal(folder(tmp_path, f"power_files = [{names}]"))
    assert f"power_files: {MAX_POWER_FILES + 1} files; expected at most {MAX_POWER_FILES}" in message
    assert "f0.toml" not in message


def test_a_scenario_declares_as_many_teams_as_it_may_hold_creatures_and_one_more_is_refused(tmp_path: Path) -> None:
    assert MAX_TEAMS == MAX_CREATURES
    most = "[teams.a]\n[teams.b]\n" + "".join(f"[teams.t{i}]\n" for i in range(MAX_TEAMS - 2))
    assert len(load_scenario(folder(tmp_path, teams=most)).teams) == MAX_TEAMS
    message = refusal(folder(tmp_path, teams=most + "[teams.one-more]\n"))
    assert f"teams: {MAX_TEAMS + 1} teams; expected at most {MAX_TEAMS}" in message
    assert "t0" not in message  # refused before any is read, not listed


def scripts(tmp_path: Path, count: int, size: int = 0) -> list[str]:
    """``count`` reaction scripts beside the scenario, each padded with a comment to ``size`` bytes."""
    (tmp_path / "scripts").mkdir(exist_ok=True)
    names = []
    for i in range(count):
        text = f"def on_downed(ctx, event):\n    ctx.heal(event['entity'], {i})\n"
        (tmp_path / "scripts" / f"r{i}.star").write_text(text + "#" * max(0, size - len(text) - 1) + "\n")
        names.append(f"r{i}.star")
    return names


def listed(names: list[str]) -> str:
    return "[" + ", ".join(f'"{n}"' for n in names) + "]"


def test_a_scenario_reads_as_many_scripts_as_the_limit_and_one_more_is_refused(tmp_path: Path) -> None:
    names = scripts(tmp_path, MAX_SCRIPTS + 1)
    half = MAX_SCRIPTS // 2
    # split between the battle's reactions and a creature's, so that no one list passes the limit
    text = two_sided("counts", f"reactions = {listed(names[:half])}")
    path = tmp_path / "counts.toml"
    path.write_text(text.replace('key = "two"', f'key = "two"\nreactions = {listed(names[half:MAX_SCRIPTS])}'))
    assert len(load_scenario(path, trusted=True).files.scripts) == MAX_SCRIPTS
    path.write_text(text.replace('key = "two"', f'key = "two"\nreactions = {listed(names[half:])}'))
    message = refusal(path)
    assert f"creatures[1].reactions[{MAX_SCRIPTS - half}]: r{MAX_SCRIPTS}.star: cannot read script" in message
    assert f"it would be script number {MAX_SCRIPTS + 1} of this scenario; a scenario reads at most " \
        f"{MAX_SCRIPTS}" in message


def test_a_list_of_more_scripts_than_a_scenario_reads_is_refused_before_any_is_read(tmp_path: Path) -> None:
    names = [f"nowhere{i}.star" for i in range(MAX_SCRIPTS + 1)]
    message = refusal(folder(tmp_path, f"reactions = {listed(names)}"))
    assert f"reactions: expected at most {MAX_SCRIPTS} scripts, the most a scenario reads" in message
    assert "nowhere0" not in message


def test_the_scripts_of_a_scenario_are_bounded_in_bytes_together(tmp_path: Path) -> None:
    size = MAX_SCRIPTS_BYTES // 3 + 1  # two fit, the third does not; the ones after it point back
    names = scripts(tmp_path, 4, size)
    path = folder(tmp_path, f"reactions = {listed(names)}")
    message = refusal(path)
    assert f"reactions[2]: r2.star: cannot read script in {tmp_path / 'scripts'}: with it this scenario's " \
        f"scripts come to {3 * size:,} bytes; expected at most {MAX_SCRIPTS_BYTES:,} together" in message
    assert "reactions[3]: r3.star: cannot read script" in message and "as said above (r2.star)" in message
    assert "reactions[0]" not in message and "reactions[1]" not in message


def test_the_creatures_walks_are_bounded_in_squares_together() -> None:
    """25 creatures of 5,000 ft on the largest map took 34 s a round: the computer player works out
    where each creature and each enemy can go, over the box its speed spans (at most the map)."""
    def box(speed_ft: int) -> int:
        return (2 * (speed_ft // 5) + 1) ** 2

    assert 2 * box(1805) <= MAX_WALK_SQUARES < 2 * box(1810)
    loaded = load_scenario_text(limit_scenario(MAX_MAP_SIDE, rules="speed_ft = 1805"), "big.toml")
    assert loaded.rules.speed_ft == 1805 and len(loaded.creatures) == 2
    message = limit_refusal(limit_scenario(MAX_MAP_SIDE, rules="speed_ft = 1810"))
    assert f"creatures: 2 creatures walking up to 362 squares a turn on a {MAX_MAP_SIDE}x{MAX_MAP_SIDE} map reach " \
        f"{2 * box(1810):,} squares together" in message and f"expected 0..{MAX_WALK_SQUARES:,}" in message
    # a creature's own speed counts as the rules' does, and on a small map a walk is the map at most
    assert load_scenario_text(limit_scenario(64, rules="speed_ft = 10000"), "big.toml").rules.speed_ft == 10000


NOVA = ('[nova]\nname = "Nova"\ndescription = "a burst"\naction = "action"\nrange_ft = 30\ntargets = "enemies"\n'
        'area = {{ shape = "burst", radius_ft = {radius} }}\ndamage = "1d6"\n')


def novas(tmp_path: Path, creatures: int, radius: int) -> Path:
    """The largest map with ``creatures`` that each have only a burst of ``radius`` ft."""
    (tmp_path / "nova.toml").write_text(NOVA.format(radius=radius))
    text = limit_scenario(MAX_MAP_SIDE, creatures=creatures)
    text = text.replace("[[creatures]]", '[[creatures]]\npowers = ["nova"]')
    path = tmp_path / "novas.toml"
    path.write_text('power_files = ["nova.toml"]\n' + text)
    return path


def test_the_areas_of_the_creatures_powers_are_bounded_in_squares_together(tmp_path: Path) -> None:
    """25 creatures with a burst and a line of 10,000 ft on the largest map took 20 s a round: the
    computer player forecasts each area at several points a turn."""
    whole = MAX_MAP_SIDE * MAX_MAP_SIDE  # a burst of 10,000 ft spans the whole map
    assert 4 * whole == MAX_AREA_SQUARES
    assert len(load_scenario(novas(tmp_path, 4, 10_000)).creatures) == 4
    message = refusal(novas(tmp_path, 5, 10_000))
    assert f"creatures: the areas of the powers 5 creatures may use reach {5 * whole:,} squares together" in message
    assert f"the largest, 'nova', {whole:,}); expected 0..{MAX_AREA_SQUARES:,}" in message


def test_a_swept_area_is_held_to_the_same_budget_before_any_battle(tmp_path: Path) -> None:
    path = novas(tmp_path, 5, 5)
    context = WorkerContext()
    try:
        assert context.check_variant(str(path), (("powers.nova.area.radius_ft", 100),)).creatures
        with pytest.raises(ValueError, match=r"novas\.toml \(with overrides powers\.nova\.area\.radius_ft=10000\): "
                                             r"creatures: the areas of the powers 5 creatures may use reach"):
            context.check_variant(str(path), (("powers.nova.area.radius_ft", 10_000),))
    finally:
        context.close()


def test_the_teleports_of_the_creatures_powers_are_bounded_in_squares_together(tmp_path: Path) -> None:
    """The computer player weighs every square a blink could land on: 25 creatures with a blink of
    300 ft on the largest map took 10.8 s a round, and of 10,000 ft more than ten minutes."""
    (tmp_path / "nova.toml").write_text('[warp]\nname = "Warp"\ndescription = "a blink"\naction = "action"\n'
                                        'range_ft = 600\ntargets = "self"\nteleport = true\n')
    text = limit_scenario(MAX_MAP_SIDE, creatures=2).replace("[[creatures]]", '[[creatures]]\npowers = ["warp"]')
    path = tmp_path / "warps.toml"
    path.write_text('power_files = ["nova.toml"]\n' + text)
    each = (2 * (600 // 5) + 1) ** 2
    assert each <= MAX_LEAP_SQUARES < 2 * each
    message = refusal(path)
    assert f"creatures: the teleports of the powers 2 creatures may use reach {2 * each:,} squares together" \
        in message and f"expected 0..{MAX_LEAP_SQUARES:,}" in message
    path.write_text('power_files = ["nova.toml"]\n' + text.replace('powers = ["warp"]', 'powers = ["strike"]', 1))
    assert len(load_scenario(path).creatures) == 2  # one blink of 600 ft fits
