"""Hostile flag values are refused before any battle: exit status 2, one line on stderr naming the flag.

Every flag of every subcommand, driven through ``game.play.cli.main`` in this process (a few cases also
through a real ``python -m game`` process). A refusal must not leave a traceback, must not write the
output directory, and must say what was expected.
"""

from __future__ import annotations

import functools
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from game.play.cli import main

ROOT = Path(__file__).resolve().parent.parent
KEEP = str(ROOT / "assets/scenarios/keep.toml")

#: (id, argv after the subcommand's scenario, the text the line must contain). "{tmp}" is a fresh
#: directory, "{file}" an existing file in it, "{out}" a not-yet-existing output directory.
TWO = ["--battles", "2", "--set"]

SIMULATE: list[tuple[str, list[str], str]] = [
    ("out-existing-file", ["--out", "{file}"], "--out"),
    ("out-dev-null", ["--out", "/dev/null"], "--out"),
    ("out-under-a-file", ["--out", "{file}/sub"], "--out"),
    ("out-under-dev-null", ["--out", "/dev/null/x"], "--out"),
    ("out-in-proc", ["--out", "/proc/gridbattle-out"], "--out"),
    ("out-empty", ["--out", ""], "--out"),
    ("set-only-commas", ["--set", "rules.cover_bonus=,,,"], "--set"),
    ("set-no-equals", ["--set", "rules.cover_bonus"], "--set"),
    ("set-no-key", ["--set", "=3"], "--set"),
    ("set-empty-value", ["--set", "rules.cover_bonus=1,,2"], "--set"),
    ("set-value-twice", ["--set", "rules.cover_bonus=1,1"], "--set"),
    ("set-key-twice", ["--set", "rules.cover_bonus=1", "--set", "rules.cover_bonus=2"], "--set"),
    ("set-unknown-rule", ["--set", "rules.cover_bonu=2"], "did you mean 'cover_bonus'"),
    ("set-unknown-creature", ["--set", "creatures.nobody.health=3"], "creatures.nobody.health"),
    ("set-out-of-range", ["--set", "rules.cover_bonus=5000"], "rules.cover_bonus"),
    ("set-inf", ["--set", "rules.cover_bonus=inf"], "rules.cover_bonus"),
    ("set-nan-health", ["--set", "creatures.archer_west.health=nan"], "health"),
    ("set-text-for-number", ["--set", "rules.cover_bonus=[1"], "rules.cover_bonus"),
    ("set-unknown-power", ["--set", "powers.nope.damage=2"], "powers.nope.damage"),
    ("set-bad-dice", ["--set", "powers.strike.damage=xyz"], "powers.strike.damage"),
    ("set-too-many-variants", ["--set", "rules.cover_bonus=" + ",".join(map(str, range(40))),
                               "--set", "rules.surprise_rounds=" + ",".join(map(str, range(30)))], "--set"),
    ("battle-seconds-nan", ["--battle-seconds", "nan"], "--battle-seconds"),
    ("battle-seconds-inf", ["--battle-seconds", "inf"], "--battle-seconds"),
    ("battle-seconds-tiny", ["--battle-seconds", "1e-9"], "--battle-seconds"),
    ("battle-seconds-huge", ["--battle-seconds", "1e300"], "--battle-seconds"),
    ("battle-seconds-negative", ["--battle-seconds", "-1"], "--battle-seconds"),
    ("battle-seconds-text", ["--battle-seconds", "soon"], "--battle-seconds"),
    ("hook-missing-module", ["--hook", "gridbattle_no_such_module:f"], "--hook"),
    ("hook-no-colon", ["--hook", "os"], "--hook"),
    ("hook-missing-name", ["--hook", "os:no_such_function"], "--hook"),
    ("hook-not-callable", ["--hook", "os:sep"], "--hook"),
    ("hook-empty-name", ["--hook", "os:"], "--hook"),
    ("workers-zero", ["--workers", "0"], "--workers"),
    ("workers-negative", ["--workers", "-2"], "--workers"),
    ("workers-absurd", ["--workers", "100000"], "--workers"),
    ("battles-zero", ["--battles", "0"], "--battles"),
    ("battles-negative", ["--battles", "-5"], "--battles"),
    ("battles-absurd", ["--battles", "10000000000"], "--battles"),
    ("battles-float", ["--battles", "1e3"], "--battles"),
    ("battles-times-variants", ["--battles", "100000000", "--set", "rules.cover_bonus=1,2"], "--battles"),
    ("seed-negative", ["--seed", "-1"], "--seed"),
    ("seed-absurd", ["--seed", str(2**70)], "--seed"),
    ("seed-text", ["--seed", "lucky"], "--seed"),
    ("only-seed-negative", ["--only-seed", "-3"], "--only-seed"),
    ("chunk-zero", ["--chunk", "0"], "--chunk"),
    ("chunk-absurd", ["--chunk", "99999999"], "--chunk"),
    ("recycle-negative", ["--recycle", "-1"], "--recycle"),
    ("recycle-absurd", ["--recycle", str(10**12)], "--recycle"),
    ("max-rounds-zero", ["--max-rounds", "0"], "--max-rounds"),
    ("max-rounds-absurd", ["--max-rounds", "10000000"], "--max-rounds"),
    ("policy-unknown", ["--policy", "psychic"], "--policy"),
    ("engine-unknown", ["--engine", "spark"], "--engine"),
    ("scheduler-without-dask", ["--scheduler", "tcp://127.0.0.1:1"], "--scheduler"),
    ("scheduler-refused", ["--engine", "dask", "--scheduler", "tcp://127.0.0.1:1"], "--scheduler"),
    ("scheduler-no-port", ["--engine", "dask", "--scheduler", "tcp://localhost"], "--scheduler"),
    ("scheduler-garbage", ["--engine", "dask", "--scheduler", "::::"], "--scheduler"),
    ("unknown-flag", ["--bogus"], "--bogus"),
    ("only-seed-twice", ["--only-seed", "3", "--only-seed", "4", "--only-seed", "3"], "--only-seed 3: given twice"),
    # one value spelt three ways would be three identical variants under three labels
    ("set-same-value-spelt-apart", ["--set", "rules.cover_bonus=4,+4,0x4"], "a value is given twice (4;"),
    # spelt apart past TOML: the same die, range or set of powers would be two variants of one battle
    # (--battles 2: a regression plays them instead of hanging the suite)
    ("set-same-dice-spelt-apart", [*TWO, "powers.shoot.damage=1d6+1,1d6+01"], "1d6+1 and 1d6+01 make the same power"),
    ("set-same-dice-upper-case", [*TWO, "powers.shoot.damage=1d6,1D6"], "1d6 and 1D6 make the same power"),
    ("set-same-dice-no-bonus", [*TWO, "powers.shoot.damage=2d4,3d4,2d4+0"], "2d4 and 2d4+0"),
    ("set-same-range-as-float", [*TWO, "powers.shoot.range_ft=30,30.0"], "30 and 30.0 make the same power"),
    ("set-same-blocks-reordered", [*TWO, 'map.legend.:.blocks=["movement","fliers"],["fliers","movement"]'],
     "make the same scenario"),
    ("set-full-width-dice", [*TWO, "powers.shoot.damage=2d6,\uff12d\uff16"], "in ASCII digits"),
    # nesting that would end in a RecursionError (or deep inside tomllib) is refused before parsing
    ("set-nested-150", ["--set", "creatures.sergeant.powers=" + "[" * 150 + "]" * 150], "nests arrays or tables 150"),
    ("set-nested-250", ["--set", "creatures.sergeant.powers=" + "[" * 250 + "]" * 250], "too deeply"),
    ("set-nested-5000", ["--set", "creatures.sergeant.powers=" + "[" * 5000 + "]" * 5000], "5000 deep"),
    ("set-nested-tables", ["--set", "creatures.sergeant.health=1," + "{{a=" * 300 + "1" + "}}" * 300], "value 2 nests"),
    # sweeps that could change nothing a simulation counts: the variants would be the same battles
    ("set-seed", ["--set", "seed=5,6"], "sweeping seed changes nothing"),
    ("set-team-control", ["--set", "teams.keep.control=human,computer"], "plays every team by --policy"),
    ("set-creature-name", ["--set", "creatures.sergeant.name=A,B"], "a name is only a name"),
    # a power's words and a square's name were swept as variants that differed only in their label
    ("set-power-name", ["--set", "powers.shoot.name=Bow,Sling"], "counts its uses by its id"),
    ("set-power-description", ["--set", "powers.shoot.description=a,b"], "only words"),
    ("set-square-name", ["--set", "map.legend.:.name=slit,gap"], "a square's name is only drawn"),
    # the legend character "." holds a dot: its key is read from both ends, as an override reads it
    ("set-dot-square-name", ["--set", "map.legend...name=floor,flags"], "a square's name is only drawn"),
]

#: Whole command lines of the other subcommands (and a bad scenario for simulate).
OTHERS: list[tuple[str, list[str], str]] = [
    ("demo-out-file", ["demo", "--headless", "--out", "{file}"], "--out"),
    ("demo-out-dev-null", ["demo", "--headless", "--out", "/dev/null"], "--out"),
    ("demo-out-uncreatable", ["demo", "--headless", "--out", "/proc/gridbattle-demo"], "--out"),
    ("demo-rounds-zero", ["demo", "--headless", "--rounds", "0", "--out", "{out}"], "--rounds"),
    ("demo-rounds-negative", ["demo", "--headless", "--rounds", "-4", "--out", "{out}"], "--rounds"),
    ("demo-rounds-absurd", ["demo", "--headless", "--rounds", "99999999", "--out", "{out}"], "--rounds"),
    ("demo-seed-negative", ["demo", "--headless", "--seed", "-1", "--out", "{out}"], "--seed"),
    ("demo-seed-float", ["demo", "--headless", "--seed", "1e3", "--out", "{out}"], "--seed"),
    ("demo-policy", ["demo", "--headless", "--policy", "nope", "--out", "{out}"], "--policy"),
    ("play-seed-negative", ["play", KEEP, "--seed", "-5"], "--seed"),
    ("play-policy", ["play", KEEP, "--policy", "nope"], "--policy"),
    ("demo-policy-team", ["demo", "--headless", "--policy", "blue=greedy,reds=random", "--out", "{out}"], "'reds'"),
    ("play-policy-team", ["play", KEEP, "--headless", "--policy", "keep=greedy,raider=random", "--out", "{out}"],
     "'raider'"),
    ("play-policy-team-policy", ["play", KEEP, "--policy", "keep=psychic"], "--policy"),
    ("play-out-uncreatable", ["play", KEEP, "--headless", "--out", "/proc/gridbattle-play"], "--out"),
    ("replay-missing", ["replay", "{tmp}/nothing.json", "--headless"], "nothing.json"),
    ("replay-directory", ["replay", "{tmp}", "--headless"], "not a regular file"),
    ("replay-device", ["replay", "/dev/zero", "--headless"], "/dev/zero"),
    ("replay-not-json", ["replay", "{file}", "--headless"], "{file}"),
    ("simulate-missing-scenario", ["simulate", "{tmp}/nothing.toml", "--out", "{out}"], "nothing.toml"),
    ("simulate-device-scenario", ["simulate", "/dev/zero", "--out", "{out}"], "/dev/zero"),
    ("simulate-directory-scenario", ["simulate", "{tmp}", "--out", "{out}"], "not a regular file"),
    ("unknown-command", ["conquer"], "conquer"),
    ("play-seed-underscored", ["play", KEEP, "--headless", "--seed", "1_0", "--out", "{out}"], "--seed"),
    ("play-seed-other-digits", ["play", KEEP, "--headless", "--seed", "\u0663", "--out", "{out}"], "--seed"),
    ("demo-seed-spaced", ["demo", "--headless", "--seed", " 5", "--out", "{out}"], "--seed"),
    ("demo-policy-huge", ["demo", "--headless", "--policy", "a=greedy," * 20_000, "--out", "{out}"],
     "1,000 characters"),
    ("demo-out-too-long", ["demo", "--headless", "--out", "{tmp}/" + "x" * 300], "--out"),
    ("play-out-too-long", ["play", KEEP, "--headless", "--out", "{tmp}/" + "x" * 300], "--out"),
    ("simulate-out-too-long", ["simulate", KEEP, "--out", "{tmp}/" + "x" * 300], "--out"),
    ("demo-out-dangling-link", ["demo", "--headless", "--out", "{link}"], "link to nothing"),
    ("demo-out-symlink-loop", ["demo", "--headless", "--out", "{loop}"], "is a symlink loop"),
    ("play-out-symlink-loop", ["play", KEEP, "--headless", "--out", "{loop}"], "is a symlink loop"),
    ("play-symlink-loop", ["play", "{loop}", "--headless", "--out", "{out}"], "{loop}"),
    ("replay-symlink-loop", ["replay", "{loop}", "--headless"], "{loop}"),
    ("replay-empty-file", ["replay", "{tmp}/empty.json", "--headless"], "empty.json"),
    ("play-rounds-window", ["play", KEEP, "--rounds", "abc"], "--rounds"),
    ("play-many-problems", ["play", "{broken}", "--headless", "--out", "{out}"], "problems"),
]


def _fill(argv: list[str], tmp: Path) -> list[str]:
    names = {"tmp": str(tmp), "file": str(tmp / "a-file.txt"), "out": str(tmp / "out"),
             "link": str(tmp / "dangling"), "broken": str(tmp / "broken.toml"), "loop": str(tmp / "loop")}
    if not (tmp / "dangling").is_symlink():
        (tmp / "dangling").symlink_to(tmp / "nowhere")
    if not (tmp / "loop").is_symlink():
        (tmp / "loop").symlink_to(tmp / "loop")
    (tmp / "empty.json").touch()
    # a map with two short rows: two problems, which the refusal still says on one line
    keep = Path(KEEP).read_text(encoding="utf-8").splitlines()
    rows = [i for i, line in enumerate(keep) if line.startswith('  "')][:2]
    for i in rows:
        keep[i] = keep[i].replace('",', '.",', 1)
    (tmp / "broken.toml").write_text("\n".join(keep) + "\n", encoding="utf-8")
    return [a.format(**names) for a in argv]


def _refused(argv: list[str], tmp: Path, capsys: pytest.CaptureFixture[str]) -> str:
    (tmp / "a-file.txt").write_text("not a directory, not JSON\n")
    capsys.readouterr()
    status = main(argv)
    captured = capsys.readouterr()
    assert status == 2, (argv, captured.err)
    line = captured.err.strip()
    assert line and "\n" not in line, f"expected one line, got {captured.err!r}"
    assert "Traceback" not in line and "Error:" not in line.split(":")[0]
    assert not (tmp / "out").exists(), "nothing may be written before the refusal"
    return line


@pytest.mark.parametrize(("argv", "named"), [c[1:] for c in SIMULATE], ids=[c[0] for c in SIMULATE])
def test_simulate_refuses_a_hostile_flag_in_one_line(argv: list[str], named: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = [] if "--out" in argv else ["--out", "{out}"]
    line = _refused(_fill(["simulate", KEEP, "--no-progress", *out, *argv], tmp_path), tmp_path, capsys)
    assert _fill([named], tmp_path)[0] in line


@pytest.mark.parametrize(("argv", "named"), [c[1:] for c in OTHERS], ids=[c[0] for c in OTHERS])
def test_other_commands_refuse_hostile_values_in_one_line(argv: list[str], named: str, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    line = _refused(_fill(argv, tmp_path), tmp_path, capsys)
    assert _fill([named], tmp_path)[0] in line


def test_a_range_message_says_what_was_expected(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = _refused(["simulate", KEEP, "--battle-seconds", "nan", "--out", str(tmp_path / "out")], tmp_path, capsys)
    assert "expected seconds from 0.01 to 3600" in line and "'nan'" in line


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A TCP port that accepts connections and never says a word (not a Dask scheduler)."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    server.close()


@pytest.mark.slow
def test_a_scheduler_that_never_answers_is_refused_after_the_connect_timeout(
        silent_server: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line's own check gives up on a silent listener; here after 0.5 s, not its 5 (a worker idle)."""
    from game.sim import cli as sim_cli
    from game.sim.flags import check_scheduler

    monkeypatch.setattr(sim_cli, "check_scheduler", functools.partial(check_scheduler, timeout=0.5))
    line = _refused(["simulate", KEEP, "--engine", "dask", "--scheduler", silent_server, "--no-progress",
                     "--out", str(tmp_path / "out")], tmp_path, capsys)
    assert "--scheduler" in line and silent_server in line


@pytest.mark.slow
@pytest.mark.parametrize("argv", [["simulate", KEEP, "--set", "rules.cover_bonus=,,,"],
                                  ["demo", "--headless", "--out", "/dev/null"]],
                         ids=["set", "demo-out"])
def test_a_real_process_exits_2_with_one_line(argv: list[str]) -> None:
    """``python -m game`` itself, a subcommand of each kind: the exit status the shell sees."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    done = subprocess.run([sys.executable, "-m", "game", *argv], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env=env)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert argv[2 if argv[0] == "simulate" else -2] in done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize("argv", [["simulate", KEEP, "--out", "/dev/null"],
                                  ["simulate", KEEP, "--hook", "os:sep"]],
                         ids=["out", "hook"])
def test_a_refusal_exits_2_with_one_line_and_prints_nothing_else(argv: list[str],
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """What the real process above shows, through ``main`` in this process (the refusal is parsed and
    said by the same code; a fresh interpreter a case cost seconds)."""
    capsys.readouterr()
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err, captured.err
    assert argv[2] in captured.err
    assert captured.out == ""


def test_the_windowed_demo_refuses_a_policy_for_a_team_it_lacks_before_opening(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from game.play import demo
    from game.play.app import App

    opened: list[object] = []
    monkeypatch.setattr(demo, "has_display", lambda: True)
    monkeypatch.setattr(App, "run", lambda self, *a, **k: opened.append(self))
    assert main(["demo", "--policy", "blue=greedy,reds=random"]) == 2
    line = capsys.readouterr().err.strip()
    assert "\n" not in line and "'reds'" in line and line.startswith("demo: "), line
    assert opened == []
    assert main(["demo", "--policy", "blue=greedy,red=random"]) == 0 and len(opened) == 1  # a good one opens


def test_a_creatures_powers_in_another_order_are_another_variant() -> None:
    """The random player draws among a creature's powers in their order (and keys 1-9 follow it), so
    two orders play different battles: they are two variants, not one spelt twice."""
    from game.sim.context import WorkerContext
    from game.sim.variants import meaning

    keep, key, context = str(ROOT / "assets/scenarios/keep.toml"), "creatures.sergeant.powers", WorkerContext()
    assert meaning(keep, key, ["strike", "shoot"], context) != meaning(keep, key, ["shoot", "strike"], context)
    assert meaning(keep, key, ["strike", "shoot"], context) == meaning(keep, key, ["strike", "shoot"], context)
