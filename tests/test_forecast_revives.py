"""A heal's forecast says when it would leave a downed creature able to act again, as the heal then
does (the window's hover said only the healing, so a person could not tell it stands a friend up)."""

from __future__ import annotations

from components.events import Revived
from game import Battle
from game.render.odds import target_lines


def _healer_and_friend(friend_health: int) -> tuple[Battle, int, int]:
    b = Battle(seed=4, width=8, height=4)
    healer = b.spawn("Priest", 1, 1, team="a", powers=["heal"])
    friend = b.spawn("Friend", 2, 1, team="a", health=10)
    b.spawn("Foe", 6, 2, team="b")
    b.start_combat()
    b.begin_round()  # (commands resolve within a turn: the friend's, first in this seed's order)
    b.damage(friend, 10 - friend_health)
    b.resolve_orders()
    assert b.turn_order()[:2] == [friend, healer]
    b.end_turn()  # the priest's turn
    return b, healer, friend


def test_a_heal_on_a_downed_friend_is_foreseen_to_stand_it_up_and_does() -> None:
    b, healer, friend = _healer_and_friend(0)
    [odds] = b.forecast(healer, "heal", target=friend).targets
    assert odds.revives == odds.stands == 1.0  # the heal cannot miss and gives at least 1
    lines = [line for line, _ in target_lines(odds, lambda e: "Friend", healer)]
    assert "  no longer downed, can act: 100%" in lines
    b.use_power(healer, "heal", target=friend)
    b.resolve_orders()
    assert any(isinstance(e, Revived) and e.entity == friend for e in b.events)


def test_a_heal_on_a_standing_friend_stands_nobody_up() -> None:
    b, healer, friend = _healer_and_friend(4)
    [odds] = b.forecast(healer, "heal", target=friend).targets
    assert odds.revives == 0.0 and odds.healing is not None
    assert not any("no longer downed" in line for line, _ in target_lines(odds, lambda e: "Friend", healer))


def test_a_heal_on_a_downed_unconscious_friend_is_foreseen_to_leave_it_unconscious() -> None:
    """With unconscious at 2 Fatigue, a heal takes away downed but does not wake the friend: the
    forecast and the hover say so (they said "back on its feet: 100%" of a creature that then could
    not act)."""
    b = Battle(seed=4, width=8, height=4, rules={"unconscious_at_fatigue": 2})
    healer = b.spawn("Priest", 1, 1, team="a", powers=["heal"])
    friend = b.spawn("Friend", 2, 1, team="a", health=10)
    b.spawn("Foe", 6, 2, team="b")
    b.start_combat()
    b.begin_round()
    b.damage(friend, 10)
    b.add_fatigue(friend, 2)
    b.resolve_orders()
    assert {"downed", "unconscious"} <= b.conditions(friend)
    while b.current_actor != healer:
        b.end_turn()
    [odds] = b.forecast(healer, "heal", target=friend).targets
    assert odds.revives == 1.0 and odds.stands == 0.0
    lines = [line for line, _ in target_lines(odds, lambda e: "Friend", healer)]
    assert "  no longer downed: 100%, but still unconscious" in lines
    assert not any("can act" in line for line in lines)
    b.use_power(healer, "heal", target=friend)
    b.resolve_orders()
    assert any(isinstance(e, Revived) and e.entity == friend for e in b.events)
    assert "downed" not in b.conditions(friend) and "unconscious" in b.conditions(friend)

