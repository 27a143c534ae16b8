"""The seed chapter's four functions, with the seed's exact behaviour.

These are the functions printed in the chapter text the course grew from
(``bleu_score.py``): lowercase + whitespace tokens, clipping against the maximum count
over the references, the closest reference length with ties going to the reference
listed first, precision 0.0 for an order with no n-grams, and a score of 0.0 as soon as
any precision is 0. Only bad input differs: it gets a clear error instead of
``min() arg is an empty sequence``.

The seed text printed 0.6065 and 0.7711 as its "expected output"; its code gives:

>>> bleu, details = compute_bleu("The cat is on the mat", ["The cat is sitting on the mat"])
>>> round(bleu, 4), [round(p, 3) for p in details["precisions"]]
(0.0, [1.0, 0.8, 0.5, 0.0])
>>> round(details["brevity_penalty"], 4), details["candidate_len"], details["best_ref_len"]
(0.8465, 6, 7)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence

from ._validate import checks, string
from .ngrams import _check_n

__all__ = ["tokenize", "get_ngrams", "count_clipped_ngrams", "compute_bleu"]


def _check_text(value: object, name: str) -> str:
    string(value, name)
    return value  # type: ignore[return-value]


@checks(text=string)
def tokenize(text: str) -> list[str]:
    """Lowercase, then split on whitespace (the seed's tokenizer).

    >>> tokenize("The cat is on the mat")
    ['the', 'cat', 'is', 'on', 'the', 'mat']
    """
    return text.lower().split()


def get_ngrams(tokens: Sequence[str], n: int) -> list[tuple[str, ...]]:
    """All n-grams of ``tokens`` in order; ``len(tokens) - n + 1`` of them (or none).

    >>> get_ngrams(["the", "cat", "is"], 2)
    [('the', 'cat'), ('cat', 'is')]
    """
    _check_n(n)
    return [tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)]


def count_clipped_ngrams(candidate: Sequence[str], references: Sequence[Sequence[str]],
                         n: int) -> tuple[int, int]:
    """Return ``(clipped, total)``: Σ min(count, max reference count), and the n-gram count.

    >>> count_clipped_ngrams(["the"] * 7, [["the", "cat", "the"]], 1)
    (2, 7)
    """
    if isinstance(references, str):
        raise TypeError("references must be a list of token lists, not a str")
    cand_ngrams = get_ngrams(candidate, n)
    if not cand_ngrams:
        return 0, 0
    ref_counts_list = [Counter(get_ngrams(ref, n)) for ref in references]
    total_clipped = 0
    for ngram, cand_count in Counter(cand_ngrams).items():
        max_ref_count = 0
        for ref_counter in ref_counts_list:
            max_ref_count = max(max_ref_count, ref_counter.get(ngram, 0))
        total_clipped += min(cand_count, max_ref_count)
    return total_clipped, len(cand_ngrams)


def seed_inputs(args: Mapping[str, object]) -> None:
    """The input checks compute_bleu adds to the seed's code (the seed has none)."""
    candidate_text, reference_texts, max_n = (args["candidate_text"], args["reference_texts"],
                                              args["max_n"])
    _check_text(candidate_text, "candidate_text")
    if isinstance(reference_texts, str):
        raise TypeError(
            "reference_texts must be a list of strings, not a single str "
            f"(wrap it: [{reference_texts[:30]!r}])"
        )
    if not isinstance(reference_texts, Sequence):
        raise TypeError(
            f"reference_texts must be a list of strings, got {type(reference_texts).__name__}"
        )
    if len(reference_texts) == 0:
        raise ValueError("at least one reference is required")
    for k, ref in enumerate(reference_texts):
        _check_text(ref, f"reference_texts[{k}]")
    _check_n(max_n, "max_n")


@checks(seed_inputs)   # clear errors for bad input; the seed has none
def compute_bleu(candidate_text: str, reference_texts: Sequence[str],
                 max_n: int = 4) -> tuple[float, dict]:
    """The seed's BLEU: ``BP · exp(Σ log p_n / max_n)``, or 0.0 if any p_n is 0.

    Returns ``(bleu, details)`` with the seed's ``details`` keys ``precisions``,
    ``brevity_penalty``, ``candidate_len`` and ``best_ref_len``.

    >>> refs = ["The cat is sitting on the mat", "A cat is on the mat", "The cat lies on the mat"]
    >>> round(compute_bleu("The cat is on the mat", refs)[0], 4)   # (2/3) ** (1/4)
    0.9036
    """
    candidate = tokenize(candidate_text)
    references = [tokenize(ref) for ref in reference_texts]

    precisions = []
    for n in range(1, max_n + 1):
        clipped, total = count_clipped_ngrams(candidate, references, n)
        precisions.append(0.0 if total == 0 else clipped / total)

    cand_len = len(candidate)
    ref_lens = [len(ref) for ref in references]
    best_ref_len = min(ref_lens, key=lambda x: abs(x - cand_len))  # ties: first listed

    if cand_len <= best_ref_len:
        brevity_penalty = math.exp(1 - best_ref_len / cand_len) if cand_len > 0 else 0.0
    else:
        brevity_penalty = 1.0

    if min(precisions) == 0:
        bleu = 0.0
    else:
        geo_mean = math.exp(sum(math.log(p) for p in precisions) / max_n)
        bleu = brevity_penalty * geo_mean

    details = {
        "precisions": precisions,
        "brevity_penalty": brevity_penalty,
        "candidate_len": cand_len,
        "best_ref_len": best_ref_len,
    }
    return bleu, details
