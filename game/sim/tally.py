"""A finished battle's numbers, counted from its events: uses, damage by power, taken by team, downs.

Only whole-number counters come out, so totals folded from these rows do not depend on the order in
which battles finish (see :mod:`game.sim.report`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Container, Mapping
from types import MappingProxyType
from typing import Any

from components.events import Damaged, Died, Downed, Landed, PowerUsed, ScriptFailed, Unconscious
from components.powers import FALL, OTHER, REACTION, effect_source, source_parts
from game.battle.naming import effect_powers

#: Events that only add one to a counter of the row.
_COUNTED: Mapping[type, str] = MappingProxyType({Downed: "downs", Died: "deaths", Unconscious: "unconscious"})
#: The counts a battle's row carries, each a number of its events (``fall_damage``: the falls' damage
#: summed); the report sums them over battles and its CSV gives each a column.
COUNTERS = ("downs", "deaths", "unconscious", "falls", "fall_damage", "script_failures")


def _source_key(source: str, effects: Mapping[str, str], powers: Container[str]) -> str:
    """A Damaged event's source as a power id ("fall" for falls, "reaction" for a reaction script's
    hits, ``script:reaction``, "other" for the GM and unknowns). No power may take those three ids
    (:data:`components.powers.RESERVED_IDS`), so the table's rows and battles.csv's columns
    of them never mix with a power's."""
    kind, rest = source_parts(source)
    if kind in ("power", "script") and rest:
        return rest if rest in powers or rest == REACTION else OTHER
    if kind == "effect":
        return effects.get(source, OTHER)
    if source == FALL:
        return FALL
    return OTHER


class _Tally:
    """The running counts of one battle's events."""

    def __init__(self, teams: Mapping[int, str], effects: Mapping[str, str], powers: Container[str]) -> None:
        self.teams = teams
        self.effects = effects
        self.powers = powers
        self.uses: Counter[str] = Counter()
        self.dealt: Counter[str] = Counter()
        self.taken: dict[str, Counter[str]] = defaultdict(Counter)
        self.counts = Counter(dict.fromkeys(COUNTERS, 0))
        self.script_error = ""

    def add(self, event: Any) -> bool:
        """Count one event; whether its kind counts at all (which its kind alone decides)."""
        counted = _COUNTED.get(type(event))
        if counted is not None:
            self.counts[counted] += 1
        elif isinstance(event, Damaged):
            key = _source_key(event.source, self.effects, self.powers)
            self.dealt[key] += event.amount
            self.taken[self.teams.get(event.entity, "?")][key] += event.amount
        elif isinstance(event, PowerUsed):
            self.uses[event.power] += 1
        elif isinstance(event, Landed):
            self.counts["falls"] += 1
            self.counts["fall_damage"] += event.damage
        elif isinstance(event, ScriptFailed):
            self.counts["script_failures"] += 1
            self.script_error = self.script_error or \
                f"round {event.round}: {event.script} {event.function}: {event.reason}"
        else:
            return False
        return True

    def row(self) -> dict[str, Any]:
        return {**self.counts, "script_error": self.script_error, "uses": dict(self.uses), "dealt": dict(self.dealt),
                "taken": {team: dict(by) for team, by in self.taken.items()}}


def tally(battle: Any) -> dict[str, Any]:
    """Count what happened, from the battle's events: uses, damage by power, taken by team, downs...

    Damage dealt by a power is every Damaged event whose source is ``power:ID`` or ``script:ID`` (a
    power's script), or ``effect:N`` of an effect that power made; taken is the same amounts
    grouped by the team of the creature hit. A reaction script's hits are ``reaction``; what else no
    power of the battle dealt (the GM's) is ``other``.
    """
    events = battle.events
    effects = {effect_source(made): power for made, power in effect_powers(battle.effects(), events).items()}
    counts = _Tally({entity: battle.team(entity) for entity in battle.creatures()}, effects, battle.powers)
    silent: set[type] = set()  # kinds that count nothing (a turn started, a roll): most events, skipped
    for event in events:
        kind = type(event)
        if kind not in silent and not counts.add(event):
            silent.add(kind)
    return counts.row()
