"""Turns in initiative order for the window: who acts now, the computer's turns one at a time, undo.

A round is stepped through the battle's own turn steps (``begin_round``, ``current_actor``,
``end_turn``), so a person's creature acts when its turn comes and sees the board as the creatures
before it left it. Nothing here decides a rule: whose turn it is, whether a creature can act and
who still stands are the battle's answers; the computer's orders are ``game.ai``'s. The flow keeps
no turn state of its own beyond the undo point: it reads ``battle.current_actor`` every time, so a
loaded save (which replays its steps) carries on where it was.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from game import ai
from game.battle.errors import IllegalCommand, UnknownEntity

#: The battle's commands that begin a creature's turn (what its ``command_log`` names them).
TURN_STEPS = frozenset({"begin_round", "end_turn", "start_combat"})

#: A computer turn shown, by default, every so many seconds (a key skips the wait).
COMPUTER_DELAY = 0.6


def plain(message: str) -> str:
    """A battle's message for a player: without the entity ids ("Sergeant (#3)" -> "Sergeant")."""
    return re.sub(r" \(#\d+\)", "", message.strip("'\""))


class TurnFlow:
    """Steps one battle's rounds turn by turn, the computer playing the creatures a person does not.

    Args:
        battle: the battle (replace it with :meth:`set_battle` after a load).
        human: whether the person orders this creature.
        policy: the computer's ``game.ai`` policy, for every team or per team (``keep=tactical,raiders=greedy``).
        seed: the computer's seed: each of its turns draws from ``ai.turn_rng(seed, round, actor)``,
            never from a generator carried across turns, so a rewound round is chosen again the same.
        powers: a scenario's entity -> power ids the computer may use.
        max_rounds: no round is begun after this one (None: no limit).
        delay: seconds between two computer turns shown in the window.
    """

    def __init__(self, battle: Any, human: Callable[[int], bool], policy: str = ai.DEFAULT_POLICY,
                 seed: int = 0, powers: Mapping[int, Sequence[str]] | None = None,
                 max_rounds: int | None = None, delay: float = COMPUTER_DELAY) -> None:
        self.battle = battle
        self.human = human
        self.policy = policy
        self.policies = ai.parse_policies(policy)
        self.seed = seed
        self.powers = powers
        self.max_rounds = max_rounds
        self.delay = delay
        self.waited = 0.0
        #: the computer player's reason for each of its turns, by the index of the turn's first event
        self.reasons: dict[int, list[str]] = {}
        #: the battle as the current person's turn began (None: nothing to undo to)
        self.turn_start: Any = None
        #: what the flow last did, for the status bar, and the computer creature it was about
        self.said = ""
        self.last: int | None = None
        #: whether the last step began a round (it played no turn: ``said`` is still the turn before)
        self.began_round = False
        #: the person's creatures whose turns passed in the last step, because they cannot act
        self.passed: list[str] = []
        #: the line for the last computer turn whose order the battle refused, for a person who does not
        #: see everything ("": none was refused): the refusal's own words, in ``said``, may name a square
        #: or a creature the person's team does not see ("cannot move to (8, 4): square (8, 4) is taken")
        self.refused = ""

    def set_battle(self, battle: Any) -> None:
        """Follow another battle (a load): the undo point and the reasons belonged to the old one.

        A person's creature that cannot act is passed only if its turn has just begun, as the steps
        pass it: one downed by its own fall (or a reaction) keeps its turn until End turn, and so must
        the same moment loaded from a save (the load passed that turn at once and the computer moved
        next, where the saving window waited for Space: a designer trying the turn again got another).
        """
        self.reasons.clear()
        self.battle, self.turn_start, self.waited = battle, None, 0.0
        self.passed = []
        if self.human_turn() and self._ordered_this_turn():
            self.turn_start = battle.snapshot()
        else:
            self._settle()

    def _ordered_this_turn(self) -> bool:
        """Whether the creature whose turn it is has given orders in it: the battle's last command is
        not the turn step that began the turn (a round's start, the last turn's end)."""
        log = self.battle.command_log
        return bool(log) and log[-1][0] not in TURN_STEPS

    # ------------------------------------------------------------------ questions

    @property
    def actor(self) -> int | None:
        """Whose turn it is (None between rounds, or when the battle is over)."""
        return self.battle.current_actor

    def human_turn(self) -> bool:
        """A creature the person orders is taking its turn."""
        actor = self.actor
        return actor is not None and self.human(actor)

    def computer_turn(self) -> bool:
        """A creature the computer plays is taking its turn (the window shows them one at a time)."""
        actor = self.actor
        return actor is not None and not self.human(actor)

    def over(self) -> bool:
        """Decided, or out of rounds with none under way."""
        if self.battle.winner() is not None:
            return True
        return self.actor is None and self.max_rounds is not None and self.battle.round >= self.max_rounds

    def up_next(self) -> list[int]:
        """The creatures still to act this round after the current one (the turn strip's "next")."""
        return list(self.battle.turns_left()) if self.actor is not None else []

    # ------------------------------------------------------------------ steps

    def begin(self) -> None:
        """Combat starts if it has not (initiative, surprise), and the next round begins if none is
        under way."""
        b = self.battle
        if self.over():
            return
        if not b.in_combat:
            b.start_combat()
        if self.actor is None:
            b.begin_round()
        self.waited = 0.0
        self._settle()

    def play_computer_turn(self) -> str:
        """The current computer creature plans and acts (``game.ai``), and its turn ends.

        Returns:
            What happened, in a line (also kept as ``said``).
        """
        b, actor = self.battle, self.actor
        if actor is None or self.human(actor):
            return ""
        name = b.display_name(actor)
        self.last, self.refused = actor, ""
        said = f"{name} waits"
        if b.can_act(actor):
            policy = ai.policy_of(self.policies, b.team(actor))
            issued = 0
            try:  # one at a time: the orders issued before a refused one stay queued, and resolve
                # (a step at a time: after a fall it looks again, see ``ai.decisions``)
                for decision in ai.decisions(b, actor, policy, ai.turn_rng(self.seed, b.round, actor), None,
                                             self.powers):
                    if decision.why:
                        self.reasons.setdefault(len(b.events), []).append(f"   (why) {name} {decision.why}")
                    for command in decision.commands:
                        issued += len(ai.issue(b, (command,)))
                said = f"{name} acts" if issued else said
            except (IllegalCommand, UnknownEntity) as err:  # the computer's illegal order: refused, the round goes on
                reason = plain(str(err))
                reason = reason if reason.startswith(f"{name} ") else f"{name}: {reason}"
                if issued:  # it moved (say), then a later order was refused: it did not wait
                    said = f"{name} acts; then {reason}"
                    self.refused = f"{name} acts; the rules refused one of its orders"
                else:
                    said, self.refused = reason, f"{name} waits: the rules refused its order"
        else:
            said = f"{name} cannot act"
        b.end_turn()
        self.waited = 0.0
        self.said = said
        self._settle()
        return said

    def step(self) -> bool:
        """One step the computer may take without the person: begin the next round, or play the
        current computer creature's turn. Returns whether anything happened."""
        if self.over() or self.human_turn():
            return False
        self.passed = []
        self.began_round = self.actor is None
        if self.began_round:
            self.begin()
        else:
            self.play_computer_turn()
        return True

    def skip(self) -> int:
        """Play at once every computer turn up to the person's next turn or the end of this round
        (between rounds: of the next one).

        Returns:
            How many computer turns were played.
        """
        self.passed = []
        self.began_round = self.actor is None
        if self.began_round:
            self.begin()
        played = 0
        while self.computer_turn() and not self.over():
            self.play_computer_turn()
            played += 1
        return played

    def update(self, elapsed: float) -> bool:
        """The window's clock: the next step is taken once ``delay`` seconds have passed.

        Returns:
            Whether a step was taken.
        """
        if self.over() or self.human_turn():
            self.waited = 0.0
            return False
        self.waited += elapsed
        if self.waited < self.delay:
            return False
        return self.step()

    def pass_turn(self) -> None:
        """The person's creature is done: what it queued resolves and the next turn begins.

        Raises:
            ValueError: it is not the person's turn.
        """
        if not self.human_turn():
            raise ValueError("it is not one of your creatures' turn")
        self.passed = []
        self.battle.end_turn()
        self.waited = 0.0
        self._settle()

    def _settle(self) -> None:
        """After a step: pass the turns of the person's creatures that cannot act (downed,
        unconscious), each said in ``passed`` (beside the computer's turn in ``said``, not over it),
        and mark the undo point of a person's turn."""
        b = self.battle
        while not self.over() and self.human_turn() and not b.can_act(self.actor):
            self.passed.append(f"{b.display_name(self.actor)} cannot act: its turn passes")
            b.end_turn()
        self.turn_start = b.snapshot() if self.human_turn() else None

    # ------------------------------------------------------------------ undo

    def can_undo(self) -> str | None:
        """Why the current creature's orders cannot be taken back (None: they can).

        They can while its turn is under way, it has given an order, and no dice were rolled since
        the turn began (the battle's generator is where it was).
        """
        start = self.turn_start
        if self.over():
            return "nothing to undo: the battle is over"
        if start is None or not self.human_turn():
            return "nothing to undo: it is not one of your creatures' turn"
        orders, rolled = self.battle.changed_since(start)
        if not orders:
            return "nothing to undo: no orders given this turn"
        if rolled:
            return "cannot undo: dice were rolled"
        return None

    def undo(self) -> str:
        """Take back the current creature's orders this turn (see :meth:`can_undo`).

        Returns:
            What was done, or why not, in a line.
        """
        problem = self.can_undo()
        if problem is not None:
            return problem
        self.battle.restore(self.turn_start)
        return f"Undone: {self.battle.display_name(self.actor)}'s orders this turn"
