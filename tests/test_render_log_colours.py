"""The combat log's colours say what a line tells; a computer player's reason (``--explain``, shown in
the GM's log, a note between the events' lines) is dim, not a hit or a down, whatever numbers it weighs."""

from __future__ import annotations

from game import Battle
from game.battle.log import format_with_notes
from game.battle.log_lines import Tone
from game.render import theme
from game.render.panels import LOG_COLOURS, log_colour

WHY = ("   (why) Raider archer moves to (1, 4): cover from 2 of 2 threats, 4.5 expected damage there; "
       "Shoot: East archer 70%, 3.1 expected, 23% to down")


def test_a_reason_is_dim_though_it_weighs_damage_and_downs() -> None:
    b = Battle(seed=1, width=6, height=4)
    archer = b.spawn("East archer", 1, 1, team="a", health=5)
    b.spawn("Raider archer", 3, 1, team="b")
    b.start_combat()
    noted = len(b.events)
    b.damage(archer, 5)
    b.tick()
    lines = format_with_notes(b, b.events, {noted: [WHY]})
    colours = {line.strip(): log_colour(line) for line in lines}
    assert colours[WHY.strip()] == theme.TEXT_DIM
    assert colours["Round 1: East archer takes 5 damage (health 0)"] == LOG_COLOURS[Tone.HIT] != theme.TEXT_DIM
    assert colours["Round 1: East archer is DOWNED"] == (255, 110, 100)
