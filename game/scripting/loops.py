"""What each pass through a long loop body or function body must pay, found on the syntax tree.

starlark counts a step per loop iteration and per call, whatever runs in between: one pass through
a loop body of 20,000 statements, or one call of a function that long, is a single step. A loop of
200,000 such passes stayed within a call's budget and ran for minutes. So the rewrite
(:mod:`game.scripting.rewrite`) makes every pass through a body of more than :data:`NODES_PER_STEP`
syntax nodes pay a step per :data:`NODES_PER_STEP` nodes, before it runs:

    for x in xs:            ->  for x in sbx__each(K, (xs)):           (K steps an element of xs)
    [e for x in xs]         ->  [e for x in sbx__each(K, (xs))]
    def f(a):  stmt; ...    ->  def f(a):  sbx__charge(K); stmt; ... (or ``if sbx__pay(K, (c)):``)
    lambda a: e             ->  lambda a: sbx__pay(K, (e))

A loop pays for all its elements up front (a ``break`` does not refund them): the count stays a
property of the source and the data, never of the clock. Bodies of up to :data:`NODES_PER_STEP`
nodes, what scripts are mostly made of, are left as they are.
"""

from __future__ import annotations

import ast
from typing import Final

__all__ = ["MAX_BRANCHES", "NODES_PER_STEP", "Wraps", "branch_problem", "loop_wraps"]

#: Syntax nodes (expressions and statements) one counted step may run.
NODES_PER_STEP: Final = 32
#: ``for`` and ``if`` statements one function (or the top level) may hold. starlark's lint, which
#: the host runs on every script before it loads, takes time growing with the square of their
#: number in one function: 4,000 loops in one function (160 KB) took 10 s, 2,000 took 2 s, 250
#: take a few hundredths of a second. A script past this is refused before the lint runs.
MAX_BRANCHES: Final = 256

#: Text to put before and after a node when it is emitted, by the node's id.
Wraps = dict[int, list[tuple[bytes, bytes]]]
_SIMPLE: Final = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Pass, ast.Break,
                  ast.Continue)


class LoopError(ValueError):
    """A long function body the rewrite cannot make pay (it starts with a nested ``def``)."""


class _Counts:
    """Syntax nodes under every node of a tree, counted once, bottom up (no recursion)."""

    def __init__(self, tree: ast.AST) -> None:
        self.under: dict[int, int] = {}
        order: list[ast.AST] = []
        stack = [tree]
        while stack:
            node = stack.pop()
            order.append(node)
            stack.extend(ast.iter_child_nodes(node))
        for node in reversed(order):  # children before their parents
            own = 1 if isinstance(node, (ast.expr, ast.stmt)) else 0
            self.under[id(node)] = own + sum(self.under[id(c)] for c in ast.iter_child_nodes(node))

    def steps(self, roots: list[ast.AST]) -> int:
        return sum(self.under[id(r)] for r in roots) // NODES_PER_STEP


def _add(wraps: Wraps, node: ast.AST, before: bytes, after: bytes) -> None:
    wraps.setdefault(id(node), []).append((before, after))


def _function(wraps: Wraps, counts: _Counts, node: ast.FunctionDef) -> None:
    steps = counts.steps(list(node.body))
    if not steps:
        return
    first = node.body[0]
    if isinstance(first, _SIMPLE):
        _add(wraps, first, b"sbx__charge(%d); " % steps, b"")
    elif isinstance(first, ast.If):
        _add(wraps, first.test, b"sbx__pay(%d, (" % steps, b"))")
    elif isinstance(first, ast.For):
        _add(wraps, first.iter, b"sbx__pay(%d, (" % steps, b"))")
    else:
        raise LoopError(f"line {first.lineno}: a function of more than {NODES_PER_STEP} syntax nodes "
                        f"({node.name}) may not start with a def: move the def out of it or below a statement")


def branch_problem(tree: ast.Module) -> str | None:
    """Why *tree* holds too many ``for`` and ``if`` statements in one function (or its top level)
    for the lint to check in good time (see :data:`MAX_BRANCHES`), or None. One pass over the tree."""
    scopes: list[tuple[str, ast.AST]] = [("the top level", tree)]
    while scopes:
        where, scope = scopes.pop()
        count, stack = 0, list(ast.iter_child_nodes(scope))
        while stack:
            node = stack.pop()
            if isinstance(node, ast.FunctionDef):
                scopes.append((f"line {node.lineno}: function {node.name}", node))
                continue
            count += isinstance(node, (ast.For, ast.If))
            stack.extend(ast.iter_child_nodes(node))
        if count > MAX_BRANCHES:
            return (f"{where} holds {count} for and if statements; at most {MAX_BRANCHES} are taken in one "
                    f"function (checking more takes seconds: split it into functions)")
    return None


def loop_wraps(tree: ast.AST) -> Wraps:
    """The wraps that make every long body of *tree* pay per pass (see the module docstring).

    Raises:
        LoopError: a long function body that starts with a nested ``def``.
    """
    wraps: Wraps = {}
    counts = _Counts(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.For):
            steps = counts.steps(list(node.body))
            if steps:
                _add(wraps, node.iter, b"sbx__each(%d, (" % steps, b"))")
        elif isinstance(node, (ast.ListComp, ast.DictComp, ast.SetComp, ast.GeneratorExp)):
            steps = counts.steps([node])
            if steps:
                for gen in node.generators:
                    _add(wraps, gen.iter, b"sbx__each(%d, (" % steps, b"))")
        elif isinstance(node, ast.FunctionDef):
            _function(wraps, counts, node)
        elif isinstance(node, ast.Lambda):
            steps = counts.steps([node.body])
            if steps:
                _add(wraps, node.body, b"sbx__pay(%d, (" % steps, b"))")
    return wraps
