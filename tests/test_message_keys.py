"""A key or value of the file that an error repeats is shown escaped when it holds a character no
line a person reads may hold (a bidirectional override turns the rest of the line around, a line
separator or a newline breaks it in two): the file's own keys in the key path
(``[teams."x\\u202ey"]``, an unknown ``"a\\u2028b" = 1``), and an override's value in
``(with overrides ...)``. Names and text were refused with such characters already; the keys that
named them, and the values that carried them, were repeated raw."""

from __future__ import annotations

import json

import pytest

from game.content.scenario import ScenarioError, load_scenario_text
from game.content.toml_values import parse_value, toml_value
from tests.save_steps import SMALL, played, small_scenario

RAW = ("\u202e", "\u2028")  # (several problems are listed a line each: "\n  - ")


def refusal(text: str) -> str:
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(text, "small.toml")
    return str(caught.value)


@pytest.mark.parametrize(("edit", "said"), [
    (("[teams.a]", '[teams.a]\n"a\u202eb" = 1'), r"teams.a.a\u202eb: unknown key"),
    (("[map]", '[map]\n"a\u2028b" = 1'), r"map.a\u2028b: unknown key"),
    (('name = "', '"c\u202ed" = 2\nname = "'), r"c\u202ed: unknown key"),
    (("[teams.a]", '[teams."x\u202ey"]'), r"teams.x\u202ey: expected printable text"),
])
def test_a_key_of_the_file_is_shown_escaped_in_the_key_path(edit: tuple[str, str], said: str) -> None:
    old, new = edit
    assert old in SMALL
    message = refusal(SMALL.replace(old, new, 1))
    assert said in message and not any(ch in message for ch in RAW)


@pytest.mark.parametrize("key", ["reactions", "power_files"])
def test_a_file_name_with_such_a_character_is_refused_before_it_is_looked_for(key: str) -> None:
    name = "r\u202e.star" if key == "reactions" else "p\u202e.toml"
    message = refusal(SMALL.replace('name = "', f'{key} = ["{name}"]\nname = "', 1))
    assert f"{key}: expected an array of" in message and repr(name) in message
    assert "cannot read" not in message and not any(ch in message for ch in RAW)


def test_an_override_value_with_such_a_character_is_written_escaped_and_reads_back() -> None:
    value = "x\u202ey\nz"
    assert toml_value(value) == '"x\\u202ey\\nz"' and parse_value(toml_value(value)) == value
    scenario = load_scenario_text(SMALL, "small.toml")
    with pytest.raises(ScenarioError) as caught:
        scenario.with_overrides({"creatures.foe.team": value})
    message = str(caught.value)
    assert '(with overrides creatures.foe.team="x\\u202ey\\nz")' in message
    assert not any(ch in message for ch in (*RAW, "\n"))


TERMINAL = ("\x1b", "\x07", "\u202e")  # ESC starts a colour or title sequence, BEL ends one


def test_a_replay_naming_a_scenario_path_with_terminal_controls_is_refused_in_one_escaped_line(
        tmp_path, capsys) -> None:
    """A replay file records the path of its scenario, and an error repeats it: a stranger's file naming
    ``/tmp/\\x1b[31mRED\\x1b]0;pwned\\x07\\u202e.toml`` coloured the user's terminal, set its title and
    turned the rest of the line around. Every line the command line prints for an error is escaped."""
    from game.content.saves import write_replay
    from game.play import cli

    scenario = small_scenario()
    battle, count, _ = played(scenario)
    path = tmp_path / "r.json"
    write_replay(path, scenario, battle, count)
    battle.close()
    document = json.loads(path.read_text(encoding="utf-8"))
    hostile = "/tmp/\x1b[31mRED\x1b]0;pwned\x07\u202eevil.toml"
    document.update(version=1)
    document.pop("files")
    document["scenario"].update(path=hostile, text=None)  # read from that path, as a version 1 file is
    path.write_text(json.dumps(document), encoding="utf-8")
    assert cli.main(["replay", str(path), "--headless"]) == 2
    err = capsys.readouterr().err
    assert "/tmp/\\x1b[31mRED\\x1b]0;pwned\\x07\\u202eevil.toml: cannot read the file" in err
    assert not any(ch in err for ch in TERMINAL) and len(err.splitlines()) == 1


def test_a_scenario_in_a_folder_named_with_a_bidirectional_override_is_named_escaped(tmp_path, capsys) -> None:
    from game.play import cli

    folder = tmp_path / "s\u202elmot.base"
    folder.mkdir()
    (folder / "small.toml").write_text(SMALL.replace("[teams.a]", "[teams.a]\nbogus = 1"), encoding="utf-8")
    assert cli.main(["play", str(folder / "small.toml"), "--headless", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "s\\u202elmot.base" in err and "teams.a.bogus: unknown key" in err and "\u202e" not in err
