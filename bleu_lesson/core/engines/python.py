"""The standard-library engine: exactly the functions the chapters show, nothing else.

Each candidate is counted with ``clipping.clipped_counts`` (chapter 03) for every order
1 … order; it counts the candidate's n-grams with ``ngrams.ngram_counts`` (chapter 02)
and the references' maxima with ``clipping.max_reference_counts`` (chapter 03). An
order longer than the candidate has no n-gram, so its counts are 0 / 0 without asking.
Speed is the numpy engine's job; this one is written to be read.

Unigrams: the min(3, 2) + cat 1 = 3; bigrams: "the the" min(2, 1) + "the cat" 1 = 2; no
trigram of the candidate is in a reference:

>>> engine = PythonEngine([[["the", "cat", "the"], ["the", "the"]]], order=3)
>>> engine.count([["the", "the", "the", "cat"]])
[((3, 2, 0), (4, 3, 2))]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bleu_lesson.core.clipping import clipped_counts

from . import Counts

__all__ = ["PythonEngine"]


class PythonEngine:
    """Clipped counts of each segment with ``clipped_counts``, one order at a time."""

    name = "python"

    def __init__(self, references: Sequence[Sequence[Sequence[str]]], order: int) -> None:
        self.order = order
        self._references = references

    def count(self, candidates: Iterable[Sequence[str]]) -> list[Counts]:
        out: list[Counts] = []
        candidates = iter(candidates)  # may be lazy (a map of the tokenizer)
        # references first: when they run out, zip takes no candidate it would then lose
        for references, tokens in zip(self._references, candidates, strict=False):
            # an order longer than the candidate has no n-gram: 0 matches of 0
            longest = min(self.order, len(tokens))
            counted = [clipped_counts(tokens, references, n) for n in range(1, longest + 1)]
            none = (0,) * (self.order - longest)
            matches = tuple(m for m, _ in counted) + none
            totals = tuple(t for _, t in counted) + none
            out.append((matches, totals))
        given = len(out) + sum(1 for _ in candidates)  # candidates left over, if any
        if given != len(self._references):
            raise ValueError(f"candidates must have one entry per segment: {given} "
                             f"candidates, {len(self._references)} segments")
        return out
