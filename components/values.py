"""Showing and bounding numbers that came from a file: error messages must never crash on them.

A stranger's file or override can hold a whole number of thousands of digits (``repr`` of one
raises ValueError past Python's digit limit), a deeply nested list (``repr`` recurses) or an object
whose ``repr`` fails. Every error message about a value shows it through :func:`shown`.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

_HUGE = 10**18
_SHOWN_CHARS = 60

#: The largest seed of a battle, a scenario or a run: 63 bits, a plain non-negative int that every
#: consumer takes (Python's generator would treat a negative one as its magnitude: a silent alias).
MAX_SEED = 2**63 - 1


def clipped(text: str, most: int, quoted: bool = False) -> str:
    """``text`` for an error line (``quoted``: as Python writes it), cut to its first ``most``
    characters and how long it was: a key, a flag, a path or a value a person typed or a stranger's
    file holds may be a megabyte, and a refusal that echoed it whole printed a megabyte to the
    terminal. The one spelling of a cut every message uses."""
    if len(text) <= most:
        return repr(text) if quoted else text
    head = text[:most]
    return f"{head!r}... ({len(text):,} characters)" if quoted else f"{head}... ({len(text):,} characters)"


def counted(n: int, noun: str) -> str:
    """``n`` and its noun, plural but for one: "1 round", "2 rounds" (a line read "after 1 rounds")."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def shown_text(text: str, most: int = 80) -> str:
    """``text`` quoted for an error line, cut to ``most`` characters with how long it was (:func:`clipped`)."""
    return clipped(text, most, quoted=True)


def shown(value: object) -> str:
    """A short, always printable description of ``value`` for an error message.

    Whole numbers beyond 18 digits are described by their size (their digits would not fit in a
    message, and past 4300 of them Python refuses to print them at all); other values are
    ``repr`` clipped to 60 characters.
    """
    if isinstance(value, int) and not isinstance(value, bool) and not -_HUGE < value < _HUGE:
        digits = int(value.bit_length() * math.log10(2)) + 1
        return f"a whole number of about {digits} digits"
    try:
        text = repr(value)
    except Exception:  # a huge int inside a list, a recursion, a broken __repr__
        return f"a {type(value).__name__} that cannot be shown"
    return text if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS - 3] + "..."


#: Bidirectional embeddings, overrides and isolates: U+202E turns the rest of a log line around, so
#: a name holding one could make a line read as something it does not say.
BIDI_CONTROLS: frozenset[str] = frozenset({"LRE", "RLE", "PDF", "LRO", "RLO", "LRI", "RLI", "FSI", "PDI"})


def unprintable(text: str, allowed: str = "") -> str | None:
    """The first character of ``text`` that has no place in a name or line a person reads, shown, or
    None: control characters (a NUL stops a font; the others garble logs and terminals), lone
    surrogates, line or paragraph separators, unless in ``allowed`` (a description's line breaks),
    and the bidirectional controls that reorder what follows them."""
    for ch in text:
        if ch in allowed:
            continue
        if unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") or unicodedata.bidirectional(ch) in BIDI_CONTROLS:
            return repr(ch)
    return None


def escaped(text: str) -> str:
    """``text`` with each character :func:`unprintable` refuses spelt as Python writes it (``\\x1b``,
    ``\\u202e``, ``\\udcff``): a message names files whose names a stranger chose (a scenario's folder,
    the path a replay records), and an ESC in one coloured, cleared or retitled the user's terminal, a
    U+202E turned the rest of the line around, a NUL or a folder name's non-UTF-8 byte stopped the
    window's font."""
    if text.isprintable():  # the common case, at C speed
        return text
    return "".join(repr(ch)[1:-1] if unprintable(ch) is not None else ch for ch in text)


def spelt(text: str, has_glyph: Callable[[str], bool]) -> str:
    """``text`` with each character a font has no glyph for (``has_glyph`` says which it has; ASCII it
    always has) spelt as its escape (``\\u5f29``, ``\\U0001f3f9``): drawn, it was an empty box, and two
    names that differ only there read alike. The window's font and the simulation's plots spell it so."""
    if text.isascii():
        return text
    return "".join(c if c.isascii() or has_glyph(c) else c.encode("unicode_escape").decode("ascii") for c in text)


def is_int(value: object) -> bool:
    """A whole number (``True`` is not one, although Python says it is an int)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: object) -> bool:
    """A finite whole or real number (not a bool, not nan nor infinity)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return isinstance(value, int) or math.isfinite(value)


def _figure(number: float) -> str:
    """``10000.0`` as ``10000``, ``0.5`` as ``0.5``: bounds read as they would be typed."""
    return str(int(number)) if float(number).is_integer() else f"{number:g}"


@dataclass(frozen=True, slots=True)
class Bound:
    """An allowed range ``lo..hi`` (``lo`` itself excluded when ``above``), for whole numbers only
    when ``whole``; ``unit`` is what the number counts (``"ft"``, ``"rounds"``), for messages:
    "expected a whole number in 0..10000 ft, got 99999"."""

    lo: float
    hi: float
    whole: bool = True
    unit: str = ""
    above: bool = False

    def __str__(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        kind = "a whole number" if self.whole else "a number"
        if self.above:
            return f"{kind} above {_figure(self.lo)}, at most {_figure(self.hi)}{unit}"
        return f"{kind} in {_figure(self.lo)}..{_figure(self.hi)}{unit}"

    def problem(self, value: object) -> str | None:
        """None when ``value`` is allowed, else "expected <range>, got <value>"."""
        ok = is_int(value) if self.whole else is_number(value)
        if ok:
            assert isinstance(value, (int, float))
            ok = (self.lo < value if self.above else self.lo <= value) and value <= self.hi
        return None if ok else f"expected {self}, got {shown(value)}"


#: The longest name a creature, team, scenario or square may have, in a file and through ``Battle.spawn``
#: alike: names are drawn in the window's panels and written in every log line, so a megabyte of name
#: would stall both (a stranger's replay file plays its ``spawn`` commands through the battle's).
MAX_NAME = 80
#: The longest source or reason a command gives its damage, healing, fatigue or condition (logged).
MAX_SOURCE = 200

#: What a creature may be given, by a scenario file and by ``Battle.spawn`` alike: past these a
#: number describes no creature and only costs time, or outgrows what a save keeps.
CREATURE_HEALTH = Bound(0, 100_000, above=True)
CREATURE_BONUS = Bound(-1000, 1000)
CREATURE_SPEED = Bound(0, 10_000, unit="ft")
#: The damage, healing or fatigue one command deals or gives.
AMOUNT = Bound(0, 1_000_000)
#: A battle's seed, as a scenario file or a save gives it, and as ``Battle(seed=...)`` and every flag
#: take one (``game.sim.flags.SEED``). A negative seed is no other battle: Python's generator seeds
#: from its absolute value, so -7 would replay 7.
SEEDS = Bound(0, MAX_SEED)
#: How many rounds a lasting effect may last, made by a power file or by a power's script alike.
DURATION = Bound(1, 1000, unit="rounds")
