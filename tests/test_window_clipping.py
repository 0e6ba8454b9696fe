"""A line cut to fit its box (a name on a chip, a power's label) is the longest cut that fits, and is
found in a few measures whatever the text's length: the window cut one character at a time and
measured each, so a stranger's 3,000,000-character name never drew its first frame."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from game.render.draw import clipped, clipped_middle

#: Pixels a character in the stand-in font below (a fixed-width font measures so).
CHAR_W = 7


class CountingFont:
    """A fixed-width font that counts what it is asked to measure."""

    def __init__(self) -> None:
        self.measured = 0

    def size(self, text: str) -> tuple[int, int]:
        self.measured += 1
        return CHAR_W * len(text), 16


def _one_at_a_time_end(text: str, width: int) -> str:
    """What the window drew before: characters cut from the end one at a time until "..." fits."""
    if CHAR_W * len(text) <= width:
        return text
    while text and CHAR_W * len(text + "...") > width:
        text = text[:-1]
    return text.rstrip() + "..."


def _one_at_a_time_middle(text: str, width: int) -> str:
    """What the window drew before: characters cut from the middle one at a time until it fits."""
    if CHAR_W * len(text) <= width:
        return text
    for cut in range(1, len(text) + 1):
        keep = len(text) - cut
        shown = f"{text[:keep - keep // 2].rstrip()}...{text[len(text) - keep // 2:].lstrip()}"
        if CHAR_W * len(shown) <= width:
            return shown
    return "..."


@given(st.text(alphabet="ab c", max_size=60), st.integers(min_value=0, max_value=500))
def test_the_cut_is_the_longest_that_fits(text: str, width: int) -> None:
    font = CountingFont()
    assert clipped(text, font, width) == _one_at_a_time_end(text, width)  # type: ignore[arg-type]
    assert clipped_middle(text, font, width) == _one_at_a_time_middle(text, width)  # type: ignore[arg-type]


def test_a_huge_text_is_cut_in_a_few_measures() -> None:
    huge = "k" * 20_000  # long enough to tell a halving search (30 measures) from one a character (19,970)
    for cut in (clipped, clipped_middle):
        font = CountingFont()
        shown = cut(huge, font, 200)  # type: ignore[operator]
        assert CHAR_W * len(shown) <= 200 and shown.count("k") == 200 // CHAR_W - 3
        assert font.measured <= 2 * len(huge).bit_length(), (cut.__name__, font.measured)
