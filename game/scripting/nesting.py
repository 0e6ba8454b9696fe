"""How deeply a script nests, measured on its tokens before any parser sees it.

starlark's parser builds the syntax tree without recursing, but what it does with the tree after
(and dropping it) recurses once per level, on the thread's stack: 30,000 ``not`` s, ``-`` s, ``~`` s,
``lambda:`` s or ``x if c else`` s in one statement overflow it, and the process dies of SIGSEGV
(the game itself, for a trusted script run in-process). Python's parser refuses some of these
and not others, so the host measures the depth itself, conservatively, from the tokens: every
bracket, every operator, every ``not``/``lambda``/``if``/``else``/``and``/``or``/``in``, every
``.`` and every indentation level may open a level of the tree. Commas separate siblings, and a
new statement starts again from its indentation. 100 levels are far more than a script needs and
far fewer than starlark's stack holds (it survives 200 nested ``lambda:`` s on a 2 MB thread).
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["MAX_NESTING", "nesting_problem"]

#: Levels one statement may nest (indentation, brackets and operators counted together).
MAX_NESTING: Final = 100

_TOKEN: Final = re.compile(r'''
  (?P<str>[rRbBfF]{0,2}(?:\'\'\'(?:\\.|[^\\])*?\'\'\'|"""(?:\\.|[^\\])*?"""|'(?:\\.|[^\\'\n])*'?|"(?:\\.|[^\\"\n])*"?))
| (?P<comment>\#[^\n]*)
| (?P<cont>\\\r?\n)
| (?P<nl>\n[ \t\f\r]*)
| (?P<word>[A-Za-z_][A-Za-z0-9_]*)
| (?P<num>[0-9][0-9A-Za-z_.]*)
| (?P<open>[(\[{])
| (?P<close>[)\]}])
| (?P<comma>,)
| (?P<semi>;)
| (?P<op>[-+*/%~<>=!&|^@.:]+)
| (?P<other>.)
''', re.S | re.X)
_NESTING_WORDS: Final = frozenset({"not", "lambda", "if", "else", "and", "or", "in"})


class _Depth:
    """The running count: the indentation stack, and one operator chain per open bracket."""

    def __init__(self) -> None:
        self.indents = [0]
        self.chains = [0]

    def depth(self) -> int:
        return len(self.indents) - 1 + len(self.chains) - 1 + sum(self.chains)

    def new_line(self, column: int) -> None:
        """A new logical line indented by *column* characters."""
        self.chains = [0]
        while column < self.indents[-1]:
            self.indents.pop()
        if column > self.indents[-1]:
            self.indents.append(column)

    def token(self, kind: str, text: str) -> None:
        chains = self.chains
        if kind == "open":
            chains.append(0)
        elif kind == "close":
            if len(chains) > 1:
                chains.pop()
            chains[-1] += 1  # a call or subscript after it nests what came before
        elif kind == "comma":
            chains[-1] = 0
        elif kind == "semi":
            self.chains = [0]
        elif kind == "op":
            chains[-1] += 1 + sum(text[1:].count(c) for c in "-+~.")
        elif kind == "word" and text in _NESTING_WORDS:
            chains[-1] += 1


def nesting_problem(source: str) -> int | None:
    """The line of the first place *source* nests past :data:`MAX_NESTING`, or None.

    Conservative: it may count levels the parser would not open, never fewer.
    """
    state = _Depth()
    line = 1
    for match in _TOKEN.finditer(source):
        kind = match.lastgroup or "other"
        text = match.group()
        if kind in ("str", "cont", "comment"):
            line += text.count("\n")
            continue
        if kind == "nl":
            line += 1
            if len(state.chains) == 1 and match.end() < len(source) and source[match.end()] not in "#\n":
                state.new_line(len(text) - 1)
            continue
        state.token(kind, text)
        if state.depth() > MAX_NESTING:
            return line
    return None
