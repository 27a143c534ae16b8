"""Clipped (modified) n-gram counts against one or more references.

A candidate n-gram is credited at most as many times as it occurs in the single
reference where it occurs most often (Papineni et al., 2002):

    clipped(g) = min(count_cand(g), max_k count_ref_k(g))

With ``Counter`` this is ``cand & (ref_1 | ref_2 | …)``: ``|`` takes the maximum of
the references' counts and ``&`` the minimum with the candidate's.

>>> cand = "the the the the the the the".split()
>>> clipped_counts(cand, ["the cat is on the mat".split(), "there is a cat on the mat".split()], 1)
(2, 7)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .ngrams import NGram, _check_n, ngram_counts

__all__ = [
    "ClippedNGram",
    "max_reference_counts",
    "clipped_counts",
    "clipping_table",
    "reference_counts",
    "count_matches",
]


def max_reference_counts(references: Sequence[Sequence[str]], n: int) -> Counter[NGram]:
    """For each n-gram, its largest count in any one reference: ``ref_1 | ref_2 | …``.

    >>> max_reference_counts([["a", "a"], ["a", "b"]], 1)
    Counter({('a',): 2, ('b',): 1})
    """
    result: Counter[NGram] = Counter()
    for ref in references:
        result |= ngram_counts(ref, n)
    return result


def clipped_counts(candidate: Sequence[str], references: Sequence[Sequence[str]],
                   n: int) -> tuple[int, int]:
    """Return ``(clipped matches, candidate n-grams)`` for order n.

    >>> ref = "the cat is sitting on the mat".split()
    >>> clipped_counts("the cat is on the mat".split(), [ref], 2)
    (4, 5)
    """
    cand = ngram_counts(candidate, n)
    clipped = cand & max_reference_counts(references, n)
    return sum(clipped.values()), sum(cand.values())


@dataclass(frozen=True)
class ClippedNGram:
    """One row of the clipping table a lesson shows.

    ``best_ref`` is the index of the first reference in which the n-gram occurs
    ``max_ref_count`` times, or ``None`` when no reference contains it.
    """

    ngram: NGram
    count: int
    max_ref_count: int
    best_ref: int | None
    clipped: int

    @property
    def text(self) -> str:
        return " ".join(self.ngram)


def clipping_table(candidate: Sequence[str], references: Sequence[Sequence[str]],
                   n: int) -> list[ClippedNGram]:
    """The per-n-gram detail of clipping, in the order n-grams first occur in the candidate.

    >>> for row in clipping_table("the the the".split(), [["the", "cat"], ["the", "the"]], 1):
    ...     print(row.text, row.count, row.max_ref_count, row.best_ref, row.clipped)
    the 3 2 1 2
    """
    _check_n(n)
    ref_counts = [ngram_counts(ref, n) for ref in references]
    rows = []
    for gram, count in ngram_counts(candidate, n).items():
        best_ref, best = None, 0
        for k, counts in enumerate(ref_counts):
            if counts[gram] > best:
                best_ref, best = k, counts[gram]
        rows.append(ClippedNGram(gram, count, best, best_ref, min(count, best)))
    return rows


# --- the fast path used by the scorer -------------------------------------------------
# The same clipping for all orders at once, arranged for speed (``BleuScorer``'s "python"
# engine uses it; a property test checks it against ``clipped_counts``, and
# ``vectorized.ReferenceIndex`` is the same again for a whole corpus with numpy).
# The references of a segment are reduced once to {n-gram: max count} over every order
# (unigrams keyed by the bare token) and the frozenset of those keys, as sacrebleu caches
# them. For a candidate, the n-grams
# found in the references are filtered out in C (``filter(keys.__contains__, …)``); when
# none of them repeats (the usual case) each counts once, and only a repeated one needs
# min(count, max ref count): Σ min(c, r) = Σ c − Σ max(c − r, 0).

def reference_counts(references: Sequence[Sequence[str]],
                     max_n: int) -> tuple[dict, frozenset, tuple[int, ...]]:
    """``(maxima, keys, lengths)`` of one segment's references, for ``count_matches``.

    >>> maxima, keys, lengths = reference_counts([["a", "b"], ["a", "a"]], 2)
    >>> maxima["a"], maxima[("a", "b")], lengths
    (2, 1, (2, 2))
    """
    maxima: dict = {}
    get = maxima.get
    for k, ref in enumerate(references):
        counts: Counter = Counter(ref)
        for n in range(2, max_n + 1):
            counts.update(zip(*[ref[i:] for i in range(n)], strict=False))
        if k == 0:
            maxima.update(counts)  # the first reference: a copy in C, no loop
            continue
        for gram, c in counts.items():
            if c > get(gram, 0):
                maxima[gram] = c
    return maxima, frozenset(maxima), tuple(len(ref) for ref in references)


def count_matches(candidate: Sequence[str], maxima: dict, keys: frozenset,
                  max_n: int) -> list[int]:
    """Clipped matches of every order 1 … max_n against ``reference_counts``' result.

    >>> maxima, keys, _ = reference_counts([["a", "b"]], 2)
    >>> count_matches("a a b".split(), maxima, keys, 2)    # a: min(2, 1), b: 1; "a b": 1
    [2, 1]
    """
    matches = [0] * max_n
    found = keys.__contains__
    shifted: list = []
    for n in range(1, min(max_n, len(candidate)) + 1):
        if n == 1:
            hits = list(filter(found, candidate))
        else:
            shifted.append(candidate[n - 1:])
            hits = list(filter(found, zip(candidate, *shifted, strict=False)))
        m = len(hits)
        if not m:  # no n-gram matched, so no longer one can
            break
        if len(set(hits)) != m:  # a matched n-gram repeats: clip it at its maximum
            for gram, c in Counter(hits).items():
                if c > 1 and c > maxima[gram]:
                    m -= c - maxima[gram]
        matches[n - 1] = m
    return matches
