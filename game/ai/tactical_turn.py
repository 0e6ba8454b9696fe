"""What the tactical player reads of the battle for one creature's plan, and how it values outcomes.

Split from :mod:`game.ai.tactical` so that the plan (where to end the turn) and the value of a use
(:mod:`game.ai.tactical_uses`) share one reading of the board: every number here is data the battle
reports (powers, health, conditions, squares), never a rule worked out again.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NamedTuple

from components.forecasts import ScriptForesight, Threat
from components.powers import Power
from components.rules import Rules
from systems.damage import hits_to_die
from systems.drops import steps_off, steps_off_from_ft
from systems.geometry import SLACK_FT, distance_3d_ft
from systems.power_checks import AT_HAND_SQUARES, touch_ft
from systems.vitals import stands_if_healed

Command = tuple[str, tuple[Any, ...], dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Weights:
    """How the tactical player values what the forecasts say, in expected points of Health."""

    caution: float = 0.8            # per point of damage it expects to take where it ends its turn
    caution_when_low: float = 2.0   # the same at or below ``low_health`` of its maximum
    low_health: float = 0.35
    kill: float = 3.0               # per expected kill, plus what the victim would still deal a round
    focus: float = 0.5              # damage is worth more on an enemy it brings nearer its end (menace / health)
    finish: float = 0.1             # per point dealt to an enemy already out of the fight (downed)
    far_menace: float = 0.3         # the part of an enemy's blow counted when it could reach none of its side
    tempo: float = 0.6              # per point of its own blow it could strike next turn from where it ends
    friendly_fire: float = 2.0      # per point of damage to a friend (it never trades one for one)
    heal: float = 1.2               # per point healed that the friend was missing
    revive: float = 6.0             # per expected friend brought back from downed (besides kill and its blow)
    approach: float = 0.4           # per square of path closer to the nearest enemy
    fall: float = 1.0               # per point of fall damage it would take itself (a jump down may pay)...
    fall_down: float = 12.0         # ...and per chance that the fall downs it (never walk off by accident)
    hold_when_surprised: bool = True  # surprised, it stays put if a step would bring no enemy into reach
    script_guess: float = 2.5       # what a scripted power's unknown effect is taken to be worth per target
    down_worth_asking: float = 0.2  # the chance of going down below which reactions to it are not foreseen
    crowd: int = 8                  # nearest enemies (and friends) weighed in a crowd
    shortlist: int = 3              # squares weighed in full besides its own (and the farthest)
    targets: int = 3                # nearest targets weighed per power and square
    #: what a condition a use grants is worth, by (1 + the victim's menace), where no duel was tried
    #: (read-only: the weights are shared by every plan)
    conditions: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({
        "restrained": 0.7, "blinded": 0.6, "dazzled": 0.35, "prone": 0.3, "slowed": 0.25,
    }))


DEFAULT = Weights()


#: A reason, put into words only when read: a plan weighs a few dozen options and explains one.
Why = Callable[[], str]


class Choice(NamedTuple):
    """One scored use of a power from a square, with the words that explain it, and the chance it
    downs each enemy it touches (a downed enemy deals nothing before the user's next turn).

    (A NamedTuple, not a frozen dataclass: a plan weighs dozens of uses a turn, and a frozen dataclass's
    ``__init__`` pays a setattr call per field; a tuple is made in one.)"""

    score: float
    command: Command
    why: Why
    downs: tuple[tuple[int, float], ...] = ()


class Decision:
    """A creature's plan for its turn: the commands to issue, in order, and why (given as words, or
    as a function that makes them when ``why`` is first read)."""

    __slots__ = ("_why", "commands")

    def __init__(self, commands: tuple[Command, ...] = (), why: str | Why = "") -> None:
        self.commands = commands
        self._why = why

    @property
    def why(self) -> str:
        if not isinstance(self._why, str):
            self._why = self._why()
        return self._why

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Decision) and (self.commands, self.why) == (other.commands, other.why)

    __hash__ = None  # type: ignore[assignment]  # equal by value, like the frozen values around it, yet lazy

    def __repr__(self) -> str:
        return f"Decision(commands={self.commands!r}, why={self.why!r})"


def exposure(threat: Threat) -> str:
    """The reason's words for what ending on the threat's square exposes it to."""
    words = f"{threat.expected:.1f} expected damage there"
    if threat.sources:
        words = f"cover from {threat.covered_from} of {len(threat.sources)} threats, " + words
    return words


def longest_reach(powers: Iterable[Power], rules: Rules) -> float:
    """The longest reach among ``powers``, in feet, as the rules' ``touch_ft`` measures one (a range
    and the area past its centre: a fireball's 60 ft and 10 ft burst reach 70; a melee power one
    square); one square when there is no power."""
    return float(max((touch_ft(p, rules) for p in powers), default=rules.square_ft))


def farthest_toward(battle: Any, here: tuple[int, int], z: float, there: tuple[int, int], reach_ft: float
                    ) -> tuple[int, int]:
    """The square on the straight line from ``here`` toward ``there`` farthest along it that is within
    ``reach_ft`` of a user standing on ``here`` at height ``z``, by the rules' distance to a point (the
    ground there: ``systems.geometry.distance_3d_ft``, a diagonal counted as the scenario says):
    ``there`` itself when it is in reach, ``here`` when no square on the way is. Where a ranged
    burst's or a veil's aim is set short of a creature past its range; the forecast says the rest."""
    dx, dy = there[0] - here[0], there[1] - here[1]
    steps = max(abs(dx), abs(dy))
    ground, rules = battle.state.terrain.ground, battle.rules
    for k in range(steps, 0, -1):  # (from the far end back: the first in reach is the farthest)
        point = (here[0] + round(dx * k / steps), here[1] + round(dy * k / steps))
        if distance_3d_ft(here, z, point, float(ground[point]), rules) <= reach_ft + SLACK_FT:
            return point
    return here


class Turn:
    """What one creature's plan reads from the battle, read once."""

    def __init__(self, battle: Any, me: int, allowed: Sequence[str] | None, weights: Weights) -> None:
        self.battle, self.me, self.weights = battle, me, weights
        #: every creature as it is now (the battle's roster, read once): team, square, conditions, health
        self.glance = {g.entity: g for g in battle.roster()}
        mine = self.glance[me]
        self.team = mine.team
        self.here = mine.square
        self.rules = battle.rules
        living = [g for g in self.glance.values() if "dead" not in g.conditions]
        self.square = {g.entity: g.square for g in living}
        self.z = {g.entity: g.z for g in living}

        def away(c: int) -> float:
            return distance_3d_ft(self.here, self.z[me], self.square[c], self.z[c], self.rules)

        # whether the scenario's reaction scripts do anything when a creature goes down (a rally's heals)
        self.downs_heard = battle.reacts_to_downs()
        # in a crowd only the nearest matter this turn: a plan weighs at most ``weights.crowd`` of each side.
        # While one of them stands, a downed enemy that nothing could stand up again is out of the battle
        # (its side loses when none of it stands): a blow at it, or a square beside it, gains nothing;
        # weighed as an enemy, it kept the ledge's knight striking the fallen ogre while the goblin shot
        # it down. Once none stands the battle is decided, and the blows left finish the fallen off.
        foes = [g for g in living if g.team != self.team]
        if any(g.can_act for g in foes):
            foes = [g for g in foes if g.can_act or self.could_come_back(g.entity)]
        self.enemies = sorted((g.entity for g in foes), key=away)[: weights.crowd]
        self.friends = sorted((g.entity for g in living if g.team == self.team), key=away)[: weights.crowd]
        # enemies still in the fight (not downed): the ones whose blows and turns count
        self.able = {c for c in (*self.enemies, *self.friends) if self.glance[c].can_act}
        self.standing = [c for c in self.enemies if c in self.able]
        # its side still in the fight, itself included (downed or not): whom the enemies' blows would land on
        self.side = [c for c in self.friends if c == me or c in self.able]
        self.powers = [battle.power(p) for p in mine.powers if allowed is None or p in allowed]
        self.walks_seen: dict[int, float] = {}  # each creature's walk this round, by the rules (see ``walk``)
        # how far it walks by the rules as it is now (slowed, restrained), as next turn's walk will likely be
        self.speed = self.walk(me)
        self.own_reach: float | None = None
        # next turn's blow (strikable_next_turn) is held to its walk plus its reach, and a blow at hand (not
        # a shot) also to its way round and to the height below it that a walk down stops at
        self.shoots = self.reach() > AT_HAND_SQUARES * self.rules.square_ft
        self.next_within = self.speed + self.reach()
        # (under it no walk down steps off: see ``falls_down_to``)
        rules = self.rules
        self.next_hurts = math.inf if self.shoots else steps_off_from_ft(float(rules.fall_ft_per_round), rules)
        # a flight of its own that runs out before its next turn: wherever it then hangs over lower ground, it
        # falls (the battle's effects say when each ends; the tactical player counts that fall in a move's cost)
        self.flight_ends = any(e["user"] == me and e["ends_this_round"] and battle.power(e["power"]).flight
                               for e in battle.effects())
        self.menace_seen: dict[int, float] = {}
        self.powers_seen: dict[int, list[Power]] = {}  # see ``powers_of``
        self.reaches_seen: dict[int, float] = {}  # each creature's longest damaging reach (its powers' data)
        self.shares: dict[int, float] = {}
        self.uses_seen: dict[tuple[int, int], list[Choice]] = {}
        self.values_seen: dict[Any, tuple[float, Why]] = {}  # see game.ai.tactical_uses.uses_from
        #: (power, (target, point) aimed, creature hit or None, runs) -> what its script would add
        #: (game.ai.tactical_uses.scripted)
        self.scripts_seen: dict[tuple[str, tuple[Any, Any], int | None, int], ScriptForesight] = {}
        #: each area power's aim points for the creatures near it, ranked (see game.ai.tactical_uses.area_points)
        self.points_seen: dict[tuple[str, frozenset[int]], list[tuple[int, int]]] = {}
        self.rallies_seen: dict[tuple[int, tuple[int, int] | None], float] = {}
        self.down_odds: dict[int, float] = {}
        self.conditions_seen: dict[tuple[int, str], float | None] = {}  # see game.ai.tactical_conditions
        self.duels_seen: dict[int, tuple[float, float]] = {}  # each enemy's duel with its side as it stands
        self.apart_seen: dict[tuple[tuple[int, int], float, bool], dict[int, float]] = {}  # see ``apart``

    def low(self) -> bool:
        """Whether it is at or below ``low_health`` of its maximum (about to go down)."""
        mine = self.glance[self.me]
        return mine.health <= self.weights.low_health * mine.max_health

    def caution(self) -> float:
        return self.weights.caution_when_low if self.low() else self.weights.caution

    def menace(self, creature: int) -> float:
        """What a creature could deal in a round: its best power's average damage (data, not a rule);
        for an enemy that could reach none of this creature's side this round (by speed plus reach, as
        the arrow flies) only ``Weights.far_menace`` of it, since its blows land later if at all."""
        found = self.menace_seen.get(creature)
        if found is None:
            found = 0.0
            for power in self.powers if creature == self.me else self.powers_of(creature):
                if power.damage is not None:
                    found = max(found, float(power.damage.average()))
            if creature not in self.friends and not self.reaches_us(creature):
                found *= self.weights.far_menace
            self.menace_seen[creature] = found
        return found

    def reaches_us(self, enemy: int) -> bool:
        """Whether ``enemy`` could bring a blow to bear on one of this creature's side still in the
        fight this round."""
        reach = self.round_reach(enemy)
        return any(distance_3d_ft(self.square[enemy], self.z[enemy], self.square[f], self.z[f], self.rules) <= reach
                   for f in self.friends if f == self.me or f in self.able)

    def walk(self, creature: int) -> float:
        """How far a creature walks this round as it is now, in feet: the rules' own answer
        (``systems.actions.walk_speed``: slowed, by a condition or by fatigue, halves it; downed,
        restrained or falling, nothing: ``Battle.walk_ft``), the walk the threats count for an enemy too."""
        found = self.walks_seen.get(creature)
        if found is None:  # (one question of the battle: its three components read there)
            found = self.walks_seen[creature] = float(self.battle.walk_ft(creature))
        return found

    def round_reach(self, creature: int) -> float:
        """How far from where it stands a creature could bring a damaging blow this round, in feet: its
        walk (:meth:`walk`, the rules' speed for it now, as the threats read it) plus its longest reach
        (as the arrow flies; a guess at whom it threatens, not a forecast)."""
        return self.walk(creature) + self.menace_reach(creature)

    def menace_reach(self, creature: int) -> float:
        """The longest reach of a creature's damaging powers, in feet (its powers' data)."""
        found = self.reaches_seen.get(creature)
        if found is None:
            found = self.reaches_seen[creature] = longest_reach(
                [p for p in self.powers_of(creature) if p.damage is not None], self.rules)
        return found

    def powers_of(self, creature: int) -> list[Power]:
        """A creature's powers, read once a turn (its menace and its reach each read them)."""
        found = self.powers_seen.get(creature)
        if found is None:
            found = self.powers_seen[creature] = [self.battle.power(p) for p in self.glance[creature].powers]
        return found

    def reach(self) -> float:
        """The longest reach of the creature's own harmful powers."""
        if self.own_reach is None:
            self.own_reach = longest_reach((p for p in self.powers if p.damage is not None or p.conditions
                                            or p.push_ft), self.rules)
        return self.own_reach

    def apart(self, square: tuple[int, int], z: float, friends: bool = False) -> dict[int, float]:
        """Feet from ``square`` at height ``z`` to each enemy weighed (each friend, with ``friends``), as
        the arrow flies: kept for the turn, since the aims of each power from a square and the blows
        it could strike from there next turn ask the same distances."""
        key = (square, z, friends)
        found = self.apart_seen.get(key)
        if found is None:
            rules, at, high = self.rules, self.square, self.z
            found = self.apart_seen[key] = {c: distance_3d_ft(square, z, at[c], high[c], rules)
                                            for c in (self.friends if friends else self.enemies)}
        return found

    def strikable_next_turn(self, end: tuple[int, int], z: float, field: Any) -> set[int]:
        """The enemies still standing that it could bring its blow to bear on next turn from ``end`` (at
        height ``z``): within a walk plus its reach, as the arrow flies for a shot; for a blow at hand, by
        the way round (``field``, the walk to the nearest enemy) and not below a drop the walk steps off
        (:meth:`falls_down_to`), where a walk down stops at its foot."""
        if not self.shoots and float(field.item(end)) > self.next_within:
            return set()
        apart, high, hurts, within = self.apart(end, z), self.z, self.next_hurts, self.next_within
        return {e for e in self.standing if (z - high[e] < hurts or not self.falls_down_to(e, z - high[e]))
                and apart[e] <= within}

    def strikes_next_turn(self, end: tuple[int, int], z: float, field: Any) -> bool:
        """Whether :meth:`strikable_next_turn` names anyone: asked of every square a plan weighs, so a
        loop that stops at the first, where the set would be built only to be tested."""
        if not self.shoots and float(field.item(end)) > self.next_within:
            return False
        apart, high, hurts, within = self.apart(end, z), self.z, self.next_hurts, self.next_within
        for e in self.standing:
            if (z - high[e] < hurts or not self.falls_down_to(e, z - high[e])) and apart[e] <= within:
                return True
        return False

    def falls_down_to(self, enemy: int, drop: float) -> bool:
        """Whether next turn's walk down ``drop`` feet onto the ground ``enemy`` stands on would step off
        there (and fall) rather than walk on: the walk's own rule, ``systems.drops.steps_off``, with a
        fresh round's fall (a die's drop, or one past ``fall_ft_per_round``; 10 ft onto hay rolls none,
        so the walk goes on down it). Asked only of a drop from ``next_hurts`` on, under which none does."""
        soft = bool(self.battle.state.terrain.soft[self.square[enemy]])
        return steps_off(drop, soft, float(self.rules.fall_ft_per_round), self.rules)

    def share(self, enemy: int) -> float:
        """The part of an enemy's blow this creature should expect: 1 over the number of its team the
        enemy could reach this round (by speed plus reach, as the arrow flies), itself included."""
        found = self.shares.get(enemy)
        if found is None:
            reach = self.round_reach(enemy)
            near = sum(1 for f in self.friends if f != self.me and distance_3d_ft(
                self.square[enemy], self.z[enemy], self.square[f], self.z[f], self.rules) <= reach)
            found = self.shares[enemy] = 1.0 / (1 + near)
        return found

    def heal_worth(self, creature: int, amount: float, affected: float = 1.0) -> float:
        """What healing ``creature`` by ``amount`` on average is worth (to whichever side it is on):
        the health it gets back, up to its maximum, and bringing it back on its feet if it is downed
        (``affected``: the chance the healing takes hold). Bringing it back undoes a down, so it is
        worth what downing it is worth (``Weights.kill`` and its blow a round), and ``Weights.revive``
        besides. One valuation for a heal the player casts and for one a reaction script would cast
        (a rally that stands a downed friend up, or an enemy)."""
        it = self.glance[creature]
        worth = self.weights.heal * min(amount, it.max_health - it.health)
        if "downed" in it.conditions and stands_if_healed(it.conditions):  # a heal does not wake it
            worth += (self.weights.revive + self.weights.kill + self.menace(creature)) * affected
        return worth

    def could_come_back(self, creature: int) -> bool:
        """Whether a downed ``creature`` could be stood up again: never once a heal would not stand it
        (``systems.vitals.stands_if_healed``: unconscious, a full Fatigue track among them); else if the
        scenario reacts to a creature going down (a rally's heals: taken to help either side), or
        someone of its side able to act has a healing power. A guess at whether finishing it
        matters, not a forecast; a downed enemy that could not is not weighed at all (see
        ``enemies``)."""
        battle, it = self.battle, self.glance[creature]
        if not stands_if_healed(it.conditions):
            return False
        if self.downs_heard:
            return True
        return any(battle.power(p).healing is not None for g in self.glance.values() if g.entity != creature
                   and g.team == it.team and g.can_act for p in g.powers)

    def blows_to_kill(self, creature: int) -> float:
        """How many more wounding blows a downed ``creature`` takes before it dies, by the damage
        rule itself (``systems.damage.hits_to_die``): infinite where hits at 0 Health no longer
        bring it nearer its death (rules that give no fatigue for them)."""
        it = self.glance[creature]
        hits = hits_to_die(0, it.fatigue, it.max_fatigue, self.rules)
        return math.inf if hits is None else max(hits, 1)

    def if_downed(self, creature: int, me_at: tuple[int, int] | None = None) -> float:
        """What the reaction scripts would do if ``creature`` went down (with this creature standing
        on ``me_at``), valued for this creature's side: heals to friends (and bringing a downed
        friend back) count for it, heals to enemies against it, damage the other way round."""
        if not self.downs_heard:
            return 0.0
        key = (creature, me_at)
        found = self.rallies_seen.get(key)
        if found is None:
            moved = None if me_at is None or me_at == self.here else {self.me: me_at}
            forecast = self.battle.forecast_reactions(creature, moved=moved)
            found = 0.0
            for other, amount in forecast.healed.items():
                if other in self.square and other != creature:  # alive (``square`` holds the living)
                    worth = self.heal_worth(other, amount)
                    found += worth if other in self.friends else -worth
            for other, amount in forecast.hurt.items():
                found += -amount if other in self.friends else amount
            self.rallies_seen[key] = found
        return found

    def down_chance(self, creature: int) -> float:
        """How likely a friend is to go down before this creature's next turn: what the enemies
        could deal it where it stands (the battle's threat) over the health it has left."""
        found = self.down_odds.get(creature)
        if found is None:
            health = self.glance[creature].health
            if health <= 0:
                found = 0.0
            else:
                threat = self.battle.threats(creature, [self.square[creature]], self.enemies)[0]
                found = min(1.0, threat.expected / health)
            self.down_odds[creature] = found
        return found

    def label(self, creature: int) -> str:
        return f"{self.glance[creature].name} at {self.square[creature]}"
