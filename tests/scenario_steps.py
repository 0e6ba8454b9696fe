"""Scenario and power texts the content tests share: the smallest battle a scenario file may hold, and a
scripted power."""

from __future__ import annotations

#: Two teams declared with nothing more said of them.
TWO_TEAMS = "[teams.a]\n[teams.b]\n"

#: A power file of one power, ``zap``: a touch whose whole effect is its script ``z.star``.
SCRIPTED_ZAP = """
[zap]
name = "Zap"
description = "A touch whose harm is its script's."
action = "action"
range_ft = 5
targets = "enemy"
script = "z.star"
"""


def two_sided(name: str, top: str = "", teams: str = TWO_TEAMS) -> str:
    """A 6x2 field of level ground with creature ``one`` of team ``a`` at (0, 0) and ``two`` of team
    ``b`` at (3, 1); ``top`` goes among the file's top keys (``reactions = [...]``, ``power_files``),
    ``teams`` is the file's team tables."""
    return f"""
name = "{name}"
{top}
[map]
rows = ["......", "......"]
[map.legend]
"." = {{ ground = 0 }}
{teams}
[[creatures]]
key = "one"
team = "a"
x = 0
y = 0
[[creatures]]
key = "two"
team = "b"
x = 3
y = 1
"""
