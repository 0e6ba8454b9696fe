"""Forecasts a planner asks for a whole turn: the threat on a square (cover and shots: ``tactic_maps``).

A computer player (or the window's hover) weighing where to stand needs, for each square it could
end on, what the enemies could do to it there before its next turn. That is the forecast of each
enemy's best power at the creature *as if it stood there*, so it is answered here with the same
functions the attack and save rolls resolve with (``Forecasts`` odds, cover, roll modes), never with
a copy of a rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

import esper
import numpy as np

from components import Abilities, Conditions, Creature, Defense, Falling, Fatigue, Health, Movement, Position
from components.forecasts import Threat, ThreatSource
from components.powers import Power
from game.battle import orders, validate
from game.battle.tactic_maps import TacticMaps
from game.battle.world import entry
from systems.actions import walk_speed
from systems.cover import CoverTest, cover_lookup
from systems.geometry import SLACK_FT, distance_3d_ft
from systems.power_checks import AT_HAND_SQUARES, attack_chance, heights_at, power_ids, touch_ft
from systems.visibility import VISION_CONDITIONS, Visibility, level_at, vision_level, vision_value
from systems.vitals import is_flying, takes_its_turn

#: what a threat reads of a creature, in one esper query (kept by esper while no component is added or
#: removed, which a battle under way never does) rather than a lookup a part
_READ: tuple[type[Any], ...] = (Creature, Health, Fatigue, Conditions, Falling, Movement, Position, Defense, Abilities)
_Parts = tuple[Creature, Health, Fatigue, Conditions, Falling, Movement, Position, Defense, Abilities]
#: menaces a battle keeps by what they read (``Tactics._known_menace``) before it forgets them all
_KNOWN_MENACES = 512


class _Menace(NamedTuple):
    """One enemy as a batch of threats reads it: read once, whichever square is asked about (its side
    of every attack roll too: its sight where it stands, its fatigue, and with each plain attack its whole
    attack bonus).

    (A NamedTuple, not a frozen dataclass: read anew for each enemy whenever the battle changes, and a frozen
    dataclass's ``__init__`` pays a setattr call per field; a tuple is made in one.)"""

    enemy: int
    square: tuple[int, int]
    z: float
    team: str
    speed: float
    flying: bool
    # its powers that roll and hurt (dice, or a fall), with their reach, their dice's average (0 for none) and,
    # for a plain attack (no push, pull or save), its whole attack bonus (its own plus the power's; else None)
    powers: tuple[tuple[Power, float, float, int | None], ...]
    sight: int  # (its sight level as a plain number: a member of an IntEnum hashes its name in Python, and
    # this is part of every attack chance's key)
    fatigue: int


class _Struck(NamedTuple):
    """The creature a batch of threats is about, read once: its side of every attack roll (a NamedTuple,
    as :class:`_Menace` is)."""

    entity: int
    base: int
    flat_footed: bool


class Tactics(TacticMaps):
    """``threat`` and ``threats``: batch forecasts for choosing where to stand (the map's own questions:
    :class:`~game.battle.tactic_maps.TacticMaps`)."""

    @entry
    def threat(self, entity: int, square: tuple[int, int] | None = None) -> Threat:
        """What ``entity`` could take on ``square`` (default: where its queued moves leave it) before
        its next turn: every enemy able to act that could reach the square this round (its path
        cost within its speed plus the power's reach, ``touch_ft``; a reach past two squares, a shot or
        an area's spread, counts the straight distance),
        with the power that would do it the most damage on average, hit chance, cover and the light
        on that square included.

        The enemy is taken to strike from where it stands now: the forecast does not guess where it
        would move to first.

        Raises:
            IllegalCommand: a square off the grid.
            UnknownEntity: a creature this battle does not have.
        """
        at = orders.projection(self.state, self.check(entity))[0].square if square is None else square
        return self.threats(entity, [at])[0]

    @entry
    def walk_ft(self, entity: int) -> int:
        """How far ``entity`` walks this round as it is now, in feet: the rules' own answer
        (``systems.actions.walk_speed``: slowed halves it; downed, restrained or falling, nothing), the
        walk the threats count for an enemy. One question where a planner asked for three components
        (it asks this of the creatures near it every turn).

        Raises:
            UnknownEntity: a creature this battle does not have.
        """
        entity, get = self.check(entity), esper.component_for_entity
        return walk_speed(get(entity, Movement), get(entity, Conditions), get(entity, Falling), self.state.rules)

    @entry
    def threats(self, entity: int, squares: Iterable[tuple[int, int]], among: Iterable[int] | None = None
                ) -> list[Threat]:
        """:meth:`threat` for each of ``squares``, the enemies and their paths found once; only from
        the enemies ``among`` when given (a planner in a crowd asks about the nearest)."""
        squares, among = validate.places(self.state, squares), validate.optional_ids(among, "among")
        entity = self.check(entity)
        asked = None if among is None else {self.check(e) for e in among}
        memo = self.memo.table(self.state)
        menaces = self._menaces(esper.component_for_entity(entity, Creature).team, asked, memo)
        return self._threats_on(entity, squares, menaces, memo, cover_lookup(self.state))

    @entry
    def threats_where_they_stand(self, entities: Iterable[int], among: Iterable[int] | None = None
                                 ) -> list[Threat]:
        """For each of ``entities``, :meth:`threats` on the square it stands on now (not where its
        queued moves leave it), from the enemies ``among`` when given: what a what-if weighs for a
        whole side at once (a duel, a veil), with the enemies of each team read once for all of them
        rather than once a creature."""
        entities, among = validate.ids(entities, "entities"), validate.optional_ids(among, "among")
        asked = None if among is None else {self.check(e) for e in among}
        memo, covered = self.memo.table(self.state), cover_lookup(self.state)  # (the map stays as it is meanwhile)
        by_team: dict[str, list[_Menace]] = {}
        found = []
        for entity in entities:
            entity = self.check(entity)
            team = esper.component_for_entity(entity, Creature).team
            menaces = by_team.get(team)
            if menaces is None:
                menaces = by_team[team] = self._menaces(team, asked, memo)
            found.extend(self._threats_on(entity, [esper.component_for_entity(entity, Position).square],
                                          menaces, memo, covered))
        return found

    def _threats_on(self, entity: int, squares: list[tuple[int, int]], menaces: list[_Menace],
                    memo: dict[Any, Any], covered: CoverTest) -> list[Threat]:
        """:meth:`threats` on ``squares`` for ``entity`` from ``menaces`` (its enemies, as ``_menaces``
        reads them); ``memo``: the battle's answers for its stamp; ``covered``: ``cover_lookup``'s test."""
        # what each enemy brings to bear is read once for all the squares (and kept for the turn)
        struck = _Struck(entity, esper.component_for_entity(entity, Defense).base,
                         "flat-footed" in esper.component_for_entity(entity, Conditions).active)
        # each melee enemy's path costs (its walk and its reach), kept for the turn with its reading
        walks: dict[int, np.ndarray] = memo.setdefault("walks", {})
        # a save's landing on this creature, and the damage it then deals, by power (see ``_blow``)
        saved: dict[str, tuple[float, float]] = memo.setdefault(("saved", entity), {})
        # an attack's chance by its parts (see ``_best_blow``): the same few for square after square
        hits: dict[tuple[int, ...], float] = memo.setdefault("attack_chances", {})
        found = []
        state = self.state
        squares = validate.on_grid(state, squares)
        for at, z in zip(squares, heights_at(state, entity, squares)):
            level = level_at(state, at)  # (the light on the square: every attack's chance there reads it)
            sources = []
            expected: float = 0  # (summed as sum() sums, from its int 0, without a generator a square)
            for menace in menaces:
                blow = self._best_blow(menace, struck, at, z, level, walks, saved, hits, covered)
                if blow is not None:
                    sources.append(blow)
                    expected += blow.expected
            found.append(Threat(entity, at, expected, tuple(sources)))
        return found

    def _menaces(self, team: str, asked: set[int] | None, memo: dict[Any, Any]) -> list[_Menace]:
        """Every enemy of ``team`` able to take a turn (only those ``asked`` about, when given), as a threat
        reads it: each kept while the battle's stamp holds (a plan asks the threats several times a
        turn), and read only once asked about (a duel of a condition's what-if asks about one enemy);
        ``memo``: the battle's answers for its stamp."""
        parts: dict[int, Any] | None = None  # (read only if something is not known yet)
        able: list[int] | None = memo.get(("able", team))
        if able is None:
            parts = dict(esper.get_components(*_READ))
            able = memo[("able", team)] = list(self._able_enemies(team, parts))
        found = []
        for enemy in able:
            if asked is not None and enemy not in asked:
                continue
            key = ("menace", enemy)
            if key in memo:
                menace = memo[key]
            else:
                if parts is None:
                    parts = dict(esper.get_components(*_READ))
                menace = memo[key] = self._known_menace(enemy, parts[enemy], memo["menaces"])
            if menace is not None:
                found.append(menace)
        return found

    def _known_menace(self, enemy: int, parts: _Parts, known: dict[tuple[Any, ...], _Menace | None]
                      ) -> _Menace | None:
        """:meth:`_menace`, found again in ``known`` (the memo's lasting table) when everything it reads
        answers as it did: the enemy's own components (its team, square and height, conditions, fall,
        walk, fatigue, attack bonus and powers), the power table's version and the light where it stands
        (the rules are the battle's for its whole life). Turn after turn of a round, most enemies have
        not changed, where the stamp has."""
        creature, _, fatigue, conditions, falling, movement, position, defense, abilities = parts
        state, granted, square = self.state, conditions.granted, (position.x, position.y)
        reads = (enemy, creature.team, square, position.z, conditions.active, VISION_CONDITIONS.intersection(granted),
                 "flying" in granted, falling.start_z, movement.speed_ft, movement.flying,
                 fatigue.level, defense.attack_bonus, abilities.powers, state.powers_version, level_at(state, square))
        if reads in known:
            return known[reads]
        if len(known) >= _KNOWN_MENACES:  # (a long battle's: the old ones are rarely asked again)
            known.clear()
        menace = known[reads] = self._menace(enemy, parts)
        return menace

    def _kept_beside(self, entity: int, found: dict[Any, Any]) -> dict[Any, Any]:
        """The threats' answers that hold whatever ``entity``'s conditions and sight (a supposed grant
        changes nothing else): each is worked out from what it names, never from that creature's
        conditions or sight. An attack's chance is a function of its parts and the rules alone. Another
        creature's menace reads its own components, the powers, the rules and the light of its square;
        its walk, the map; a save landing on it, its fatigue. The able enemies of ``entity``'s own team
        are read with it passed over on its team alone."""
        kept = super()._kept_beside(entity, found)
        team = esper.component_for_entity(entity, Creature).team
        for key, answer in found.items():
            if key in ("attack_chances", "menaces"):
                kept[key] = answer  # (shared: what the what-if adds to it holds for the battle as well)
            elif key == "walks":
                kept[key] = {enemy: costs for enemy, costs in answer.items() if enemy != entity}
            elif isinstance(key, tuple) and (key[0] in ("menace", "saved") and key[1] != entity
                                             or key == ("able", team)):
                kept[key] = answer if key[0] == "menace" else answer.copy()
        return kept

    def _able_enemies(self, team: str, parts: dict[int, Any]) -> Iterable[int]:
        """Creatures of other teams that could take a turn: alive, not downed, not falling (``parts``: each
        creature's components, as ``_READ`` names them)."""
        for other in self.state.creatures:
            creature, _, _, conditions, falling = parts[other][:5]
            if creature.team == team:
                continue
            if not takes_its_turn(conditions.active, falling):  # (the dead are downed, and dead, too)
                continue
            yield other

    def _menace(self, enemy: int, parts: _Parts) -> _Menace | None:
        """What ``enemy`` could strike with this round, wherever the target stands: its powers that roll
        and hurt (by dice, or by the fall a shove causes), with their reach, its walk, where it stands;
        None while it is surprised (no powers). ``parts``: its components, as ``_READ`` names them."""
        state = self.state
        creature, _, fatigue, conditions, falling, movement, position, defense, abilities = parts
        if "surprised" in conditions.active:
            return None
        # blinded, it sees nothing wherever it stands: no power aimed at a creature or a point it must see
        sightless = vision_level(Visibility.NORMAL, conditions) == Visibility.NO_VISION
        powers = []
        for power_id in power_ids(state, abilities):
            power = state.powers.get(power_id)
            hurts = power is not None and (power.damage is not None or bool(power.push_ft or power.pull_ft))
            if power is None or not hurts or (power.attack_bonus is None and power.save_dc is None):
                continue  # (a shove with no dice of its own hurts by the fall it may cause)
            if sightless and (power.single_target or power.aims_at_point):
                continue
            average = 0.0 if power.damage is None else power.damage.average()
            # as far as the planner's ``touch_ft`` says: a ranged area its range and its spread (a fireball's
            # 60 ft and its 10 ft burst: 70), an area spread from the user its spread (a 15 ft cone: 15)
            reach = touch_ft(power, state.rules)
            # a plain attack's whole bonus (``_best_blow`` works its chance out itself); None for the rest
            whole = None if power.attack_bonus is None or power.push_ft or power.pull_ft or power.save_half \
                else defense.attack_bonus + power.attack_bonus
            powers.append((power, reach, average, whole))
        speed = walk_speed(movement, conditions, falling, state.rules)
        square = position.square
        return _Menace(enemy, square, float(position.z), creature.team, speed, is_flying(movement, conditions),
                       tuple(powers), vision_value(level_at(state, square), conditions), fatigue.level)

    def _best_blow(self, menace: _Menace, struck: _Struck, at: tuple[int, int], z: float, level: int,
                   walks: dict[int, np.ndarray], saved: dict[str, tuple[float, float]],
                   hits: dict[tuple[int, ...], float], covered: CoverTest) -> ThreatSource | None:
        """The enemy's most damaging power at a creature standing on ``at`` (at height ``z``, in light
        ``level``), if it could bring it to bear this round: a reach of two squares or less by the way round
        walls (``walks`` keeps each enemy's path costs, :meth:`_walk_costs`), a longer range by the
        straight distance (worked out once for all of its ranged powers), within speed plus reach.

        Height does not keep a walker up: it walks down steps no fall hurts, and jumps down the rest (its
        fall settles, then it strikes), unless the drop is longer than a round's fall (still falling at
        the round's end, it strikes nothing this round); a flier keeps its height (or rises over higher
        ground), so it is never within reach of a creature further below than its reach. A plain attack
        (its whole bonus read with the menace) is worked out here from the sides read once,
        ``attack_terms``' own parts (the roll mode, the Defense: ``covered`` is ``cover_lookup``'s test;
        the hit chance), since a planner asks it for many squares; the rest by :meth:`_blow`. (One loop
        with no call a power: a plan asks a few hundred blows a battle, and the calls cost more than the tests.)"""
        best: ThreatSource | None = None
        rules = self.state.rules
        at_hand, fall = AT_HAND_SQUARES * rules.square_ft, rules.fall_ft_per_round
        away: float | None = None
        flying, high = menace.flying, menace.z - z
        for power, reach, average, bonus in menace.powers:
            if high > (reach if flying or fall <= reach else fall) + SLACK_FT:
                continue  # (a flier: ``reach``; a walker must come down, by a round's fall at most)
            if reach > at_hand:  # a ranged power: the straight distance
                if away is None:
                    away = distance_3d_ft(menace.square, menace.z, at, z, rules)
                if away > menace.speed + reach + SLACK_FT:
                    continue
            else:  # a blow at hand: the way round, and (a flier, or a creature above the ground) the height
                costs = walks[menace.enemy] if menace.enemy in walks else self._walk_costs(menace, walks)
                if costs.item(at) > menace.speed + reach or (flying or z > self.state.terrain.ground_at(at)) \
                        and not self._reaches_height(menace, reach, at, z, costs):
                    continue  # (``item``: a Python int, not a numpy scalar)
            if bonus is None:  # a push, a save, a sure blow
                found = self._blow(power, menace, struck, at, saved)
            else:  # the chance is a function of these parts and the rules alone (kept in ``hits`` by them)
                cover = covered(menace.square, at)
                parts = (menace.sight, level, menace.fatigue, bonus, struck.base, cover, struck.flat_footed)
                chance = hits.get(parts)
                if chance is None:
                    chance = hits[parts] = attack_chance(*parts, rules)
                found = ThreatSource(menace.enemy, power.id, chance, chance * average, cover)
            if best is None or found.expected > best.expected:
                best = found
        return best

    def _walk_costs(self, menace: _Menace, walks: dict[int, np.ndarray]) -> np.ndarray:
        """The enemy's path costs as far as its walk and a blow at hand, kept in ``walks`` for the stamp."""
        costs = walks[menace.enemy] = self.state.paths.costs_up_to(
            menace.square, menace.speed + AT_HAND_SQUARES * self.state.rules.square_ft, menace.flying)
        return costs

    def _blow(self, power: Power, menace: _Menace, struck: _Struck, at: tuple[int, int],
              saved: dict[str, tuple[float, float]]) -> ThreatSource:
        """One power's blow at the creature on ``at`` that is not a plain attack (``_threats_on`` works
        those out itself, from the sides read once): the forecast's own landing chances times the dice's
        average (the whole outcome distribution where a save halves, and where a push may drop)."""
        enemy, origin = menace.enemy, menace.square
        if power.push_ft or power.pull_ft:
            odds = self._target_odds(power, enemy, struck.entity, origin, menace.team, target_square=at)
            expected = odds.damage.mean if odds.damage is not None else 0.0
            if odds.fall is not None:
                expected += odds.affected * odds.fall.damage.mean
            return ThreatSource(enemy, power.id, odds.affected, expected,
                                odds.attack is not None and odds.attack.defense.cover)
        assert power.damage is not None
        if power.attack_bonus is None:  # a save, or a sure blow: the struck creature's alone
            # (a save's roll mode reads no square, and the dice do not care who threw them): the landing
            # and its damage are kept by power in ``saved``, found again whoever casts it from wherever
            known = saved.get(power.id)
            if known is None:
                known = saved[power.id] = self._saved_blow(power, enemy, struck.entity, origin, at)
            return ThreatSource(enemy, power.id, known[0], known[1], False)
        # an attack that a save would halve: a power made by hand, not by the loader
        full, half, _, _ = self._landing(power, enemy, struck.entity, origin, target_square=at)
        expected = self._damage_odds(power.damage, full, half, max(0.0, 1.0 - full - half))[1].mean
        return ThreatSource(enemy, power.id, full, expected, False)

    def _saved_blow(self, power: Power, enemy: int, target: int, origin: tuple[int, int], at: tuple[int, int]
                    ) -> tuple[float, float]:
        """A blow with no attack roll at ``target`` on ``at``: the chance it lands in full, and the mean of
        the forecast's own damage distribution (halving included where a save halves)."""
        assert power.damage is not None
        if power.save_half:
            full, half, _, _ = self._landing(power, enemy, target, origin, target_square=at)
            return full, self._damage_odds(power.damage, full, half, max(0.0, 1.0 - full - half))[1].mean
        full = self._landing(power, enemy, target, origin, target_square=at)[0]
        return full, full * power.damage.average()

    def _reaches_height(self, menace: _Menace, reach: float, at: tuple[int, int], z: float, costs: np.ndarray
                        ) -> bool:
        """Whether the enemy, on some square beside ``at`` within ``reach`` that it can get to this round
        (``costs``: its path costs), standing there as ``heights_at`` says it would (a walker on the
        ground, a flier at its own height or the ground's if higher), reaches a creature ``z`` high there,
        heights counted as the use's range counts them: a flier 30 ft up is out of a walker's strike from
        every square round it, and a flier 30 ft up strikes nothing on the ground, though the walk or the
        flight to beside it is short."""
        state = self.state
        rules = state.rules
        x, y = at
        squares = int(reach // rules.square_ft)
        width, height = state.terrain.ground.shape
        near = [(nx, ny) for nx in range(max(0, x - squares), min(width, x + squares + 1))
                for ny in range(max(0, y - squares), min(height, y + squares + 1))
                if (nx, ny) != at and costs.item((nx, ny)) <= menace.speed]
        return any(distance_3d_ft(there, stands, at, z, rules) <= reach + SLACK_FT
                   for there, stands in zip(near, heights_at(state, menace.enemy, near), strict=True))
