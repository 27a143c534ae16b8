"""Does a metric agree with people? Correlations between system scores, on plain floats.

Given one metric score and one human score per system (two dicts with the same keys):

- ``pearson``: the linear correlation of the two columns;
- ``concordance``: over all pairs of systems, how many the two rank the same way
  (concordant, C), the opposite way (discordant, D), or that either side ties (T);
- ``kendall_tau``: rank correlation from those counts, ``(C - D) / (C + D)`` by default
  (ties dropped: Goodman and Kruskal's gamma in form; the WMT17-20 metrics tasks called
  this formula "Kendall's tau-like" and applied it to segment-level DARR pairs), or the
  textbook variants ``"a"`` and ``"b"``;
- ``pairwise_accuracy``: the share of system pairs, among those people do not tie, that
  the metric orders as people do (Kocmi et al. 2021, "To Ship or Not to Ship");
- ``percentile_interval``: the 95% interval of a statistic over bootstrap resamples
  (``significance``'s, the one home of the ``n // 40`` rule).

Standard library only. For a metric where lower is better (TER), negate its scores first.

>>> metric = {"a": 30.0, "b": 25.0, "c": 20.0, "d": 28.0}
>>> human = {"a": 0.1, "b": 0.0, "c": -0.2, "d": -0.1}
>>> concordance(metric, human)
Concordance(concordant=5, discordant=1, ties=0)
>>> round(kendall_tau(metric, human), 4), round(pairwise_accuracy(metric, human), 4)
(0.6667, 0.8333)
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from bleu_lesson.analysis.significance import percentile_interval
from bleu_lesson.core._validate import checks, one_of

__all__ = ["Concordance", "concordance", "disagreements", "kendall_tau", "pairwise_accuracy",
           "pearson", "percentile_interval"]

TAU_VARIANTS = ("like", "a", "b")


def _columns(metric: Mapping[str, float], human: Mapping[str, float]
             ) -> tuple[list[str], list[float], list[float]]:
    for arg, value in (("metric", metric), ("human", human)):
        if not isinstance(value, Mapping):
            raise TypeError(f"{arg} must be a dict of system -> score, got "
                            f"{type(value).__name__}")
    if set(metric) != set(human):
        only = sorted(set(metric) ^ set(human))
        raise ValueError(f"metric and human must score the same systems; differ on {only}")
    names = list(metric)
    if len(names) < 2:
        raise ValueError(f"metric and human must score at least two systems, got {len(names)}")
    for arg, value in (("metric", metric), ("human", human)):
        for name in names:
            x = value[name]
            # any real number: a Fraction is one (a learner's 10.1 writes scores so; issue
            # 20, round 23), numpy's too; not a bool, not NaN or an infinity
            if isinstance(x, bool) or not isinstance(x, numbers.Real) \
                    or not math.isfinite(float(x)):
                raise TypeError(f"{arg}[{name!r}] must be a finite number, got {x!r}")
    return names, [float(metric[n]) for n in names], [float(human[n]) for n in names]


def pearson(metric: Mapping[str, float], human: Mapping[str, float]) -> float:
    """Pearson's r of two scores per system.

    r = Σ (x_i - x̄)(y_i - ȳ) / sqrt(Σ (x_i - x̄)² · Σ (y_i - ȳ)²)

    Raises ``ValueError`` if either column is constant.

    >>> pearson({"a": 1, "b": 2, "c": 3}, {"a": 2, "b": 4, "c": 7})
    0.9933992677987828
    """
    _, xs, ys = _columns(metric, human)
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        raise ValueError("pearson needs scores that are not all equal, on both sides")
    return sxy / math.sqrt(sxx * syy)


@dataclass(frozen=True)
class Concordance:
    """Pair counts: ordered the same way, the opposite way, or tied on either side."""

    concordant: int
    discordant: int
    ties: int
    metric_ties: int = 0   # pairs the metric ties (people do not)
    human_ties: int = 0    # pairs people tie (whatever the metric says)

    def __repr__(self) -> str:
        return (f"Concordance(concordant={self.concordant}, discordant={self.discordant}, "
                f"ties={self.ties})")

    @property
    def pairs(self) -> int:
        return self.concordant + self.discordant + self.ties


def concordance(metric: Mapping[str, float], human: Mapping[str, float]) -> Concordance:
    """Count the pairs of systems both sides order alike (C), oppositely (D), or tie (T).

    A pair (i, j) is concordant when sign(x_i - x_j) · sign(y_i - y_j) > 0.

    >>> concordance({"a": 1, "b": 2, "c": 2}, {"a": 1, "b": 2, "c": 3})
    Concordance(concordant=2, discordant=0, ties=1)
    """
    _, xs, ys = _columns(metric, human)
    c = d = metric_ties = human_ties = 0
    for i, j in combinations(range(len(xs)), 2):
        dx, dy = xs[i] - xs[j], ys[i] - ys[j]
        if dy == 0:
            human_ties += 1
        elif dx == 0:
            metric_ties += 1
        elif (dx > 0) == (dy > 0):
            c += 1
        else:
            d += 1
    return Concordance(c, d, metric_ties + human_ties, metric_ties, human_ties)


def tau_is_defined(args: Mapping[str, Any]) -> None:
    """kendall_tau's check: its denominator is not 0."""
    counts = concordance(args["metric"], args["human"])
    if args["variant"] == "b" and (_all_equal(args["metric"]) or _all_equal(args["human"])):
        raise ValueError("kendall_tau needs metric and human scores that are not all equal")
    if args["variant"] == "like" and counts.concordant + counts.discordant == 0:
        raise ValueError("kendall_tau: every pair of metric and human scores is tied")


def _all_equal(scores: Mapping[str, float]) -> bool:
    return len(set(scores.values())) <= 1


@checks(tau_is_defined, variant=one_of(TAU_VARIANTS))
def kendall_tau(metric: Mapping[str, float], human: Mapping[str, float],
                variant: str = "like") -> float:
    """Kendall's rank correlation of two scores per system.

    - ``"like"`` (default): τ = (C - D) / (C + D), tied pairs dropped (Goodman-Kruskal γ
      in form; WMT's segment-level "tau-like" formula);
    - ``"a"``: τ_a = (C - D) / (n(n-1)/2);
    - ``"b"``: τ_b = (C - D) / sqrt((n0 - t_x)(n0 - t_y)), n0 = n(n-1)/2 and t_x, t_y the
      pairs tied in each column (what ``scipy.stats.kendalltau`` computes).

    Without ties the three are equal.

    >>> kendall_tau({"a": 1, "b": 2, "c": 3}, {"a": 1, "b": 3, "c": 2})
    0.3333333333333333
    """
    names, xs, ys = _columns(metric, human)
    counts = concordance(metric, human)
    diff = counts.concordant - counts.discordant
    n0 = len(names) * (len(names) - 1) // 2
    if variant == "a":
        return diff / n0
    if variant == "b":
        tx = sum(1 for i, j in combinations(range(len(xs)), 2) if xs[i] == xs[j])
        ty = sum(1 for i, j in combinations(range(len(ys)), 2) if ys[i] == ys[j])
        return diff / math.sqrt((n0 - tx) * (n0 - ty))
    return diff / (counts.concordant + counts.discordant)


def people_rank_some_pair(args: Mapping[str, Any]) -> None:
    """pairwise_accuracy's check: people do not tie every pair (else there is nothing to count)."""
    counts = concordance(args["metric"], args["human"])
    if counts.pairs == counts.human_ties:
        raise ValueError("pairwise_accuracy: human scores tie every pair of systems")


@checks(people_rank_some_pair)
def pairwise_accuracy(metric: Mapping[str, float], human: Mapping[str, float]) -> float:
    """The share of system pairs the metric orders as people do (Kocmi et al. 2021).

    accuracy = |{(i, j) : sign(x_i - x_j) = sign(y_i - y_j)}| / |{(i, j) : y_i ≠ y_j}|

    Pairs people tie are left out; a pair the metric ties (people do not) counts as wrong.

    >>> pairwise_accuracy({"a": 1, "b": 2, "c": 3}, {"a": 1, "b": 3, "c": 2})
    0.6666666666666666
    """
    counts = concordance(metric, human)
    judged = counts.pairs - counts.human_ties
    return counts.concordant / judged


def disagreements(metric: Mapping[str, float], human: Mapping[str, float]
                  ) -> list[tuple[str, str, float, float]]:
    """The discordant pairs ``(a, b, metric[a] - metric[b], human[a] - human[b])``, with a
    the system people prefer, the largest human difference first.

    >>> disagreements({"a": 1, "b": 2, "c": 3}, {"a": 1, "b": 3, "c": 2})
    [('b', 'c', -1.0, 1.0)]
    """
    names, xs, ys = _columns(metric, human)
    found = []
    for i, j in combinations(range(len(names)), 2):
        dx, dy = xs[i] - xs[j], ys[i] - ys[j]
        if dx * dy < 0:
            if dy < 0:
                i, j, dx, dy = j, i, -dx, -dy
            found.append((names[i], names[j], dx, dy))
    return sorted(found, key=lambda t: -t[3])
