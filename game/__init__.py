"""The game: the Battle facade and everything that ties the components and systems together."""

from game.battle import Battle
from game.errors import IllegalCommand, UnknownEntity

__all__ = ["Battle", "IllegalCommand", "UnknownEntity"]
