"""Counted stand-ins for the operators and methods that build or scan big values in one step.

:mod:`game.scripting.rewrite` routes ``a * b``, ``a + b``, ``a % b``, ``a << b``, comparisons,
``in``, slices, ``f(*xs)``, f-strings and the string, list and dict methods below through these
Starlark helpers. Each pays for the size of what the native operation will build or scan *before*
it runs (1 step per 64 bytes of string, per 8 slots of a list, per 8 keys of a dict), so the step
budget stops ``"x" * 2000000000`` at once, deterministically, instead of the allocator aborting the
process. A slice pays for its result just after (its size is bounded by a value already paid for).
What compares or hashes pays for the *weight* of what it compares (``sbx__weight``: a step per node of
a nested value and per 64 bytes of string): ``a == b`` and ``a < b`` the smaller operand's, ``x in l``
and ``l.index(x)`` the list's length times ``x``'s, ``d[k]``, ``k in d`` and ``d.get(k)`` the key's,
``s.startswith(p)`` the pattern's, ``s.strip(cs)`` both lengths multiplied.
A substring test (``p in s``) is answered by ``s.find(p)``: starlark's own ``in`` compares the
pattern at every place of the string, in time ``len(p) * len(s)`` (a pattern of 100 KB in a string of
200 KB took half a second for a charge of under 5,000 steps), while ``find`` is linear.
Integers stay small, since every operation on a big one costs its size: ``*`` refuses operands
beyond 2**64, ``<<`` an operand beyond 2**64 or a shift beyond 64 bits, and ``+`` and ``-`` of two
variables a result beyond 2**64 (``x + x`` in a loop doubles).

A helper falls back to the plain operation for receivers it does not know (a struct's field
that happens to be called ``count``), so the rewrite never changes what a script means.
"""

from __future__ import annotations

from typing import Final

from .prelude import BYTES_PER_STEP

__all__ = ["CASING_METHODS", "CHECKED_SRC", "GROWING_METHODS", "KEYED_METHODS", "SCANNING_METHODS",
           "STRIPPING_METHODS", "checked_names"]

#: Slots of a list (or keys of a dict) per counted step.
SLOTS_PER_STEP: Final = 8
#: Integers a script multiplies or shifts stay within this many bits.
INT_BITS: Final = 64

#: Methods that only read their receiver: they pay for scanning it, and for what they compare with it (a
#: list's ``index``/``remove`` compare every element with the argument; a string's ``find``, ``count``,
#: ``startswith``... read their pattern).
SCANNING_METHODS: Final = (
    "count", "find", "rfind", "index", "rindex", "startswith", "endswith", "isalnum", "isalpha", "isdigit",
    "islower", "isspace", "istitle", "isupper",
    "removeprefix", "removesuffix", "partition", "rpartition", "insert", "remove", "keys", "values", "items",
)
#: ``s.strip(chars)`` looks every character it strips up in ``chars``: it pays for both lengths multiplied.
STRIPPING_METHODS: Final = ("strip", "lstrip", "rstrip")
#: Methods that hash and compare a key (a dict's ``get``, ``pop``, ``setdefault``): they pay for the key's
#: size; a list's ``pop(i)`` shifts what follows ``i``, and pays for the list.
KEYED_METHODS: Final = ("get", "pop", "setdefault")
#: Methods whose result can have an element per character: they pay per 8 characters too.
SPLITTING_METHODS: Final = ("split", "rsplit", "splitlines", "elems", "codepoints", "codepoint_ords")
#: Methods that map every character's case (Unicode tables, a final sigma's context): about eight times
#: the work of a scan a character (``("Σ" * 200000).lower()`` in a loop ran the whole budget in 0.9 s),
#: so they pay per 8 characters too, as splitting does.
CASING_METHODS: Final = ("upper", "lower", "title", "capitalize")
#: Methods with a helper of their own below (they pay for what they are passed).
GROWING_METHODS: Final = ("join", "replace", "format", "extend", "update")

_BIG: Final = 2**INT_BITS

_SCAN_HELPERS: Final = "".join(
    f"def sbx__m_{m}(s, *a, **k):\n    sbx__scan_call(s, a)\n    return s.{m}(*a, **k)\n\n" for m in SCANNING_METHODS
) + "".join(
    f"def sbx__m_{m}(s, *a, **k):\n    sbx__scan_call(s, a)\n    if a and sbx__type(s) == \"string\" and "
    f"sbx__type(a[0]) == \"string\":\n        sbx__charge(len(s) * len(a[0]) // {BYTES_PER_STEP})\n"
    f"    return s.{m}(*a, **k)\n\n" for m in STRIPPING_METHODS
) + "".join(
    f"def sbx__m_{m}(s, *a, **k):\n    sbx__keyed_call(s, a)\n    return s.{m}(*a, **k)\n\n" for m in KEYED_METHODS
) + "".join(
    f"def sbx__m_{m}(s, *a, **k):\n    sbx__scan(s)\n    if sbx__type(s) == \"string\":\n"
    f"        sbx__charge(len(s) // {SLOTS_PER_STEP})\n    return s.{m}(*a, **k)\n\n"
    for m in SPLITTING_METHODS + CASING_METHODS
)

CHECKED_SRC: Final = f'''
def sbx__units(t, n):
    # n bytes of a string, or n slots of a list, tuple or dict, in steps.
    if t == "string":
        return n // {BYTES_PER_STEP}
    if t == "list" or t == "tuple" or t == "dict":
        return n // {SLOTS_PER_STEP}
    return 0

def sbx__size(v):
    t = sbx__type(v)
    if t == "string" or t == "list" or t == "tuple" or t == "dict":
        return sbx__units(t, len(v))
    return 0

def sbx__scan(v):
    sbx__charge(sbx__size(v))

def sbx__sized(v):
    sbx__charge(sbx__size(v))
    return v

def sbx__repeat_cost(a, b):
    ta = sbx__type(a)
    tb = sbx__type(b)
    if ta == "int" and tb == "int":
        if a > {_BIG} or a < -{_BIG} or b > {_BIG} or b < -{_BIG}:
            fail("integer operand of * beyond 64 bits")
        return 0
    if tb == "int" and b > 0 and (ta == "string" or ta == "list" or ta == "tuple"):
        return sbx__units(ta, len(a) * b)
    if ta == "int" and a > 0 and (tb == "string" or tb == "list" or tb == "tuple"):
        return sbx__units(tb, len(b) * a)
    return 0

def sbx__op_mul(a, b):
    if sbx__type(a) != "float":
        sbx__charge(sbx__repeat_cost(a, b))
    return a * b

def sbx__chk_mul(a, b):
    if sbx__type(a) != "float":
        sbx__charge(sbx__repeat_cost(a, b))
    return b

def sbx__concat_cost(a, b):
    ta = sbx__type(a)
    if (ta == "string" or ta == "list" or ta == "tuple") and sbx__type(b) == ta:
        return sbx__units(ta, len(a) + len(b))
    return 0

def sbx__int_check(r, op):
    # An integer that doubles in a loop would make every later operation on it slower. (Inlined in the
    # helpers of + and -, which run often: a call is a counted step.)
    if r > {_BIG} or r < -{_BIG}:
        fail("integer result of " + op + " beyond 64 bits")
    return r

def sbx__op_add(a, b):
    t = sbx__type(a)
    if t == "int":
        r = a + b
        if r > {_BIG} or r < -{_BIG}:
            sbx__int_check(r, "+")
        return r
    if t != "float":
        sbx__charge(sbx__concat_cost(a, b))
    return a + b

def sbx__chk_add(a, b):
    t = sbx__type(a)
    if t == "int":
        r = a + b
        if r > {_BIG} or r < -{_BIG}:
            sbx__int_check(r, "+")
    elif t != "float":
        sbx__charge(sbx__concat_cost(a, b))
    return b

def sbx__op_sub(a, b):
    r = a - b
    if sbx__type(r) == "int" and (r > {_BIG} or r < -{_BIG}):
        sbx__int_check(r, "-")
    return r

def sbx__chk_sub(a, b):
    r = a - b
    if sbx__type(r) == "int" and (r > {_BIG} or r < -{_BIG}):
        sbx__int_check(r, "-")
    return b

def sbx__op_mod(a, b):
    if sbx__type(a) == "string":
        sbx__walk(b)
        sbx__scan(a)
    return a % b

def sbx__chk_mod(a, b):
    if sbx__type(a) == "string":
        sbx__walk(b)
        sbx__scan(a)
    return b

def sbx__shift_check(a, b):
    if sbx__type(b) == "int" and b > {INT_BITS}:
        fail("shift by more than {INT_BITS} bits")
    if sbx__type(a) == "int" and (a > {_BIG} or a < -{_BIG}):
        fail("integer operand of << beyond 64 bits")

def sbx__op_shl(a, b):
    sbx__shift_check(a, b)
    return a << b

def sbx__chk_shl(a, b):
    sbx__shift_check(a, b)
    return b

def sbx__compare_cost(a, b):
    # A comparison stops at the smaller operand: it costs at most that one's weight.
    ta = sbx__type(a)
    if ta != sbx__type(b):
        return 0
    if ta == "string":
        return (len(a) if len(a) < len(b) else len(b)) // {BYTES_PER_STEP}
    if ta == "list" or ta == "tuple" or ta == "dict":
        return sbx__units(ta, len(a) if len(a) < len(b) else len(b)) + sbx__weight(a if len(a) < len(b) else b)
    if ta == "struct":
        return sbx__weight(a)
    return 0

def sbx__key(k):
    # d[k] hashes k and compares it with the key it finds: k's weight.
    t = sbx__type(k)
    if t != "int" and t != "bool" and t != "NoneType":
        sbx__charge(sbx__weight(k))
    return k

def sbx__at(x, k):
    # x[k]: a string finds its k-th character by reading it from the start; a dict hashes k.
    t = sbx__type(x)
    if t == "string":
        sbx__charge(sbx__n_len(x) // {BYTES_PER_STEP})
    elif t == "dict":
        sbx__key(k)
    return x[k]

def sbx__chars(x):
    # A string's slice finds its ends by reading it from the start.
    if sbx__type(x) == "string":
        sbx__charge(sbx__n_len(x) // {BYTES_PER_STEP})
    return x

def sbx__scan_call(s, a):
    sbx__scan(s)
    if a:
        if sbx__type(s) == "list":
            sbx__charge(len(s) * sbx__weight(a[0]))
        else:
            for x in a:
                sbx__charge(sbx__weight(x))

def sbx__keyed_call(s, a):
    if sbx__type(s) == "list":
        sbx__scan(s)
    elif a:
        sbx__charge(sbx__weight(a[0]))

def sbx__op_eq(a, b):
    t = sbx__type(a)
    if t != "int" and t != "float" and t != "NoneType" and t != "bool":
        sbx__charge(sbx__compare_cost(a, b))
    return a == b

def sbx__op_ne(a, b):
    t = sbx__type(a)
    if t != "int" and t != "float" and t != "NoneType" and t != "bool":
        sbx__charge(sbx__compare_cost(a, b))
    return a != b

def sbx__op_lt(a, b):
    t = sbx__type(a)
    if t != "int" and t != "float" and t != "NoneType" and t != "bool":
        sbx__charge(sbx__compare_cost(a, b))
    return a < b

def sbx__op_le(a, b):
    t = sbx__type(a)
    if t != "int" and t != "float" and t != "NoneType" and t != "bool":
        sbx__charge(sbx__compare_cost(a, b))
    return a <= b

def sbx__op_gt(a, b):
    t = sbx__type(a)
    if t != "int" and t != "float" and t != "NoneType" and t != "bool":
        sbx__charge(sbx__compare_cost(a, b))
    return a > b

def sbx__op_ge(a, b):
    t = sbx__type(a)
    if t != "int" and t != "float" and t != "NoneType" and t != "bool":
        sbx__charge(sbx__compare_cost(a, b))
    return a >= b

def sbx__in_cost(a, b):
    # A list or tuple compares a with each element (each comparison costs at most a's weight); a dict
    # hashes and compares a once; a string searches for a.
    tb = sbx__type(b)
    if tb == "dict":
        return sbx__weight(a)
    if tb == "list" or tb == "tuple":
        return sbx__size(b) + len(b) * sbx__weight(a)
    if tb == "string":
        return sbx__size(b) + sbx__size(a)
    return 0

def sbx__op_in(a, b):
    sbx__charge(sbx__in_cost(a, b))
    if sbx__type(a) == "string" and sbx__type(b) == "string":
        return b.find(a) >= 0  # starlark's own `in` of two strings takes len(a) * len(b): find, their sizes
    return a in b

def sbx__op_not_in(a, b):
    sbx__charge(sbx__in_cost(a, b))
    if sbx__type(a) == "string" and sbx__type(b) == "string":
        return b.find(a) < 0
    return a not in b

def sbx__each(k, xs):
    # A loop whose body is long pays k steps an element of xs before it runs (game.scripting.loops).
    t = sbx__type(xs)
    if t == "list" or t == "tuple" or t == "dict" or t == "range":
        sbx__charge(len(xs) * k)
    return xs

def sbx__pay(k, v):
    # A long function body pays k steps a call; a long lambda, a use.
    sbx__charge(k)
    return v

def sbx__star(x):
    # f(*x) and f(**x) unpack x natively: pay per element first.
    sbx__count(x)
    return x

def sbx__fstr(*values):
    # An f-string converts each named value natively: pay for them as str() would.
    for v in values:
        sbx__walk(v)
    return ""

def sbx__m_join(s, xs):
    if sbx__type(s) != "string":
        return s.join(xs)
    n = 0
    total = 0
    for x in xs:
        n += 1
        if sbx__type(x) == "string":
            total += len(x)
        else:
            sbx__walk(x)  # join writes an item that is not a string into its error
    sbx__charge((total + len(s) * n) // {BYTES_PER_STEP})
    return s.join(xs)

def sbx__m_replace(s, old, new, *rest):
    if sbx__type(s) != "string" or sbx__type(old) != "string" or sbx__type(new) != "string":
        return s.replace(old, new, *rest)
    sbx__scan(s)
    k = len(s) + 1 if old == "" else s.count(old)
    if rest and sbx__type(rest[0]) == "int" and rest[0] >= 0 and rest[0] < k:
        k = rest[0]
    if len(new) > len(old):
        sbx__charge(k * (len(new) - len(old)) // {BYTES_PER_STEP})
    return s.replace(old, new, *rest)

def sbx__m_format(s, *args, **kwargs):
    if sbx__type(s) == "string":
        sbx__scan(s)
        sbx__walk(args)
        sbx__walk(kwargs)
    return s.format(*args, **kwargs)

def sbx__m_extend(l, xs):
    if sbx__type(l) == "list":
        sbx__count(xs)
    return l.extend(xs)

def sbx__m_update(d, *a, **k):
    if sbx__type(d) == "dict":
        for x in a:
            sbx__weigh_all(x, 1)
    return d.update(*a, **k)

''' + _SCAN_HELPERS


def checked_names() -> list[str]:
    """Every helper the rewritten source may call (the host loads them into each script module)."""
    names = [line[4:line.index("(")] for line in CHECKED_SRC.splitlines() if line.startswith("def sbx__")]
    return sorted(set(names))
