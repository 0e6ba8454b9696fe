"""A replay or save whose commands go on past the events it recorded (ticks after its battle's end,
say) stops at the command whose events pass the file's: nothing after could match, and a file of
millions of ticks played every one of them (minutes, and gigabytes of events) before it said so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.battle.world import BattleCore
from game.content.saves import SaveError, load_game, play_replay, save_game, write_replay
from game.play.replay_window import open_replay
from tests.save_steps import small_scenario

#: Ticks a hostile file adds after what its battle recorded (a real one: millions).
EXTRA = 200


def _padded(folder: Path, kind: str) -> tuple[Path, int, int]:
    """A file of two rounds, then ``EXTRA`` more ticks with no events for them; its rounds and
    how many commands it held before the padding (build included)."""
    scenario = small_scenario()
    battle = scenario.build()
    out = folder / "padded.json"
    try:
        battle.run(2)
        (write_replay if kind == "replay" else save_game)(out, scenario, battle)
        rounds, given = battle.round, len(battle.command_log)
    finally:
        battle.close()
    document = json.loads(out.read_text(encoding="utf-8"))
    document["commands"] += [{"method": "tick", "args": [], "kwargs": {}}] * EXTRA
    out.write_text(json.dumps(document), encoding="utf-8")
    return out, rounds, given


def test_a_replay_stops_at_the_command_past_the_files_events(tmp_path: Path) -> None:
    out, rounds, given = _padded(tmp_path, "replay")
    battle, matched, mismatch = play_replay(out)
    try:
        assert not matched
        assert mismatch is not None and f"the replay gives more by command #{given} (tick)" in mismatch
        assert mismatch.endswith(f"its {EXTRA - 1} commands after it were not played")
        assert battle.round == rounds + 1  # the first tick past the file, and no other
    finally:
        battle.close()


def test_a_save_past_its_events_is_refused_saying_where(tmp_path: Path) -> None:
    out, _, given = _padded(tmp_path, "save")
    with pytest.raises(SaveError, match=rf"padded\.json: the saved battle does not replay: the file has \d+ events, "
                                        rf"the replay gives more by command #{given} \(tick\)"):
        load_game(out)


@pytest.mark.usefixtures("pygame_display")
def test_the_replay_window_ends_its_timeline_there(tmp_path: Path) -> None:
    """The window's timeline played every command before it showed anything."""
    out, rounds, given = _padded(tmp_path, "replay")
    app = open_replay(out)
    try:
        build = app.timeline.first_entry
        assert len(app.timeline.commands) == given - build + 1
        app.timeline.go(app.timeline.total)
        assert app.timeline.battle.round == rounds + 1
    finally:
        app.timeline.close()


def test_the_bound_reads_the_event_count_without_copying_the_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                 ) -> None:
    """The bound counts the battle's events after every command; ``Battle.events`` is a copy of the
    whole log, and reading it there made an honest long replay quadratic (20,000 ticks: 4.2 s before
    the bound, 11-13 s with it). The log is copied once, to compare it with the file."""
    scenario, out = small_scenario(), tmp_path / "honest.json"
    with scenario.build() as played:
        played.run(20)
        write_replay(out, scenario, played)
    copies = []
    real = BattleCore.events

    def counted(battle: BattleCore) -> list[object]:
        copies.append(1)
        return real.fget(battle)  # type: ignore[misc]

    monkeypatch.setattr(BattleCore, "events", property(counted))
    battle, matched, _ = play_replay(out)
    battle.close()
    assert matched and len(copies) == 1
