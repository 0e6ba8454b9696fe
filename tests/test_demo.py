"""The headless demo shows every rule the issue asks of it, in its log and its screenshots."""

from __future__ import annotations

from pathlib import Path

import pytest

from game import Battle
from game.play.demo import cover_lines, finished, run_headless, scene_lines


@pytest.mark.slow
def test_the_headless_demo_log_shows_every_beat(tmp_path: Path) -> None:
    lines = run_headless(tmp_path)
    text = "\n".join(lines)
    for beat in ("Scene: a light at", "surprised", "falls 10 ft", "lands hard", "has cover from", "DOWNED", "DIES",
                 "slowed"):
        assert beat in text, beat
    assert (tmp_path / "combat-log.txt").read_text(encoding="utf-8").strip() == text.strip()
    assert lines[-1].startswith("End: ") and " won after " in lines[-1], lines[-1]  # who won, last
    shots = sorted(tmp_path.glob("round-*.png"))
    assert len(shots) >= 3 and all(shot.stat().st_size > 10_000 for shot in shots)
    # the window played as a person would: each picture is written only once its moment came
    for name in ("move-preview", "walk", "tooltip", "damage", "fog", "fog-gm", "end"):
        shot = tmp_path / f"demo-{name}.png"
        assert shot.exists() and shot.stat().st_size > 10_000, name


@pytest.mark.parametrize(("level", "said"), [
    ("normal", "(no penalties)"),
    ("poor", "(disadvantage on Notice)"),
    ("terrible", "(disadvantage on Notice, disadvantage on attacks)"),
    ("no vision", "(disadvantage on Notice, disadvantage on attacks, a Notice by sight fails, flat-footed)"),
])
def test_the_scene_tells_what_the_light_does_as_the_rolls_do(level: str, said: str) -> None:
    """Terrible light hinders Notice as well as attacks: the log says what the rules play, all of it."""
    b = Battle(seed=1, width=4, height=4)
    b.set_ambient(level)
    assert scene_lines(b)[0] == f"Scene: the light is {level} {said}"


def test_the_demo_stops_when_the_battle_is_decided_not_when_one_of_three_sides_falls() -> None:
    """With three teams, one side's death leaves two standing: the battle is not decided, and the demo
    plays on (it once stopped as soon as any side had no one left standing)."""
    b = Battle(seed=3)
    doomed = b.spawn("Doomed", 1, 1, team="green", health=1)
    b.spawn("Blue", 8, 8, team="blue")
    red = b.spawn("Red", 14, 14, team="red", health=1)
    for _ in range(5):
        b.damage(doomed, 10)
        b.tick()
    assert "dead" in b.conditions(doomed) and b.winner() is None
    assert not finished(b)
    for _ in range(5):
        b.damage(red, 10)
        b.tick()
    assert b.winner() == "blue" and finished(b)


def test_the_scene_names_lights_and_areas_by_their_level_not_torch_and_fog() -> None:
    """Every light was "a torch" and every area "fog", whatever its level: a darkness too."""
    b = Battle(seed=1, width=8, height=4)
    b.add_light(1, 1, 10, "normal")
    b.add_area(5, 2, 10, "no vision")
    b.add_area(6, 2, 5, "terrible")
    assert scene_lines(b)[1:] == ["Scene: a light at (1, 1) lights 10 ft around it (normal)",
                                  "Scene: an area of no vision at (5, 2), 10 ft",
                                  "Scene: an area of terrible at (6, 2), 5 ft"]


def test_cover_from_an_arrow_slit_is_not_told_as_behind_a_wall() -> None:
    b = Battle(seed=3, width=10, height=6)
    archer = b.spawn("Archer", 1, 2, team="a", powers=["shoot"])
    orc = b.spawn("Orc", 6, 2, team="b", defense=12)
    b.set_terrain(5, 2, blocks=["movement"], cover=True)
    b.start_combat()
    b.tick()
    [line] = cover_lines(b, who=[orc])
    assert line == f"Round 1: Orc has cover from Archer (+5 Defense against it: {b.defense_against(orc, archer)})"
