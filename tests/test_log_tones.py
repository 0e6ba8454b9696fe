"""A log line's colour comes from the event it tells, not from its words: the window searched each
line for "DIES", "DOWNED", "HIT", " falls ", "is surprised", ..., so a creature named "HIT DIES" had
every line it was named in coloured as a death, and a change of a sentence's wording would have
changed its colour without a word."""

from __future__ import annotations

from game import Battle
from game.battle.log import format_events
from game.battle.log_lines import Tone, tone_of
from game.render import theme
from game.render.panels import LOG_COLOURS, log_colour


def _tones() -> list[tuple[str, Tone]]:
    b = Battle(seed=1, width=6, height=4)
    e = b.spawn("HIT DIES", 1, 1, team="a", health=5)
    b.spawn("Orc", 3, 1, team="b")
    b.add_condition(e, "prone")
    b.start_combat()
    b.damage(e, 5)
    b.tick()
    return [(line, tone_of(line)) for line in format_events(b, b.events)]


def test_each_line_has_its_events_tone_whatever_the_names_say() -> None:
    tones = _tones()

    def tone(words: str) -> Tone:
        [found] = [tone for line, tone in tones if words in line]
        return found

    assert tone("HIT DIES (a) enters at (1, 1)") is Tone.PLAIN
    assert tone("HIT DIES is prone") is Tone.ALERT
    assert tone("HIT DIES rolls initiative") is Tone.SETUP
    assert tone("Combat starts") is Tone.SETUP
    assert tone("HIT DIES takes 5 damage (health 0)") is Tone.HIT
    assert tone("HIT DIES gains 1 fatigue") is Tone.PLAIN
    assert tone("HIT DIES is DOWNED") is Tone.DEATH


def test_the_window_colours_a_line_by_its_tone() -> None:
    b = Battle(seed=1, width=6, height=4)
    b.spawn("HIT DIES is surprised", 1, 1, team="a")
    [entered] = format_events(b, b.events)
    assert log_colour(entered) == theme.TEXT  # (by its words it was a death's red)
    assert log_colour("a computer player's note: it expects 5 damage") == theme.TEXT  # not a line of an event
    assert set(LOG_COLOURS) == set(Tone)
