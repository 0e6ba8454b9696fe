"""What-ifs about one creature's conditions, without a snapshot: "if the archer were blinded ...".

A planner that weighs a blinding or dazzling power asks the threats twice: as the battle is, and as
it would be with the condition granted. Granting it for real means a snapshot, the GM's command
with its settling pass, and a restore, about ten times the threats' own cost. But what a grant
changes is known exactly: the creature's granted conditions, then (as the settling pass works them
out, by the same functions) its sight and its derived conditions. So when nothing else is waiting to
settle, those three are set in place for the question and put back after; otherwise the snapshot
way is taken, which is always exact.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import esper

from components import Conditions, Fatigue, Health, Position, Vision
from components.commands import GrantCondition
from game.battle import validate
from game.battle.creatures import Creatures
from game.battle.snapshots import Snapshots
from game.battle.world import entry
from systems.conditions import ConditionSystem, derive
from systems.damage import DamageSystem
from systems.falling import FallingSystem
from systems.gm import GmSystem
from systems.grants import grant_condition
from systems.state import Phase, check_stamp
from systems.visibility import VisibilitySystem, look

#: The source a supposed grant is made under (never seen outside the ``with`` block).
SUPPOSED = "supposed"
#: The systems of the GM phase whose work a supposed grant repeats, or that have nothing to do for a
#: grant (no grant takes support away: a fall waits for a move, a revoked flight or a map change);
#: any other (a trusted add_system) might react to the grant in a way only the real settling pass shows.
_SETTLING = (GmSystem, FallingSystem, DamageSystem, VisibilitySystem, ConditionSystem)


class Supposing(Creatures, Snapshots):
    """``supposing(entity, condition)``: the battle as a granted condition would leave it, for a while."""

    @contextmanager
    @entry
    def supposing(self, entity: int, condition: str) -> Iterator[None]:
        """Inside the ``with`` block the battle is exactly as ``add_condition(entity, condition)`` would
        leave it (forecasts asked there see the condition); after it, exactly as it was. Nothing is
        recorded, and no command may be issued inside the block (it would be undone with the grant).

        Raises:
            IllegalCommand: a condition that cannot be granted; inside the block, any command.
            UnknownEntity: a creature this battle does not have.
        """
        entity = self.check(entity)
        name = validate.condition_name(condition)
        if not self._settles_alone():
            before = self._snapshot_now()
            try:
                self.add_condition(entity, name, source=SUPPOSED)
                with self.recording.what_if():
                    yield
            finally:
                self._restore_to(before)
            return
        conditions = esper.component_for_entity(entity, Conditions)
        vision = esper.component_for_entity(entity, Vision)
        granted, active, level = conditions.granted, conditions.active, vision.level
        # the stamp stays, the battle does not: only the answers that no change of this creature's
        # conditions and sight can reach are taken into the what-if (see ``_kept_beside``)
        found = self.memo.table(self.state)
        kept = self.memo.swap()
        try:
            self._grant_in_place(entity, name)
            self.memo.swap((check_stamp(self.state), self._kept_beside(entity, found)))
            with self.recording.what_if():
                yield
        finally:
            conditions.granted, conditions.active, vision.level = granted, active, level
            self.memo.swap(kept)

    def _kept_beside(self, entity: int, found: dict[Any, Any]) -> dict[Any, Any]:
        """Of ``found`` (the memo's answers for the battle as it is), those that hold as well in a
        battle that differs only in ``entity``'s granted and derived conditions and its sight, which
        is all an in-place grant changes (``_grant_in_place``; the block puts back just those three).
        A container the what-if may add to is a copy, unless all it can hold holds for the battle as
        well: what the what-if works out of its own never reaches the battle's memo otherwise. None
        here; a part of the battle that keeps answers says which of its own hold
        (:class:`game.battle.tactics.Tactics`)."""
        return {}

    def _settles_alone(self) -> bool:
        """Whether a grant now would settle by itself: nothing else queued or waiting to settle (no
        fall either: nobody moved and the map is as the falls last saw it, once the battle is under
        way), the level grid current, and no processor in the GM phase but those of ``_SETTLING``."""
        state = self.state
        return (not state.gm_queue and not state.dirty and not state.looked and state.levels is not None
                and state.levels_of_map == state.terrain.version
                and (state.round == 0 or (not state.moved and state.falls_seen_map == state.terrain.version))
                and all(type(p) in _SETTLING for p in self.phases.by_phase[Phase.GM]))

    def _grant_in_place(self, entity: int, name: str) -> None:
        """The grant and what the settling pass works out from it, by the systems' own steps: the GM
        system's grant, the visibility system's look, the conditions system's derivation (whose
        events are left out: nothing is recorded). The grant's containers are new, so the saved ones
        stay untouched; the creatures marked to settle are put back to none, as they were."""
        state = self.state
        assert state.levels is not None
        conditions = esper.component_for_entity(entity, Conditions)
        conditions.granted = {key: dict(sources) for key, sources in conditions.granted.items()}
        grant_condition(state, GrantCondition(entity, name, SUPPOSED))
        if entity in state.dirty:  # granted (the dead are a record: nothing changes them)
            vision = esper.component_for_entity(entity, Vision)
            look(state, entity, state.levels, esper.component_for_entity(entity, Position), vision, conditions)
            conditions.active = derive(conditions, esper.component_for_entity(entity, Health),
                                       esper.component_for_entity(entity, Fatigue), vision, state.rules)
        state.dirty = set()
