"""Counted replacements for the Starlark builtins that do unbounded work natively.

starlark-rust calls the step hook (``check_cancelled``) only from loop back-edges and from call
instructions in *bytecode*. Work a builtin does natively -- iterating a lazy ``range(10**9)``,
calling a ``key`` lambda per element, materialising a list -- never ticks. So every script module
gets the definitions below as globals that shadow the builtins of the same name. Each one is a
Starlark ``def`` that first pays for the work in a Starlark loop, then delegates to the native
builtin, kept under a reserved ``sbx__n_<name>`` alias that scripts cannot name. Results, ordering
and the native call's error messages are the native ones; only the step count changes, and a value
nested past ``MAX_DEPTH`` levels fails before a native reads it (the natives recurse once a level).

What a builtin pays, before it runs:

* per element of what it iterates (``sorted``, ``min``, ``max``, ``map``, ``filter``, ``zip``,
  ``enumerate``, ``reversed``, ``list``, ``tuple``, ``dict``): 1 step;
* per node of a nested value (2 steps: one as its parent queues it, one as it is visited), a shared
  part paid again for every place it appears, plus 1 step
  per :data:`BYTES_PER_STEP` bytes of string (``str``, ``repr``, ``hash``, ``json.encode``, every
  result an entry point returns, every argument a ``ctx`` method is passed): a DAG of depth 30
  cannot expand into 2**30 objects for free;
* per :data:`BYTES_PER_STEP` bytes of a string whose ``len`` it takes (starlark counts the characters);
* per 8 characters of text it parses (``int``, ``float``) and per 4 of JSON it decodes (``int``
  parses at most 100: its time grows with the square of the length);
* per comparison it makes (``sorted``, ``min``, ``max``, or what their ``key`` returns): the weight
  of what it compares (``sbx__weight``), times about log2(n) for a sort.

Operators and methods (``"x" * n``, ``sep.join``...) cannot be shadowed; :mod:`game.scripting.rewrite`
routes them through the helpers of :mod:`game.scripting.checked`.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

__all__ = ["BYTES_PER_STEP", "COUNTED_BUILTINS", "NATIVE_ALIASES", "PRELUDE_SRC", "RENAMED_BUILTINS"]

#: Builtins replaced by counted Starlark definitions, plus the host's own counted helpers.
COUNTED_BUILTINS: Final = (
    "sorted", "min", "max", "any", "all", "map", "filter", "enumerate", "zip", "reversed",
    "list", "tuple", "dict", "str", "repr", "hash", "int", "float", "json", "fail",
    "sbx__result", "sbx__args", "sbx__walk", "sbx__count", "sbx__charge",
)

#: Builtins replaced under another name (the prelude's own code keeps calling the native one).
RENAMED_BUILTINS: Final = MappingProxyType({"len": "sbx__len"})

#: Evaluated first, while the names still resolve to the builtins: keep the natives.
NATIVE_ALIASES: Final = "".join(f"sbx__n_{n} = {n}\n" for n in COUNTED_BUILTINS if not n.startswith("sbx__")) + "".join(
    f"sbx__n_{n} = {n}\n" for n in RENAMED_BUILTINS)

#: One counted step per this many bytes of a string that a builtin scans or copies.
BYTES_PER_STEP: Final = 64
INT_MAX: Final = 2**63 - 1
INT_MIN: Final = -(2**63)
#: The deepest value a script may stringify, hash, format, return or pass to ``ctx`` (what a result's
#: conversion to Python allows too); the natives recurse once a level, and ~30,000 overflow the stack.
MAX_DEPTH: Final = 1000
#: The deepest value ``json.encode`` writes: what ``json.decode`` reads back (serde's limit), and far
#: short of the depth whose native recursion overflows a thread's stack.
MAX_JSON_DEPTH: Final = 128
#: The longest string ``int()`` parses.
MAX_INT_TEXT: Final = 100

#: Evaluated second (``sorted(x, *, key...)`` needs keyword-only parameters: a dialect of its own).
PRELUDE_SRC: Final = f'''
def sbx__charge(n):
    for _ in range(n if n < 2147483647 else 2147483647):
        pass

def sbx__count(x):
    for _ in x:
        pass

def sbx__walk(x, strict = False):
    # Visits x as a tree, a level at a time: a value shared k times is paid k times. Iterative: no
    # recursion here. The natives that read x after it (str, repr, hash, % and format, a result's or a
    # ctx argument's conversion) recurse once a level, and some 30,000 levels overflow the stack (a
    # segmentation fault of the process): deeper than {MAX_DEPTH} fails here first.
    # With strict, returns what in x may not leave the script ("" when nothing).
    level = [x]
    for depth in range(2147483647):
        if not level:
            return ""
        if depth > {MAX_DEPTH}:
            fail("a value nested more than {MAX_DEPTH} levels deep; expected at most {MAX_DEPTH} (deeper ones "
                 + "overflow the interpreter's stack)")
        below = []
        for v in level:
            t = sbx__type(v)
            if t == "list" or t == "tuple":
                sbx__charge(sbx__n_len(v))  # each child paid as it is queued: see sbx__weight
                below.extend(v)
            elif t == "dict":
                sbx__charge(2 * sbx__n_len(v))
                below.extend(v.keys())
                below.extend(v.values())
            elif t == "string":
                sbx__charge(len(v) // {BYTES_PER_STEP})
            elif t == "struct":
                below.extend([getattr(v, a) for a in dir(v)])
            elif strict and t == "int" and (v > {INT_MAX} or v < {INT_MIN}):
                return "an integer beyond 64 bits"
            elif strict and t == "float" and not (v - v == 0.0):
                return "a float that is not finite"
        level = below

def sbx__weight(x):
    # What comparing or hashing x natively can cost: a step per node (a part shared k times counted k
    # times, as a comparison visits it) and per {BYTES_PER_STEP} bytes of string. The walk ticks as it goes,
    # a level at a time: deeper than {MAX_DEPTH} fails as sbx__walk does (a native that fails to find,
    # hash or compare x writes x into its message, recursing once a level).
    t = sbx__type(x)
    if t == "string":
        return len(x) // {BYTES_PER_STEP}
    if t != "list" and t != "tuple" and t != "dict" and t != "struct":
        return 0
    n = 0
    level = [x]
    for depth in range(2147483647):
        if not level:
            return n
        if depth > {MAX_DEPTH}:
            fail("a value nested more than {MAX_DEPTH} levels deep; expected at most {MAX_DEPTH} (deeper ones "
                 + "overflow the interpreter's stack)")
        below = []
        for v in level:
            n += 1
            t = sbx__type(v)
            if t == "list" or t == "tuple":
                # Each child is paid as it is queued, not only when visited: one step of the loop
                # queued a whole list, so [[[0] * 1000] * 1000] * 1000 queued a billion before the
                # budget saw a million visits (14 s and 3.6 GB in-process; the worker ran out of memory).
                sbx__charge(sbx__n_len(v))
                below.extend(v)
            elif t == "string":
                w = sbx__n_len(v) // {BYTES_PER_STEP}
                sbx__charge(w)  # paid as it goes: len() itself reads the whole string
                n += w
            elif t == "dict":
                sbx__charge(2 * sbx__n_len(v))
                below.extend(v.keys())
                below.extend(v.values())
            elif t == "struct":
                below.extend([getattr(v, a) for a in dir(v)])
        level = below
    return n

def sbx__len(x):
    # A string's len counts its characters: it reads all of it.
    n = sbx__n_len(x)
    if n >= {BYTES_PER_STEP} and sbx__type(x) == "string":
        sbx__charge(n // {BYTES_PER_STEP})
    return n

def sbx__result(x):
    # Every entry point returns through here: converting a result to Python expands shared parts,
    # and would turn NaN and infinities into None.
    p = sbx__walk(x, True)
    if p:
        fail("sbx__result: returned a non-plain value (" + p + ")")
    return x

def sbx__args(method, args):
    # Every ctx method's arguments pass through here, for the same reasons.
    for a in args:
        t = sbx__type(a)
        if t == "int":
            if a > {INT_MAX} or a < {INT_MIN}:
                fail("sbx__args: ctx." + method + ": an argument is an integer beyond 64 bits")
        elif t == "float":
            if not (a - a == 0.0):
                fail("sbx__args: ctx." + method + ": an argument is a float that is not finite")
        elif t != "bool" and t != "NoneType":
            p = sbx__walk(a, True)
            if p:
                fail("sbx__args: ctx." + method + ": an argument is " + p)
    return args

def sbx__rounds(n):
    # A merge sort of n elements compares each about log2(n) times; twice that, for its other passes.
    r = 2
    for _ in range(64):
        if n < 2:
            return r
        n = n // 2
        r += 2
    return r

def sbx__weigh_all(x, times):
    n = 0
    for v in x:
        n += 1
        w = sbx__weight(v)
        if w:
            sbx__charge(w * times)
    return n

def sorted(x, *, key = None, reverse = False):
    # Each comparison costs up to the weight of what it compares (or of what key returns).
    times = sbx__rounds(len(x)) if sbx__type(x) in ("list", "tuple", "dict", "range") else 64
    if key == None:
        sbx__weigh_all(x, times)
        return sbx__n_sorted(x, reverse = reverse)
    sbx__count(x)
    return sbx__n_sorted(x, key = lambda v: sbx__paid(key(v), times), reverse = reverse)

def sbx__paid(k, times):
    w = sbx__weight(k)
    if w:
        sbx__charge(w * times)
    return k

def min(*args, key = None):
    x = args[0] if len(args) == 1 else args
    if key == None:
        sbx__weigh_all(x, 1)
        return sbx__n_min(*args)
    sbx__count(x)
    return sbx__n_min(key = lambda v: sbx__paid(key(v), 1), *args)

def max(*args, key = None):
    x = args[0] if len(args) == 1 else args
    if key == None:
        sbx__weigh_all(x, 1)
        return sbx__n_max(*args)
    sbx__count(x)
    return sbx__n_max(key = lambda v: sbx__paid(key(v), 1), *args)

def any(x):
    for v in x:
        if v:
            return True
    return False

def all(x):
    for v in x:
        if not v:
            return False
    return True

def map(function, x):
    sbx__count(x)
    return sbx__n_map(function, x)

def filter(function, x):
    sbx__count(x)
    return sbx__n_filter(function, x)

def enumerate(x, start = 0):
    sbx__count(x)
    return sbx__n_enumerate(x, start)

def zip(*args):
    for a in args:
        sbx__count(a)
    return sbx__n_zip(*args)

def reversed(x):
    sbx__count(x)
    return sbx__n_reversed(x)

def list(*args):
    if args:
        sbx__count(args[0])
    return sbx__n_list(*args)

def tuple(*args):
    if args:
        sbx__count(args[0])
    return sbx__n_tuple(*args)

def dict(*args, **kwargs):
    # Each key is hashed and compared: pairs are paid for by weight.
    if args:
        sbx__weigh_all(args[0], 1)
    return sbx__n_dict(*args, **kwargs)

def str(x):
    sbx__walk(x)
    return sbx__n_str(x)

def repr(x):
    sbx__walk(x)
    return sbx__n_repr(x)

def hash(x):
    sbx__walk(x)
    return sbx__n_hash(x)

def fail(*args, **kwargs):
    # fail formats its arguments as str does.
    sbx__walk(args)
    sbx__n_fail(*args, **kwargs)

def int(*args, **kwargs):
    # Parsing n digits takes time n * n: a string of 100 characters holds any integer of 64 bits.
    if args and sbx__type(args[0]) == "string":
        if len(args[0]) > {MAX_INT_TEXT}:
            fail("int() of a string of " + sbx__n_str(len(args[0])) + " characters; at most {MAX_INT_TEXT} "
                 + "(integers in scripts stay within 64 bits)")
        sbx__charge(len(args[0]) // 8)
    elif args:
        sbx__walk(args[0])  # int() of anything else writes it into its error
    return sbx__n_int(*args, **kwargs)

def float(*args):
    if args and sbx__type(args[0]) == "string":
        sbx__charge(len(args[0]) // 8)
    return sbx__n_float(*args)

def sbx__json_encode(x):
    # The native encoder recurses once per level with no limit of its own: a list nested 40,000 deep
    # overflowed the stack and killed the process (the game's own, in-process). Walked as sbx__walk
    # walks, each part with its depth.
    stack = [(x, 0)]
    for _ in range(2147483647):
        if not stack:
            return sbx__n_json.encode(x)
        v, d = stack.pop()
        t = sbx__type(v)
        if t == "string":
            sbx__charge(len(v) // {BYTES_PER_STEP})
        elif t == "list" or t == "tuple" or t == "dict" or t == "struct":
            if d >= {MAX_JSON_DEPTH}:
                fail("json.encode: a value nested more than {MAX_JSON_DEPTH} levels deep; expected at most "
                     + "{MAX_JSON_DEPTH}, the most json.decode reads back")
            parts = v.values() + v.keys() if t == "dict" else [getattr(v, a) for a in dir(v)] if t == "struct" else v
            stack.extend([(p, d + 1) for p in parts])

def sbx__json_decode(x):
    if sbx__type(x) == "string":
        sbx__charge(len(x) // 4)
    return sbx__n_json.decode(x)

json = sbx__struct(encode = sbx__json_encode, decode = sbx__json_decode)
'''
