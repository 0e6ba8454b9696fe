"""Overrides of a scenario: dotted keys put into a copy of the file's data, which is then checked
exactly like a file (so a sweep can never set what a designer could not write).

Keys: ``name``, ``description``, ``seed``, ``ambient``, ``rules.FIELD``, ``creatures.KEY.FIELD``,
``teams.NAME.FIELD``, ``lights.N.FIELD``, ``areas.N.FIELD``, ``map.legend.CHAR.FIELD``. Only where a
value goes is checked here (with a "did you mean" for every misspelt part); what it may be is
checked by the parser, with the same ranges and messages as the file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from components.values import shown, shown_text
from game.content.checks import MAX_KEY_SHOWN, did_you_mean
from game.content.scenario_parse import CREATURE_FIELDS, LEGEND_FIELDS, LIGHT_FIELDS, RULE_FIELDS, TEAM_FIELDS

__all__ = ["KEYS_HELP", "LEGEND", "apply_override", "key_parts", "override_problem"]

KEYS_HELP = ("name, description, seed, ambient, rules.FIELD, creatures.KEY.FIELD, teams.NAME.FIELD, lights.N.FIELD, "
             "areas.N.FIELD or map.legend.CHAR.FIELD")
_CREATURE_KEYS = tuple(f for f in CREATURE_FIELDS if f != "key")


def _field(name: str, known: tuple[str, ...], what: str) -> str | None:
    if name in known:
        return None
    return f"unknown {what} {shown_text(name)}{did_you_mean(name, known)}; expected one of {', '.join(known)}"


def _top(data: dict[str, Any], parts: list[str], value: Any) -> str | None:
    data[parts[0]] = value
    return None


def _rules(data: dict[str, Any], parts: list[str], value: Any) -> str | None:
    problem = _field(parts[1], RULE_FIELDS, "rule")
    if problem:
        return problem
    rules = data.setdefault("rules", {})
    if not isinstance(rules, dict):
        return "the file's [rules] is not a table"
    rules[parts[1]] = value
    return None


def _creatures(data: dict[str, Any], parts: list[str], value: Any) -> str | None:
    problem = _field(parts[2], _CREATURE_KEYS, "creature field")
    if problem:
        return problem
    tables = [t for t in data.get("creatures", []) if isinstance(t, dict)] \
        if isinstance(data.get("creatures"), list) else []
    for table in tables:
        if table.get("key") == parts[1]:
            table[parts[2]] = value
            return None
    keys = [str(t.get("key")) for t in tables]
    return f"no creature with key {shown_text(parts[1])}{did_you_mean(parts[1], keys)}; keys: {', '.join(keys)}"


def _teams(data: dict[str, Any], parts: list[str], value: Any) -> str | None:
    teams = data.get("teams") if isinstance(data.get("teams"), dict) else {}
    assert isinstance(teams, dict)
    if not isinstance(teams.get(parts[1]), dict):
        return f"no team {shown_text(parts[1])}{did_you_mean(parts[1], teams)}; teams: {', '.join(teams)}"
    problem = _field(parts[2], tuple(TEAM_FIELDS), "team field")
    if problem:
        return problem
    teams[parts[1]][parts[2]] = value
    return None


def _lights(data: dict[str, Any], parts: list[str], value: Any) -> str | None:
    items = data.get(parts[0]) if isinstance(data.get(parts[0]), list) else []
    assert isinstance(items, list)
    index = parts[1]
    # one spelling per entry, in ASCII digits ('00' would be a second key for entry 0, whose sweeps would
    # both set it; '²' is a digit that int() refuses); no longer than the largest index (past 4,300
    # digits int() itself refuses)
    if not (index.isascii() and index.isdigit() and len(index) <= len(str(len(items)))
            and index == str(int(index))) or int(index) >= len(items) or not isinstance(items[int(index)], dict):
        if not items:
            return f"no {parts[0]} entry {shown(index)}; the scenario has no {parts[0]}"
        return (f"no {parts[0]} entry {shown(index)}; expected an index written 0..{len(items) - 1} "
                f"(there are {len(items)})")
    problem = _field(parts[2], tuple(LIGHT_FIELDS), "field")
    if problem:
        return problem
    items[int(index)][parts[2]] = value
    return None


def _legend(data: dict[str, Any], parts: list[str], value: Any) -> str | None:
    if parts[1] != "legend":
        return f"unknown key; expected {KEYS_HELP}"
    game_map = data.get("map") if isinstance(data.get("map"), dict) else {}
    assert isinstance(game_map, dict)
    legend = game_map.get("legend") if isinstance(game_map.get("legend"), dict) else {}
    assert isinstance(legend, dict)
    if not isinstance(legend.get(parts[2]), dict):
        return f"no legend character {shown_text(parts[2])}; the legend has {', '.join(repr(ch) for ch in legend)}"
    problem = _field(parts[3], tuple(LEGEND_FIELDS), "legend field")
    if problem:
        return problem
    legend[parts[2]][parts[3]] = value
    return None


#: head -> (number of dotted parts, where the value goes)
_PLACES: Mapping[str, tuple[int, Callable[[dict[str, Any], list[str], Any], str | None]]] = MappingProxyType({
    "name": (1, _top), "description": (1, _top), "seed": (1, _top), "ambient": (1, _top), "rules": (2, _rules),
    "creatures": (3, _creatures), "teams": (3, _teams), "lights": (3, _lights), "areas": (3, _lights),
    "map": (4, _legend),
})
_HEADS = tuple(_PLACES)


#: Where a key names a legend character, whatever character it is (``map.legend.^.ground``).
LEGEND = "map.legend."


def key_parts(key: str) -> list[str]:
    """A dotted key's parts. A legend character is the one part that may itself hold a dot
    (``map.legend...FIELD`` for the character "."): a legend key's parts are read from both ends."""
    parts = key.split(".")
    if key.startswith(LEGEND) and len(parts) > 4:
        return ["map", "legend", key[len(LEGEND):key.rindex(".")], parts[-1]]
    return parts


def apply_override(data: dict[str, Any], key: object, value: Any) -> str | None:
    """Put one override into the raw file data; return why the key is bad, or None (its parts: see
    :func:`key_parts`)."""
    if not isinstance(key, str) or not key:
        return f"keys are dotted strings such as 'creatures.ogre.health', not {shown(key)}"
    head = key.split(".", 1)[0]
    if head not in _PLACES:
        return f"unknown key{did_you_mean(head, _HEADS)}; expected {KEYS_HELP}"
    count, place = _PLACES[head]
    parts = key_parts(key)
    if len(parts) != count:
        return f"unknown key; expected {KEYS_HELP}"
    return place(data, parts, value)


def override_problem(data: dict[str, Any], key: object, value: Any) -> str | None:
    """:func:`apply_override`, its refusal led by the key it refuses, cut to ``MAX_KEY_SHOWN``
    characters: a key is whatever a caller or a ``--set`` gave, and one of a megabyte was echoed
    whole (twice, with the name it did not know)."""
    problem = apply_override(data, key, value)
    if problem is None:
        return None
    return f"override {shown_text(key, MAX_KEY_SHOWN)}: {problem}" if isinstance(key, str) else f"override: {problem}"
