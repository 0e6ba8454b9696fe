"""A forecast in words: the lines the hover box shows for ``battle.forecast`` and ``forecast_move``.

Plain text and a tone per line ("text", "good", "bad", "dim", "ally"), no pygame: the numbers are
the forecast's own (hit chance, expected damage and its range, saves, falls), and the reasons
(roll mode, cover, Defense modifiers) are the battle's words.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from systems.areas import area_centre

Line = tuple[str, str]
NameFn = Callable[[int], str]
ShowsFn = Callable[[int], bool]


def _everyone(_: int) -> bool:
    return True


def _dice(dist: Any) -> str:
    """A distribution as "avg 4.5 (1-8)"."""
    return f"avg {dist.mean:.1f} ({dist.low}-{dist.high})"


def _mode(mode: Any) -> str:
    """A roll mode and its reasons: "disadvantage (dark: terrible light)"."""
    return mode.mode + (f" ({'; '.join(mode.reasons)})" if mode.reasons else "")


def _defense(defense: Any) -> list[Line]:
    """Defense against the user, with cover and every modifier's reason."""
    lines: list[Line] = [(f"Defense {defense.value} (base {defense.base})", "text")]
    if defense.cover:
        lines.append(("in cover from you", "bad"))
    for mod in defense.modifiers:
        lines.append((f"  {mod.amount:+d} {mod.name}: {mod.reason}", "dim"))
    return lines


def _who(target: int, ally: bool, name: NameFn, user: int | None, ally_word: str) -> str:
    """A creature as the box names it: the user itself as "(self)", an ally marked."""
    return name(target) + (" (self)" if target == user else f" ({ally_word})" if ally else "")


def _rolls(t: Any) -> list[Line]:
    """The attack roll against the target, or its save: the chance, the numbers and why."""
    lines: list[Line] = []
    if t.attack is not None:
        a = t.attack
        lines.append((f"  hit {a.chance:.0%}: d20 {a.bonus:+d} vs Defense {a.defense.value}",
                      "good" if a.chance >= 0.5 else "bad"))
        lines.append((f"  roll: {_mode(a.mode)}", "text" if a.mode.mode == "normal" else "bad"))
        lines += [("  " + text, tone) for text, tone in _defense(a.defense)]
    if t.save is not None:
        s = t.save
        half = ", half on a save" if s.half_on_success else ""
        lines.append((f"  saves {s.chance:.0%} vs DC {s.dc}{half}; roll: {_mode(s.mode)}", "text"))
    return lines


def _healing(t: Any) -> list[Line]:
    """The healing's dice and, for a downed target, the chance it is no longer downed and can act
    again (or only stops being downed: a heal does not wake the unconscious). Not "back on its feet":
    one a fall downed still lies prone, as the log says."""
    lines: list[Line] = [(f"  healing {_dice(t.healing)}", "good")]
    if t.stands > 0:
        lines.append((f"  no longer downed, can act: {t.stands:.0%}", "good" if t.ally else "bad"))
    elif t.revives > 0:
        lines.append((f"  no longer downed: {t.revives:.0%}, but still unconscious", "text"))
    return lines


def target_lines(t: Any, name: NameFn, user: int | None = None) -> list[Line]:
    """One creature the use reaches: its roll, damage, healing, push and fall, and the chance it
    drops; a use with none of those (a blink, a flight) says it takes effect with no roll."""
    lines: list[Line] = [(_who(t.target, t.ally, name, user, "ALLY"), "ally" if t.ally else "text"), *_rolls(t)]
    if t.damage is not None:
        lines.append((f"  damage {_dice(t.damage)}", "text"))
    if t.healing is not None:
        lines += _healing(t)
    if t.conditions:
        lines.append((f"  {t.affected:.0%}: {', '.join(t.conditions)}", "text"))
    if t.pushed_to is not None:
        lines.append((f"  pushed to {t.pushed_to}", "text"))
    if t.fall is not None:
        lines.append((f"  then falls {fall_words(t.fall)}", "bad"))
    if t.downs > 0:
        lines.append((f"  drops it: {t.downs:.0%}", "good" if not t.ally else "bad"))
    if t.kills > 0:
        lines.append((f"  kills it: {t.kills:.0%}", "good" if not t.ally else "bad"))
    if len(lines) == 1:
        lines.append(("  no roll: it takes effect", "dim"))
    return lines


def forecast_lines(forecast: Any, power_name: str, name: NameFn, shows: ShowsFn = _everyone,
                   foresight: Any = None, power: Any = None, covered: int | None = None) -> list[Line]:
    """The hover box for a power aimed at a target or point: illegal and why, or who it catches
    (allies marked) and each one's odds, what light or veil it makes and where (``power``: its
    data), and what its script would add (``foresight``); creatures ``shows`` hides (fog) are left out.
    ``covered``: the squares the window draws red for the area (``area_reached``, heights counted),
    the count given; without it, the area's own squares (``forecast.squares``)."""
    if not forecast.legal:
        return [(power_name, "text"), (f"cannot: {forecast.problem}", "bad")]
    lines: list[Line] = [(power_name, "text"), *made_lines(forecast, power)]
    targets = [t for t in forecast.targets if shows(t.target)]
    if forecast.squares:
        caught = ", ".join(_who(t.target, t.ally, name, forecast.user, "ally") for t in targets) or "nobody seen"
        drawn = len(forecast.squares) if covered is None else covered
        lines.append((f"area of {_count(drawn, 'square')} catches: {caught}", "text"))
    for t in targets:
        lines += target_lines(t, name, forecast.user)
    if len(targets) > 1 and len(targets) == len(forecast.targets) and any(t.damage is not None for t in targets):
        # (a heal of two friends read "expected damage (enemies - allies): 0.0")
        lines.append((f"expected damage (enemies - allies): {forecast.expected_damage:.1f}", "text"))
    if forecast.scripted:
        lines += script_lines(foresight, name, shows, forecast.user)
    return lines


def made_lines(forecast: Any, power: Any) -> list[Line]:
    """The light or the area (darkness, fog) a use makes, in words from the power's data: "makes no
    vision within 10 ft of (13, 2)"; where its red squares are, the battle's ``made_squares``."""
    if power is None:
        return []
    centre = area_centre(power, forecast.from_square, forecast.point)  # (the rule's own answer, as it resolves)
    lines: list[Line] = []
    for made, what in ((power.creates_area, "an area of"), (power.creates_light, "light,")):
        if made is not None:
            lines.append((f"  makes {what} {made.level.word} within {made.radius_ft:g} ft of {tuple(centre)}", "text"))
    return lines


def script_lines(foresight: Any, name: NameFn, shows: ShowsFn = _everyone, user: int | None = None) -> list[Line]:
    """What the use's script would add (``battle.foresee_script``: its ``on_use``, then its ``on_hit``
    on each target, for a use that lands), or that a script decides what is not shown."""
    if foresight is None:
        return [("a script decides part of this: not counted above", "dim")]
    lines: list[Line] = [("its script adds (if it lands; dice read at 5 quantiles):", "dim")]
    for seen in foresight:
        said: dict[int, tuple[list[str], bool]] = {}  # one line a creature: its numbers, then each condition
        for o in seen.outcomes:
            if not shows(o.target):
                continue
            parts = said.setdefault(o.target, ([], o.ally))[0]
            parts += [f"damage avg {o.damage:.1f}"] if o.damage is not None else []
            parts += [f"healing avg {o.healing:.1f}"] if o.healing is not None else []
            parts += [f"{', '.join(o.conditions)} {o.affected:.0%}"] if o.conditions else []
            parts += [f"drops it {o.downs:.0%}"] if o.downs > 0 else []
        for target, (parts, ally) in said.items():
            who = _who(target, ally, name, user, "ALLY")
            lines.append((f"  {who}: {'; '.join(parts) or 'no change'}", "ally" if ally else "text"))
    return lines


def move_lines(forecast: Any, shows: ShowsFn = _everyone) -> list[Line]:
    """The hover box for a move: its cost along the real path, where it stops, the fall, and cover
    from the enemies ``shows`` lets the person see."""
    if not forecast.legal:
        return [(f"cannot move there: {forecast.problem}", "bad")]
    lines: list[Line] = [(f"move {forecast.cost_ft} ft ({_count(len(forecast.path) - 1, 'square')})", "text")]
    if forecast.stops_at is not None and forecast.stops_at != forecast.square:
        lines.append((f"stops at {forecast.stops_at}: nothing under it", "bad"))
    if forecast.fall is not None:
        lines.append((f"FALLS {fall_words(forecast.fall)}", "bad"))
    seen = [cover for enemy, cover in forecast.cover if shows(enemy)]
    if seen:
        enemies = "enemy" if len(seen) == 1 else "enemies"
        lines.append((f"cover there from {sum(seen)} of {len(seen)} {enemies} in sight", "dim"))
    return lines


def fall_words(fall: Any) -> str:
    """A fall's odds (``FallOdds``) in words, for a move's and a push's alike: "20 ft onto soft
    ground: 1d6, avg 3.5 (1-6)". A shove's fall said only "30 ft: avg 5.2": neither its dice nor
    the soft ground that halved them."""
    soft = " onto soft ground" if fall.soft else ""
    return f"{fall.distance_ft:g} ft{soft}: {fall.dice}d{fall.die_sides}, {_dice(fall.damage)}"


def reach_words(power: Any, square_ft: float) -> str:
    """How far a power reaches and what it covers, in a few words for the list of a creature's
    powers: "60 ft, burst 10 ft", "60 ft, 10 ft radius" (darkness made there), "cone 15 ft",
    "line 30 ft", "self", "reach 5 ft" (a blow: the next square), "10 ft around it" (a veil or light
    made around the user). It used to read "self/reach" for anything without a range, a cone alike
    with a blow."""
    area = power.area
    shape = None if area is None else (
        f"burst {area.radius_ft:g} ft" if area.shape == "burst" else f"{area.shape} {area.length_ft:g} ft")
    made = power.creates_area or power.creates_light
    if power.range_ft is not None:
        covers = shape or (f"{made.radius_ft:g} ft radius" if made is not None else "")
        return f"{power.range_ft:g} ft" + (f", {covers}" if covers else "")
    if shape is not None:
        return shape if area.shape != "burst" else f"{shape} around it"
    if made is not None:
        return f"{made.radius_ft:g} ft around it"
    if power.targets == "self" or power.teleport:
        return "self"
    return f"reach {square_ft:g} ft"


def _count(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless one: "1 square", "5 squares"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
