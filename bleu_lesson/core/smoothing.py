"""Smoothing: what to do with an n-gram order that has no match.

Without smoothing a single zero precision makes the geometric mean, and so BLEU, zero:
fine for a corpus, too harsh for one short sentence. Chen & Cherry (2014) compare the
remedies; two families are implemented here with their tools' exact semantics.

sacrebleu's methods (``none``, ``floor``, ``add-k``, ``exp``), on counts m_n / t_n:

- ``floor``: an order with m_n = 0 gets precision ε / t_n (ε = 0.1).
- ``add-k``: orders n ≥ 2 use (m_n + k) / (t_n + k) (k = 1).
- ``exp``: the i-th order with no match gets 1 / (2^i · t_n) (NIST's mteval-v13a).

NLTK's ``SmoothingFunction().method0`` … ``method7``, on p_n = m_n / max(t_n, 1):

- ``method0``: no smoothing, but a zero precision becomes the smallest float
  (so the score is tiny, not exactly 0).
- ``method1``: (m_n + ε) / t_n for zero counts (ε = 0.1); ``method2``: add 1 to the
  numerator and denominator of every order n ≥ 2; ``method3``: as ``exp``;
  ``method4``: as ``exp`` scaled by ln(c) / K (K = 5); ``method5``: average each order
  with its neighbours; ``method6``: interpolate with a prior (α = 5), needs p_3 > 0;
  ``method7``: method 4 then method 5.

Both families return the smoothed precisions on the 0–1 scale.

>>> sacrebleu_precisions([3, 1, 0, 0], [4, 3, 2, 1], "exp")[0]     # 3/4, 1/3, 1/(2·2), 1/(4·1)
[0.75, 0.3333333333333333, 0.25, 0.25]
>>> nltk_precisions([3, 1, 0, 0], [4, 3, 2, 1], "method1", hyp_len=4)
[0.75, 0.3333333333333333, 0.05, 0.1]
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from .stats import BleuStats

__all__ = [
    "SmoothingMethod",
    "SMOOTHING",
    "SACREBLEU_METHODS",
    "NLTK_METHODS",
    "SMOOTHING_METHODS",
    "check_smoothing",
    "needs_order",
    "smoothed_precisions",
    "sacrebleu_precisions",
    "nltk_precisions",
]

_NLTK_EPSILON, _NLTK_ALPHA, _NLTK_K = 0.1, 5, 5


@dataclass(frozen=True)
class SmoothingMethod:
    """One entry of the registry: everything the library needs to know about a method.

    ``family`` is the tool whose semantics it follows ("sacrebleu" or "nltk"); ``default``
    the value of ``smooth_value`` when none is given (``None``: the method takes no value);
    ``min_orders`` how many n-gram orders its statistics must count at least (NLTK's
method 5 reads the 5-gram precision whatever ``max_n``);
    ``zeros`` what the geometric mean does with a precision still 0 after smoothing
    (``"zero"``: the score is 0, as sacrebleu; ``"skip"``: it is left out, as NLTK).
    """

    name: str
    family: str
    default: float | None
    min_orders: int
    zeros: str
    description: str

    @property
    def takes_value(self) -> bool:
        """Whether ``smooth_value`` applies to this method."""
        return self.default is not None


def _sacrebleu(name: str, default: float | None, description: str) -> SmoothingMethod:
    return SmoothingMethod(name, "sacrebleu", default, 1, "zero", description)


def _nltk(i: int, description: str, min_orders: int = 1) -> SmoothingMethod:
    return SmoothingMethod(f"method{i}", "nltk", None, min_orders, "skip", description)


#: THE registry of smoothing methods: options, the CLI, the widgets, the docs and the
#: tests all read it. To add a method, add an entry here and its branch in
#: ``sacrebleu_precisions`` or ``nltk_precisions`` (see CONTRIBUTING.md).
SMOOTHING: dict[str, SmoothingMethod] = {m.name: m for m in [
    _sacrebleu("none", None, "no smoothing: one zero precision makes BLEU 0"),
    _sacrebleu("floor", 0.1, "an order with no match gets precision ε / t_n"),
    _sacrebleu("add-k", 1, "orders n ≥ 2 use (m_n + k) / (t_n + k)"),
    _sacrebleu("exp", None, "the i-th order with no match gets 1 / (2^i · t_n)"),
    _nltk(0, "no smoothing, but a zero precision becomes the smallest float"),
    _nltk(1, "(m_n + ε) / t_n for zero counts (ε = 0.1)"),
    _nltk(2, "add 1 to numerator and denominator of every order n ≥ 2"),
    _nltk(3, "as exp"),
    _nltk(4, "as exp, scaled by ln(c) / K (K = 5)"),
    _nltk(5, "average each order with its neighbours (reads the 5-gram precision)", 5),
    _nltk(6, "interpolate with a prior (α = 5); needs p_3 > 0"),
    _nltk(7, "method 4, then method 5", 5),
]}

#: sacrebleu's methods and their default smoothing values (None: takes no value).
SACREBLEU_METHODS: dict[str, float | None] = {
    name: m.default for name, m in SMOOTHING.items() if m.family == "sacrebleu"
}
#: NLTK's ``SmoothingFunction`` methods, with its defaults epsilon=0.1, alpha=5, k=5.
NLTK_METHODS: tuple[str, ...] = tuple(n for n, m in SMOOTHING.items() if m.family == "nltk")
#: Every method's name, in the registry's order.
SMOOTHING_METHODS: tuple[str, ...] = tuple(SMOOTHING)


def check_smoothing(smoothing: object) -> str:
    """Return ``smoothing`` if it names a method, else raise a ``ValueError`` listing them."""
    if not isinstance(smoothing, str) or smoothing not in SMOOTHING:
        raise ValueError(
            f"smoothing must be one of {', '.join(SMOOTHING_METHODS)}; got {smoothing!r}"
        )
    return smoothing


def needs_order(smoothing: str, max_n: int) -> int:
    """How many n-gram orders the statistics must count for this method.

    NLTK's method 5 (and so 7) always looks at the 5-gram precision too.

    >>> needs_order("exp", 4), needs_order("method5", 4)
    (4, 5)
    """
    return max(max_n, SMOOTHING[check_smoothing(smoothing)].min_orders)


def smoothed_precisions(stats: BleuStats, max_n: int, method: str, *,
                        value: float | None = None,
                        effective_order: bool = False) -> tuple[list[float], int]:
    """The precisions of orders 1 … max_n by any registered method, and how many orders
    enter the mean.

    Dispatches on the method's family; the NLTK family always uses every order. NLTK's
    ``method5`` and ``method7`` also read the 5-gram counts, which ``stats`` then holds
    (``needs_order``): NLTK hard-codes that order whatever ``max_n``.

    >>> smoothed_precisions(BleuStats(4, 4, (3, 1, 0, 0), (4, 3, 2, 1)), 4, "method1")
    ([0.75, 0.3333333333333333, 0.05, 0.1], 4)
    """
    family = SMOOTHING[check_smoothing(method)].family
    matches, totals = stats.matches[:max_n], stats.totals[:max_n]
    if family == "sacrebleu":
        return sacrebleu_precisions(matches, totals, method, value, effective_order)
    fifth = (stats.matches[4], stats.totals[4]) if stats.order >= 5 else None
    return nltk_precisions(matches, totals, method, stats.hyp_len, fifth), max_n


def sacrebleu_precisions(matches: Sequence[int], totals: Sequence[int], method: str,
                         value: float | None = None,
                         effective_order: bool = False) -> tuple[list[float], int]:
    """sacrebleu's smoothed precisions, and how many orders enter the mean.

    Follows ``sacrebleu.metrics.bleu.BLEU.compute_bleu``: with no match at all every
    precision is 0; the loop stops at the first order with no candidate n-gram; with
    ``effective_order`` only the orders before that stop count.

    >>> sacrebleu_precisions([2, 1, 0, 0], [2, 1, 0, 0], "none", effective_order=True)
    ([1.0, 1.0, 0.0, 0.0], 2)
    """
    if method not in SACREBLEU_METHODS:
        raise ValueError(f"not one of sacrebleu's smoothing methods: {method!r}")
    k = value if value is not None else (SMOOTHING[method].default or 0.0)
    max_n = len(matches)
    precisions = [0.0] * max_n
    if not any(matches):
        return precisions, max_n
    eff_order = max_n
    mteval = 1.0
    for n in range(1, max_n + 1):
        correct: float = matches[n - 1]
        total: float = totals[n - 1]
        if method == "add-k" and n > 1:
            correct, total = correct + k, total + k
        if total == 0:
            break
        if effective_order:
            eff_order = n
        if correct == 0:
            if method == "exp":
                mteval *= 2
                precisions[n - 1] = 1.0 / (mteval * total)
            elif method == "floor":
                precisions[n - 1] = k / total
        else:
            precisions[n - 1] = correct / total
    return precisions, eff_order


def nltk_precisions(matches: Sequence[int], totals: Sequence[int], method: str,
                    hyp_len: int, fifth: tuple[int, int] | None = None) -> list[float]:
    """NLTK's smoothed precisions for ``method0`` … ``method7``.

    Precisions start as m_n / max(t_n, 1), as in NLTK's ``modified_precision``.
    ``fifth`` is the 5-gram ``(matches, total)`` that ``method5`` and ``method7`` read
    whatever the number of orders (NLTK hard-codes it). The caller applies NLTK's rule
    that no unigram match means a score of 0, and drops precisions that are not > 0.

    >>> [round(p, 4) for p in nltk_precisions([3, 1, 0, 0], [4, 3, 2, 1], "method3", 4)]
    [0.75, 0.3333, 0.25, 0.25]
    """
    if method not in NLTK_METHODS:
        raise ValueError(f"not one of NLTK's smoothing methods: {method!r}")
    num = list(matches)
    den = [max(1, t) for t in totals]
    p: list[float] = [n / d for n, d in zip(num, den, strict=True)]
    if method == "method0":
        return [pi if n else sys.float_info.min for pi, n in zip(p, num, strict=True)]
    if method == "method1":
        return [(n + _NLTK_EPSILON) / d if n == 0 else pi
                for pi, n, d in zip(p, num, den, strict=True)]
    if method == "method2":
        return [p[0]] + [(n + 1) / (d + 1) for n, d in zip(num[1:], den[1:], strict=True)]
    if method == "method3":
        k = 1
        for i, n in enumerate(num):
            if n == 0:
                p[i] = 1 / (2**k * den[i])
                k += 1
        return p
    if method in ("method4", "method7"):
        k = 1
        for i, n in enumerate(num):
            if n == 0 and hyp_len > 1:
                p[i] = 1 / (2**k * _NLTK_K / math.log(hyp_len)) / den[i]
                k += 1
        if method == "method4":
            return p
    if method in ("method5", "method7"):
        if fifth is None:
            raise ValueError(f"{method} needs the 5-gram counts (fifth=(matches, total))")
        plus1 = p + [fifth[0] / max(1, fifth[1])]
        previous = p[0] + 1
        for i in range(len(p)):
            p[i] = (previous + p[i] + plus1[i + 1]) / 3
            previous = p[i]
        return p
    # method6
    if len(p) < 3 or num[2] == 0:
        raise ValueError(
            "smoothing 'method6' needs a non-zero trigram precision (as NLTK asserts); "
            "use another method for this candidate"
        )
    for i in range(2, len(p)):
        pi0 = 0 if p[i - 2] == 0 else p[i - 1] ** 2 / p[i - 2]
        p[i] = (num[i] + _NLTK_ALPHA * pi0) / (totals[i] + _NLTK_ALPHA)
    return p
