"""``python -m game play SCENARIO --headless``: the computer plays every side of any scenario, turn by
turn through the window application, writing screenshots of its turns and the combat log; bad
input is refused in one line with exit status 2."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from game.play import cli, headless

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "assets" / "scenarios").glob("*.toml"))


@pytest.mark.slow
@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.stem)
def test_every_shipped_scenario_plays_headless_turn_by_turn(scenario: Path, tmp_path: Path) -> None:
    played = headless.play(scenario, tmp_path, rounds=2, seed=5)
    assert 1 <= played.rounds <= 2
    turns = sorted(tmp_path.glob("turn-*.png"))
    assert turns[0].name == "turn-000.png" and len(turns) >= 3  # the start and one per turn played
    assert (tmp_path / "final.png").stat().st_size > 10_000
    log = (tmp_path / "combat-log.txt").read_text(encoding="utf-8").splitlines()
    assert log == played.lines and any(line.startswith("Round 1:") for line in log)


@pytest.mark.slow
def test_the_same_seed_plays_the_same_battle_and_another_seed_another(tmp_path: Path) -> None:
    first = headless.play(ROOT / "assets/scenarios/ledge.toml", tmp_path / "a", rounds=2, seed=1)
    again = headless.play(ROOT / "assets/scenarios/ledge.toml", tmp_path / "b", rounds=2, seed=1)
    other = headless.play(ROOT / "assets/scenarios/ledge.toml", tmp_path / "c", rounds=2, seed=2)
    assert first.lines == again.lines
    assert first.lines != other.lines



@pytest.mark.slow
def test_no_seed_plays_as_the_scenarios_own_seed(tmp_path: Path) -> None:
    """Without ``--seed`` the battle and the computer players both take the scenario's seed (23 for
    the ambush), so a run can be repeated by naming that seed; the players once took 0 instead."""
    scenario = ROOT / "assets/scenarios/ambush.toml"
    plain = headless.play(scenario, tmp_path / "a", rounds=2, policy="random")
    named = headless.play(scenario, tmp_path / "b", rounds=2, seed=23, policy="random")
    assert 'seed = 23' in scenario.read_text(encoding="utf-8")
    assert plain.lines == named.lines

@pytest.mark.slow
def test_the_cli_writes_the_log_it_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["play", str(ROOT / "assets/scenarios/ambush.toml"), "--headless", "--rounds", "2",
                     "--out", str(tmp_path), "--seed", "3"])
    printed = capsys.readouterr()
    assert code == 0
    assert printed.out.strip() == (tmp_path / "combat-log.txt").read_text(encoding="utf-8").strip()
    assert "screenshots and combat-log.txt written to" in printed.err


@pytest.mark.parametrize(("args", "says"), [
    (["assets/scenarios/nowhere.toml"], "nowhere.toml"),
    (["assets/scenarios/ledge.toml", "--rounds", "0"],
     "argument --rounds: expected a whole number from 1 to 500, got '0'"),
    (["assets/scenarios/ledge.toml", "--rounds", "ten"],
     "argument --rounds: expected a whole number from 1 to 500, got 'ten'"),
    (["assets/scenarios/ledge.toml", "--rounds", "100000"], "--rounds"),
    (["assets/scenarios/ledge.toml", "--seed", "-1"],
     "argument --seed: expected a seed from 0 to 9,223,372,036,854,775,807, got '-1'"),
    (["assets/scenarios/ledge.toml", "--out", "README.md"],
     "--out 'README.md': expected a directory, but it is an existing file"),
])
def test_bad_input_is_refused_in_one_line_with_status_2(args: list[str], says: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        code = cli.main(["play", *args, "--headless"])
    finally:
        os.chdir(cwd)
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and says in err
    assert err.startswith(("play: ", "python -m game play: error: "))
    assert "Traceback" not in err


@pytest.mark.parametrize(("command", "taken"), [
    (["play", str(ROOT / "assets/scenarios/ledge.toml")], "combat-log.txt"),
    (["play", str(ROOT / "assets/scenarios/ledge.toml")], "final.png"),
    (["play", str(ROOT / "assets/scenarios/ledge.toml")], "turn-003.png"),
    (["demo"], "combat-log.txt"),
    (["demo"], "round-02.png"),
    (["demo"], "demo-end.png"),
])
def test_an_output_in_the_way_is_refused_before_the_battle(command: list[str], taken: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """A combat-log.txt that is a directory used to be found after the whole battle, its turn-*.png
    and final.png written: each output is checked up front, as simulate checks its own."""
    (tmp_path / taken).mkdir()
    code = cli.main([*command, "--headless", "--rounds", "2", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert f"'{tmp_path / taken}' is a directory; expected a file this run can replace" in err
    assert [p.name for p in tmp_path.iterdir()] == [taken]  # nothing was played, nothing written


@pytest.mark.slow
def test_python_dash_m_game_play_headless_runs(tmp_path: Path) -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    done = subprocess.run([sys.executable, "-m", "game", "play", "assets/scenarios/ledge.toml", "--headless",
                           "--rounds", "1", "--out", str(tmp_path)], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "final.png").exists() and "Round 1:" in done.stdout


@pytest.mark.slow
def test_explain_puts_the_computer_players_reasons_before_its_turns(tmp_path):
    from game.play import headless

    played = headless.play(ROOT / "assets" / "scenarios" / "ledge.toml", tmp_path, rounds=2, explain=True)
    why = [i for i, line in enumerate(played.lines) if "(why)" in line]
    assert why, "no reasons in the log"
    assert any("expected damage there" in played.lines[i] for i in why)
    # each reason comes just before the lines of the turn it explains, which name the same creature
    first = played.lines[why[0]]
    name = first.split("(why) ", 1)[1].split(" ")[0]
    assert name in played.lines[why[0] + 1]
    assert "(why)" in (tmp_path / "combat-log.txt").read_text()


@pytest.mark.slow
def test_each_team_plays_under_the_policy_named_for_it(tmp_path: Path) -> None:
    # what a designer watches before a sweep: tactical merchants against the greedy baseline
    played = headless.play(ROOT / "assets/scenarios/ambush.toml", tmp_path, rounds=2, seed=2, explain=True,
                           policy="merchants=tactical,bandits=greedy")
    reasons = [line.split("(why) ", 1)[1] for line in played.lines if "(why)" in line]
    bandits = [r for r in reasons if r.startswith(("Bandit", "Cutthroat"))]
    merchants = [r for r in reasons if not r.startswith(("Bandit", "Cutthroat"))]
    assert bandits and all(" greedy: " in r for r in bandits), bandits
    # greedy says what it does: its moves and its blows, with the damage it expected of them, by its
    # own rough count (not the battle's forecast, which the tactical player quotes)
    assert any(re.search(r"Strike at \w[\w ]* \(\d+\.\d expected by its own rough count\)", r)
               for r in bandits), bandits
    assert merchants and all("expected damage there" in r for r in merchants), merchants
    # the merchants start surprised: their first reasons say why they use no power
    # an attack line shows its arithmetic: the d20 (and its mode), the bonus, the total
    assert any(re.search(r"with Strike: \d+(, disadvantage)? \+ \d+ = \d+ vs Defense \d+", line)
               for line in played.lines)
    surprised = ["(surprised: no powers this round)" in r for r in merchants]
    assert surprised[0] and surprised == sorted(surprised, reverse=True), merchants


@pytest.mark.slow
def test_the_reasons_name_creatures_as_the_log_does(tmp_path: Path) -> None:
    """Two creatures named "Raider": the log numbers them, and so do the reasons and the window."""
    played = headless.play(ROOT / "assets/scenarios/keep.toml", tmp_path, rounds=2, seed=1, explain=True,
                           policy="keep=tactical,raiders=greedy")
    reasons = [line for line in played.lines if "(why)" in line]
    told = [line for line in played.lines if "(why)" not in line]
    assert any(re.search(r"\bRaider [12]\b", line) for line in told)
    assert any(re.search(r"\bRaider [12]\b", line) for line in reasons), reasons
    assert not any(re.search(r"\bRaider\b(?! [12]\b| archer| slinger)", line) for line in reasons), reasons


def test_a_policy_for_a_team_the_person_plays_is_named_as_ignored() -> None:
    note = headless.human_policy_note("merchants=greedy,bandits=random", frozenset({"merchants"}))
    assert note is not None and "'merchants'" in note and "ignored" in note and "bandits" not in note
    assert headless.human_policy_note("greedy", frozenset({"merchants"})) is None
    assert headless.human_policy_note("bandits=random", frozenset({"merchants"})) is None


def test_the_window_is_told_of_a_policy_for_a_team_the_person_plays(monkeypatch: pytest.MonkeyPatch,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from game.play import demo
    from game.play.app import App

    monkeypatch.setattr(demo, "has_display", lambda: True)
    monkeypatch.setattr(App, "run", lambda self, *a, **k: None)  # no window loop: only what play says first
    code = cli.main(["play", str(ROOT / "assets/scenarios/ambush.toml"), "--policy", "merchants=greedy"])
    assert code == 0
    assert "--policy names 'merchants', which you play" in capsys.readouterr().err


def test_a_headless_run_stops_on_sigterm_and_ctrl_c() -> None:
    """SDL's own handlers turned SIGTERM and Ctrl+C into quit events that nothing reads without a
    window: a long headless run could not be stopped. ``quiet_signals`` leaves them to Python."""
    snippet = textwrap.dedent("""
        import os, signal, sys, time
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ["SDL_AUDIODRIVER"] = "dummy"
        from game.play import headless
        headless.quiet_signals()
        import pygame
        pygame.init()
        pygame.display.set_mode((16, 16))
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(2)
            sys.exit(3)  # the interrupt never came
        except KeyboardInterrupt:
            pass
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(2)
        sys.exit(4)  # SIGTERM did not end the process
    """)
    env = {k: v for k, v in os.environ.items() if k != "SDL_NO_SIGNAL_HANDLERS"}
    done = subprocess.run([sys.executable, "-c", snippet], cwd=ROOT, env=env, capture_output=True, timeout=60)
    assert done.returncode == -signal.SIGTERM, (done.returncode, done.stderr[-500:])


def test_a_display_named_but_not_there_counts_as_none(monkeypatch: pytest.MonkeyPatch) -> None:
    """DISPLAY=:N with no X server there: SDL would draw off screen, and demo would play unseen forever."""
    from game.play import demo

    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("DISPLAY", ":4917")
    assert not Path("/tmp/.X11-unix/X4917").exists() and not demo.has_display()
    monkeypatch.setenv("DISPLAY", "far-away:10.0")  # forwarded over ssh: SDL finds out
    assert demo.has_display()


def test_display_names_follow_spawns_and_restores() -> None:
    """The names a person reads number creatures that share a name, and stay right when a restore
    takes a creature away and another spawn brings a new one."""
    from game.battle.facade import Battle

    b = Battle(seed=1, width=8, height=6)
    a = b.spawn("Raider", 1, 1, team="r")
    assert b.display_name(a) == "Raider"
    before = b.snapshot()
    other = b.spawn("Raider", 2, 1, team="r")
    assert (b.display_name(a), b.display_name(other)) == ("Raider 1", "Raider 2")
    b.restore(before)
    knight = b.spawn("Knight", 3, 1, team="k")
    assert (b.display_name(a), b.display_name(knight)) == ("Raider", "Knight")
