"""The brevity penalty, and which reference length it is measured against.

Precision alone rewards a candidate for saying little, so BLEU multiplies by

    BP = 1                 if c > r
    BP = exp(1 − r / c)    if 0 < c ≤ r
    BP = 0                 if c = 0 < r

where c is the candidate length and r the *effective reference length*: the length of
the reference closest to c. Tools differ on ties (a reference 1 shorter and one 1
longer): sacrebleu and NLTK take the shorter, the seed takes the first listed.

>>> round(brevity_penalty(6, 7), 4)           # exp(1 − 7/6) = exp(−1/6)
0.8465
>>> closest_ref_length(6, [5, 7]), closest_ref_length(6, [7, 5], tie="first")
(5, 7)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ._validate import checks, non_empty, non_negative, one_of

__all__ = ["REF_LENGTHS", "TIE_RULES", "closest_ref_length", "effective_ref_length",
           "brevity_penalty"]

#: How the reference length of a segment is chosen: the closest (Papineni, sacrebleu,
#: NLTK) or the shortest (Hugging Face ``evaluate``).
REF_LENGTHS: tuple[str, ...] = ("closest", "shortest")
#: Which of two equally close reference lengths wins.
TIE_RULES: tuple[str, ...] = ("shorter", "first")


@checks(ref_lens=non_empty, tie=one_of(TIE_RULES))
def closest_ref_length(hyp_len: int, ref_lens: Sequence[int], tie: str = "shorter") -> int:
    """The reference length closest to ``hyp_len``; ``tie`` says which wins a tie.

    ``tie="shorter"`` (sacrebleu, NLTK) picks the shorter of two equally close lengths,
    ``tie="first"`` (the seed's ``min(..., key=abs diff)``) the one listed first.

    >>> closest_ref_length(10, [8, 12, 12]), closest_ref_length(10, [12, 8], tie="first")
    (8, 12)
    """
    if tie == "first":
        return min(ref_lens, key=lambda r: abs(r - hyp_len))
    return min(ref_lens, key=lambda r: (abs(r - hyp_len), r))


def effective_ref_length(hyp_len: int, ref_lens: Sequence[int], rule: str = "closest",
                         tie: str = "shorter") -> int:
    """The reference length r of one segment: ``closest_ref_length`` or the shortest.

    >>> effective_ref_length(6, [5, 7, 9]), effective_ref_length(6, [5, 7, 9], "shortest")
    (5, 5)
    >>> effective_ref_length(8, [5, 7, 9], "closest", tie="first")
    7
    """
    if rule == "shortest":
        non_empty(ref_lens, "ref_lens")
        return min(ref_lens)
    if rule != "closest":
        raise ValueError(f"rule must be one of {REF_LENGTHS}, got {rule!r}")
    return closest_ref_length(hyp_len, ref_lens, tie)


@checks(hyp_len=non_negative, ref_len=non_negative)
def brevity_penalty(hyp_len: int, ref_len: int) -> float:
    """``exp(1 − r/c)`` when the candidate is not longer than the reference, else 1.

    A candidate of length 0 against a non-empty reference gets 0. Lengths are summed
    over a corpus before the penalty is taken, never averaged per sentence.

    >>> brevity_penalty(7, 6), brevity_penalty(6, 6), brevity_penalty(0, 6)
    (1.0, 1.0, 0.0)
    >>> round(brevity_penalty(5, 10), 4)          # exp(1 − 2) = 1/e
    0.3679
    """
    if hyp_len >= ref_len:
        return 1.0
    if hyp_len == 0:
        return 0.0
    return math.exp(1 - ref_len / hyp_len)
