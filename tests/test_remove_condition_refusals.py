"""``remove_condition`` of a condition the creature holds no grant of (by the source named) is refused,
saying who grants it: it was taken and changed nothing, so a misspelt source left a creature prone
without a word, and removing a condition that follows from the creature's state (a fatigued creature's
``slowed``) seemed to work. The dead stay a record that takes any command and changes nothing.
"""

from __future__ import annotations

import pytest

from game import Battle, IllegalCommand


def test_removing_what_no_grant_gives_is_refused_and_changes_nothing() -> None:
    with Battle(seed=1, width=8, height=8) as battle:
        a = battle.spawn("A", 1, 1, team="x", fatigue=3)
        battle.add_condition(a, "prone", source="trip")
        log, events = list(battle.command_log), len(battle.events)
        with pytest.raises(IllegalCommand, match=r"cannot remove 'prone' from A \(#1\): no grant of it by 'fall' "
                                                 r"\(granted by 'trip'\)"):
            battle.remove_condition(a, "prone", source="fall")
        with pytest.raises(IllegalCommand, match=r"cannot remove 'dazzled' from A \(#1\): no grant of it$"):
            battle.remove_condition(a, "dazzled")
        with pytest.raises(IllegalCommand, match=r"cannot remove 'slowed' from A \(#1\): no grant of it \(it has it, "
                                                 r"but from its state"):
            battle.remove_condition(a, "slowed")
        assert battle.command_log == log and len(battle.events) == events and "prone" in battle.conditions(a)
        battle.remove_condition(a, "prone", source="trip")  # the grant that is there goes
        assert "prone" not in battle.conditions(a)
