"""Rolls: the roll mode and the Defense an attack is made against, each one function with reasons.

The power system, the forecasts, the computer player and the window all ask these functions, so a
hit chance shown on hover is the chance the roll has. Each answer says why (fatigue, light, cover,
flat-footed), because a tactics game that hides its reasons is a guessing game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType

import esper

from components import Conditions, Defense, Fatigue, Position, Visibility, Vision
from components.dice import die
from components.forecasts import DefenseBreakdown, Modifier, RollMode
from components.rules import ROLL_KINDS, Rules
from systems.conditions import flat_footed_reason, unseeing
from systems.cover import cover_count, has_cover
from systems.state import BattleState
from systems.visibility import level_at, sight_value

_NORMAL = RollMode("normal", ())
# The light levels a roll mode is decided by, as plain ints: reading an enum member off its class costs
# CPython 3.11 about a thousand instructions, and a planner weighs a few hundred attacks a battle.
_POOR, _TERRIBLE = int(Visibility.POOR), int(Visibility.TERRIBLE)
_LEVEL_NAMES: Mapping[int, str] = MappingProxyType(
    {Visibility.POOR: "poor", Visibility.TERRIBLE: "terrible", Visibility.NO_VISION: "no"})


def roll_die(rng: random.Random, sides: int, mode: str = "normal") -> int:
    """One die roll as the roll mode says: with advantage the higher of two, with disadvantage the
    lower; any other mode (normal, critical failure) rolls once."""
    first = die(rng, sides)
    if mode in ("advantage", "disadvantage"):
        second = die(rng, sides)
        return max(first, second) if mode == "advantage" else min(first, second)
    return first


def _seeing(state: BattleState, entity: int, target_square: tuple[int, int] | None,
            from_square: tuple[int, int] | None) -> tuple[int, str]:
    """The level a roller sees at (a ``Visibility`` value): its own sight there, or the target
    square's if that is worse."""
    level = sight_value(state, entity, from_square)
    if target_square is not None:
        at_target = level_at(state, target_square)
        if at_target < level:
            return at_target, "at the target"
    return level, "where it stands"


def hindrances(kind: str, level: int | None, fatigue: int, rules: Rules) -> tuple[str, ...]:
    """What gives disadvantage on a roll of ``kind`` by a roller seeing at ``level`` (None: a roll the
    light does not change) with ``fatigue``: "fatigue" at the rules' threshold, on every roll; "light"
    at poor light or worse on Notice, at terrible or worse on an attack. The one test behind every roll
    mode: :func:`roll_mode` explains each, :func:`attack_mode` only counts them."""
    tired = fatigue >= rules.disadvantage_at_fatigue
    if level is not None and level <= (_POOR if kind == "notice" else _TERRIBLE):
        return ("fatigue", "light") if tired else ("light",)
    return ("fatigue",) if tired else ()


def light_effects(level: int, rules: Rules) -> tuple[str, ...]:
    """What seeing at ``level`` does to a creature, in words, from the tests the rolls and conditions
    make (:func:`hindrances`, a Notice by sight failing and flat-footed at no vision): what a log says
    of the light without restating a rule."""
    words = [f"disadvantage on {name}" for kind, name in (("notice", "Notice"), ("attack", "attacks"))
             if "light" in hindrances(kind, level, 0, rules)]
    if unseeing(level):
        words += ["a Notice by sight fails", "flat-footed"]
    return tuple(words) or ("no penalties",)


def attack_mode(sight: int, at_target: int, fatigue: int, rules: Rules) -> str:
    """The mode of an attack roll (no advantage given) by a roller whose own sight is ``sight`` at a
    target on a square of level ``at_target``: :func:`roll_mode`'s answer for an attack, from its
    parts, for a forecast that asks about many squares (the worse of the two levels counts)."""
    worse = at_target if at_target < sight else sight  # min(sight, at_target), without the builtin's slow call
    return "disadvantage" if hindrances("attack", worse, fatigue, rules) else "normal"


def defense_value(base: int, covered: bool, flat_footed: bool, rules: Rules) -> int:
    """Defense from its parts: the base, the cover bonus, less the flat-footed penalty (the number
    :func:`defense_against` explains term by term)."""
    return base + (rules.cover_bonus if covered else 0) - (rules.flat_footed_penalty if flat_footed else 0)


def roll_mode(state: BattleState, entity: int, kind: str, target_square: tuple[int, int] | None = None,
              sight: bool = True, advantage: bool = False, disadvantage: bool = False,
              from_square: tuple[int, int] | None = None) -> RollMode:
    """How a roll is made: "normal", "advantage", "disadvantage" or "critical failure", and why.

    The roller's vision (or, against a target, the worse of it and the target square's level) gives
    disadvantage on Notice when poor or worse and on attacks when terrible or worse; with no vision,
    a Notice roll that relies on ``sight`` fails critically. Fatigue at the threshold gives
    disadvantage on every roll. Advantage and disadvantage together cancel out.

    Raises:
        ValueError: ``kind`` is not a roll the rules know.
    """
    if kind not in ROLL_KINDS:
        raise ValueError(f"unknown roll kind {kind!r}: expected one of {', '.join(sorted(ROLL_KINDS))}")
    level: int | None = None
    seen_from = ""
    if kind in ("notice", "attack"):  # the rolls the light changes
        level, seen_from = _seeing(state, entity, target_square, from_square)
        if kind == "notice" and sight and unseeing(level):
            return RollMode("critical failure", ("no vision: a Notice that relies on sight fails",))
    fatigue = esper.component_for_entity(entity, Fatigue).level
    reasons = [f"fatigue {fatigue}: disadvantage on every roll" if why == "fatigue" else
               f"{_LEVEL_NAMES[level or 0]} vision {seen_from}: disadvantage on "
               + ("attacks" if kind == "attack" else "Notice") for why in hindrances(kind, level, fatigue, state.rules)]
    if not (reasons or advantage or disadvantage):
        return _NORMAL  # the common answer, made once
    disadvantage = disadvantage or bool(reasons)
    if advantage and disadvantage:
        return RollMode("normal", (*reasons, "advantage cancels disadvantage"))
    if advantage:
        return RollMode("advantage", ("advantage",))
    return RollMode("disadvantage" if disadvantage else "normal", tuple(reasons))


def defense_against(state: BattleState, target: int, attacker: int, attacker_square: tuple[int, int] | None = None,
                    target_square: tuple[int, int] | None = None) -> DefenseBreakdown:
    """The target's Defense against this attacker, with every modifier and its reason.

    Base Defense, +the cover bonus when walls or cover terrain (an arrow slit) hide the target from
    the attacker's square (``attacker_square`` to ask about a square it would attack from), -the
    flat-footed penalty.
    """
    rules = state.rules
    base = esper.component_for_entity(target, Defense).base
    here = attacker_square or esper.component_for_entity(attacker, Position).square
    there = target_square or esper.component_for_entity(target, Position).square
    covered = has_cover(state, here, there)
    active = esper.component_for_entity(target, Conditions).active
    if not covered and "flat-footed" not in active:
        return DefenseBreakdown(base, base, (), False)  # the common answer: nothing to add
    modifiers: list[Modifier] = []
    if covered:
        hidden = cover_count(state.caches, state.terrain, here, there)  # (a lookup: has_cover just asked it)
        modifiers.append(Modifier("cover", rules.cover_bonus, f"cover hides {hidden} of 4 corner lines from the "
                                                              "attacker"))  # (a wall, or an arrow slit's stone)
    flat_footed = "flat-footed" in active
    if flat_footed:
        sight = esper.component_for_entity(target, Vision).level
        why = flat_footed_reason(active, sight) or "flat-footed"  # (granted, with neither: the grant's word)
        modifiers.append(Modifier("flat-footed", -rules.flat_footed_penalty, why))
    return DefenseBreakdown(defense_value(base, covered, flat_footed, rules), base, tuple(modifiers), covered)
