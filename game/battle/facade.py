"""The Battle facade: one grid, one seeded generator and one esper world per battle.

Everything outside the engine (tests, the window, scripts, simulations, the computer player) goes
through this class. Commands are validated when issued, so a person gets an error at once and
nothing changes; they are applied by the systems at the next turn, or at once for the GM's
immediate commands. The class is assembled from parts, each in its own module: creatures, the map,
turns, powers and rolls, forecasts, snapshots and extensions.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import esper

from components import Creature, Rules
from components.values import shown
from game.battle import validate_whole
from game.battle.errors import IllegalCommand
from game.battle.extending import Extending
from game.battle.mapping import MapCommands
from game.battle.tactics import Tactics
from game.battle.turns import Turns
from game.battle.world import LogEntry, entry


class Battle(Tactics, MapCommands, Turns, Extending):
    """A tactical battle on a square grid (see :class:`game.battle.world.BattleCore` for its arguments)."""

    def __enter__(self) -> Battle:
        return self

    @entry
    def winner(self) -> str | None:
        """Whether the battle is decided, one answer for the window, ``play``, the demo and ``simulate``:
        the one team with a creature still able to act once every other team's are down or dead, "" when
        no creature of any team can act, None while it is undecided.

        A battle whose creatures are all on one team (none at all, or a hook's or a test's battle; a
        scenario refuses it) is undecided however it goes: no side of it can win, so the window plays
        on and ``simulate`` plays it to ``--max-rounds`` and counts a draw (it called it won at once).
        """
        teams = {esper.component_for_entity(e, Creature).team for e in self.state.creatures}
        standing = self.standing_teams()
        if len(teams) < 2 or len(standing) > 1:
            return None
        return next(iter(standing), "")

    @classmethod
    def replay(cls, seed: int, width: int, height: int, rules: Rules | Mapping[str, Any] | None,
               commands: Iterable[LogEntry], extend: Callable[[Battle], None] | None = None,
               **options: Any) -> Battle:
        """A new battle with the same seed, fed the same command log: it produces the same events.

        ``options`` are the rest of the original's constructor arguments (``powers``,
        ``script_dir``, ``trusted_scripts``, ...), which the log does not record. ``extend(battle)``,
        when given, attaches the original's trusted Python before the first command (its ``on``
        handlers and ``add_system`` processors): the log records the commands a handler issues only
        as the handler itself, so a battle that had one replays the same only with it.

        Raises:
            IllegalCommand: the log names something that is not a battle command, an entry gives a
                command arguments it does not take, or a command in it is refused.
            UnknownEntity: a command in it names a creature the rebuilt battle does not have (a log cut
                short, or given the wrong seed or options, parts from its battle so).
        """
        battle = cls(seed=seed, width=width, height=height, rules=rules, **options)
        try:
            if extend is not None:
                extend(battle)
            battle.follow(commands)
        except BaseException:
            battle.close()
            raise
        return battle

    def follow(self, commands: Iterable[LogEntry], first: int = 0,
               signatures: dict[str, inspect.Signature] | None = None) -> None:
        """Issue a command log's entries on this battle, in order, each checked first: the one way a
        log is played, for :meth:`replay` and for a battle a scenario built again (a save, a rewind,
        the replay viewer). ``first`` is the first entry's index in the whole log (for messages);
        ``signatures``, as :meth:`call_problem` takes it, for a caller that plays a log a few entries
        at a time (each command's signature is then worked out once, not once a call).

        Raises:
            IllegalCommand: an entry is not ``(name, args, kwargs)``, names something that is not a
                battle command, gives a command arguments it does not take, or its command is refused.
            UnknownEntity: a command names a creature this battle does not have.
        """
        if isinstance(commands, (str, bytes)) or not isinstance(commands, Iterable):
            raise IllegalCommand(f"the log must be a list of (name, args, kwargs), not {shown(commands)}")
        signatures = {} if signatures is None else signatures  # (once a command, not once an entry)
        for index, logged in enumerate(commands, start=first):
            name, args, kwargs = validate_whole.log_entry(logged, f"the log's entry {index}")
            if not self.is_command(name):
                raise IllegalCommand(f"the log names {shown(name)}, which is not a battle command")
            wrong = self.call_problem(name, args, kwargs, signatures)
            if wrong:
                raise IllegalCommand(f"the log's entry {index}: {wrong}")
            getattr(self, name)(*args, **kwargs)
