"""Rolls: the roll mode and the Defense an attack is made against, each one function with reasons.

The power system, the forecasts, the computer player and the window all ask these functions, so a
hit chance shown on hover is the chance the roll has. Each answer says why (fatigue, light, cover,
flat-footed), because a tactics game that hides its reasons is a guessing game.
"""

from __future__ import annotations

import random

import esper

from components import Conditions, Defense, Fatigue, Position, Visibility, Vision
from components.dice import die
from components.forecasts import DefenseBreakdown, Modifier, RollMode
from components.rules import ROLL_KINDS, Rules
from systems.cover import has_cover
from systems.state import BattleState
from systems.visibility import vision_value

_NORMAL = RollMode("normal", ())
_LEVEL_NAMES: dict[int, str] = {Visibility.POOR: "poor", Visibility.TERRIBLE: "terrible", Visibility.NO_VISION: "no"}


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
    levels = state.levels
    assert levels is not None
    square = from_square or esper.component_for_entity(entity, Position).square
    level = vision_value(int(levels[square]), esper.component_for_entity(entity, Conditions))  # sight_level's
    if target_square is not None:
        at_target = int(levels[target_square])
        if at_target < level:
            return at_target, "at the target"
    return level, "where it stands"


def hinders(kind: str, level: int) -> bool:
    """Whether seeing at ``level`` gives disadvantage on a roll of ``kind``: Notice at poor light or
    worse, an attack at terrible or worse (other rolls do not depend on light)."""
    return level <= (Visibility.POOR if kind == "notice" else Visibility.TERRIBLE)


def tired(fatigue: int, rules: Rules) -> bool:
    """Whether fatigue at ``fatigue`` gives disadvantage on every roll."""
    return fatigue >= rules.disadvantage_at_fatigue


def attack_mode(sight: int, at_target: int, fatigue: int, rules: Rules) -> str:
    """The mode of an attack roll (no advantage given) by a roller whose own sight is ``sight`` at a
    target on a square of level ``at_target``: :func:`roll_mode`'s answer for an attack, from its
    parts, for a forecast that asks about many squares (the worse of the two levels counts)."""
    return "disadvantage" if tired(fatigue, rules) or hinders("attack", min(sight, at_target)) else "normal"


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
    reasons: list[str] = []
    if kind in ("notice", "attack"):  # the rolls the light changes
        level, seen_from = _seeing(state, entity, target_square, from_square)
        if kind == "notice" and sight and level == Visibility.NO_VISION:
            return RollMode("critical failure", ("no vision: a Notice that relies on sight fails",))
        if hinders(kind, level):
            reasons.append(f"{_LEVEL_NAMES[level]} vision {seen_from}: disadvantage on {kind}s"
                           if kind == "attack" else f"{_LEVEL_NAMES[level]} vision {seen_from}: disadvantage on Notice")
    fatigue = esper.component_for_entity(entity, Fatigue).level
    if tired(fatigue, state.rules):
        reasons.insert(0, f"fatigue {fatigue}: disadvantage on every roll")
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

    Base Defense, +the cover bonus when walls give the target cover from the attacker's square
    (``attacker_square`` to ask about a square it would attack from), -the flat-footed penalty.
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
        modifiers.append(Modifier("cover", rules.cover_bonus, "walls hide 3 of 4 corner lines from the attacker"))
    flat_footed = "flat-footed" in active
    if flat_footed:
        why = "surprised" if "surprised" in active else "no vision" if "blinded" in active or \
            esper.component_for_entity(target, Vision).level == Visibility.NO_VISION else "flat-footed"
        modifiers.append(Modifier("flat-footed", -rules.flat_footed_penalty, why))
    return DefenseBreakdown(defense_value(base, covered, flat_footed, rules), base, tuple(modifiers), covered)
