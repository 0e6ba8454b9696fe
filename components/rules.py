"""The rules table: every number the combat rules leave open, as data a scenario can override.

Systems read these fields instead of carrying constants, so that a scenario's ``[rules]`` table (or
``Battle(rules=...)``) can say a square is 10 ft or that flat-footed costs 3 Defense.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

DIAGONAL_RULES = ("one", "alternating")

#: Conditions a command or power may grant. Derived ones (downed, unconscious, dead) follow from
#: Health and Fatigue and cannot be granted; slowed and flat-footed can be both granted and derived.
GRANTABLE_CONDITIONS = frozenset(
    {"prone", "surprised", "flat-footed", "dazzled", "blinded", "slowed", "flying", "hidden", "restrained"}
)
DERIVED_CONDITIONS = frozenset({"downed", "unconscious", "dead"})
ROLL_KINDS = frozenset({"attack", "notice", "save", "check", "initiative"})


@dataclass(frozen=True, slots=True)
class Rules:
    """Defaults for every open number of the rules. Feet everywhere, squares for positions."""

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

    def __post_init__(self) -> None:
        if self.diagonal not in DIAGONAL_RULES:
            raise ValueError(f"rules.diagonal must be one of {', '.join(DIAGONAL_RULES)}, not {self.diagonal!r}")
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type in ("int", "float") and (isinstance(value, bool) or not isinstance(value, (int, float))):
                raise ValueError(f"rules.{f.name} must be a number, not {value!r}")
            if f.type == "bool" and not isinstance(value, bool):
                raise ValueError(f"rules.{f.name} must be true or false, not {value!r}")
        positive = ("square_ft", "max_fatigue", "fall_ft_per_die", "fall_die_sides", "soft_landing_divisor",
                    "initiative_die", "cover_lines_needed", "fall_ft_per_round")
        for name in positive:
            if getattr(self, name) <= 0:
                raise ValueError(f"rules.{name} must be above 0, not {getattr(self, name)!r}")
        if not 0 < self.slowed_speed_factor <= 1:
            raise ValueError(f"rules.slowed_speed_factor must be in (0, 1], not {self.slowed_speed_factor!r}")
        bounded = {"fall_max_dice": 1000, "initiative_die": 1000, "fall_die_sides": 1000, "max_fatigue": 100,
                   "surprise_rounds": 100}
        for name, most in bounded.items():
            if getattr(self, name) > most:
                raise ValueError(f"rules.{name} must be at most {most}, not {getattr(self, name)!r}")
        if self.surprise_rounds < 0:
            raise ValueError(f"rules.surprise_rounds must be 0 or more, not {self.surprise_rounds!r}")
        if self.cover_lines_needed > 4:
            raise ValueError(f"rules.cover_lines_needed must be 1-4, not {self.cover_lines_needed!r}")

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
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"{where}: unknown rule {unknown[0]!r}; known rules: {', '.join(sorted(known))}")
        try:
            return replace(cls(), **dict(data))
        except ValueError as err:
            raise ValueError(f"{where}: {err}") from None

    def as_dict(self) -> dict[str, Any]:
        """Plain values, for saves and for showing a scenario's effective rules."""
        return asdict(self)
