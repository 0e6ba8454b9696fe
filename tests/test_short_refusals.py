"""A refusal names what it was given in a few dozen characters (``components.values.shown``), whatever
it was given: a replay file may hold a condition or power name of megabytes, or an entity id of
thousands of digits, and its refusal reached the terminal (and a replay window's status line) whole,
a 3,000,219-character line; an id past 4,300 digits raised ValueError from building the message
instead of the refusal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from components import Conditions
from game import Battle
from game.battle.errors import IllegalCommand, UnknownEntity
from game.content.saves import SaveError, play_replay, write_replay
from game.content.scenario import load_scenario_text

LONG = "x" * 200_000
HUGE = 10**5000
SHORT = 400  # what any of these messages needs, with room to spare

SCENARIO = '''
name = "Two"
[map]
rows = ["......", "......"]
[map.legend]
"." = { ground = 0 }
[teams.a]
[teams.b]
[[creatures]]
key = "x"
team = "a"
x = 0
y = 0
[[creatures]]
key = "y"
team = "b"
x = 5
y = 1
'''


@pytest.fixture
def battle() -> Battle:
    b = Battle(seed=1, width=8, height=8)
    b.spawn("Hero", 1, 1, team="a")
    b.spawn("Orc", 5, 5, team="b")
    return b


@pytest.mark.parametrize("ask", [
    lambda b: b.conditions(HUGE),
    lambda b: b.get(HUGE, Conditions),
    lambda b: b.damage(HUGE, 1),
    lambda b: b.use_power(1, "strike", target=HUGE),
])
def test_an_id_of_thousands_of_digits_is_no_creature(battle: Battle, ask) -> None:
    with pytest.raises(UnknownEntity, match="no creature with id a whole number of about 5001 digits") as caught:
        ask(battle)
    assert len(str(caught.value)) < SHORT


@pytest.mark.parametrize(("ask", "said"), [
    (lambda b: b.use_power(1, LONG), "unknown power 'xxx"),
    (lambda b: b.add_condition(1, LONG), "unknown condition 'xxx"),
    (lambda b: b.remove_condition(1, "prone", source=LONG), "condition source: expected at most 200 characters"),
    (lambda b: b.use_power(1, "burning-hands", direction=LONG), "a direction is a compass point"),
    (lambda b: b.spawn("Imp", 2, 2, team="a", powers=[LONG]), "unknown power 'xxx"),
    (lambda b: b.end_power(1, HUGE), "has no ongoing effect a whole number of about"),
    (lambda b: b.remove_light(HUGE), "no light with id a whole number of about"),
])
def test_a_refusal_of_a_huge_value_is_short(battle: Battle, ask, said: str) -> None:
    with pytest.raises(IllegalCommand, match=said) as caught:
        ask(battle)
    assert len(str(caught.value)) < SHORT


@pytest.mark.parametrize("command", [
    {"method": "add_condition", "args": [1, LONG], "kwargs": {}},
    {"method": "tick", "args": [LONG], "kwargs": {}},
    {"method": "tick", "args": [], "kwargs": {LONG: 1}},
])
def test_a_replays_long_command_is_refused_in_one_short_line(tmp_path: Path, command: dict) -> None:
    scenario = load_scenario_text(SCENARIO, "two.toml")
    b = scenario.build()
    b.start_combat()
    path = tmp_path / "r.json"
    write_replay(path, scenario, b)
    document = json.loads(path.read_text(encoding="utf-8"))
    document["commands"].append(command)
    path.write_text(json.dumps(document), encoding="utf-8")
    try:  # refused as the file is read (a command no battle takes so), or as it is played
        battle, matched, mismatch = play_replay(path)
    except SaveError as err:
        said = str(err)
    else:
        battle.close()
        assert not matched and mismatch is not None
        said = mismatch
    assert len(said) < SHORT + len(str(path))
