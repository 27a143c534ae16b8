"""The wire format: the only thing that crosses the sandbox's boundary is plain values.

``encode`` turns trusted values into JSON-able data with tags (inputs sent to the kernel
and to the world); ``decode`` turns the untrusted JSON that comes back into fresh values of
exactly the plain types (and ``Fraction``, which an answer may return), with bounds
(``MAX_NODES`` parts, ``MAX_HASHED`` set and dict entries). Both ``judge`` and ``world``
import it, so neither needs the other for it.
"""

from __future__ import annotations

import fractions
import math
from typing import Any

from bleu_lesson.core.stats import BleuStats

__all__ = ["MAX_HASHED", "MAX_NODES", "decode", "encode"]


def encode(value: Any, _depth: int = 0) -> Any:
    """Trusted values -> JSON-able data with tags for tuples, dicts, sets, non-finite
    floats and ``BleuStats`` (inputs sent to the kernel).

    >>> encode([("the", "cat"), 0.5, float("inf")])
    [{'__tuple__': ['the', 'cat']}, 0.5, {'__float__': 'inf'}]
    """
    if _depth > 100:
        raise ValueError("value nested too deeply")
    t = type(value)
    if value is None or t in (bool, int, str):
        return value
    if t is float:
        return value if math.isfinite(value) else {"__float__": repr(value)}
    if t is list:
        return [encode(v, _depth + 1) for v in value]
    if t is tuple:
        return {"__tuple__": [encode(v, _depth + 1) for v in value]}
    if t is dict:
        return {"__dict__": [[encode(k, _depth + 1), encode(v, _depth + 1)]
                             for k, v in value.items()]}
    if t in (set, frozenset):
        return {"__set__": [encode(v, _depth + 1) for v in value]}
    if t is BleuStats:
        return {"__BleuStats__": [value.hyp_len, value.ref_len, list(value.matches),
                                  list(value.totals)]}
    raise TypeError(f"cannot send a {t.__name__} to the kernel")


#: Bounds of one decoded value: nodes in all, and entries of sets and dicts in all. The
#: second keeps hashing cheap whatever the kernel sends: ints (and tuples of ints) hash
#: alike on purpose cost a set quadratic time, so no reply may hold many of them.
MAX_NODES = 1_000_000
MAX_HASHED = 2_000


def decode(data: Any, _depth: int = 0, _budget: list[int] | None = None) -> Any:
    """JSON data from the kernel -> fresh values of exactly the plain types; raises
    ``ValueError`` for anything else (the kernel is not trusted to send valid data), and
    for a value of more than ``MAX_NODES`` parts or ``MAX_HASHED`` set and dict entries.

    >>> decode([{"__tuple__": ["the", "cat"]}, 1, {"__Fraction__": [2, 4]}])
    [('the', 'cat'), 1, Fraction(1, 2)]
    >>> decode({"__class__": "os.system"})
    Traceback (most recent call last):
    ...
    ValueError: not a plain value: {'__class__': 'os.system'}
    >>> decode({"__set__": list(range(3000))})
    Traceback (most recent call last):
    ...
    ValueError: more than 2000 set or dict entries
    """
    budget = _budget if _budget is not None else [MAX_NODES, MAX_HASHED]
    budget[0] -= 1
    if budget[0] < 0:
        raise ValueError(f"a value of more than {MAX_NODES} parts")
    if _depth > 100:
        raise ValueError("value nested too deeply")
    t = type(data)
    if data is None or t in (bool, int, float, str):
        return data
    if t is list:
        return [decode(v, _depth + 1, budget) for v in data]
    if t is dict and len(data) == 1:
        (tag, body), = data.items()
        if tag == "__tuple__" and type(body) is list:
            return tuple(decode(v, _depth + 1, budget) for v in body)
        if tag == "__float__" and body in ("nan", "inf", "-inf"):
            return float(body)
        if tag in ("__dict__", "__set__") and type(body) is list:
            budget[1] -= len(body)
            if budget[1] < 0:
                raise ValueError(f"more than {MAX_HASHED} set or dict entries")
        if tag == "__dict__" and type(body) is list:
            out = {}
            for pair in body:
                if type(pair) is not list or len(pair) != 2:
                    raise ValueError("malformed dict entry")
                key = decode(pair[0], _depth + 1, budget)
                try:
                    hash(key)
                except TypeError:
                    raise ValueError("unhashable dict key") from None
                out[key] = decode(pair[1], _depth + 1, budget)
            return out
        if tag == "__set__" and type(body) is list:
            items = [decode(v, _depth + 1, budget) for v in body]
            try:
                return set(items)
            except TypeError:
                raise ValueError("unhashable set element") from None
        if tag == "__Fraction__" and type(body) is list and len(body) == 2 and all(
                type(x) is int for x in body) and body[1] > 0:
            return fractions.Fraction(body[0], body[1])
        if tag == "__BleuStats__" and type(body) is list and len(body) == 4:
            h, r, m, tt = body
            if not (type(h) is int and type(r) is int and type(m) is list
                    and type(tt) is list and all(type(x) is int for x in m + tt)):
                raise ValueError("malformed BleuStats")
            return BleuStats(h, r, tuple(m), tuple(tt))
    raise ValueError(f"not a plain value: {str(data)[:80]}")
