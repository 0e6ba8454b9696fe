"""Scenario files: the shipped ones load, build and show their rules; bad files fail with one clear error."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from components import Health, Position, Rules, Visibility
from components.events import Landed
from game.battle.facade import Battle
from game.content.scenario import CreatureSpec, Scenario, ScenarioError, load_scenario, load_scenario_text

SCENARIOS = Path(__file__).resolve().parents[1] / "assets" / "scenarios"
SHIPPED = ("ledge", "ambush", "keep", "demo")

TINY = """\
name = "Tiny"
seed = 1

[map]
rows = [
  "....",
  ".#h.",
  "....",
]

[map.legend]
"." = { ground = 0 }
"#" = { wall = true }
"h" = { ground = 0, soft = true }

[teams.a]
control = "human"

[teams.b]

[[creatures]]
key = "x1"
team = "a"
x = 0
y = 0
powers = ["strike"]

[[creatures]]
key = "y1"
team = "b"
x = 3
y = 2
"""


def _load(name: str) -> Scenario:
    return load_scenario(SCENARIOS / f"{name}.toml")


# ---------------------------------------------------------------------------------------------- shipped


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_scenario_loads_and_builds(name: str) -> None:
    sc = _load(name)
    assert sc.name and sc.description
    assert isinstance(sc.rules, Rules)
    battle, ids = sc.build_with_ids()
    with battle:
        assert isinstance(battle, Battle)
        assert (battle.width, battle.height) == (sc.width, sc.height)
        assert list(ids) == [c.key for c in sc.creatures]
        assert battle.creatures() == list(ids.values())
        for spec in sc.creatures:
            entity = ids[spec.key]
            assert battle.name(entity) == spec.name
            assert battle.team(entity) == spec.team
            assert battle.get(entity, Health).maximum == spec.health
            assert battle.get(entity, Position).square == (spec.x, spec.y)
            assert spec.team in sc.teams
            assert set(spec.powers) & {"strike", "shoot"}, spec.key
        battle.start_combat()
        battle.run(2)  # nothing in a shipped scenario breaks the first rounds


@pytest.mark.parametrize("name", SHIPPED)
def test_build_is_fresh_and_deterministic(name: str) -> None:
    sc = _load(name)
    with sc.build() as one, sc.build() as two, sc.build(seed=sc.seed + 1) as other:
        assert one is not two
        for b in (one, two, other):
            b.start_combat()
            b.run(1)
        assert one.events == two.events
        assert other.seed == sc.seed + 1


def test_ledge_fall_onto_hay_is_soft_and_into_the_pit_is_not() -> None:
    sc = _load("ledge")
    battle, ids = sc.build_with_ids()
    with battle:
        assert sc.square(6, 3).soft and sc.square(0, 0).ground == 30 and sc.square(6, 5).ground < 0
        battle.move(ids["knight"], 6, 3)
        battle.move(ids["squire"], 6, 5)
        battle.tick()
        landings = {e.entity: e for e in battle.events if isinstance(e, Landed)}
        assert landings[ids["knight"]].soft and landings[ids["knight"]].distance_ft == 30
        assert not landings[ids["squire"]].soft and landings[ids["squire"]].distance_ft == 50
        assert landings[ids["knight"]].dice < landings[ids["squire"]].dice


def test_ambush_night_torches_and_surprise() -> None:
    sc = _load("ambush")
    battle, ids = sc.build_with_ids()
    with battle:
        assert battle.visibility_at(0, 1) == Visibility.TERRIBLE
        assert battle.visibility_at(6, 4) == Visibility.NORMAL  # the torch
        unprepared = {c.key for c in sc.creatures if not c.prepared}
        assert unprepared == {"merchant", "guard", "crossbow"}
        battle.start_combat()
        for key in unprepared:
            assert "surprised" in battle.conditions(ids[key])
        assert "surprised" not in battle.conditions(ids["bandit_chief"])
        # a bandit in the dark trees is attacked at disadvantage
        assert battle.roll_mode(ids["crossbow"], "attack", ids["bandit_archer"]) == "disadvantage"


def test_keep_cover_behind_the_slit_and_smoke_without_vision() -> None:
    sc = _load("keep")
    battle, ids = sc.build_with_ids()
    with battle:
        assert sc.rules.cover_bonus == 4
        archer, raider = ids["archer_west"], ids["raider_archer"]
        assert battle.can_see(raider, archer) and battle.has_cover(archer, raider)
        assert battle.defense_against(archer, raider) == 12 + 4
        assert battle.visibility_at(7, 9) == Visibility.NO_VISION
        assert battle.visibility_at(0, 0) == Visibility.NORMAL


def test_demo_is_small_three_against_three_with_everything() -> None:
    sc = _load("demo")
    assert (sc.width, sc.height) == (12, 10)
    teams = [c.team for c in sc.creatures]
    assert sorted(teams.count(t) for t in set(teams)) == [3, 3]
    assert sum(not c.prepared for c in sc.creatures) == 1
    assert sc.ambient == Visibility.TERRIBLE and sc.lights
    assert any(e.wall for e in sc.legend.values()) and any(e.ground > 0 for e in sc.legend.values())
    assert any(e.soft for e in sc.legend.values())


def test_creatures_are_frozen_and_defaults_apply() -> None:
    sc = load_scenario_text(TINY, "tiny")
    spec = sc.creature("y1")
    assert isinstance(spec, CreatureSpec)
    assert (spec.name, spec.health, spec.powers, spec.prepared, spec.flying, spec.speed) == \
        ("y1", 10, (), True, False, None)
    with pytest.raises(AttributeError, match="cannot assign to field 'health'"):
        spec.health = 3  # type: ignore[misc]
    assert sc.teams["a"].control == "human" and sc.teams["b"].control == "computer"
    assert sc.teams["b"].colour is None  # the window's palette picks one


# ---------------------------------------------------------------------------------------------- bad files


def _edit(old: str, new: str) -> str:
    assert old in TINY, old
    return TINY.replace(old, new, 1)


BAD = [
    ("syntax", _edit('seed = 1', 'seed = = 1'), ["TOML syntax error", "line 2"]),
    ("unknown top key", _edit('seed = 1', 'seed = 1\nsede = 2'), ["sede", "unknown key"]),
    ("unknown creature key", _edit('x = 3\ny = 2', 'x = 3\ny = 2\nhelth = 4'),
     ["creatures[1].helth", "did you mean 'health'"]),
    ("wrong type", _edit('key = "y1"', 'key = "y1"\nhealth = "ten"'), ["creatures[1].health", "whole number"]),
    ("negative health", _edit('key = "y1"', 'key = "y1"\nhealth = -3'), ["creatures[1].health", "above 0"]),
    ("off-map creature", _edit('x = 3\ny = 2', 'x = 9\ny = 2'), ["creatures[1]", "(9, 2)", "off the 4x3 map"]),
    ("creature in a wall", _edit('x = 0\ny = 0', 'x = 1\ny = 1'), ["creatures[0]", "(1, 1) is a wall"]),
    ("bad map character", _edit('".#h."', '".#?."'),
     ["map.rows[1] column 2", "unknown character '?'", "legend has '.', '#', 'h'"]),
    ("ragged rows", _edit('"....",\n]', '"...",\n]'), ["map.rows[2]", "has 3 squares", "same length"]),
    ("unknown team", _edit('team = "b"', 'team = "c"'), ["creatures[1].team", "unknown team 'c'"]),
    ("bad rules key", _edit('seed = 1', 'seed = 1\n[rules]\ncover_bonu = 3'),
     ["rules.cover_bonu", "did you mean 'cover_bonus'"]),
    ("bad rules type", _edit('seed = 1', 'seed = 1\n[rules]\ncover_bonus = 2.5'), ["rules.cover_bonus", "whole"]),
    ("bad rules value", _edit('seed = 1', 'seed = 1\n[rules]\ndiagonal = "sideways"'), ["rules", "diagonal"]),
    ("duplicate key", _edit('key = "y1"', 'key = "x1"'), ["creatures[1].key", "duplicate key 'x1'"]),
    ("missing team", _edit('team = "b"\n', ''), ["creatures[1].team", "missing"]),
    ("bad ambient", _edit('seed = 1', 'seed = 1\nambient = "dim"'), ["ambient", "unknown visibility level"]),
    ("light off map", _edit('seed = 1', 'seed = 1\n[[lights]]\nx = 5\ny = 0\nradius_ft = 10'),
     ["lights[0]", "off the 4x3 map"]),
    ("bad colour", _edit('control = "human"', 'control = "human"\ncolour = "blue"'), ["teams.a.colour", "#rrggbb"]),
    ("bad control", _edit('control = "human"', 'control = "robot"'), ["teams.a.control", "'human'"]),
    ("two on one square", _edit('x = 3\ny = 2', 'x = 0\ny = 0'), ["creatures[1]", "already taken by 'x1'"]),
    ("legend key too long", _edit('"h" = {', '"hh" = {'), ["map.legend", "one character"]),
    ("no map", TINY.split("[map]")[0] + "[teams.a]\n", ["map", "missing"]),
]


@pytest.mark.parametrize("text, expected", [pytest.param(t, e, id=i) for i, t, e in BAD])
def test_bad_file_raises_one_error_naming_file_and_key(tmp_path: Path, text: str, expected: list[str]) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    message = str(caught.value)
    assert str(path) in message
    for part in expected:
        assert part in message, (part, message)
    assert isinstance(caught.value, ValueError)


def test_several_problems_are_listed_in_one_error() -> None:
    text = _edit('x = 3\ny = 2', 'x = 9\ny = 2').replace('key = "x1"', 'key = "x1"\nhealth = 0')
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(text, "many.toml")
    assert len(caught.value.problems) == 2
    assert "many.toml: 2 problems" in str(caught.value)


def test_missing_file_is_a_scenario_error(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="nope.toml: cannot read"):
        load_scenario(tmp_path / "nope.toml")


def test_power_ids_are_checked_against_the_shipped_powers() -> None:
    text = _edit('powers = ["strike"]', 'powers = ["strike", "no-such-power"]')
    with pytest.raises(ScenarioError, match=r"creatures\[0\].powers: unknown power 'no-such-power'"):
        load_scenario_text(text, "p.toml")
    assert load_scenario_text(_edit('powers = ["strike"]', 'powers = ["strike", "fly"]'),
                              "p.toml").creature("x1").powers == ("strike", "fly")


# ---------------------------------------------------------------------------------------------- overrides


def test_overrides_make_a_new_validated_scenario() -> None:
    sc = _load("ledge")
    changed = sc.with_overrides({"creatures.ogre.health": 35, "rules.cover_bonus": 4, "seed": 99})
    assert changed.creature("ogre").health == 35 and sc.creature("ogre").health == 30
    assert changed.rules.cover_bonus == 4 and sc.rules.cover_bonus == Rules().cover_bonus
    assert changed.seed == 99
    assert ("creatures.ogre.health", 35) in changed.overrides
    with changed.build_with_ids()[0] as battle:
        assert battle.rules.cover_bonus == 4
    # overrides stack
    again = changed.with_overrides({"creatures.knight.prepared": False})
    assert not again.creature("knight").prepared and again.creature("ogre").health == 35


@pytest.mark.parametrize("key, value, expected", [
    ("creatures.ogre.helth", 3, "creatures.ogre.helth"),
    ("creatures.dragon.health", 3, "no creature with key 'dragon'"),
    ("rules.cover_bonu", 3, "did you mean 'cover_bonus'"),
    ("colour", 3, "override 'colour'"),
    ("teams.nobody.control", "human", "no team 'nobody'"),
    ("lights.7.radius_ft", 3, "lights"),
    ("creatures.ogre.health", -1, "creatures.ogre.health"),
    ("rules.diagonal", "sideways", "diagonal"),
])
def test_bad_override_names_the_key(key: str, value: object, expected: str) -> None:
    sc = _load("ledge")
    with pytest.raises(ScenarioError) as caught:
        sc.with_overrides({key: value})
    assert expected in str(caught.value)
    assert "ledge.toml" in str(caught.value)


def test_the_documented_example_is_a_valid_scenario() -> None:
    import game.content.scenario as module

    doc = module.__doc__ or ""
    example = doc.split("radii are feet)::", 1)[1]
    example = example.split("Unknown keys anywhere", 1)[0]
    text = "\n".join(line[4:] for line in example.splitlines())
    sc = load_scenario_text(text, "example.toml")
    assert (sc.width, sc.height) == (6, 3) and sc.creature("sir_hugo").name == "Sir Hugo"
    with sc.build() as battle:
        assert battle.visibility_at(1, 1) == Visibility.NO_VISION


def test_a_team_without_a_colour_takes_the_windows_palette_in_the_order_the_file_declares() -> None:
    """One palette: the loader leaves the colour to the window, which gives a battle built in code the same."""
    from game.play.demo import team_colours
    from game.render import theme

    text = TINY.replace('[teams.b]\n', '[teams.b]\ncolour = "#102030"\n').replace(
        '[teams.a]\ncontrol = "human"\n', '[teams.z]\n[teams.a]\ncontrol = "human"\n')
    sc = load_scenario_text(text, "tiny")
    assert list(sc.teams) == ["z", "a", "b"] and sc.teams["a"].colour is None
    assert team_colours(sc) == {"z": theme.TEAM_COLOURS[0], "a": theme.TEAM_COLOURS[1], "b": (0x10, 0x20, 0x30)}
    first = "#" + "".join(f"{c:02x}" for c in theme.TEAM_COLOURS[0])
    named = load_scenario_text(text.replace('"#102030"', f'"{first}"'), "tiny")  # b names the palette's first
    assert team_colours(named) == {"z": theme.TEAM_COLOURS[1], "a": theme.TEAM_COLOURS[2], "b": theme.TEAM_COLOURS[0]}


def test_a_team_without_a_colour_is_not_given_one_near_another_teams() -> None:
    """A third team beside the shipped scenarios' blue and red: it was given the palette's blue, (66, 133,
    244) beside "#3060d0", and its tokens and chips read as the blue team's; the palette's red was next."""
    from game.play.demo import team_colours
    from game.render import theme

    text = TINY.replace('[teams.b]\n', '[teams.b]\ncolour = "#c03030"\n').replace(
        '[teams.a]\ncontrol = "human"\n', '[teams.z]\n[teams.a]\ncontrol = "human"\ncolour = "#3060d0"\n')
    sc = load_scenario_text(text, "tiny")
    colours = team_colours(sc)
    assert colours["z"] == theme.TEAM_COLOURS[2]  # yellow: neither blue nor red
    assert all(math.dist(colours["z"], colours[t]) >= theme.NEAR for t in ("a", "b"))
    assert theme.unused_colours(theme.TEAM_COLOURS) == list(theme.TEAM_COLOURS)  # all taken: as before
