"""A save killed mid-write leaves its temporary behind; the next save of that file removes it.

Only the target's own temporaries go, and only stale ones: the writer is gone (its pid is in the
name) or the file is older than a save could ever take. A live writer's fresh temporary, and any
other file's, are left alone.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.content.atomic import STALE_SECONDS, atomic_write, remove_stale_temporaries
from game.content.saves import load_game, save_game
from game.content.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent

# A writer that dies (SIGKILL: no cleanup of any kind runs) between writing its temporary and the rename.
_KILLED_WRITER = """
import os, signal, sys
from pathlib import Path
from game.content import atomic

def killed(fd):
    os.kill(os.getpid(), signal.SIGKILL)

atomic.os.fsync = killed
atomic.atomic_write(Path(sys.argv[1]), b'{"half": ')
"""


def _temporaries(folder: Path, name: str) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(f".{name}.") and p.name.endswith(".tmp"))


def _killed_write(path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    child = subprocess.run([sys.executable, "-c", _KILLED_WRITER, str(path)], env=env, cwd=ROOT,
                           capture_output=True, timeout=60)
    assert child.returncode == -signal.SIGKILL, child.stderr.decode()


def test_the_next_save_removes_the_temporary_a_killed_save_left(tmp_path: Path) -> None:
    scenario = load_scenario(ROOT / "assets" / "scenarios" / "ledge.toml")
    path = tmp_path / "slot.json"
    with scenario.build() as battle:
        save_game(path, scenario, battle)
        before = path.read_bytes()
        _killed_write(path)
        left = _temporaries(tmp_path, "slot.json")
        assert len(left) == 1, left                  # the kill left its temporary behind
        assert path.read_bytes() == before           # and the old save whole
        battle.start_combat()
        battle.tick()
        save_game(path, scenario, battle)
    assert _temporaries(tmp_path, "slot.json") == []
    with load_game(path) as restored:
        assert restored.round == 1
    json.loads(path.read_text())


def test_only_stale_temporaries_of_the_same_file_are_removed(tmp_path: Path) -> None:
    target = tmp_path / "slot.json"
    live = tmp_path / f".slot.json.{os.getppid()}.abcd1234.tmp"      # a live process may be writing it
    mine = tmp_path / f".slot.json.{os.getpid()}.abcd1234.tmp"       # this process: maybe another thread
    old = tmp_path / f".slot.json.{os.getppid()}.zzzz9999.tmp"       # live writer, but far too old
    legacy = tmp_path / ".slot.json.k3j4h5g6.tmp"                      # the name before pids were in it
    other = tmp_path / f".slot.json.bak.{os.getpid()}.abcd1234.tmp"  # another file's temporary
    unrelated = tmp_path / ".slot.json.notes.tmp"
    for path in (live, mine, old, legacy, other, unrelated):
        path.write_bytes(b"x")
    long_ago = time.time() - STALE_SECONDS - 60
    os.utime(old, (long_ago, long_ago))
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    gone = tmp_path / f".slot.json.{int(dead.stdout)}.abcd1234.tmp"  # its writer has exited
    gone.write_bytes(b"x")
    removed = remove_stale_temporaries(target)
    assert sorted(p.name for p in removed) == sorted([old.name, gone.name])
    assert all(p.exists() for p in (live, mine, legacy, other, unrelated))


def test_an_old_temporary_of_the_older_naming_is_removed(tmp_path: Path) -> None:
    legacy = tmp_path / ".slot.json.k3j4h5g6.tmp"
    legacy.write_bytes(b"x")
    long_ago = time.time() - STALE_SECONDS - 60
    os.utime(legacy, (long_ago, long_ago))
    atomic_write(tmp_path / "slot.json", b"{}")
    assert not legacy.exists() and (tmp_path / "slot.json").read_bytes() == b"{}"
    assert _temporaries(tmp_path, "slot.json") == []


def test_a_temporary_that_is_not_a_regular_file_is_left_alone(tmp_path: Path) -> None:
    odd = tmp_path / ".slot.json.1.abcd1234.tmp"
    odd.mkdir()
    long_ago = time.time() - STALE_SECONDS - 60
    os.utime(odd, (long_ago, long_ago))
    atomic_write(tmp_path / "slot.json", b"{}")
    assert odd.is_dir()


@pytest.mark.parametrize("pid", ["0", "9999999999"])
def test_a_temporary_naming_no_possible_writer_is_stale_and_writes_go_on(tmp_path: Path, pid: str) -> None:
    odd = tmp_path / f".slot.json.{pid}.abcd1234.tmp"
    odd.write_bytes(b"x")
    atomic_write(tmp_path / "slot.json", b"{}")
    assert not odd.exists() and (tmp_path / "slot.json").read_bytes() == b"{}"
