"""What a script's ctx calls weigh beyond ``Limits.ctx_call_steps``: one table says which methods weigh
and how much (``script_bridge.WEIGHTS``), so a weight cannot be written for a method that the bridge
then hands a script for free (``weighed`` asks only the methods of ``WEIGHTED``, which used to be a
second list kept beside ``weight``'s own ``if`` chain)."""

from __future__ import annotations

from game import Battle
from game.battle import script_bridge
from game.battle.script_bridge import COMMANDS, READS, WEIGHTED, WEIGHTS, ScriptBridge
from game.scripting import Weighed

ARGS = {"creatures_in_area": (2, 2, 10), "roll": ("3d6",), "create_area": (2, 2, 10, "no vision", 2),
        "create_light": (2, 2, 10, "normal", 2)}


def _bridge() -> tuple[ScriptBridge, int]:
    b = Battle(seed=1, width=10, height=8)
    b.spawn("Hero", 1, 1, team="a")
    b.spawn("Orc", 3, 1, team="b")
    b.spawn("Imp", 4, 1, team="b")
    return ScriptBridge(b.state, set(b.creatures())), len(b.creatures())


def test_the_weighted_methods_are_the_table_of_weights_and_ctx_methods():
    assert WEIGHTED == frozenset(WEIGHTS)
    assert WEIGHTED <= set(READS) | set(COMMANDS)


def test_a_method_weighs_what_its_weight_says_and_every_other_weighs_nothing():
    """The steps charged are as before: 10 a creature for an area read, 4 a die, a step per 4 squares
    of the map for a new area or light; a call of any other method is answered as it is."""
    bridge, creatures = _bridge()
    expected = {"creatures_in_area": script_bridge.CREATURE_STEPS * creatures, "roll": 3 * script_bridge.DIE_STEPS,
                "create_area": 10 * 8 // script_bridge.SQUARES_PER_STEP,
                "create_light": 10 * 8 // script_bridge.SQUARES_PER_STEP}
    assert expected == {"creatures_in_area": 30, "roll": 12, "create_area": 20, "create_light": 20}
    for method in sorted(set(READS) | set(COMMANDS)):
        args = ARGS.get(method, (1,) * {**READS, **COMMANDS}[method])
        answer = bridge.weighed("answer", method, args)
        if method in WEIGHTED:
            assert bridge.weight(method, args) == expected[method]
            assert isinstance(answer, Weighed) and (answer.value, answer.steps) == ("answer", expected[method]), method
        else:
            assert bridge.weight(method, args) == 0, method
            assert answer == "answer", method
