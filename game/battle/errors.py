"""The two errors a caller of the battle can get, both raised at the edge with a message to act on."""

from __future__ import annotations


class IllegalCommand(ValueError):
    """A command or argument the rules refuse: a square off the grid, a wall, a negative amount, ...

    A ValueError, so callers that only know the contract (``ValueError``) catch it too.
    """


class UnknownEntity(KeyError, ValueError):
    """An entity id this battle does not have (perhaps another battle's).

    Both a KeyError (hence a LookupError) and a ValueError: whichever a caller expects for bad input.
    """

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown entity"
