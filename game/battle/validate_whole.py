"""Checks of what a caller hands the battle whole: a command log to replay, a power table, a
snapshot to restore, a controller's recorded orders, an event handler, the constructor's options.

Split from :mod:`game.battle.validate` (the checks of single arguments, which these build on); each
raises :class:`~game.battle.errors.IllegalCommand` with a message a person can act on, before
anything changes.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import esper
import numpy as np

from components import Abilities, Creature
from components.commands import UsePower
from components.events import CommandRefused, PowerUsed
from components.powers import Power
from components.values import shown
from game.battle.errors import IllegalCommand
from game.battle.power_fields import field_problem
from game.battle.validate import flag, label, listed, whole
from game.scripting import Limits, ScriptHosts
from systems.caches import MapCaches
from systems.state import BattleState

if TYPE_CHECKING:
    from game.battle.recording import Recording


def log_entry(entry: object, what: str) -> tuple[str, tuple[Any, ...], dict[str, Any]]:
    """One command of a log: ``(name, args, kwargs)``, a name, a list of arguments and a mapping of
    keyword arguments (the command itself then checks them)."""
    if not isinstance(entry, (list, tuple)) or len(entry) != 3:
        raise IllegalCommand(f"{what} must be (name, args, kwargs), not {shown(entry)}")
    name, args, kwargs = entry
    if not isinstance(name, str) or not isinstance(args, (list, tuple)) or not isinstance(kwargs, Mapping) \
            or not all(isinstance(key, str) for key in kwargs):
        raise IllegalCommand(f"{what} must be (name, args, kwargs): a command's name, a list of arguments and a "
                             f"mapping of keyword arguments, not {shown(entry)}")
    return name, tuple(args), dict(kwargs)


# ------------------------------------------------------------------ the power table


def power_table(table: object) -> dict[str, Power]:
    """A battle's power table, copied: a mapping of power ids to :class:`Power`, each under its own id
    and each field of the kind and in the range a power file gives it (:mod:`game.battle.power_fields`).
    Why checked whole, at once: a wrong entry would fail deep inside the first forecast that reads it.
    A :class:`CheckedPowers` was checked so when it was made, and is only copied."""
    if type(table) is CheckedPowers:
        return dict(table.checked)
    if not isinstance(table, Mapping):
        raise IllegalCommand(f"the power table must be a mapping of power ids to powers, not {shown(table)}")
    for key, power in table.items():
        if not isinstance(power, Power):
            raise IllegalCommand(f"the power table's {shown(key)} must be a components.powers.Power, "
                                 f"not {shown(power)}")
        if key != power.id:
            raise IllegalCommand(f"the power table holds power {power.id!r} under {shown(key)}: "
                                 "each power goes under its own id")
        problem = field_problem(power)
        if problem is not None:
            raise IllegalCommand(f"the power table's {shown(key)}: {problem}")
    return dict(table)


class CheckedPowers(Mapping[str, Power]):
    """A power table :func:`power_table` checked when it was made, read-only after: a battle handed one
    copies it without checking each power again. A scenario's power library is one, so the battles
    ``simulate`` builds from one scenario do not each check every power the loader already read.

    Raises:
        IllegalCommand: as :func:`power_table`, when made from a table it refuses.
    """

    __slots__ = ("checked",)

    def __init__(self, table: object) -> None:
        self.checked: Mapping[str, Power] = MappingProxyType(power_table(table))

    def __getitem__(self, power_id: str) -> Power:
        return self.checked[power_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self.checked)

    def __len__(self) -> int:
        return len(self.checked)


def powers_kept(state: BattleState, table: Mapping[str, Power]) -> None:
    """Every power a creature of the battle has is in ``table`` (a new table must not take one away:
    its forecasts and turns would meet an id the battle no longer knows)."""
    for entity in state.creatures:
        for power_id in esper.component_for_entity(entity, Abilities).powers:
            if power_id not in table:
                raise IllegalCommand(f"the new power table lacks {power_id!r}, which {label(entity)} has")


def _orders_use_power(entry: object) -> bool:
    """Whether a log entry is a use of a power, or a tick whose recorded orders hold one (a turn
    controller's orders are recorded inside the tick that called it, not as entries of their own)."""
    if not isinstance(entry, (list, tuple)) or len(entry) != 3:
        return False
    name, _, kwargs = entry
    if name == "use_power":
        return True
    orders = kwargs.get("orders") if isinstance(kwargs, Mapping) else None
    return isinstance(orders, (list, tuple)) and any(
        isinstance(turn, (list, tuple)) and len(turn) == 2 and isinstance(turn[1], (list, tuple))
        and any(_orders_use_power(order) for order in turn[1]) for turn in orders)


def table_replaceable(state: BattleState, log: list[Any]) -> None:
    """The power table may still be replaced: no power has been used, queued or refused in this battle.

    Why every route is looked at: a replay gives every command the table the battle ends with, so a
    use made under the old one would replay under the new one. A use reaches the battle as a command
    of its own (the log), as a turn controller's order (recorded inside its tick), or from a trusted
    handler (recorded only as the handler): what resolved is in the events, what waits in the queues.
    """
    used = any(_orders_use_power(entry) for entry in log) \
        or any(isinstance(event, PowerUsed)
               or (isinstance(event, CommandRefused) and event.command.startswith("use ")) for event in state.events) \
        or any(isinstance(order, UsePower) for queue in state.actions.values() for order in queue)
    if used:
        raise IllegalCommand("the power table can be replaced only before the battle's first use of a power "
                             "(a replay would give the earlier uses the new table): make a new battle instead")


# ------------------------------------------------------------------ rounds and snapshots


def snapshot_allowed(recording: Recording, name: str) -> None:
    """Whether a snapshot may be taken or restored now: not inside a supposing block (it would keep,
    or be undone by, the what-if), nor after an exception left a round half played."""
    if recording.supposed:
        raise IllegalCommand(f"{name}: no snapshot may be taken or restored inside a supposing block (the battle "
                             "there is a what-if, put back as it was when the block ends)")
    if recording.interrupted is not None and name == "snapshot":
        raise IllegalCommand(f"{name}: {recording.interrupted}")


def restorable(recording: Recording, snapshot: object, kind: type, owner: str,
               turn: tuple[int, int, int] | None) -> None:
    """``restore``'s snapshot: one of this battle's, restored where a restore may be made (see
    :func:`snapshot_allowed`); after an exception left a round half played, one taken between commands;
    inside a command (``turn``: its serial, round and turn), one taken in that same turn, as a planner's
    trial is: one from before the command made a handler's restore replay the round inside itself; and
    between commands, one taken between commands (one from inside a tick left its round half played,
    and a log that could not replay it)."""
    if not isinstance(snapshot, kind):
        raise IllegalCommand(f"restore takes what this battle's snapshot() returned, not {shown(snapshot)}")
    if getattr(snapshot, "owner", None) != owner:
        raise IllegalCommand("that snapshot was taken of another battle")
    snapshot_allowed(recording, "restore")
    if recording.interrupted is not None and not getattr(snapshot, "between_commands", True):
        raise IllegalCommand(f"restore: that snapshot was taken inside a command (a tick's round) and would "
                             f"leave it half played; {recording.interrupted}")
    taken = getattr(snapshot, "turn", None)
    if turn is not None and taken != turn:
        raise IllegalCommand(f"restore: a command (a tick or a turn, round {turn[1]}) is under way, and that "
                             "snapshot was not taken in its turn; restore it once the command has returned, "
                             "not from a handler or controller inside it")
    if turn is None and taken is not None:
        raise IllegalCommand(f"restore: that snapshot was taken inside a command (a tick's turn in round {taken[1]}), "
                             "which has returned: restored now, its round would be left half played with no "
                             "log of how it got there; restore it inside that turn, or take one between commands")


def controller_teams(controller: object, state: BattleState) -> None:
    """A controller that names the teams it plays for (``teams_named``, as ``ai.controller``'s does)
    names only teams of the battle: checked before ``tick`` begins a round, where a refusal leaves
    the battle as it was (the battle's teams are read only for such a controller)."""
    named = getattr(controller, "teams_named", None)
    if not isinstance(named, (set, frozenset)) or not named:
        return
    teams = {esper.component_for_entity(e, Creature).team for e in state.creatures}
    unknown = sorted(named - teams)
    if unknown:
        raise IllegalCommand(f"tick: the controller's policy names team {unknown[0]!r}, which the battle does not "
                             f"have; its teams: {', '.join(sorted(teams))}")


def recorded_orders(controller: object, orders: object, creatures: Collection[int],
                    problem: Callable[[str, tuple[Any, ...], dict[str, Any]], str | None]) -> dict[int, list[Any]]:
    """``tick``'s controller (None or a callable) and its recorded orders, ``[[actor, [[name, args,
    kwargs], ...]], ...]`` (as a log holds them), by actor, each actor one of ``creatures`` and named
    once, each order one ``problem`` finds nothing wrong with (a command a turn may give, with arguments
    it takes). Why up front: found inside the round, either would leave it half played; and orders beside
    a controller, for no creature or twice for one were dropped in silence (a replay then parted)."""
    if controller is not None and not callable(controller):
        raise IllegalCommand(f"tick: a controller is called as controller(battle, actor), and {shown(controller)} "
                             "cannot be called")
    if orders is None:
        return {}
    if controller is not None:
        raise IllegalCommand("tick: give a controller or recorded orders, not both (the controller decides each "
                             "turn, and the orders would be dropped)")
    shape = "[actor, [[name, args, kwargs], ...]]"
    if not listed(orders):
        raise IllegalCommand(f"tick: orders must be a list of {shape}, not {shown(orders)}")
    found: dict[int, list[Any]] = {}
    for turn in orders:
        if not isinstance(turn, (list, tuple)) or len(turn) != 2 or not isinstance(turn[1], (list, tuple)):
            raise IllegalCommand(f"tick: each of orders must be {shape}, not {shown(turn)}")
        actor = whole(turn[0], "tick: an actor of orders")
        if actor not in creatures or actor in found:
            raise IllegalCommand(f"tick: the orders name actor {actor} "
                                 + ("twice" if actor in found else "which is no creature of this battle"))
        for order in turn[1]:
            wrong = problem(*log_entry(order, "tick: an order"))
            if wrong:
                raise IllegalCommand(f"tick: the orders of actor {actor}: {wrong}")
        found[actor] = list(turn[1])
    return found


def handler(event_type: object, function: object, event: type) -> None:
    """``on``'s event class and handler: found wrong only inside a round, they would leave it half played."""
    if not isinstance(event_type, type) or not issubclass(event_type, event):
        raise IllegalCommand(f"on: the event type must be an event class such as Damaged, not {shown(event_type)}")
    if not callable(function):
        raise IllegalCommand(f"on: a handler is called as handler(battle, event), and {shown(function)} cannot be "
                             "called")


def battle_options(seed: object, width: object, height: object, trusted: object, script_dir: object,
                   limits: object, caches: object, hosts: object, texts: object) -> tuple[Any, Any, Any, bool]:
    """A new battle's seed, width and height (a numpy integer read as the int it is, as every command reads
    one; their ranges are the battle's own checks) and its ``trusted_scripts`` flag, after every argument
    of the constructor is checked to be of its kind.

    Why: these arguments were taken on trust. ``trusted_scripts="no"`` is a true string, so a stranger's
    scripts ran in-process with no sandbox where the caller meant the opposite; a wrong ``script_limits``,
    ``caches``, ``script_hosts``, ``script_texts`` or ``script_dir`` raised AttributeError or TypeError from
    deep inside, some only at the first script a battle ran.
    """
    trusted_scripts = flag(trusted, "trusted_scripts", "False runs scripts in a sandboxed worker: "
                                                         "use it for a scenario someone else wrote")
    for value, what, kinds, expected in (
            (script_dir, "script_dir", (str, Path), "a folder's path"),
            (limits, "script_limits", (Limits,), "a game.scripting.Limits"),
            (caches, "caches", (MapCaches, type(None)), "a systems.caches.MapCaches or None"),
            (hosts, "script_hosts", (ScriptHosts, type(None)), "a game.scripting.ScriptHosts or None")):
        if not isinstance(value, kinds):
            raise IllegalCommand(f"{what} must be {expected}, not {shown(value)}")
    if texts is not None and (not isinstance(texts, Mapping)
                              or not all(isinstance(k, str) and isinstance(v, str) for k, v in texts.items())):
        raise IllegalCommand(f"script_texts must map script file names to their text, not {shown(texts)}")
    seed, width, height = (int(v) if isinstance(v, np.integer) else v for v in (seed, width, height))
    return seed, width, height, trusted_scripts
