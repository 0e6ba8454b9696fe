"""Move forecasts: what a move would do (its path, a fall at its end, cover and light where it ends),
answered by the functions a move resolves with (``systems.actions``' walk and checks, falls, cover).

Split from :mod:`game.battle.forecasts`, whose :class:`~game.battle.forecasts.Forecasts` builds on
this one; a forecast never changes the battle.
"""

from __future__ import annotations

from collections.abc import Iterable

import esper
import numpy as np

from components import Conditions, Creature, Falling, Position
from components.commands import Move
from components.forecasts import MoveForecast
from game.battle import orders, validate
from game.battle.creatures import Creatures
from game.battle.world import entry
from systems.actions import landing_problem, move_problems, movement_left, walk, walk_end
from systems.cover import has_cover
from systems.drops import fall_odds
from systems.visibility import level_at, vision_value
from systems.vitals import can_act, is_flying


class MoveForecasts(Creatures):
    """``forecast_move`` and ``forecast_moves``."""

    @entry
    def forecast_move(self, entity: int, square: tuple[int, int], cover: bool = True,
                      unseen: Iterable[int] = ()) -> MoveForecast:
        """What moving ``entity`` to ``square`` now (after what it has queued) would do; without
        ``cover``, the cover from each enemy is left out (a planner in a crowd asks ``threats``);
        with ``unseen``, as a player who cannot see those creatures is told it (see ``reachable``).

        Raises:
            IllegalCommand: a square off the grid.
            UnknownEntity: a creature this battle does not have.
        """
        squares = [validate.place(self.state, square, "square")]
        with self._hiding(unseen):
            return self.forecast_moves_to(entity, squares, cover)[0]

    @entry
    def forecast_moves_to(self, entity: int, squares: Iterable[tuple[int, int]], cover: bool = True,
                          after: tuple[int, int] | None = None, way: bool = True) -> list[MoveForecast]:
        """:meth:`forecast_move` to each of ``squares``, the creature and its queued orders read once
        (a planner weighs a few squares each turn); with ``after``, as if a move there were queued
        first (a way in two legs: nothing is queued, and that first leg is not checked: its own
        forecast says whether it is legal and dry; one that would leave it falling makes every
        forecast after it not legal, as the turn would refuse the second leg). Without ``way``, a move
        whose walk ends on its goal whatever way it takes (a flight; a walk on level ground, see
        ``systems.actions.walk_end``) is forecast with no path (``path`` empty, all else the same): a
        planner that reads where a move ends, its cost and its fall need not lay out a way per square.

        Raises:
            IllegalCommand: a square off the grid.
            UnknownEntity: a creature this battle does not have.
        """
        squares, cover = validate.places(self.state, squares), validate.flag(cover, "cover")
        way = validate.flag(way, "way")
        after = None if after is None else validate.place(self.state, after, "after")
        state = self.state
        entity = self.check(entity)
        goals = validate.on_grid(state, squares)
        then = () if after is None else (Move(entity, *validate.square(state, *after, what="square")),)
        position, movement, refused, room = orders.starting_point(state, entity, then)
        if refused is not None:  # a queued move (or ``after``) leaves it falling: the turn refuses any more
            return [MoveForecast(entity, goal, False, refused) for goal in goals]
        falling = esper.component_for_entity(entity, Falling)
        conditions = esper.component_for_entity(entity, Conditions)
        left = movement_left(movement, conditions, state.rules)
        flying = is_flying(movement, conditions)  # (the projection's: a queued flight counts)
        problems = move_problems(state.paths, state.rules, position, movement, conditions, falling, goals,
                                 lambda there: state.taken(there, entity))
        start = position.square
        return [MoveForecast(entity, goal, False, problem) if problem is not None
                else self._legal_move(entity, start, position.z, goal, left, flying, room, conditions, cover, way)
                for goal, problem in zip(goals, problems)]

    def _from_square(self, user: int, value: object) -> tuple[int, int]:
        """``value`` as a square a forecast of ``user``'s is asked from (``validate.from_square``): one it
        could stand on (``orders.could_stand``; the user is checked only when that is asked)."""
        return validate.from_square(self.state, value, lambda at: orders.could_stand(self.state, self.check(user), at))

    def _legal_move(self, entity: int, start: tuple[int, int], z: float, goal: tuple[int, int], left: int,
                    flying: bool, room: float, conditions: Conditions, cover: bool, way: bool = True
                    ) -> MoveForecast:
        """The forecast of a move ``move_problem`` found legal: its path (unless not ``way``, where the
        walk's end needs none), where it stops, and arriving."""
        state = self.state
        if not way:
            ends = walk_end(state.terrain, goal, goal != start, z, flying)
            if ends is not None:  # (the cost ``move_problem`` found, kept; no climb along the search)
                cost = state.paths.cost(start, goal, limit_ft=left, flying=flying)
                assert cost is not None
                return self._arrival(entity, goal, cost, (), *ends, flying, cover, conditions)
        found = state.paths.find(start, goal, limit_ft=left, flying=flying)
        assert found is not None  # move_problem found it
        path, cost = found
        stop, z = walk(state.terrain, path, z, flying, state.rules, room)
        problem = landing_problem(state, entity, goal, stop)
        if problem:
            return MoveForecast(entity, goal, False, problem)
        if stop != goal:
            cost = state.paths.cost(start, stop, limit_ft=left, flying=flying) or 0
            path = path[:path.index(stop) + 1]
        return self._arrival(entity, goal, cost, tuple(path), stop, z, flying, cover, conditions)

    def _arrival(self, entity: int, goal: tuple[int, int], cost: int, path: tuple[tuple[int, int], ...],
                 stop: tuple[int, int], z: float, flying: bool, cover: bool, conditions: Conditions) -> MoveForecast:
        """The forecast of a legal move: the fall at its end, cover and light where it ends (``conditions``:
        the mover's, read once by the caller for every square it asks about)."""
        state = self.state
        terrain = state.terrain
        ground = terrain.ground_at(stop)
        fall = None
        if not flying and z > ground:
            fall = fall_odds(z - ground, bool(terrain.soft[stop]), state.rules)
        level = level_at(state, stop)
        vision = vision_value(level, conditions)
        return MoveForecast(entity, goal, True, None, cost, path, stop, fall,
                            tuple((enemy, has_cover(state, square, stop)) for enemy, square in self._enemies(entity))
                            if cover else (),
                            level, vision, z if flying else ground)

    def _enemies(self, entity: int) -> list[tuple[int, tuple[int, int]]]:
        """Living creatures of other teams, with their squares."""
        team = esper.component_for_entity(entity, Creature).team
        found = []
        for other in self.state.creatures:
            if other == entity or esper.component_for_entity(other, Creature).team == team:
                continue
            if "dead" in esper.component_for_entity(other, Conditions).active:
                continue
            found.append((other, esper.component_for_entity(other, Position).square))
        return found

    @entry
    def forecast_moves(self, entity: int) -> dict[tuple[int, int], MoveForecast]:
        """``forecast_move`` for every square the creature could move to now (its own included)."""
        entity = self.check(entity)
        mask = self.reachable(entity)
        here = orders.projection(self.state, entity)[0].square
        squares = [(int(x), int(y)) for x, y in zip(*np.nonzero(mask))]
        if here not in squares and can_act(esper.component_for_entity(entity, Conditions)):
            squares.append(here)
        return {square: self.forecast_move(entity, square) for square in squares}
