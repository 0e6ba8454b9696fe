"""The planner's map questions of a whole turn: cover from many enemies at once, open shots, the way in.

Split from :mod:`game.battle.tactics` (whose :class:`~game.battle.tactics.Tactics` builds on this one and
adds the threats): each question here is the rules' own test (cover, sight, paths) asked of many squares
in one call, read once for all of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import esper
import numpy as np

from components import Conditions, Creature, Fatigue, Health, Movement, Position
from game.battle import validate
from game.battle.outcomes import Outcomes
from game.battle.world import entry
from systems.cover import cover_lookup, has_cover_arrays
from systems.paths import UNREACHABLE
from systems.visibility import level_at, seen_from, vision_value
from systems.vitals import is_dead, is_flying

#: What ``TacticMaps._foes`` reads of each creature, in the order it unpacks them.
_FOE_PARTS: tuple[type[Any], ...] = (Creature, Position, Health, Fatigue)

#: Above this many (attacker, square) pairs ``cover_map`` asks numpy in one batch; below, pair by pair.
_BATCHED_PAIRS = 64


class TacticMaps(Outcomes):
    """``cover_map``, ``open_shots`` and ``approach_map``: batch answers about the map for choosing where to stand."""

    @entry
    def cover_map(self, attackers: Iterable[int], squares: Iterable[tuple[int, int]]) -> dict[tuple[int, int], int]:
        """For each of ``squares``, how many of ``attackers`` it has cover from (the rules' cover test
        from where each attacker stands, the GM's switch included)."""
        squares, attackers = validate.places(self.state, squares), validate.ids(attackers, "attackers")
        state = self.state
        cells = validate.on_grid(state, squares)
        from_squares = [esper.component_for_entity(self.check(a), Position).square for a in attackers]
        if len(cells) * len(from_squares) > _BATCHED_PAIRS:
            return self._cover_batch(from_squares, cells)
        # a planner's handful of pairs: each answer is a lookup (``has_cover``'s test, asked of each
        # pair in place: no lists of the pairs laid out first), cheaper than arrays of a few rows
        covered = cover_lookup(state)
        return {cell: sum([covered(a, cell) for a in from_squares]) for cell in cells}

    def _cover_batch(self, from_squares: list[tuple[int, int]], squares: list[tuple[int, int]]
                     ) -> dict[tuple[int, int], int]:
        """:meth:`cover_map` for many pairs: every (attacker, square) pair in one numpy batch, a row of
        answers per attacker (the same counts ``has_cover`` compares, for a pass over a whole map)."""
        state = self.state
        cells = np.array(squares, dtype=np.int64).reshape(-1, 2)
        counts = np.zeros(len(cells), dtype=np.int64)
        if len(cells) and from_squares:
            attackers = np.repeat(np.array(from_squares, dtype=np.int64), len(cells), axis=0)
            covered = has_cover_arrays(state, attackers, np.tile(cells, (len(from_squares), 1)))
            counts += covered.reshape(len(from_squares), len(cells)).sum(axis=0)
        return {(int(x), int(y)): int(c) for (x, y), c in zip(cells.tolist(), counts.tolist())}

    @entry
    def approach_map(self, entity: int, among: Iterable[int] | None = None, limit_ft: float | None = None
                     ) -> np.ndarray:
        """``[x, y]`` feet of the cheapest way from each square to the nearest living enemy of
        ``entity`` (walls, and for a walker what blocks walkers, in the way); unreachable squares hold
        ``systems.paths.UNREACHABLE``; only the enemies ``among`` count when given, and only ways of
        at most ``limit_ft`` (a search in the window it spans: a big map costs its window). What a
        planner closes in by."""
        among, limit_ft = validate.optional_ids(among, "among"), validate.optional_limit(limit_ft, "limit_ft")
        state = self.state
        entity = self.check(entity)
        flying = is_flying(esper.component_for_entity(entity, Movement), esper.component_for_entity(entity, Conditions))
        team = esper.component_for_entity(entity, Creature).team
        asked = None if among is None else {self.check(e) for e in among}
        fields = [state.paths.costs_from(square, limit_ft, flying) for square in self._foes(team, asked)]
        if not fields:
            return np.full(state.terrain.walls.shape, UNREACHABLE, dtype=np.int64)
        found: np.ndarray = fields[0].copy()
        for other in fields[1:]:  # in place: a list reduce would stack every map first
            np.minimum(found, other, out=found)
        return found

    @entry
    def open_shots(self, entity: int, squares: Iterable[tuple[int, int]], among: Iterable[int] | None = None
                   ) -> dict[tuple[int, int], int]:
        """For each of ``squares``, how many living enemies (of ``among`` when given) ``entity`` would
        see from there with no cover from it (the rules' sight and cover tests, from where it would stand)."""
        squares, among = validate.places(self.state, squares), validate.optional_ids(among, "among")
        state = self.state
        entity = self.check(entity)
        team = esper.component_for_entity(entity, Creature).team
        asked = None if among is None else {self.check(e) for e in among}
        targets = self._foes(team, asked)
        # its sight from each square (``visible``'s, its conditions read once), then the cover of every
        # enemy it would see there (``has_cover``'s test, read once and asked of each pair seen in
        # place: no lists of the pairs laid out first)
        conditions = esper.component_for_entity(entity, Conditions)
        covered = cover_lookup(state)
        found: dict[tuple[int, int], int] = {}
        for here in validate.on_grid(state, squares):
            sight = vision_value(level_at(state, here), conditions)
            found[here] = sum([seen and not covered(here, t)
                               for t, seen in zip(targets, seen_from(state, sight, here, targets))])
        return found

    def _foes(self, team: str, asked: set[int] | None) -> list[tuple[int, int]]:
        """The squares of the living creatures of teams other than ``team`` (of those ``asked``, when
        given), in spawn order: their parts read in one esper query (kept by esper while no component is
        added or removed, which a battle under way never does), not four lookups a creature."""
        parts: dict[int, Any] = dict(esper.get_components(*_FOE_PARTS))
        found = []
        for e in self.state.creatures:
            creature, position, health, fatigue = parts[e]
            if creature.team != team and (asked is None or e in asked) and not is_dead(health, fatigue):
                found.append(position.square)
        return found
