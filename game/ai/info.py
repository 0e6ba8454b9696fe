"""What the baseline players know of a power, read defensively, and the owner that remembers it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.ai.maps import LayoutAnswers, MapAnswers


@dataclass(frozen=True, slots=True)
class PowerInfo:
    """What the AI needs to know about one power, read defensively from ``battle.power(id)``.

    The powers API is young, so every field has a default: a power the AI does not understand is
    treated as a single-target attack, which is what most powers are.
    """

    id: str
    range_ft: float          # reach in feet for targeting (melee reach when the power gives none)
    self_only: bool          # centred on / aimed at the user only
    area: Any | None         # the power's area object, or None
    friendly: bool           # helps its targets (heal, buff): never aimed at enemies
    expected: float          # average damage on a hit (1.0 when the power does not say)
    attack: bool             # rolls against Defense (so cover and disadvantage matter)


def _average(value: Any) -> float | None:
    """The average of a damage value: a Dice-like object, "2d6+1", or a number."""
    if value is None:
        return None
    average = getattr(value, "average", None)
    if callable(average):
        return float(average())
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        try:
            from components.dice import Dice
            return Dice.parse(value).average()
        except (ImportError, ValueError):
            return None
    return None


def power_info(battle: Any, power_id: str) -> PowerInfo:
    """Read a power into a :class:`PowerInfo`, defensively: fields the powers API lacks get defaults.

    A power with neither damage nor conditions (light, fly, blink) is worth nothing to an attacker;
    one that only inflicts conditions (dazzle, blind) is worth a little, so it is used when nothing
    better is in reach.
    """
    reach = float(battle.rules.square_ft)
    power = battle.power(power_id) if hasattr(battle, "power") else None
    range_ft = getattr(power, "range_ft", None)
    targets = str(getattr(power, "targets", "") or "").lower()
    area = getattr(power, "area", None)
    self_only = targets in ("self", "user", "you") or (
        range_ft is None and area is not None and getattr(area, "shape", "burst") == "burst")
    friendly = targets in ("ally", "allies", "self", "user", "you") or bool(getattr(power, "healing", None))
    expected = _average(getattr(power, "damage", None))
    if expected is None:
        if getattr(power, "conditions", ()):
            expected = 0.5
        elif getattr(power, "script", None) and getattr(power, "attack_bonus", None) is not None:
            expected = 1.0
        else:
            expected = 0.0
    if getattr(power, "teleport", False) or getattr(power, "flight", False):
        friendly = True
    attack = getattr(power, "save_dc", None) is None
    if range_ft is None and area is not None and not self_only:
        range_ft = getattr(area, "length_ft", None) or reach  # a cone or line reaches its length
    return PowerInfo(
        id=power_id,
        range_ft=float(range_ft) if range_ft is not None else (0.0 if self_only else reach),
        self_only=self_only,
        area=area,
        friendly=friendly or expected <= 0,
        expected=expected,
        attack=attack,
    )


class BaselineCaches:
    """What the baseline players remember between turns and battles: each power read into a
    :class:`PowerInfo` and the map answers of each wall layout. Owned by the battle's
    ``MapCaches`` (``owned("ai.baseline", ...)``), so battles that share a map share these, and
    nothing is kept at module level."""

    def __init__(self) -> None:
        self.infos: dict[tuple[str, int, float], tuple[Any, PowerInfo]] = {}
        self.layouts = LayoutAnswers()

    def answers_for(self, terrain: Any) -> MapAnswers:
        return self.layouts.answers_for(terrain)

    def power_info(self, battle: Any, power_id: str) -> PowerInfo:
        """:func:`power_info`, read once per Power object: a simulation asks it for every power of
        every creature on every turn, and a power does not change during a battle."""
        power = battle.power(power_id)
        key = (power_id, id(power), battle.rules.square_ft)
        found = self.infos.get(key)
        if found is not None and found[0] is power:
            return found[1]
        info = power_info(battle, power_id)
        if len(self.infos) >= 1024:
            self.infos.clear()
        self.infos[key] = (power, info)
        return info
