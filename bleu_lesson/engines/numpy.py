"""Clipped counts of a whole corpus at once, with numpy: ``clipped_counts`` for every segment.

The numbers are exactly those of the standard-library engine (``engines.python``, the
chapters' ``clipping.clipped_counts``); only the bookkeeping differs. Instead of one
``Counter`` of tuples per segment, every n-gram becomes an integer and the whole corpus
is counted with a few array operations:

1. each reference token gets an id (its index in a vocabulary); an n-gram's id is the
   rank of ``(id of its first n-1 tokens) * V + (id of its last token)`` among all the
   references' n-grams of that order, so ids stay small for every order;
2. an n-gram *in segment i* is the key ``i * K + id``; the references' maxima are one
   sorted array of keys and one array of counts (the max over the segment's references);
3. a candidate's n-grams get ids the same way (a token or an n-gram that no reference
   has gets -1 and can never match); ``np.unique`` counts each key once, a sorted
   lookup finds its reference maximum, and ``min(count, maximum)`` is the clipped count.

    clipped_n(segment i) = Σ_g min(count_cand,i(g), max_k count_ref_k,i(g))

``BleuScorer`` uses this for test-set-sized corpora when numpy is installed
(``engine="auto"``, through ``NumpyEngine``); ``tests/test_vectorized.py`` checks that
every count equals the standard-library engine's. numpy is imported here, so
``import bleu_lesson`` stays light.

>>> index = ReferenceIndex([[["a", "b"], ["a", "a"]], [["c"]]], max_n=2)
>>> lengths, matches = index.count([["a", "a", "b"], ["c", "c"]])
>>> lengths.tolist(), matches.tolist()  # a: min(2, 2), b: 1; "a a", "a b": 1 each | c: min(2, 1)
([3, 2], [[3, 2], [1, 0]])
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain, repeat

import numpy as np

__all__ = ["NumpyEngine", "ReferenceIndex"]

_INT = np.int64


def _layout(token_lists: Sequence[Sequence[str]]) -> tuple[list, np.ndarray, np.ndarray]:
    """All tokens in one list; each token list's length; tokens left from each position on."""
    lengths = np.fromiter(map(len, token_lists), dtype=_INT, count=len(token_lists))
    flat = list(chain.from_iterable(token_lists))
    ends = np.cumsum(lengths)
    # remaining[p]: tokens from position p to the end of its own list (p's n-gram fits if >= n)
    remaining = np.repeat(ends, lengths) - np.arange(len(flat), dtype=_INT)
    return flat, lengths, remaining


def _lookup(sorted_keys: np.ndarray, queries: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(found, where)``: which queries are in ``sorted_keys``, and at which index."""
    if not len(sorted_keys):
        return np.zeros(len(queries), dtype=bool), np.zeros(len(queries), dtype=_INT)
    where = np.searchsorted(sorted_keys, queries)
    where[where == len(sorted_keys)] = 0
    return sorted_keys[where] == queries, where


class ReferenceIndex:
    """Every segment's references as integer n-gram ids with their maximum counts.

    ``segments[i]`` lists the tokenized references of segment i (one or more).
    ``count(candidates)`` returns ``(lengths, matches)``: each candidate's length and an
    array whose row i holds segment i's clipped matches of orders 1 … max_n.
    """

    def __init__(self, segments: Sequence[Sequence[Sequence[str]]], max_n: int) -> None:
        self.max_n = max_n
        self.n_segments = len(segments)
        refs = [ref for segment in segments for ref in segment]
        flat, lengths, remaining = _layout(refs)
        vocab: dict = {}
        setdefault = vocab.setdefault
        for token in flat:
            setdefault(token, len(vocab))
        self.vocab = vocab
        self.V = len(vocab) + 1
        ids = np.fromiter(map(vocab.__getitem__, flat), dtype=_INT, count=len(flat))
        n_refs = np.fromiter(map(len, segments), dtype=_INT, count=len(segments))
        ref_of_token = np.repeat(np.arange(len(refs), dtype=_INT), lengths)
        segment_of_ref = np.repeat(np.arange(len(segments), dtype=_INT), n_refs)

        #: per order n >= 2: sorted codes (prefix id * V + last token id); id = rank
        self.codes: list[np.ndarray | None] = [None]
        #: per order: (sorted keys segment * K + id, K) and the maximum count of each key
        self.keys: list[tuple[np.ndarray, int]] = []
        self.maxima: list[np.ndarray] = []
        gram = ids
        for n in range(1, max_n + 1):
            at = np.flatnonzero(remaining >= n)  # positions where an n-gram starts
            if n > 1:
                codes, ranks = np.unique(gram[at] * self.V + ids[at + n - 1],
                                         return_inverse=True)
                self.codes.append(codes)
                gram = np.full(len(ids), -1, dtype=_INT)
                gram[at] = ranks.reshape(-1)
            K = int(gram[at].max()) + 1 if len(at) else 1
            # count every (reference, n-gram) pair, then keep the max over a segment's references
            pairs, counts = np.unique(ref_of_token[at] * K + gram[at], return_counts=True)
            keys = segment_of_ref[pairs // K] * K + pairs % K
            order = np.argsort(keys, kind="stable")
            keys, counts = keys[order], counts[order]
            if len(keys):
                starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
                keys, counts = keys[starts], np.maximum.reduceat(counts, starts)
            self.keys.append((keys, K))
            self.maxima.append(counts)

    def count(self, candidates: Sequence[Sequence[str]]) -> tuple[np.ndarray, np.ndarray]:
        """``(lengths, matches)`` of tokenized candidates, one per segment, in order."""
        if len(candidates) != self.n_segments:
            raise ValueError(f"candidates must have one entry per segment: {len(candidates)} "
                             f"candidates, {self.n_segments} segments")
        flat, lengths, remaining = _layout(candidates)
        ids = np.fromiter(map(self.vocab.get, flat, repeat(-1)), dtype=_INT, count=len(flat))
        segment = np.repeat(np.arange(self.n_segments, dtype=_INT), lengths)
        matches = np.zeros((self.n_segments, self.max_n), dtype=_INT)
        gram = ids
        for n in range(1, self.max_n + 1):
            if n > 1:  # an n-gram can be known only if its first n-1 tokens are
                at = np.flatnonzero((gram >= 0) & (remaining >= n))
                last = ids[at + n - 1]
                at, last = at[last >= 0], last[last >= 0]
                codes = self.codes[n - 1]
                assert codes is not None  # orders n >= 2 always have their codes
                found, rank = _lookup(codes, gram[at] * self.V + last)
                gram = np.full(len(ids), -1, dtype=_INT)
                gram[at[found]] = rank[found]
            at = np.flatnonzero(gram >= 0)
            if not len(at):  # no n-gram of this order is known, so no longer one is
                break
            keys, K = self.keys[n - 1]
            wanted, counts = np.unique(segment[at] * K + gram[at], return_counts=True)
            found, where = _lookup(keys, wanted)
            clipped = np.minimum(counts[found], self.maxima[n - 1][where[found]])
            matches[:, n - 1] = np.bincount(wanted[found] // K, weights=clipped,
                                            minlength=self.n_segments)
        return lengths, matches


class NumpyEngine:
    """The ``engines.Engine`` interface on a ``ReferenceIndex``.

    Orders longer than every reference cannot match, so the index counts only up to the
    longest reference; a candidate's n-gram totals are max(L − n + 1, 0).
    """

    name = "numpy"

    def __init__(self, references: Sequence[Sequence[Sequence[str]]], order: int) -> None:
        self.order = order
        longest = max((len(ref) for segment in references for ref in segment), default=0)
        self._index = ReferenceIndex(references, max(1, min(order, longest)))

    def count(self, candidates: Sequence[Sequence[str]]) -> list[tuple[tuple[int, ...],
                                                                      tuple[int, ...]]]:
        lengths, matches = self._index.count(candidates)
        order = self.order
        pad = (0,) * (order - self._index.max_n)
        totals_of: dict[int, tuple[int, ...]] = {}  # a length's n-gram totals, L − n + 1
        out = []
        for length, row in zip(lengths.tolist(), matches.tolist(), strict=True):
            totals = totals_of.get(length)
            if totals is None:
                counted = min(order, length)
                totals = totals_of[length] = (tuple(range(length, length - counted, -1))
                                              + (0,) * (order - counted))
            out.append((tuple(row) + pad, totals))
        return out
