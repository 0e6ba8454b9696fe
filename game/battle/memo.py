"""Answers a planner asks for again and again in one turn, kept while the battle stays as it is.

A turn's plan asks the threats on a handful of squares several times (where to end, what a blinding
would change), and each time read every enemy afresh: its powers, its walk, its sight. Those reads
depend only on the battle's state, and the battle's stamp (``systems.state.check_stamp``)
changes whenever that state does, so they are kept for as long as the stamp holds. Whatever puts
the battle back to an earlier moment (a restore, the end of a ``supposing`` block) hands the memo
back as it was then, or forgets it: a stamp alone cannot tell two histories of the same length apart.

A few tables hold answers that no change of the battle reaches (functions of their keys and the rules
alone, which a battle keeps for its whole life, such as an attack's chance by its parts): those are
``lasting``, found again in every stamp's table rather than worked out anew after each move.
"""

from __future__ import annotations

from typing import Any

from systems.state import BattleState, check_stamp


class StampedMemo:
    """A battle's answers for its current stamp (owned by the battle; never shared)."""

    def __init__(self, lasting: tuple[str, ...] = ()) -> None:
        self.stamp: tuple[object, ...] | None = None
        #: the tables under ``lasting``'s keys, the same ones in every stamp's answers
        self.lasting: dict[str, dict[Any, Any]] = {key: {} for key in lasting}
        self.found: dict[Any, Any] = dict(self.lasting)

    def table(self, state: BattleState) -> dict[Any, Any]:
        """The answers kept for the battle as it is now (only the lasting tables when it has changed since)."""
        stamp = check_stamp(state)
        if stamp != self.stamp:
            self.stamp, self.found = stamp, dict(self.lasting)
        return self.found

    def forget(self) -> None:
        """Drop every answer (the battle was put back to another moment)."""
        self.stamp, self.found = None, dict(self.lasting)

    def swap(self, other: tuple[tuple[object, ...] | None, dict[Any, Any]] | None = None
             ) -> tuple[tuple[object, ...] | None, dict[Any, Any]]:
        """Set aside the answers kept now and take ``other``'s (none by default); returns the ones set
        aside, to be handed back with another ``swap`` (a what-if that must not see them, nor leave its own)."""
        kept = (self.stamp, self.found)
        self.stamp, self.found = other if other is not None else (None, dict(self.lasting))
        return kept
