"""What the baseline players know of a power, and the owner that remembers it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from components.powers import Power
from game.ai.maps import LayoutAnswers, MapAnswers


@dataclass(frozen=True, slots=True)
class PowerInfo:
    """What the baseline players need to know about one power, read once from ``battle.power(id)``."""

    id: str
    range_ft: float          # reach in feet for targeting (melee reach when the power gives none)
    self_only: bool          # centred on / aimed at the user only
    area: Any | None         # the power's area object, or None
    friendly: bool           # helps its targets (heal, buff): never aimed at enemies
    expected: float          # average damage on a hit (the baseline's own rough worth when it has none)
    attack: bool             # rolls against Defense (so cover and disadvantage matter)


def power_info(battle: Any, power_id: str) -> PowerInfo:
    """Read a power into a :class:`PowerInfo`.

    A power with neither damage nor conditions (light, fly, blink) is worth nothing to an attacker;
    one that only inflicts conditions (dazzle, blind) is worth a little, so it is used when nothing
    better is in reach; a script's attack is counted as 1 (the baseline does not read scripts).
    """
    reach = float(battle.rules.square_ft)
    power: Power = battle.power(power_id)
    range_ft, area = power.range_ft, power.area
    self_only = power.targets == "self" or (range_ft is None and area is not None and area.shape == "burst")
    friendly = power.targets in ("ally", "allies", "self") or power.healing is not None \
        or power.teleport or power.flight
    if power.damage is not None:
        expected = power.damage.average()
    else:
        expected = 0.5 if power.conditions else 1.0 if power.script and power.attack_bonus is not None else 0.0
    if range_ft is None and area is not None and not self_only:
        range_ft = area.length_ft or reach  # a cone or line reaches its length
    return PowerInfo(
        id=power_id,
        range_ft=float(range_ft) if range_ft is not None else (0.0 if self_only else reach),
        self_only=self_only,
        area=area,
        friendly=friendly or expected <= 0,
        expected=expected,
        attack=power.save_dc is None,
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
