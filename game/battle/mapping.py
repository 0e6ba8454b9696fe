"""The facade's map: ground, walls, lights, areas and ambient light, changed at once.

Mid-battle a change is announced (``MapChanged``) and vision settles in the same call; the limits on
lights and areas are the map's own (``Terrain.add_light``), the one place they are checked.
"""

from __future__ import annotations

from collections.abc import Iterable

import esper
import numpy as np

from components import Area, Conditions, Creature, Light, Position, Visibility
from components.terrain import BLOCK_NAMES, Blocks
from components.values import shown
from game.battle import validate
from game.battle.errors import IllegalCommand
from game.battle.world import BattleCore, command, entry
from systems.sight_field import seen_mask
from systems.visibility import sight_value


class MapCommands(BattleCore):
    """Changing and reading the map."""

    @command
    def set_ground(self, x: int, y: int, height_ft: float, soft: bool = False) -> None:
        """Ground height of a square in feet, and whether it is soft (hay, water) to land on.

        Mid-battle this is a floor giving way, and it settles at once like any map change: whoever
        is left above the ground falls now and lands before its next order, and whoever the ground
        rose under stands on top: one it met in a fall spanning rounds lands there at once, hurt as
        far as it fell from where its fall began. While the battle is set up this is drawing the map, not a fall: a
        creature standing on the square stays on its ground, raised or lowered, at once, so its
        forecasts and queued orders start from the height it will act from, and the order in which
        the map was drawn does not matter. One placed above the ground (``spawn(z=...)``) keeps its
        height unless the ground rises past it, and falls, if nothing holds it up, at the first
        round's start.

        Raises:
            IllegalCommand: the square is off the grid, the height is not a number of feet within the
                map's limit, or ``soft`` is not True or False.
        """
        square = validate.square(self.state, x, y)
        height = validate.height(height_ft, f"ground height at {square}")
        is_soft = validate.flag(soft, f"soft at {square}")
        terrain = self.state.terrain
        was = float(terrain.ground[square])
        terrain.ground[square] = height
        terrain.soft[square] = is_soft
        terrain.touch()
        self._mid_battle("ground", *square)
        if self.state.round > 0:
            self._settle()
            return
        for _, position in esper.get_component(Position):
            if position.square == square and (position.z == was or position.z < height):
                position.z = height  # set-up: who stood on the ground stays on it, raised or lowered

    @command
    def add_wall(self, x: int, y: int) -> None:
        """Make a square solid: it blocks movement, sight and light, and gives cover.

        Raises:
            IllegalCommand: the square is off the grid, or a creature stands on it.
        """
        square = validate.square(self.state, x, y)
        for entity, position in esper.get_component(Position):
            if position.square == square:
                raise IllegalCommand(f"cannot put a wall at {square}: {validate.label(entity)} stands there")
        self.state.terrain.walls[square] = True
        self.state.terrain.touch()
        self._mid_battle("wall added", *square)
        self._settle()

    @command
    def set_terrain(self, x: int, y: int, blocks: Iterable[str] = (), cover: bool | None = None) -> None:
        """Terrain that stops only some things: an arrow slit, a battlement, a portcullis.

        Args:
            blocks: what it stops, any of ``movement``, ``sight``, ``light``, ``areas``, ``pushes``,
                ``fliers`` (none: the square is open again).
            cover: whether it hides a creature behind it (default: when it blocks movement). A
                see-through one right beside an attacker does not hide the attacker's target.

        Raises:
            IllegalCommand: the square is off the grid, ``blocks`` is not a list of names or names
                something unknown, ``cover`` is not True, False or None, or it would block movement on
                a square a creature stands on.
        """
        square = validate.square(self.state, x, y)
        stops = (blocks,) if isinstance(blocks, str) else validate.names(blocks, f"what the terrain at {square} blocks")
        cover = None if cover is None else validate.flag(cover, f"cover at {square}")
        flags = Blocks(0)
        for name in stops:
            if name not in BLOCK_NAMES or name == "cover":
                raise IllegalCommand(f"terrain blocks some of {', '.join(n for n in BLOCK_NAMES if n != 'cover')},"
                                     f" not {shown(name)}")
            flags |= BLOCK_NAMES[name]
        if cover if cover is not None else bool(flags & Blocks.MOVEMENT):
            flags |= Blocks.COVER
        if flags & Blocks.MOVEMENT:
            for entity, position in esper.get_component(Position):
                if position.square == square:
                    raise IllegalCommand(f"cannot block {square}: {validate.label(entity)} stands there")
        self.state.terrain.blockers[square] = int(flags)
        self.state.terrain.touch()
        self._mid_battle("terrain", *square)
        self._settle()

    @command
    def remove_wall(self, x: int, y: int) -> None:
        """Make a walled square open again (what :meth:`set_terrain` put there stays).

        Raises:
            IllegalCommand: the square is off the grid.
        """
        square = validate.square(self.state, x, y)
        self.state.terrain.walls[square] = False
        self.state.terrain.touch()
        self._mid_battle("wall removed", *square)
        self._settle()

    def _add_source(self, what: str, x: int, y: int, radius_ft: float, level: Visibility | str | int,
                    source: str) -> int:
        """A light or an obscuring area (``what``) on the map now; its id (see ``add_light``, ``add_area``)."""
        source = validate.text(source, f"{what} source")
        square = validate.square(self.state, x, y, f"{what} centre")
        radius = validate.feet(radius_ft, f"{what} radius")
        try:
            parsed = Visibility.parse(level)
        except ValueError as err:
            raise IllegalCommand(f"{what} level: {err}") from None
        terrain = self.state.terrain
        try:
            if what == "light":
                made = terrain.add_light(Light(square[0], square[1], radius, parsed, source))
            else:
                made = terrain.add_area(Area(square[0], square[1], radius, parsed, source))
        except ValueError as err:
            raise IllegalCommand(str(err)) from None
        self._mid_battle(what, *square)
        self._settle()
        return made

    def _remove_source(self, what: str, made: object) -> None:
        """Take off the map a light or an area (``what``) that ``add_light`` or ``add_area`` made."""
        article = "an" if what == "area" else "a"
        made = validate.whole(made, f"{article} {what} id (what add_{what} returned)")
        held = self.state.terrain.lights if what == "light" else self.state.terrain.areas
        if made not in held:
            raise IllegalCommand(f"no {what} with id {shown(made)}")
        for effect_id, effect in self.state.effects.items():
            if made in (effect.lights if what == "light" else effect.areas):
                raise IllegalCommand(f"{what} {made} is part of effect {effect_id} ({effect.power}, used by "
                                     f"{validate.label(effect.user)}): it goes when that effect ends, as the power "
                                     f"says; remove_{what} takes off only what add_{what} made")
        gone = held.pop(made)
        self.state.terrain.touch()
        self._mid_battle("light out" if what == "light" else "area gone", gone.x, gone.y)
        self._settle()

    @command
    def add_light(self, x: int, y: int, radius_ft: float, level: Visibility | str | int = Visibility.NORMAL,
                  source: str = "map") -> int:
        """A light (a torch): within ``radius_ft``, where it reaches around walls, visibility is at least
        ``level``.

        Returns:
            An id for :meth:`remove_light`.

        Raises:
            IllegalCommand: the centre is off the grid, the radius is not a number of feet in the map's
                range, the level is not a visibility level, the source is not text, or the map already
                holds as many lights as it takes.
        """
        return self._add_source("light", x, y, radius_ft, level, source)

    @command
    def remove_light(self, light_id: int) -> None:
        """Put out a light that :meth:`add_light` made.

        Raises:
            IllegalCommand: the id is not a whole number, no light on the map has it, or a power's
                lasting effect made it (it goes when the effect ends: the rules let no one end a power
                early unless it says so, and the effect would go on listing a light that is gone).
        """
        self._remove_source("light", light_id)

    @command
    def add_area(self, x: int, y: int, radius_ft: float, level: Visibility | str | int = Visibility.POOR,
                 source: str = "map") -> int:
        """An obscuring area (fog, smoke): within ``radius_ft`` visibility is at most ``level``.

        Returns:
            An id for :meth:`remove_area`.

        Raises:
            IllegalCommand: as :meth:`add_light` does, for an area.
        """
        return self._add_source("area", x, y, radius_ft, level, source)

    @command
    def remove_area(self, area_id: int) -> None:
        """Clear an area that :meth:`add_area` made.

        Raises:
            IllegalCommand: as :meth:`remove_light` does, for an area.
        """
        self._remove_source("area", area_id)

    @command
    def set_ambient(self, level: Visibility | str | int) -> None:
        """The whole map's visibility before lights and areas (day NORMAL, night TERRIBLE).

        Raises:
            IllegalCommand: ``level`` is not a visibility level (a name such as ``"poor"``, or 0-3).
        """
        try:
            self.state.terrain.ambient = Visibility.parse(level)
        except ValueError as err:
            raise IllegalCommand(f"ambient level: {err}") from None
        self.state.terrain.touch()
        self._mid_battle("ambient", 0, 0)
        self._settle()

    @entry
    def visibility_at(self, x: int, y: int) -> Visibility:
        """The visibility level of a square (ambient, lights and areas; no creature's conditions).

        Raises:
            IllegalCommand: the square is off the grid.
        """
        assert self.state.levels is not None
        return Visibility(int(self.state.levels[validate.square(self.state, x, y)]))

    @entry
    def visible_squares(self, team: str) -> np.ndarray:
        """Boolean ``[x, y]`` mask of the squares some living creature of ``team`` can see now (none
        once all of them are dead).

        Raises:
            IllegalCommand: no creature of this battle is on ``team`` (a misspelt name: it answered an
                empty mask, as for a team whose creatures are all dead).
        """
        state = self.state
        team = validate.known_team(state, team, "visible_squares")
        assert state.levels is not None
        seen = np.zeros(state.terrain.walls.shape, dtype=bool)
        walls = state.terrain.blocking(Blocks.SIGHT)
        for e in state.creatures:  # every line of every viewer at once (see systems.sight_field)
            if esper.component_for_entity(e, Creature).team == team and \
                    "dead" not in esper.component_for_entity(e, Conditions).active:
                seen = seen_mask(walls, state.levels, sight_value(state, e), esper.component_for_entity(
                    e, Position).square, already=seen)
        return seen
