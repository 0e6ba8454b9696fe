"""Route the operators and methods that build or scan big values through counted helpers.

The prelude (:mod:`game.scripting.prelude`) can shadow *global* builtins only. Operators
(``"x" * n``, ``s + s``, ``"%s" % big``, ``a == b``, ``x in l``, ``s[a:b]``) and methods
(``sep.join(xs)``, ``s.replace``, ``s.count``) cannot be shadowed, and one of them can allocate
gigabytes or scan a 50 MB string inside one uncounted step. Starlark's syntax is a subset of
Python's, so the host parses the script with Python's :mod:`ast` (for positions only) and splices
helper calls (:mod:`game.scripting.checked`) into the *source* text::

    a * b            ->  sbx__op_mul(a, b)
    x += y           ->  x += sbx__chk_add(x, y)
    s.replace(o, n)  ->  sbx__m_replace(s, o, n)
    a == b           ->  sbx__op_eq(a, b)          (neither operand a literal)
    s[i:j]           ->  sbx__sized(sbx__chars(s)[i:j])
    x[k]             ->  sbx__at(x, k)             (k not a constant from 0 to 64)
    d[k] = v         ->  d[sbx__key(k)] = v
    f(*xs)           ->  f(*sbx__star(xs))
    f"{a}-{b}"       ->  (sbx__fstr(a, b) + f"{a}-{b}")
    for x in xs: ...  ->  for x in sbx__each(K, (xs)): ...   (a long body: see game.scripting.loops)

Newlines are kept, so line numbers in error messages do not move. What the rewrite cannot make
safe it refuses (:class:`RewriteError`): an augmented assignment whose target calls a function
(``a[f()] += x`` would call ``f`` twice). Left as they are: operands that cannot grow (``i + 1``,
``x * 1.5``, ``1 << 3``) and comparisons with a short constant.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from types import MappingProxyType
from typing import Final

from .checked import (
    CASING_METHODS,
    GROWING_METHODS,
    KEYED_METHODS,
    SCANNING_METHODS,
    SPLITTING_METHODS,
    STRIPPING_METHODS,
)
from .loops import LoopError, Wraps, branch_problem, loop_wraps

__all__ = ["RewriteError", "rewrite"]

_BINOPS: Final = MappingProxyType({ast.Mult: b"sbx__op_mul", ast.Add: b"sbx__op_add", ast.Mod: b"sbx__op_mod",
                                   ast.LShift: b"sbx__op_shl", ast.Sub: b"sbx__op_sub"})
_AUGOPS: Final = MappingProxyType({ast.Mult: b"sbx__chk_mul", ast.Add: b"sbx__chk_add", ast.Mod: b"sbx__chk_mod",
                                   ast.LShift: b"sbx__chk_shl", ast.Sub: b"sbx__chk_sub"})
_COMPARE: Final = MappingProxyType({
    ast.Eq: b"sbx__op_eq", ast.NotEq: b"sbx__op_ne", ast.Lt: b"sbx__op_lt", ast.LtE: b"sbx__op_le",
    ast.Gt: b"sbx__op_gt", ast.GtE: b"sbx__op_ge", ast.In: b"sbx__op_in", ast.NotIn: b"sbx__op_not_in"})
METHODS: Final = frozenset(SCANNING_METHODS + STRIPPING_METHODS + KEYED_METHODS + SPLITTING_METHODS + CASING_METHODS
                           + GROWING_METHODS)
_MAX_LITERAL_SHIFT: Final = 64


class RewriteError(ValueError):
    """The source cannot be instrumented (Python's ast refuses it, or a construct is unsafe to rewrite).

    ``before_lint``: the script must be refused before starlark's parser and lint see it (they would
    take seconds over it), not after them for the sake of their better message.
    """

    def __init__(self, message: str, *, before_lint: bool = False) -> None:
        super().__init__(message)
        self.before_lint = before_lint


def rewrite(source: str) -> str:
    """*source* with the operators and methods above routed through the counted helpers.

    Line structure is preserved exactly (every newline of the input is kept, in order).

    Raises:
        RewriteError: Python cannot parse the source, or it holds a construct the rewrite refuses.
    """
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise RewriteError(f"cannot instrument the script: {type(exc).__name__}: {exc}") from None
    crowded = branch_problem(tree)
    if crowded is not None:
        raise RewriteError(crowded, before_lint=True)
    data = source.encode("utf-8")
    starts = [0]
    for line in data.split(b"\n")[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    try:
        return _Splicer(data, starts, loop_wraps(tree)).emit_module(tree).decode("utf-8")
    except LoopError as exc:
        raise RewriteError(str(exc)) from None
    except RecursionError:
        raise RewriteError("cannot instrument the script: nested too deeply") from None


def _short(node: ast.expr) -> bool:
    """A constant that compares and hashes in about a step: not a string of more than 64 characters.

    (A longer one is bounded by the source, but compared in a loop it costs its length each pass.)
    """
    return isinstance(node, ast.Constant) and not (isinstance(node.value, (str, bytes))
                                                   and len(node.value) > _MAX_LITERAL_SHIFT)


def _is_literal(node: ast.expr) -> bool:
    """A short constant, or a list/tuple display of them (each element compares in about a step)."""
    if isinstance(node, ast.Constant):
        return _short(node)
    return isinstance(node, (ast.List, ast.Tuple)) and all(_short(e) for e in node.elts)


def _num(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) in (int, float)


def _cannot_grow(op: ast.operator, left: ast.expr, right: ast.expr) -> bool:
    """Operand shapes for which the operator cannot build or scan a big value (left unrewritten).

    ``i + 1``, ``i - 1``, ``x * 1.5``, ``7 % n``, ``1 << 3``: a numeric literal operand rules out
    concatenation, repetition by a float, string formatting, and an integer that doubles (``x + x``
    or ``x - y`` in a loop) or grows by a shift. ``s * 2`` is still rewritten: repetition by a literal
    doubles in a loop.
    """
    if isinstance(op, (ast.Add, ast.Sub)):
        return _num(left) or _num(right)
    if isinstance(op, ast.Mult):
        floats = any(isinstance(n, ast.Constant) and type(n.value) is float for n in (left, right))
        return floats or (_num(left) and _num(right))
    if isinstance(op, ast.Mod):
        return _num(left)
    if isinstance(op, ast.LShift):
        return (_num(left) and isinstance(right, ast.Constant) and type(right.value) is int
                and right.value <= _MAX_LITERAL_SHIFT)
    return True


def _small_index(index: ast.expr) -> bool:
    """``x[0]`` .. ``x[64]`` and constant keys: cheap whatever ``x`` is (a string reads only that far)."""
    if isinstance(index, ast.Constant):
        return _short(index) and (type(index.value) is not int or 0 <= index.value <= _MAX_LITERAL_SHIFT)
    return False


def _calls(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Call) for n in ast.walk(node))


class _Splicer:
    """Emits the source again, node by node, with the rewritten nodes replaced."""

    def __init__(self, data: bytes, starts: list[int], wraps: Wraps) -> None:
        self.data = data
        self.starts = starts
        self.wraps = wraps
        self.handlers: dict[type, Callable[[ast.AST], bytes | None]] = {
            ast.JoinedStr: self.fstring, ast.Starred: self.starred, ast.BinOp: self.binop,
            ast.AugAssign: self.augassign, ast.Compare: self.compare, ast.Subscript: self.subscript,
            ast.Call: self.call, ast.Dict: self.dict_keys, ast.DictComp: self.dict_keys,
        }

    def span(self, node: ast.AST) -> tuple[int, int]:
        return (self.starts[node.lineno - 1] + node.col_offset,  # type: ignore[attr-defined]
                self.starts[node.end_lineno - 1] + node.end_col_offset)  # type: ignore[attr-defined]

    def emit_module(self, tree: ast.Module) -> bytes:
        out, pos = [], 0
        for stmt in tree.body:
            a, b = self.span(stmt)
            out.append(self.data[pos:a])
            out.append(self.emit(stmt))
            pos = b
        out.append(self.data[pos:])
        return b"".join(out)

    def children(self, node: ast.AST) -> list[ast.AST]:
        """Positioned expressions and statements one level down (looking through other nodes)."""
        found: list[ast.AST] = []
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.expr, ast.stmt)) and getattr(child, "end_lineno", None) is not None:
                found.append(child)
            else:
                found.extend(self.children(child))
        found.sort(key=lambda n: self.span(n)[0])
        return found

    def newlines(self, a: int, b: int) -> bytes:
        return b"\n" * self.data.count(b"\n", a, b)

    def emit(self, node: ast.AST) -> bytes:
        handler = self.handlers.get(type(node))
        done = handler(node) if handler is not None else None
        if done is None:
            done = self.generic(node)
        for before, after in self.wraps.get(id(node), ()):
            done = before + done + after
        return done

    def generic(self, node: ast.AST) -> bytes:
        a, b = self.span(node)
        out, pos = [], a
        for child in self.children(node):
            ca, cb = self.span(child)
            if ca < pos:
                raise RewriteError(f"cannot instrument line {node.lineno}: overlapping positions")  # type: ignore[attr-defined]
            out.append(self.data[pos:ca])
            out.append(self.emit(child))
            pos = cb
        out.append(self.data[pos:b])
        return b"".join(out)

    def helper(self, name: bytes, whole: ast.AST, parts: list[ast.AST]) -> bytes:
        """``name(part, part, ...)`` for the parts of *whole*, keeping every newline between them."""
        a, b = self.span(whole)
        out = [name + b"("]
        pos = a
        for i, part in enumerate(parts):
            pa, pb = self.span(part)
            out.append((b", " if i else b"") + self.newlines(pos, pa) + self.emit(part))
            pos = pb
        out.append(self.newlines(pos, b) + b")")
        return b"".join(out)

    # ------------------------------------------------------------------ the rewritten nodes

    def fstring(self, node: ast.AST) -> bytes:
        # Python 3.11 gives unreliable positions inside f-strings; Starlark allows only names there.
        a, b = self.span(node)
        names = [v.value.id for v in node.values  # type: ignore[attr-defined]
                 if isinstance(v, ast.FormattedValue) and isinstance(v.value, ast.Name)]
        if not names:
            return self.data[a:b]
        return b"(sbx__fstr(" + ", ".join(names).encode() + b") + " + self.data[a:b] + b")"

    def starred(self, node: ast.AST) -> bytes:
        a, b = self.span(node)
        va, vb = self.span(node.value)  # type: ignore[attr-defined]
        return self.data[a:va] + b"sbx__star(" + self.emit(node.value) + b")" + self.data[vb:b]  # type: ignore[attr-defined]

    def binop(self, node: ast.AST) -> bytes | None:
        assert isinstance(node, ast.BinOp)
        name = _BINOPS.get(type(node.op))
        if name is None or _cannot_grow(node.op, node.left, node.right):
            return None
        return self.helper(name, node, [node.left, node.right])

    def augassign(self, node: ast.AST) -> bytes | None:
        assert isinstance(node, ast.AugAssign)
        name = _AUGOPS.get(type(node.op))
        if name is None or _cannot_grow(node.op, node.target, node.value):
            return None
        if _calls(node.target):
            raise RewriteError(f"line {node.lineno}: an augmented assignment whose target calls a function "
                               f"(assign the index to a variable first)")
        _, tb = self.span(node.target)
        va, vb = self.span(node.value)
        target = self.emit(node.target)
        read = target.replace(b"\\\n", b"  ").replace(b"\n", b" ")
        return (target + self.data[tb:va] + name + b"(" + read + b", " + self.emit(node.value)
                + self.newlines(vb, self.span(node)[1]) + b")")

    def compare(self, node: ast.AST) -> bytes | None:
        assert isinstance(node, ast.Compare)
        if len(node.ops) != 1:  # a < b < c: starlark has no chained comparisons (its parser refuses them)
            return None
        op, left, right = node.ops[0], node.left, node.comparators[0]
        name = _COMPARE.get(type(op))
        if name is None:
            return None
        if isinstance(op, (ast.In, ast.NotIn)):
            if _is_literal(right):
                return None
        elif _short(left) or _short(right):
            return None
        return self.helper(name, node, [left, right])

    def subscript(self, node: ast.AST) -> bytes | None:
        assert isinstance(node, ast.Subscript)
        index = node.slice
        a, b = self.span(node)
        va, vb = self.span(node.value)
        ia, ib = self.span(index)
        if isinstance(index, ast.Slice):
            if not isinstance(node.ctx, ast.Load):
                return None
            # s[i:j] reads a string up to j, and builds the result: both are paid for.
            return (b"sbx__sized(sbx__chars(" + self.emit(node.value) + b")" + self.data[vb:ia]
                    + self.generic(index) + self.data[ib:b] + b")")
        if _small_index(index):
            return None
        inner = self.emit(index)
        if isinstance(index, ast.Tuple) and self.data[ia:ia + 1] != b"(":
            inner = b"(" + inner + b")"
        if isinstance(node.ctx, ast.Load):
            # x[k]: a string reads up to k, a dict hashes and compares k.
            return (b"sbx__at(" + self.emit(node.value) + b", " + self.newlines(vb, ia) + inner
                    + self.newlines(ib, b) + b")")
        # d[k] = v and del d[k] hash and compare k: sbx__key pays for its size.
        return (self.data[a:va] + self.emit(node.value) + self.data[vb:ia] + b"sbx__key(" + inner + b")"
                + self.data[ib:b])

    def dict_keys(self, node: ast.AST) -> None:
        """``{k: v}`` and ``{k: v for ...}`` hash and compare each key: sbx__key pays for its size."""
        keys = [node.key] if isinstance(node, ast.DictComp) else node.keys  # type: ignore[attr-defined]
        for key in keys:
            if key is not None and not _is_literal(key):
                self.wraps.setdefault(id(key), []).append((b"sbx__key(", b")"))

    def call(self, node: ast.AST) -> bytes:
        assert isinstance(node, ast.Call)
        parts: list[tuple[int, int, bytes]] = []  # (start, end, emitted text), in source order
        for x in node.args:
            xa, xb = self.span(x)
            parts.append((xa, xb, self.emit(x)))
        for k in node.keywords:
            ka, _ = self.span(k)
            va, vb = self.span(k.value)
            value = self.emit(k.value)
            parts.append((ka, vb, self.data[ka:va] + (b"sbx__star(" + value + b")" if k.arg is None else value)))
        parts.sort()
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in METHODS:
            ra, rb = self.span(func.value)
            return self.method_call(node, func.attr, [(ra, rb, self.emit(func.value)), *parts])
        a, b = self.span(node)
        _, pos = self.span(func)
        out = [self.emit(func)]
        for pa, pb, text in parts:
            out.append(self.data[pos:pa] + text)
            pos = pb
        out.append(self.data[pos:b])
        return b"".join(out)

    def method_call(self, node: ast.AST, method: str, parts: list[tuple[int, int, bytes]]) -> bytes:
        """``recv.method(args)`` as ``sbx__m_method(recv, args)``, every newline kept."""
        a, b = self.span(node)
        out, pos = [b"sbx__m_" + method.encode() + b"("], a
        for i, (pa, pb, text) in enumerate(parts):
            out.append((b", " if i else b"") + self.newlines(pos, pa) + text)
            pos = pb
        out.append(self.newlines(pos, b) + b")")
        return b"".join(out)
