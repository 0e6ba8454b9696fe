"""The tactical computer player's turn after a fall: it resolves the walk, then gives its planned order
only if it can still act and the order is still legal, and else plans again from where it landed
(``game.ai.decisions``). Before, a walk on or a blow planned past a fall that downed its creature was
refused when it resolved (a ``CommandRefused``: 35 in 100 gauntlet battles). Fixed boards and seeds.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from components.events import AttackRolled, CommandRefused, Fell, PowerUsed
from game import ai
from game.ai.tactical import DEFAULT, settle
from game.ai.tactical_turn import Turn
from game.ai.tactical_veils import veil_option
from game.battle.facade import Battle
from game.content.saves import play_replay, write_replay
from game.sim.context import WorkerContext

ROOT = Path(__file__).resolve().parent.parent
GAUNTLET = str(ROOT / "tests" / "golden" / "gauntlet.toml")
#: a gauntlet seed whose first round has a witch jump down, the fall down her, and her walk on refused
#: (the old player), and a priest jump down, land on its feet, walk on and strike
SEED = 3221950662447838672


def _first_round(tmp_path: Path) -> tuple[Battle, Path]:
    """The gauntlet's first round on :data:`SEED`, played by the tactical player, and its replay file."""
    template = WorkerContext().template_for(GAUNTLET, ())
    battle, _ = template.battle(SEED)
    built = len(battle.command_log)
    battle.start_combat()
    battle.tick(controller=ai.controller("tactical"))
    target = tmp_path / "round.json"
    write_replay(target, template.scenario, battle, built)
    return battle, target


@pytest.mark.slow
def test_no_order_is_refused_after_a_fall_and_a_standing_jumper_still_strikes(tmp_path: Path) -> None:
    battle, target = _first_round(tmp_path)
    try:
        events = battle.events
        refused = [e for e in events if isinstance(e, CommandRefused)]
        assert not refused, refused
        names = {e: battle.name(e) for e in battle.creatures()}
        witch = next(e for e, n in names.items() if n == "witch")
        priest = next(e for e, n in names.items() if n == "priest")
        # the witch's fall downed her: she gave no order after it
        fell = next(i for i, e in enumerate(events) if isinstance(e, Fell) and e.entity == witch)
        assert "downed" in battle.conditions(witch)
        assert not [e for e in events[fell:] if isinstance(e, PowerUsed) and e.user == witch]
        # the priest's fall left it standing: it walked on and struck
        fell = next(i for i, e in enumerate(events) if isinstance(e, Fell) and e.entity == priest)
        assert [e for e in events[fell:] if isinstance(e, AttackRolled) and e.entity == priest]
        # the settled turn is recorded: its replay plays the same events
        _, matched, mismatch = play_replay(target)
        assert matched, mismatch
    finally:
        battle.close()


def _cliff() -> tuple[Battle, int, list[int]]:
    """A knight on a 30 ft cliff over hay, two goblins below, a step apart."""
    b = Battle(seed=5, width=12, height=8)
    for x in range(12):
        for y in range(8):
            b.set_ground(x, y, 30 if x <= 5 else 0, soft=x == 6)
    me = b.spawn("knight", 5, 4, team="hill", powers=["strike"], health=30, defense=15)
    goblins = [b.spawn("goblin", 7, 4, team="vale", powers=["shoot"], health=8),
               b.spawn("goblin", 7, 5, team="vale", powers=["shoot"], health=8)]
    b.start_combat()
    b.begin_round()
    while b.current_actor != me:  # (the goblins do nothing)
        b.end_turn()
    return b, me, goblins


def test_an_order_no_longer_legal_after_the_fall_is_planned_again() -> None:
    """Its target gone when the fall has settled, a standing knight plans again (its moves spent) and
    strikes the other goblin, rather than giving an order the battle refuses."""
    b, me, goblins = _cliff()
    steps = ai.decisions(b, me, "tactical")
    first = next(steps)
    assert first.commands[-1][0] == "resolve_orders", first.commands
    planned = ai.decide(b, me, "tactical").commands[len(first.commands)]
    target = planned[2]["target"]
    for command in first.commands:
        ai.issue(b, (command,))
    b.resolve_orders()
    for _ in range(10):  # its target dies as the fall settles (say): the GM's hand here, a blow at a time
        b.damage(target, 100)
        b.resolve_orders()
    assert "dead" in b.conditions(target) and b.can_act(me)
    again = next(steps)
    assert again.why.startswith("after that, plans again"), again.why
    [(name, args, kwargs)] = [c for c in again.commands if c[0] == "use_power"]
    assert kwargs["target"] == next(g for g in goblins if g != target)
    ai.issue(b, again.commands)
    b.end_turn()
    assert not [e for e in b.events if isinstance(e, CommandRefused)]


def test_a_veil_after_a_jump_whose_fall_downs_it_is_weighed_without_raising() -> None:
    """The veil planner plays the turn's moves on a snapshot; a jump settles (``resolve_orders``) before
    the walk on, so a fall that downs the jumper there made the walk on raise out of the planner, and its
    whole turn was refused (gold=greedy,iron=tactical, gauntlet seed 138: 'witch cannot controller')."""
    b = Battle(seed=1, width=12, height=8)
    for x in range(12):
        for y in range(8):
            b.set_ground(x, y, 30 if x <= 5 else 0)
    me = b.spawn("witch", 5, 4, team="hill", powers=["fog-cloud"], health=1)
    b.spawn("goblin", 11, 4, team="vale", powers=["shoot"], health=8)
    b.start_combat()
    found: list[object] = []

    def controller(battle: Battle, entity: int) -> None:
        if entity == me:  # 30 ft onto bare ground: at least 3 damage, and it has 1 Health
            moving = (("move", (me, 7, 4), {}), settle(), ("move", (me, 8, 4), {}))
            found.append(veil_option(Turn(battle, me, None, DEFAULT), moving))

    b.tick(controller=controller)
    assert found == [None] and not [e for e in b.events if isinstance(e, CommandRefused)]


def test_a_creature_downed_as_its_fall_settles_gives_no_more_orders() -> None:
    """Downed once the fall has settled, the knight's turn ends there: no order after it, and no new
    plan (a plan made for a downed creature would only be refused when given)."""
    b, me, _ = _cliff()
    steps = ai.decisions(b, me, "tactical")
    first = next(steps)
    assert first.commands[-1][0] == "resolve_orders", first.commands
    ai.issue(b, first.commands)
    b.damage(me, 30)  # the fall downs it (say): the GM's hand here
    b.resolve_orders()
    assert "downed" in b.conditions(me) and not b.can_act(me), b.conditions(me)
    assert list(steps) == []
    b.end_turn()
    assert not [e for e in b.events if isinstance(e, CommandRefused)]
