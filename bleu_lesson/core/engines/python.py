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

from collections.abc import Iterable, Sequence

from bleu_lesson.core.clipping import clipped_counts, max_reference_counts
from bleu_lesson.core.ngrams import NGram

from . import Counts

__all__ = ["PythonEngine"]


def _merged(references: Sequence[Sequence[str]], top: int) -> dict[NGram, int]:
    """``max_reference_counts`` of orders 1 … top in one plain dict (their keys never clash)."""
    merged: dict[NGram, int] = {}
    for n in range(1, top + 1):
        merged.update(max_reference_counts(references, n))
    return merged


class PythonEngine:
    """Clipped counts of each segment with ``clipped_counts``, references counted once."""

    name = "python"

    def __init__(self, references: Sequence[Sequence[Sequence[str]]], order: int) -> None:
        self.order = order
        # What a scorer keeps for as long as it lives is made of tuples and plain dicts of
        # strings and numbers, which Python's garbage collector stops tracking (all but the
        # one tuple holding the dicts), so a test set held in a notebook is not scanned again
        # by every full collection (a Counter or a list always is). Per segment: its
        # references, and one dict holding max_reference_counts of orders 1 … (its longest
        # reference): an n-gram can only equal a key of its own length, so clipped_counts
        # of order n finds in it exactly what the Counter of order n alone would give.
        self._references = tuple(tuple(map(tuple, segment)) for segment in references)
        self._maxima = tuple(_merged(segment, min(order, max(map(len, segment), default=0)))
                             for segment in self._references)

    def count(self, candidates: Iterable[Sequence[str]]) -> list[Counts]:
        order = self.order
        out: list[Counts] = []
        # one candidate at a time (``candidates`` may be a lazy map of the tokenizer), so
        # each token list is gone before the next is made
        lazy = iter(candidates)
        # candidates last: when the segments run out, no candidate is taken and lost
        for references, maxima, tokens in zip(self._references, self._maxima, lazy,
                                              strict=False):
            counted = min(order, len(tokens))  # longer orders: no n-gram, 0 / 0
            pairs = [clipped_counts(tokens, references, n, ref_counts=maxima)
                     for n in range(1, counted + 1)]
            matches, totals = zip(*pairs, strict=True) if pairs else ((), ())
            pad = (0,) * (order - counted)
            out.append((matches + pad, totals + pad))
        extra = sum(1 for _ in lazy) if len(out) == len(self._references) else 0
        if len(out) != len(self._references) or extra:
            raise ValueError(f"candidates must have one entry per segment: {len(out) + extra} "
                             f"candidates, {len(self._references)} segments")
        return out
