"""The combat log's colours say what a line tells; a computer player's reason (``--explain``, shown in
the GM's log) is not a hit or a down, whatever numbers it weighs."""

from __future__ import annotations

from game.battle.log_lines import LogLine, Tone
from game.render import theme
from game.render.panels import LOG_COLOURS, log_colour

WHY = ("   (why) Raider archer moves to (1, 4): cover from 2 of 2 threats, 4.5 expected damage there; "
       "Shoot: East archer 70%, 3.1 expected, 23% to down")


def test_a_reason_is_dim_though_it_weighs_damage_and_downs() -> None:
    assert log_colour(WHY) == theme.TEXT_DIM
    hit = LogLine("Round 1: Raider archer attacks East archer with Shoot: 13 + 4 = 17 vs Defense 16: HIT", Tone.HIT)
    assert log_colour(hit) == LOG_COLOURS[Tone.HIT] != theme.TEXT_DIM
    assert log_colour(LogLine("Round 1: East archer is DOWNED", Tone.DEATH)) == (255, 110, 100)
