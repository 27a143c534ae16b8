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

from .ngrams import NGram, ngram_counts

__all__ = [
    "ClippedNGram",
    "max_reference_counts",
    "clipped_counts",
    "clipping_table",
]


def max_reference_counts(references: Sequence[Sequence[str]], n: int) -> Counter[NGram]:
    """For each n-gram, its largest count in any one reference: ``ref_1 | ref_2 | …``.

    >>> max_reference_counts([["a", "a"], ["a", "b"]], 1)
    Counter({('a',): 2, ('b',): 1})
    """
    counts = [ngram_counts(ref, n) for ref in references]
    result = counts[0] if counts else Counter()
    for more in counts[1:]:
        result |= more          # keep the larger count of each n-gram
    return result


def clipped_counts(candidate: Sequence[str], references: Sequence[Sequence[str]],
                   n: int) -> tuple[int, int]:
    """Return ``(clipped matches, candidate n-grams)`` for order n.

        clipped = Σ_g min(count_cand(g), max_k count_ref_k(g))

    >>> ref = "the cat is sitting on the mat".split()
    >>> clipped_counts("the cat is on the mat".split(), [ref], 2)
    (4, 5)
    """
    counts = ngram_counts(candidate, n)
    max_counts = max_reference_counts(references, n)
    clipped = 0
    for gram, count in counts.items():
        clipped += min(count, max_counts[gram])   # an n-gram no reference has: min(count, 0)
    return clipped, sum(counts.values())


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
    """The per-n-gram detail of ``clipped_counts``, in the order n-grams first occur.

    Built from the same ``ngram_counts`` and ``max_reference_counts`` as the score; its
    ``&`` gives each n-gram's min(count, maximum), so the table adds up to ``clipped_counts``.

    >>> for row in clipping_table("the the the".split(), [["the", "cat"], ["the", "the"]], 1):
    ...     print(row.text, row.count, row.max_ref_count, row.best_ref, row.clipped)
    the 3 2 1 2
    """
    cand = ngram_counts(candidate, n)
    maxima = max_reference_counts(references, n)
    clipped = cand & maxima
    per_ref = [ngram_counts(ref, n) for ref in references]
    rows = []
    for gram, count in cand.items():
        best = maxima[gram]
        best_ref = next((k for k, c in enumerate(per_ref) if c[gram] == best), None) if best \
            else None
        rows.append(ClippedNGram(gram, count, best, best_ref, clipped[gram]))
    return rows
