"""The command log a battle keeps, and what is under way as commands run: a controller's orders in a
tick, what-if blocks, a round an exception left half played, and the caller's ``Battle.on`` handlers
being called (their orders wait for their creature's turn, where the caller's are refused)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from systems.state import BattleState

#: One entry of the command log: a command's name, its positional and its keyword arguments.
LogEntry = tuple[str, tuple[Any, ...], dict[str, Any]]


class Recording:
    """The command log, and the orders a turn controller is issuing inside a ``tick``."""

    def __init__(self) -> None:
        self.log: list[LogEntry] = []
        self.depth = 0
        #: top-level commands begun so far: a snapshot taken inside one names it, so that a restore made
        #: while one runs (a handler's, a controller's) is held to a snapshot of that same command's turn
        self.serial = 0
        self.orders: list[list[Any]] | None = None  # commands a turn controller is issuing now
        self.tick_orders: list[list[Any]] = []  # what controllers issued in the tick running now
        self.supposed = 0  # what-if blocks open (``Battle.supposing``): no command may be issued in one
        #: why commands are refused since an exception left a round half played (None: they are not);
        #: only a restore of a snapshot taken before it clears it (see ``interruptible``)
        self.interrupted: str | None = None
        #: ``Battle.on`` handlers being called now: their creatures' orders wait for their turns, though
        #: called inside a controller's ``resolve_orders``, where the controller's own are held to its turn
        self.handling = 0

    def call_handler(self, handler: Callable[[Any, Any], None], battle: Any, event: Any) -> None:
        """Call one of the caller's ``Battle.on`` handlers, known as such while it runs (:attr:`handling`)."""
        self.handling += 1
        try:
            handler(battle, event)
        finally:
            self.handling -= 1

    def refusal(self, name: str) -> str:
        """Why command ``name`` is refused now: a supposing block is open, or a round was left half played."""
        if self.interrupted is not None:
            return f"{name}: {self.interrupted}"
        return (f"{name}: no command may be issued inside a supposing block (the battle there is a what-if, "
                "put back as it was when the block ends)")

    @contextmanager
    def interruptible(self, name: str, state: BattleState) -> Iterator[None]:
        """A stretch of a round that runs the caller's code (a turn controller, a ``Battle.on`` handler):
        an exception raised there leaves the round half played and its command unlogged, so that a log
        finished by hand could not replay it. Then every later command is refused until a restore.

        Why not a snapshot before each tick: simulations play thousands of rounds, and a snapshot
        costs as much as a turn; an exception in the caller's own code is rare and theirs to fix."""
        try:
            yield
        except BaseException:
            if self.interrupted is None or name == "tick":  # (the tick around an end_turn names itself)
                self.interrupted = (f"an exception inside {name} left round {state.round} half played: restore a "
                                    "snapshot taken before it, or start a new battle")
            raise

    @contextmanager
    def what_if(self) -> Iterator[None]:
        """A block in which the battle is only supposed: a command issued there raises IllegalCommand."""
        self.supposed += 1
        try:
            yield
        finally:
            self.supposed -= 1

    def note(self, name: str, args: tuple[Any, ...]) -> None:
        """Log an entry at once, ahead of the command under way: a fact its replay needs before it
        runs again (a script call that failed for a reason no count decides)."""
        self.log.append((name, args, {}))

    def done(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """Record a command that succeeded (at the top level, or as a controller's order)."""
        if self.depth == 0:
            if name == "tick":
                kwargs = {"orders": self.tick_orders} if self.tick_orders else {}
            self.log.append((name, args, kwargs))
        elif self.depth == 1 and self.orders is not None:
            self.orders.append([name, list(args), kwargs])
