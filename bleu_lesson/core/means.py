"""The weighted geometric mean of the n-gram precisions (chapter 5), in its own module.

BLEU averages its precisions geometrically, exp(Σ w_n · log p_n): one order with no
match makes the mean 0. NLTK leaves such an order out instead. ``bleu`` scores with
these two functions; an exercise judged by ``bleu-lesson check`` may use them as a
building block without the scorer itself being there.

>>> round(geometric_mean([1.0, 0.8, 0.5, 0.25]), 4)
0.5623
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ._validate import checks, non_empty, optional, positive_int

__all__ = ["geometric_mean", "nltk_geometric_mean"]


@checks(precisions=non_empty, orders=optional(positive_int))
def geometric_mean(precisions: Sequence[float], weights: Sequence[float] | None = None,
                   orders: int | None = None) -> float:
    """The weighted geometric mean of the precisions: exp(Σ w_n · log p_n).

    Only the first ``orders`` precisions count (all by default). Without weights each
    counted order gets 1/orders (sacrebleu); given weights are used as they are for the
    orders that count, and those of the others are dropped (d2l's rule). A precision
    that is 0 (with a positive weight) makes the mean 0, as in the paper and sacrebleu.

    >>> round(geometric_mean([1.0, 0.8, 0.5, 0.25]), 4)      # (1 · 0.8 · 0.5 · 0.25) ** (1/4)
    0.5623
    >>> geometric_mean([1.0, 0.8, 0.5, 0.0])
    0.0
    """
    orders = len(precisions) if orders is None else orders
    used = [1.0 / orders] * orders if weights is None else list(weights[:orders])
    terms = []
    for w, p in zip(used, precisions, strict=False):
        if w == 0:
            continue
        if p <= 0:
            return 0.0
        terms.append(w * math.log(p))
    return math.exp(math.fsum(terms))


def nltk_geometric_mean(precisions: Sequence[float], weights: Sequence[float] | None = None,
                        orders: int | None = None) -> float:
    """NLTK's geometric mean: a precision still 0 after smoothing is left out of the sum.

        exp(Σ_{n : p_n > 0} w_n · log p_n)       (the other orders keep their weights)

    NLTK's ``corpus_bleu`` sums ``w_i · log p_i`` only ``if p_i > 0``; that is
    ``geometric_mean`` with the weight of every zero precision set to 0.

    >>> round(nltk_geometric_mean([1.0, 0.8, 0.5, 0.0]), 4)   # (0.8 · 0.5) ** (1/4)
    0.7953
    """
    orders = len(precisions) if orders is None else orders
    used = [1.0 / orders] * orders if weights is None else list(weights[:orders])
    kept = [w if p > 0 else 0.0 for w, p in zip(used, precisions, strict=False)]
    return geometric_mean(precisions, kept, orders)
