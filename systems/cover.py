"""Cover: whether solid objects hide a defender from an attacker, on the grid.

The rules' "3/4 of your body blocked" becomes: of the four lines from the centre of the attacker's
square to the corners of the defender's square, enough pass through the inside of a solid square
(a wall, or terrain flagged ``COVER``, such as an arrow slit or a battlement). The two creatures'
own squares never block, and grazing an edge or a corner does not count.

See-through cover is asymmetric: an archer standing right behind an arrow slit leans to the
opening, so the slit next to the *attacker* does not count, while the same slit next to the
*defender* does. The archer shoots out at exposed raiders; raiders at an angle find it mostly
hidden. Cover and sight are worked out on the grid's plane: heights do not change them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import esper
import numpy as np

from components import Conditions, Cover, Creature, Position, Rules, Terrain
from components.terrain import Blocks
from systems.caches import Layout, MapCaches
from systems.cover_lines import (
    CoverTable,
    blocked_among,
    blocked_lines,
    blocked_lines_many,
    cover_table,
    few_solids,
    row_count,
    row_of,
    solids_for,
)
from systems.geometry import grid_squares
from systems.state import BattleState, Phase


def _leans(terrain: Terrain, attacker: tuple[int, int]) -> bool:
    return terrain.has_blockers() and solids_for(terrain, attacker) is not terrain.blocking(Blocks.COVER)


def _table(caches: MapCaches, terrain: Terrain, layout: Layout) -> CoverTable | None:
    """The layout's whole table of counts (see :func:`cover_table`), made at its first need and kept with
    the layout; None on a map too big for one, or of more than a few solid squares."""

    def make() -> CoverTable | None:
        few = caches.cover_solids(layout, lambda: few_solids(terrain))
        return None if few is None else cover_table(few, terrain.walls.shape)

    return caches.cover_table(layout, make)


def cover_count(caches: MapCaches, terrain: Terrain, attacker: tuple[int, int], defender: tuple[int, int]) -> int:
    """``blocked_lines`` on this map, remembered (in ``caches``) while the walls stay as they are.

    The same pairs are asked about over and over (every attack, every forecast, every battle of a
    simulation on one map), so answers are kept per layout of walls, whichever battle asks: on a small
    map of few solid squares, all of them at once.
    """
    layout = terrain.layout_key()
    table = _table(caches, terrain, layout)
    if table is not None:
        return table[attacker[0]][attacker[1]][defender[0]][defender[1]]
    answers = caches.cover_answers(layout)
    key = (attacker[0], attacker[1], defender[0], defender[1])
    found = answers.get(key)
    if found is None:
        few = caches.cover_solids(layout, lambda: few_solids(terrain))
        if few is not None:  # a few solid squares: the pair alone
            found = blocked_among(few, attacker, defender)
        else:
            found = _from_row(caches, terrain, layout, attacker, defender)
            if found is None:  # too far, or too many solid squares around it for a row
                found = blocked_lines(solids_for(terrain, attacker), attacker, defender)
        answers[key] = found
    return found


def _from_row(caches: MapCaches, terrain: Terrain, layout: Layout, attacker: tuple[int, int],
              defender: tuple[int, int]) -> int | None:
    """The count ``attacker``'s row holds for ``defender`` (the row clipped at its first question and kept
    with the layout), None when no row holds it."""
    rows = caches.rows_of_cover(layout)
    if attacker in rows:
        row = rows[attacker]
    else:
        row = rows[attacker] = row_of(solids_for(terrain, attacker), attacker)
    return None if row is None else row_count(row, defender)


def cover_counts(caches: MapCaches, terrain: Terrain, attackers: np.ndarray, defenders: np.ndarray) -> np.ndarray:
    """``blocked_lines_many`` on this map, asking numpy only about the pairs not known yet (none on a small
    map of few solid squares: its whole table is read)."""
    layout = terrain.layout_key()
    pairs = np.hstack([attackers, defenders]).tolist()
    table = _table(caches, terrain, layout)
    if table is not None:
        return np.array([table[a][b][c][d] for a, b, c, d in pairs], dtype=np.int64)
    answers = caches.cover_answers(layout)
    keys: list[tuple[int, int, int, int]] = [(a, b, c, d) for a, b, c, d in pairs]
    counts = np.array([answers.get(k, -1) for k in keys], dtype=np.int64)
    missing = np.flatnonzero(counts < 0)
    if len(missing) and terrain.has_blockers():
        leans = {a: _leans(terrain, a) for a in {keys[i][:2] for i in missing.tolist()}}  # once per attacker
        leaning = [i for i in missing.tolist() if leans[keys[i][:2]]]
        for i in leaning:
            counts[i] = cover_count(caches, terrain, keys[i][:2], keys[i][2:])
        missing = np.flatnonzero(counts < 0)
    if len(missing):  # from each attacker's row, then clip only what no row covers
        for i in missing.tolist():
            found = _from_row(caches, terrain, layout, keys[i][:2], keys[i][2:])
            if found is not None:
                counts[i] = answers[keys[i]] = found
        missing = np.flatnonzero(counts < 0)
    if len(missing):
        fresh = blocked_lines_many(terrain.blocking(Blocks.COVER), attackers[missing], defenders[missing])
        counts[missing] = fresh
        for i, value in zip(missing.tolist(), fresh.tolist()):
            answers[keys[i]] = value
    return counts


def has_cover(state: BattleState, attacker: tuple[int, int], defender: tuple[int, int]) -> bool:
    """Whether a defender on ``defender`` has cover from an attacker on ``attacker`` (never when the
    GM switched cover off)."""
    rules = state.rules
    if not rules.cover_enabled or attacker == defender:
        return False
    return cover_count(state.caches, state.terrain, attacker, defender) >= rules.cover_lines_needed


#: :func:`cover_lookup`'s test: whether a creature on the second square has cover from one on the first
CoverTest = Callable[[tuple[int, int], tuple[int, int]], bool]


def cover_lookup(state: BattleState) -> CoverTest:
    """:func:`has_cover` for pair after pair: the rules and the layout's known answers read once, each
    answer then a lookup (a planner's threats ask it of every enemy's blow on every square weighed, and
    the calls around each lookup cost more than the lookup). For one batch of asks, in which nothing
    changes the map. On a small map of few solid squares every answer is known (the layout's whole
    table, see :func:`cover_table`), read by index. Elsewhere a pair not known yet is worked
    out as :func:`cover_count` works it out (on a bigger map of few solid squares by
    :func:`blocked_among`, read once here too, and filed under the key already made), into the answers
    read here: they are facts of the layout, even if the store has begun afresh since."""
    rules = state.rules
    if not rules.cover_enabled:
        return lambda attacker, defender: False
    caches, terrain, needed = state.caches, state.terrain, rules.cover_lines_needed
    layout = terrain.layout_key()
    known = _table(caches, terrain, layout)
    if known is not None:
        table: CoverTable = known

        def counted(attacker: tuple[int, int], defender: tuple[int, int]) -> bool:
            if attacker == defender:
                return False
            ax, ay = attacker
            dx, dy = defender
            return table[ax][ay][dx][dy] >= needed

        return counted
    answers = caches.cover_answers(layout)
    few = caches.cover_solids(layout, lambda: few_solids(terrain))

    def covered(attacker: tuple[int, int], defender: tuple[int, int]) -> bool:
        if attacker == defender:
            return False
        key = (attacker[0], attacker[1], defender[0], defender[1])
        count = answers.get(key)
        if count is None:
            if few is not None:  # (``cover_count``'s first way, its answer filed under the key already made)
                count = answers[key] = blocked_among(few, attacker, defender)
            else:
                count = cover_count(caches, terrain, attacker, defender)
        return count >= needed

    return covered


def has_cover_arrays(state: BattleState, attackers: np.ndarray, defenders: np.ndarray) -> np.ndarray:
    """:func:`has_cover` for each row of two ``(n, 2)`` arrays of squares at once, as booleans: a pass
    over many pairs (the cover a whole map gives), where each answer's lookup would cost more."""
    if not state.rules.cover_enabled or not len(attackers):
        return np.zeros(len(attackers), dtype=bool)
    counts = cover_counts(state.caches, state.terrain, attackers, defenders)
    covered: np.ndarray = counts >= state.rules.cover_lines_needed
    covered &= (attackers[:, 0] != defenders[:, 0]) | (attackers[:, 1] != defenders[:, 1])
    return covered


def nearest_enemies(squares: np.ndarray, teams: np.ndarray, rules: Rules, only: int | None = None) -> np.ndarray:
    """Index of each creature's nearest enemy (another team), or -1; ties go to the lower index.

    With ``only``, just that creature's (one index, as a 0-d array): the same answer for one row.

    Computed team by team against everyone else in small integers, so two teams of 500 cost two
    500x500 passes rather than one 1000x1000 pass of 64-bit values.

    Args:
        squares: ``(n, 2)`` int array of (x, y).
        teams: ``(n,)`` array of team ids (ints).
    """
    n = len(squares)
    best = np.full(n, -1, dtype=np.int64)
    coords = squares.astype(np.int16)
    if only is not None:
        theirs = np.flatnonzero(teams != teams[only])
        if not len(theirs):
            return np.array(-1)
        ax = np.abs(coords[theirs, 0] - coords[only, 0])
        ay = np.abs(coords[theirs, 1] - coords[only, 1])
        dist = grid_squares(ax, ay, rules)
        return np.array(theirs[np.argmin(dist)])
    for team in np.unique(teams):
        mine = np.flatnonzero(teams == team)
        theirs = np.flatnonzero(teams != team)
        if not len(theirs):
            continue
        ax = np.abs(coords[mine, None, 0] - coords[None, theirs, 0])
        ay = np.abs(coords[mine, None, 1] - coords[None, theirs, 1])
        dist = grid_squares(ax, ay, rules)
        best[mine] = theirs[np.argmin(dist, axis=1)]
    return best


class CoverSystem(esper.Processor):
    """Finds a living creature's nearest enemy and whether it has cover from it, when asked.

    Nobody reads the ``Cover`` component during a turn (attacks ask ``has_cover`` for the pair that
    matters), so it is worked out only in the REFRESH phase, for a query: for one creature when the
    query names it (``actor``), for everyone otherwise. Nearest enemies are recomputed when anyone
    moved; the corner lines only for the pairs whose squares or walls changed.
    """

    PHASES = frozenset({Phase.REFRESH})  # the only phases it runs in

    def __init__(self, state: BattleState) -> None:
        self.state = state

    def process(self, phase: Phase, actor: int | None = None) -> None:
        if phase is not Phase.REFRESH:
            return
        state = self.state
        seen = (state.positions_version, state.terrain.version)
        if seen == state.cover_seen:
            return
        if state.terrain.version != state.cover_seen[1]:
            state.cover_keys.clear()
            state.cover_seen = (-1, state.terrain.version)  # every key made before is gone
        living = [(e, p, c, cr) for e, (p, c, cr, _) in esper.get_components(Position, Cover, Creature, Conditions)
                  if "dead" not in _.active]
        if not living:
            state.cover_seen = seen
            return
        team_ids: dict[str, int] = {}
        squares = np.array([(p.x, p.y) for _, p, _, _ in living], dtype=np.int64)
        teams = np.array([team_ids.setdefault(cr.team, len(team_ids)) for _, _, _, cr in living])
        if actor is None:
            state.cover_seen = seen
            rows: Iterable[int] = range(len(living))
            nearest = nearest_enemies(squares, teams, state.rules)
        else:
            mine = [i for i, row in enumerate(living) if row[0] == actor]
            nearest = np.full(len(living), -1, dtype=np.int64)
            if mine:
                nearest[mine[0]] = nearest_enemies(squares, teams, state.rules, mine[0])
            rows = mine
        self._update(living, squares, nearest, rows)

    def _update(self, living: list[tuple[int, Position, Cover, Creature]], squares: np.ndarray,
                nearest: np.ndarray, rows: Iterable[int]) -> None:
        """Set the ``Cover`` of the creatures at ``rows`` of ``living`` whose pair changed."""
        state = self.state
        stale: list[int] = []
        for i in rows:
            entity, position, cover, _ = living[i]
            j = int(nearest[i])
            enemy = living[j][0] if j >= 0 else None
            key = (enemy, position.square, living[j][1].square if j >= 0 else None)
            if state.cover_keys.get(entity) == key:
                continue
            state.cover_keys[entity] = key
            cover.against = enemy
            cover.blocked, cover.covered = 0, False
            if enemy is not None and state.rules.cover_enabled:
                stale.append(i)
        if not stale:
            return
        picked = np.array(stale)
        blocked = cover_counts(state.caches, state.terrain, squares[nearest[picked]], squares[picked])
        for i, count in zip(stale, blocked.tolist()):
            cover = living[i][2]
            cover.blocked = count
            cover.covered = count >= state.rules.cover_lines_needed
