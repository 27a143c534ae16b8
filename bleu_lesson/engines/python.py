"""The standard-library engine: exactly the functions the chapters show, nothing else.

For each segment, the references are reduced once per order with
``clipping.max_reference_counts`` (chapter 03); each candidate is then counted with
``clipping.clipped_counts`` (chapter 03), which enumerates its n-grams with
``ngrams.ngrams`` (chapter 02; the references are counted with ``ngrams.ngram_counts``).
Orders longer than the candidate have no n-grams and are not enumerated: their counts
are 0 / 0, so ``max_n`` far above the longest sentence costs nothing.

Unigrams: the min(3, 2) + cat 1 = 3; bigrams: "the the" min(2, 1) + "the cat" 1 = 2; no
trigram of the candidate is in a reference:

>>> engine = PythonEngine([[["the", "cat", "the"], ["the", "the"]]], order=3)
>>> engine.count([["the", "the", "the", "cat"]])
[((3, 2, 0), (4, 3, 2))]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..clipping import clipped_counts, max_reference_counts
from ..ngrams import NGram
from . import Counts

__all__ = ["PythonEngine"]

_NOTHING: Counter[NGram] = Counter()


class PythonEngine:
    """Clipped counts of each segment with ``clipped_counts``, references counted once."""

    name = "python"

    def __init__(self, references: Sequence[Sequence[Sequence[str]]], order: int) -> None:
        self.order = order
        self._references = [list(segment) for segment in references]
        # max_reference_counts of orders 1 … (the longest reference of the segment)
        self._maxima = [
            [max_reference_counts(segment, n)
             for n in range(1, min(order, max(map(len, segment), default=0)) + 1)]
            for segment in self._references
        ]

    def count(self, candidates: Sequence[Sequence[str]]) -> list[Counts]:
        if len(candidates) != len(self._references):
            raise ValueError(f"candidates must have one entry per segment: {len(candidates)} "
                             f"candidates, {len(self._references)} segments")
        order = self.order
        out: list[Counts] = []
        for tokens, references, maxima in zip(candidates, self._references, self._maxima,
                                              strict=True):
            counted = min(order, len(tokens))  # longer orders: no n-gram, 0 / 0
            pairs = [clipped_counts(tokens, references, n,
                                    ref_counts=maxima[n - 1] if n <= len(maxima) else _NOTHING)
                     for n in range(1, counted + 1)]
            matches, totals = zip(*pairs, strict=True) if pairs else ((), ())
            pad = (0,) * (order - counted)
            out.append((matches + pad, totals + pad))
        return out
