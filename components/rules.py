"""The rules table: every number the combat rules leave open, as data a scenario can override.

Systems read these fields instead of carrying constants, so that a scenario's ``[rules]`` table (or
``Battle(rules=...)``) can say a square is 10 ft or that flat-footed costs 3 Defense.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Mapping
from dataclasses import asdict, dataclass, fields, replace
from types import MappingProxyType
from typing import Any

from components.values import Bound, shown

DIAGONAL_RULES = ("one", "alternating")
#: How a range counts height: "straight" is the straight line between the grid distance and the
#: difference in height (a flier 60 ft up is 60 ft away); "larger" takes the larger of the two.
HEIGHT_RULES = ("straight", "larger")

#: Grows when a change of the rules makes an old battle replay differently; saves and replays
#: record it, so that loading an old one says so in one line.
RULES_VERSION = 11  # 11: a script pays for each part of a nested value as it is queued (a script near
#                     its step budget may now run out where it did not)
#                    (10: a creature's own orders refused in another's turn (a command log that gave
#                     them replays no more); a hit at 0 Health under fatigue_per_hit_at_zero = 0 tells
#                     no fatigue change;
#                     9: refusals reworded (standing up; a script's amount or duration out of range);
#                     8: ground raised to meet a creature mid-fall lands it, hurt as far as it fell;
#                     7: a script's creatures_in_area counts heights, as every area does;
#                     5: of equally short ways, a walk takes the one with fewest drops that hurt)

#: Conditions a command or power may grant. Derived ones (downed, unconscious, dead) follow from
#: Health and Fatigue and cannot be granted; slowed and flat-footed can be both granted and derived.
#: "hidden" is a marker with no effect of its own: no rule reads it (it does not stop sight, nor
#: give advantage); the window shows its badge and a script may read it, as a scenario's own rule.
GRANTABLE_CONDITIONS = frozenset(
    {"prone", "surprised", "flat-footed", "dazzled", "blinded", "slowed", "flying", "hidden", "restrained"}
)
DERIVED_CONDITIONS = frozenset({"downed", "unconscious", "dead"})
ROLL_KINDS = frozenset({"attack", "notice", "save", "check", "initiative"})


#: The allowed range of every number of the rules, inclusive. Past these the rules mean nothing (a
#: 0 ft square, a die of no sides) or only make arithmetic overflow (a speed of 10**30 ft).
RULE_BOUNDS: Mapping[str, Bound] = MappingProxyType({
    "square_ft": Bound(1, 100, unit="ft"),
    "speed_ft": Bound(0, 10_000, unit="ft"),
    "slowed_speed_factor": Bound(0, 1, whole=False, above=True),
    "max_fatigue": Bound(1, 100, unit="fatigue points"),
    "slowed_at_fatigue": Bound(0, 100, unit="fatigue points"),  # 0: slowed from the start, a rule one may want
    "disadvantage_at_fatigue": Bound(0, 100, unit="fatigue points"),
    # 0 would hold from the start: every creature unconscious unhurt, a battle nobody can fight
    "unconscious_at_fatigue": Bound(1, 100, unit="fatigue points"),
    "fatigue_per_hit_at_zero": Bound(0, 100, unit="fatigue points"),
    "fall_ft_per_round": Bound(1, 100_000, unit="ft"),
    "fall_ft_per_die": Bound(1, 1000, unit="ft"),
    "fall_die_sides": Bound(1, 1000, unit="sides"),
    "fall_max_dice": Bound(0, 1000, unit="dice"),
    "soft_landing_divisor": Bound(1, 100),
    "cover_bonus": Bound(-1000, 1000, unit="Defense points"),
    "cover_lines_needed": Bound(1, 4, unit="corner lines"),
    "flat_footed_penalty": Bound(-1000, 1000, unit="Defense points"),
    "initiative_die": Bound(1, 1000, unit="sides"),
    "surprise_rounds": Bound(0, 100, unit="rounds"),
})

#: Rules that must not exceed another, as (lower, higher, why): each fatigue threshold and a hit's
#: fatigue lie on the track. Past its end a threshold is never reached, so it silently means nothing.
#: The thresholds among themselves may come in any order (disadvantage before slowed is a variant a
#: designer may sweep), so no pair of them is here.
RULE_ORDER: tuple[tuple[str, str, str], ...] = (
    ("slowed_at_fatigue", "max_fatigue", "a creature is slowed on the fatigue track, not past its end"),
    ("disadvantage_at_fatigue", "max_fatigue", "disadvantage comes on the fatigue track, not past its end"),
    ("unconscious_at_fatigue", "max_fatigue", "a creature falls unconscious on the fatigue track, not past its end"),
    ("fatigue_per_hit_at_zero", "max_fatigue", "a hit at 0 Health adds at most the whole fatigue track"),
)

#: Rules that are 0 or at least another, as (rule, measure, why): a walk above 0 but shorter than a
#: square never leaves it, so every creature would stand still while the file says it walks.
RULE_NONE_OR_AT_LEAST: tuple[tuple[str, str, str], ...] = (
    ("speed_ft", "square_ft", "a walk shorter than a square never leaves it; 0 says nobody walks"),
)


def short_of(value: float, measure: float) -> bool:
    """Whether a rule of :data:`RULE_NONE_OR_AT_LEAST` (or a creature's own speed) is above 0 but
    below its measure: a walk of 3 ft on 5 ft squares, which never leaves its square."""
    return 0 < value < measure


def speed_problem(feet_a_round: float, square_ft: float) -> str | None:
    """Why a creature's own speed cannot be: above 0 but short of a square, so it never leaves its
    square while its sheet says it walks. One wording for a scenario file and for ``spawn``."""
    if not short_of(feet_a_round, square_ft):
        return None
    return f"expected 0 (it never moves) or at least {square_ft:g} ft (one square, rules.square_ft), got {feet_a_round}"


def order_problems(values: Mapping[str, Any], given: Collection[str] | None = None) -> list[str]:
    """Why ``values`` (every rule's value, each within its range) break :data:`RULE_ORDER`: one line
    per pair out of order, naming both keys and what was expected.

    So are the rules of :data:`RULE_NONE_OR_AT_LEAST` above 0 but below their measure.

    ``given``: the keys the caller set (a scenario's ``[rules]``); the others are marked as the
    default, so that a file setting only ``max_fatigue = 3`` learns that it is below a default.
    """
    def named(key: str) -> str:
        default = "" if given is None or key in given else " (the default)"
        return f"rules.{key} = {values[key]}{default}"

    found = [f"{named(low)} is above {named(high)}; expected {low} <= {high} ({why})"
             for low, high, why in RULE_ORDER if values[low] > values[high]]
    found += [f"{named(low)} is below {named(high)}; expected {low} = 0 or at least {high} ({why})"
              for low, high, why in RULE_NONE_OR_AT_LEAST if short_of(values[low], values[high])]
    return found


def field_problem(name: str, value: object) -> str | None:
    """Why ``value`` cannot be rule ``name`` on its own (its type or range), naming ``rules.NAME``;
    None when it can. A scenario checks each key with this, so that every bad key is listed."""
    if name == "diagonal" and (not isinstance(value, str) or value not in DIAGONAL_RULES):
        return f"rules.diagonal must be one of {', '.join(DIAGONAL_RULES)}, not {shown(value)}"
    if name == "height_distance" and (not isinstance(value, str) or value not in HEIGHT_RULES):
        return f"rules.height_distance must be one of {', '.join(HEIGHT_RULES)}, not {shown(value)}"
    if name == "cover_enabled" and not isinstance(value, bool):
        return f"rules.cover_enabled must be true or false, not {shown(value)}"
    problem = RULE_BOUNDS[name].problem(value) if name in RULE_BOUNDS else None
    return f"rules.{name}: {problem}" if problem else None


@dataclass(frozen=True, slots=True)
class Rules:
    """Defaults for every open number of the rules. Feet everywhere, squares for positions.

    Every number has a range (:data:`RULE_BOUNDS`): ``square_ft`` 1..100, ``speed_ft`` 0..10000,
    ``slowed_speed_factor`` above 0 and at most 1, fatigue thresholds 0..100 (``unconscious_at_fatigue``
    and ``max_fatigue`` 1..100), falls: ``fall_ft_per_round`` 1..100000, ``fall_ft_per_die`` 1..1000,
    ``fall_die_sides`` 1..1000, ``fall_max_dice`` 0..1000, ``soft_landing_divisor`` 1..100;
    ``cover_bonus`` and ``flat_footed_penalty`` -1000..1000, ``cover_lines_needed`` 1..4,
    ``initiative_die`` 1..1000, ``surprise_rounds`` 0..100. ``diagonal`` is "one" or
    "alternating", ``height_distance`` "straight" or "larger", ``cover_enabled`` true or false.
    Each fatigue threshold and ``fatigue_per_hit_at_zero`` is at most ``max_fatigue``
    (:data:`RULE_ORDER`); the thresholds may come in any order among themselves.

    Raises:
        ValueError: a field of the wrong type or out of its range, naming ``rules.FIELD``, the
            range and the value; or two fields out of order, naming both.
    """

    square_ft: int = 5
    diagonal: str = "one"  # "one": a diagonal step is one square; "alternating": 5-10-5
    speed_ft: int = 30
    slowed_speed_factor: float = 0.5
    max_fatigue: int = 5
    slowed_at_fatigue: int = 3
    disadvantage_at_fatigue: int = 4
    unconscious_at_fatigue: int = 5
    fatigue_per_hit_at_zero: int = 1
    fall_ft_per_round: int = 500
    fall_ft_per_die: int = 10
    fall_die_sides: int = 6
    fall_max_dice: int = 50
    soft_landing_divisor: int = 2
    cover_enabled: bool = True
    cover_bonus: int = 5
    cover_lines_needed: int = 3
    flat_footed_penalty: int = 2
    initiative_die: int = 20
    surprise_rounds: int = 1
    height_distance: str = "straight"  # "straight" or "larger": how ranges, reach and areas count height

    def __post_init__(self) -> None:
        for each in fields(self):
            problem = field_problem(each.name, getattr(self, each.name))
            if problem:
                raise ValueError(problem)
        problems = order_problems({name: getattr(self, name) for name in RULE_BOUNDS})
        if problems:
            raise ValueError("; ".join(problems))

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None, where: str = "rules") -> Rules:
        """Build a table from defaults overridden by ``data``; errors name ``where`` and the key.

        Args:
            data: overrides, e.g. a scenario's ``[rules]`` table.
            where: what to call the source in an error (``"keep.toml: [rules]"``).
        """
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise ValueError(f"{where}: expected a table of rule overrides, not {type(data).__name__}")
        known = sorted(f.name for f in fields(cls))
        unknown = [key for key in data if key not in known]
        if unknown:
            close = difflib.get_close_matches(str(unknown[0]), known, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ValueError(f"{where}: unknown rule {shown(unknown[0])}{hint}; known rules: {', '.join(known)}")
        problem = next((p for key, value in data.items() if (p := field_problem(key, value))), None)
        if problem is None:  # every key in its range: now their order, with the defaults marked
            problem = "; ".join(order_problems({**asdict(cls()), **dict(data)}, data)) or None
        if problem is not None:
            raise ValueError(f"{where}: {problem}")
        return replace(cls(), **dict(data))

    def as_dict(self) -> dict[str, Any]:
        """Plain values, for saves and for showing a scenario's effective rules."""
        return asdict(self)
