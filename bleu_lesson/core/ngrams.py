"""N-grams: every run of n consecutive tokens, and how often each occurs.

A sentence of L tokens has ``max(L - n + 1, 0)`` n-grams: one starting at each position
that still leaves room for n tokens.

>>> ngrams(["the", "cat", "is", "on"], 2)
[('the', 'cat'), ('cat', 'is'), ('is', 'on')]
>>> len(ngrams(["the", "cat", "is", "on"], 4)), len(ngrams(["the", "cat"], 3))
(1, 0)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ._validate import checks, positive_int

__all__ = ["ngrams", "ngram_counts", "all_ngram_counts"]

NGram = tuple[str, ...]


def _check_n(n: object, name: str = "n") -> int:
    """``n`` if it is a positive int, else the error ``positive_int`` raises."""
    positive_int(n, name)
    return n  # type: ignore[return-value]


@checks(n=positive_int)
def ngrams(tokens: Sequence[str], n: int) -> list[NGram]:
    """Return the n-grams of ``tokens`` in order: ``tokens[i:i+n]`` for i = 0 … L − n.

    >>> ngrams(["a", "b", "c"], 1)
    [('a',), ('b',), ('c',)]
    """
    return [tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)]


def ngram_counts(tokens: Sequence[str], n: int) -> Counter[NGram]:
    """Count the n-grams of one order.

    >>> ngram_counts("the the the".split(), 1)
    Counter({('the',): 3})
    """
    return Counter(ngrams(tokens, n))


def all_ngram_counts(tokens: Sequence[str], max_n: int) -> list[Counter[NGram]]:
    """Count the n-grams of every order 1 … ``max_n``: element ``n - 1`` holds order n.

    Orders longer than the sentence have no n-grams; their counters are empty and are
    not enumerated (so a huge ``max_n`` costs nothing more).

    >>> [sum(c.values()) for c in all_ngram_counts("a b c d".split(), 5)]
    [4, 3, 2, 1, 0]
    """
    _check_n(max_n, "max_n")
    counted = min(max_n, len(tokens))
    return ([ngram_counts(tokens, n) for n in range(1, counted + 1)]
            + [Counter() for _ in range(max_n - counted)])
