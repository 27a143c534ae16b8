"""Clipped counts of a whole corpus at once, with numpy: ``clipped_counts`` for every segment.

The numbers are exactly those of the standard-library engine (``engines.python``, the
chapters' ``clipping.clipped_counts``); only the bookkeeping differs. Instead of one
``Counter`` of tuples per segment, every n-gram becomes an integer and the whole corpus
is counted with a few array operations:

1. each reference token gets an id (its index in a vocabulary). An n-gram *in segment i*
   gets a key built from its prefix: a unigram's key is ``i * V + id``; an n-gram's key is
   ``(rank of its first n-1 tokens' key) * V + (id of its last token)``, where the rank is
   the position of that key among all the references' keys of order n-1. So keys stay
   small for every order, and equal n-grams of one segment get equal keys;
2. the references' maxima are one sorted array of keys per order and one array of counts
   (the max over the segment's references) beside it;
3. a candidate n-gram is looked up (one sorted search per order) only where its first n-1
   tokens were found in its own segment's references, since no other n-gram can match;
   a token that no reference has never matches. ``bincount`` counts each key's
   occurrences in the candidates, ``min(count, maximum)`` clips it, and a second
   ``bincount`` sums the clipped counts per segment.

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

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from itertools import chain, repeat

import numpy as np

__all__ = ["NumpyEngine", "ReferenceIndex"]

_INT = np.int64  # keys, and anything summed
_SMALL = np.int32  # per token: ids, positions left, which reference; ranks and counts


def _layout(token_lists: Iterable[Sequence[str]], token_ids: Callable[[Iterable[str]],
                                                                      Iterable[int]],
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each token list's length, every token's id (``token_ids(all tokens)``), and the tokens
    left from each position to the end of its own list (an n-gram starts at p if >= n).

    One pass: ``token_lists`` may be lazy (a ``map`` of the tokenizer), and each list is
    let go as soon as its ids are taken, so a corpus of lists never piles up for Python's
    garbage collector to scan."""
    seen: list[int] = []
    note = seen.append

    def noted(tokens: Sequence[str]) -> Sequence[str]:
        note(len(tokens))
        return tokens

    ids = np.fromiter(token_ids(chain.from_iterable(map(noted, token_lists))), dtype=_SMALL)
    lengths = np.array(seen, dtype=_INT)
    ends = np.cumsum(lengths)
    remaining = (np.repeat(ends, lengths) - np.arange(len(ids), dtype=_INT)).astype(_SMALL)
    return lengths, ids, remaining


def _lookup(sorted_keys: np.ndarray, queries: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(found, where)``: which queries are in ``sorted_keys`` (not empty), at which index."""
    where = np.searchsorted(sorted_keys, queries)
    where[where == len(sorted_keys)] = 0
    return sorted_keys[where] == queries, where


class ReferenceIndex:
    """Every segment's references as integer n-gram keys with their maximum counts.

    ``segments[i]`` lists the tokenized references of segment i (one or more).
    ``count(candidates)`` returns ``(lengths, matches)``: each candidate's length and an
    array whose row i holds segment i's clipped matches of orders 1 … max_n.
    """

    def __init__(self, segments: Sequence[Sequence[Sequence[str]]], max_n: int) -> None:
        self.max_n = max_n
        self.n_segments = len(segments)
        refs = [ref for segment in segments for ref in segment]
        # a token's id is the size of the vocabulary when the token is first seen
        vocab: defaultdict[str, int] = defaultdict()
        vocab.default_factory = vocab.__len__
        lengths, ids, remaining = _layout(refs, lambda tokens: map(vocab.__getitem__, tokens))
        #: token -> id, in order of first occurrence
        self.vocab: dict[str, int] = dict(vocab)
        V = self.V = len(self.vocab) + 1
        n_refs = np.fromiter(map(len, segments), dtype=_INT, count=len(segments))
        # each token's reference as its slot in its own segment: 0 … (references there) - 1
        first_ref = np.repeat(np.cumsum(n_refs) - n_refs, n_refs)
        slot_of_token = np.repeat((np.arange(len(refs)) - first_ref).astype(_SMALL), lengths)
        slots = int(n_refs.max(initial=0))
        segment_of_token = np.repeat(np.repeat(np.arange(len(segments), dtype=_SMALL), n_refs),
                                     lengths)
        #: per order: the sorted keys (prefix rank * V + last token id), the maximum count
        #: of each key in any one reference of its segment, and that segment
        self.keys: list[np.ndarray] = []
        self.maxima: list[np.ndarray] = []
        self.segment: list[np.ndarray] = []
        prefix = segment_of_token  # order 1: the "prefix" of a token is its segment
        for n in range(1, max_n + 1):
            at = np.flatnonzero(remaining >= n)  # positions where an n-gram starts
            codes = prefix[at].astype(_INT) * V
            codes += ids[at + (n - 1)]
            keys, rank = np.unique(codes, return_inverse=True)
            del codes
            rank = rank.reshape(-1)
            # count each key in the references of slot 0, of slot 1, …: keep the largest count
            slot = slot_of_token[at]
            maxima = np.bincount(rank[slot == 0], minlength=len(keys))
            for j in range(1, slots):
                np.maximum(maxima, np.bincount(rank[slot == j], minlength=len(keys)),
                           out=maxima)
            maxima = maxima.astype(_SMALL)
            segment = np.zeros(len(keys), dtype=_SMALL)
            segment[rank] = segment_of_token[at]
            self.keys.append(keys)
            self.maxima.append(maxima)
            self.segment.append(segment)
            if n < max_n:
                prefix = np.zeros(len(ids), dtype=_SMALL)
                prefix[at] = rank  # the next order extends this n-gram by one token

    def count(self, candidates: Iterable[Sequence[str]]) -> tuple[np.ndarray, np.ndarray]:
        """``(lengths, matches)`` of tokenized candidates, one per segment, in order."""
        # a token no reference has gets -1: it never matches
        lengths, ids, remaining = _layout(candidates, lambda tokens: map(self.vocab.get, tokens,
                                                                         repeat(-1)))
        if len(lengths) != self.n_segments:
            raise ValueError(f"candidates must have one entry per segment: {len(lengths)} "
                             f"candidates, {self.n_segments} segments")
        matches = np.zeros((self.n_segments, self.max_n), dtype=_INT)
        # the positions still in play, and the key rank of the n-gram found there so far
        at = np.flatnonzero(ids >= 0)
        prefix = np.repeat(np.arange(self.n_segments, dtype=_INT), lengths)[at]
        for n in range(1, self.max_n + 1):
            if n > 1:  # only an n-gram whose first n-1 tokens matched can match
                last = np.full(len(at), -1, dtype=_SMALL)
                fits = remaining[at] >= n
                last[fits] = ids[at[fits] + (n - 1)]
                keep = last >= 0
                at, prefix, last = at[keep], prefix[keep], last[keep]
            else:
                last = ids[at]
            keys = self.keys[n - 1]
            if not len(at) or not len(keys):  # nothing matched, so no longer n-gram can
                break
            found, where = _lookup(keys, prefix * self.V + last)
            where = where[found]
            # candidate count of each reference key, clipped at its maximum, summed per segment
            counts = np.bincount(where, minlength=len(keys))
            clipped = np.minimum(counts, self.maxima[n - 1])
            matches[:, n - 1] = np.bincount(self.segment[n - 1], weights=clipped,
                                            minlength=self.n_segments)
            at, prefix = at[found], where
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

    def count(self, candidates: Iterable[Sequence[str]]) -> list[tuple[tuple[int, ...],
                                                                      tuple[int, ...]]]:
        lengths, matches = self._index.count(candidates)
        order = self.order
        rows: Iterable[tuple[int, ...]] = map(tuple, matches.tolist())
        if order > self._index.max_n:  # orders no reference reaches: no match (one shared pad)
            pad = (0,) * (order - self._index.max_n)
            rows = (row + pad for row in rows)
        lengths_list = lengths.tolist()
        totals_of = {  # each length's n-gram totals, L − n + 1 (0 once n > L)
            length: tuple(range(length, length - min(order, length), -1))
            + (0,) * (order - min(order, length))
            for length in set(lengths_list)}
        return list(zip(rows, map(totals_of.__getitem__, lengths_list), strict=True))
