"""Powers as values: what a power does, checked by its loader (``game.content.powers``) and read by the
power system, the forecasts, the computer player and the window alike."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from components.creature import Visibility
from components.dice import Dice
from components.terrain import MAX_RADIUS_FT
from components.values import Bound

ACTIONS = ("action", "bonus", "free")
TARGETS = ("self", "creature", "ally", "enemy", "allies", "enemies", "all")
SHAPES = ("burst", "cone", "line")

# The ranges a power's fields are held to, one place for both ways a power reaches a battle: a power
# file (``game.content.power_parse``) and a ``Power`` made in Python (``game.battle.power_fields``).

#: A range, a push or pull, an area's size, a made area's or light's radius.
FEET = Bound(0, MAX_RADIUS_FT, whole=False, unit="ft", above=True)
ATTACK_BONUS = Bound(-1000, 1000)
SAVE_DC = Bound(1, 1000)
#: A power's id: 1 to 64 letters, digits, '_' or '-' (and none of :data:`RESERVED_IDS`), as
#: ``re.fullmatch`` reads it.
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def rolls_nothing(dice: Dice) -> bool:
    """Whether ``dice`` as a power's damage or healing would always come to 0 (a roll counts at least
    0: ``-3``, ``1d4-4``, ``0d6``) while not being ``Dice(0, 0)``, the way to say none (a sweep's way
    to switch it off). Such dice are refused in a file and in a power made in Python alike."""
    return dice.count * dice.sides + dice.bonus <= 0 and (dice.count, dice.sides, dice.bonus) != (0, 0, 0)


@dataclass(frozen=True, slots=True)
class AreaShape:
    """The shape of a power's area: a burst of ``radius_ft``, or a cone or line of ``length_ft``."""

    shape: str
    radius_ft: float = 0
    length_ft: float = 0
    width_ft: float = 5


@dataclass(frozen=True, slots=True)
class Made:
    """An area or light a power creates where it lands."""

    radius_ft: float
    level: Visibility


# What caused a hit, a heal or a condition: an event's ``source`` is ``power:ID``, ``script:ID`` (a
# power's script; ``script:reaction`` for a reaction script), ``effect:N`` (a lasting effect) or
# ``fall``. The log, the simulation's tally and the grants read them back; each form is made here once.

#: A fall's source (its landing's damage, the prone it leaves).
FALL = "fall"
#: What a reaction script's hits are logged as coming from (``script:reaction``): no power's.
REACTION = "reaction"
#: What the simulation files damage of no power under (the GM's).
OTHER = "other"
#: Ids that already name a source of damage no power's id may share, in the order ``battles.csv``
#: puts them after the powers: :data:`FALL`, :data:`REACTION` and :data:`OTHER`.
#: A power called ``fall`` had its uses and hits shown as the falls', and ``battles.csv`` got two
#: ``dealt.fall`` columns.
RESERVED_IDS: tuple[str, ...] = (FALL, REACTION, OTHER)


def power_source(power_id: str) -> str:
    """The source of what a power's data did."""
    return f"power:{power_id}"


def script_source(power_id: str | None) -> str:
    """The source of what a power's script did, or a reaction script's (``power_id`` None)."""
    return f"script:{power_id or REACTION}"


def effect_source(effect_id: int | str) -> str:
    """The source of what a lasting effect does while it lasts."""
    return f"effect:{effect_id}"


def source_parts(source: str) -> tuple[str, str]:
    """A source's kind and what it names: ``("power", "strike")``, ``("effect", "3")``, ``("fall", "")``."""
    kind, _, rest = source.partition(":")
    return kind, rest


def effect_of(source: str) -> int | None:
    """The lasting effect a source names, or None."""
    kind, rest = source_parts(source)
    return int(rest) if kind == "effect" and rest.isdigit() else None


@dataclass(frozen=True, slots=True)
class Power:
    """One power, checked and ready to use. ``range_ft`` None means "on you" or melee reach."""

    id: str
    name: str
    description: str
    action: str = "action"
    range_ft: float | None = None
    area: AreaShape | None = None
    targets: str | None = None
    attack_bonus: int | None = None
    save_dc: int | None = None
    save_half: bool = False
    damage: Dice | None = None
    healing: Dice | None = None
    conditions: tuple[str, ...] = ()
    push_ft: float = 0
    pull_ft: float = 0
    teleport: bool = False
    flight: bool = False
    creates_area: Made | None = None
    creates_light: Made | None = None
    duration: int | None = None
    end_early: bool = False
    script: str | None = None
    source: str = field(default="", compare=False)

    # What kind of use it is, read off the fields above: the checks, the forecasts and the planner ask
    # these for every aim they weigh, so each is worked out once, when the power is made (fields left
    # out of __init__, equality, hashing and repr: a power is still its data alone).
    #: It covers an area: a burst, cone or line, or an area of darkness, fog or light it makes.
    has_area: bool = field(init=False, repr=False, compare=False)
    #: Aimed at a square you can see within range: an area with a range is centred there (a cone or line
    #: starts there), and a teleport lands there. Without a range an area is centred on you.
    aims_at_point: bool = field(init=False, repr=False, compare=False)
    #: A cone or line: it faces somewhere, away from you when aimed at a point, else as told.
    needs_direction: bool = field(init=False, repr=False, compare=False)
    #: No area, not on yourself, no teleport: one creature you can see within range.
    single_target: bool = field(init=False, repr=False, compare=False)
    #: A point of its aim counts: where it is centred or lands, or where a cone or line faces.
    takes_point: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        has_area = self.area is not None or self.creates_area is not None or self.creates_light is not None
        object.__setattr__(self, "has_area", has_area)
        object.__setattr__(self, "aims_at_point", self.range_ft is not None and (has_area or self.teleport))
        object.__setattr__(self, "needs_direction", self.area is not None and self.area.shape != "burst")
        object.__setattr__(self, "single_target", not has_area and self.targets != "self" and not self.teleport)
        object.__setattr__(self, "takes_point", self.aims_at_point or self.needs_direction)

    @property
    def grants(self) -> tuple[str, ...]:
        """The conditions a use that lands grants its target: its own, and flying for a flight."""
        return (*self.conditions, "flying") if self.flight else self.conditions

    @property
    def lasting(self) -> bool:
        """Whether using it leaves grants that its duration must take back."""
        return bool(self.conditions or self.flight or self.creates_area or self.creates_light)
