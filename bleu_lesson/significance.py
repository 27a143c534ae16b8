"""Is a BLEU difference real? Bootstrap confidence intervals and paired bootstrap tests.

Both resample *segments* with replacement and rescore each resample from the
segments' ``BleuStats``: a resample's statistics are the sum of the chosen segments'
records, so no text is re-tokenized. The procedure is sacrebleu's (``--confidence`` and
``--paired-bs``, after Koehn 2004), with the same random indices for the same seed, so
a learner gets the same answer from both:

- the 95% interval's half-width is ``(s[n - n//40 - 1] - s[n//40]) / 2`` over the
  ``n`` sorted resample scores;
- the paired test's p-value is ``(c + 1) / (n + 1)``, where c counts resamples whose
  centred difference ``|Δ_i| - mean|Δ|`` exceeds the observed ``|Δ|``.

Scores, means and half-widths are on the 0–1 scale.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .bleu import BleuResult, BleuScorer
from .stats import BleuStats, sum_stats

__all__ = ["BootstrapResult", "PairedBootstrapResult", "bootstrap_ci", "bootstrap_indices",
           "holm", "paired_bootstrap", "paired_p_value", "resample_scores"]


@dataclass(frozen=True)
class BootstrapResult:
    """A corpus score with the mean and 95% half-width of its bootstrap distribution."""

    score: float
    mean: float
    ci: float
    n_samples: int
    seed: int | None

    @property
    def interval(self) -> tuple[float, float]:
        return self.mean - self.ci, self.mean + self.ci

    def __str__(self) -> str:
        return f"BLEU = {100 * self.score:.2f} (μ = {100 * self.mean:.2f} ± {100 * self.ci:.2f})"


@dataclass(frozen=True)
class PairedBootstrapResult:
    """Paired bootstrap test of ``system`` against ``baseline`` on the same segments."""

    baseline: float
    system: float
    p_value: float
    mean: float   # of the system's resampled scores
    ci: float     # half-width of the system's 95% interval
    n_samples: int
    seed: int | None

    @property
    def difference(self) -> float:
        return self.system - self.baseline

    def significant(self, alpha: float = 0.05) -> bool:
        return self.p_value < alpha

    def __str__(self) -> str:
        return (f"baseline BLEU = {100 * self.baseline:.2f}, system BLEU = "
                f"{100 * self.system:.2f} (μ = {100 * self.mean:.2f} ± {100 * self.ci:.2f}), "
                f"p = {self.p_value:.4f}")


def _check_samples(n_samples: object) -> int:
    if isinstance(n_samples, bool) or not isinstance(n_samples, int):
        raise TypeError(f"n_samples must be an int, got {type(n_samples).__name__}")
    if n_samples < 1:
        raise ValueError(f"n_samples must be at least 1, got {n_samples}")
    return n_samples


def bootstrap_indices(n_segments: int, n_samples: int = 1000, seed: int | None = 12345):
    """sacrebleu's resampling indices: ``default_rng(seed).choice(n, (samples, n))``.

    Row i lists the segments (with repeats) of resample i; a numpy array.
    """
    import numpy as np

    rng = np.random.default_rng(seed)
    return rng.choice(n_segments, size=(n_samples, n_segments), replace=True)


def resample_scores(stats: Sequence[BleuStats], scorer: BleuScorer, indices) -> list[float]:
    """Score each resample: row i of ``indices`` lists the segments of resample i."""
    import numpy as np

    if not stats:
        raise ValueError("cannot resample an empty corpus")
    order = stats[0].order
    table = np.array([(s.hyp_len, s.ref_len, *s.matches, *s.totals) for s in stats],
                     dtype=np.int64)
    scores = []
    for row in indices:
        total = table[row].sum(axis=0).tolist()
        resampled = BleuStats(total[0], total[1], tuple(total[2:2 + order]),
                              tuple(total[2 + order:]))
        scores.append(scorer.score_stats(resampled).score)
    return scores


def _estimate_ci(scores: Sequence[float]) -> tuple[float, float]:
    ordered = sorted(scores)
    n = len(ordered)
    lower = n // 40
    return sum(ordered) / n, 0.5 * (ordered[n - lower - 1] - ordered[lower])


def _scorer(references, options: dict) -> BleuScorer:
    if isinstance(references, BleuScorer):
        if options:
            raise TypeError("pass BLEU options to the BleuScorer, not with it")
        return references
    return BleuScorer(references, **options)


def bootstrap_ci(candidates: Sequence[str], references, *, n_samples: int = 1000,
                 seed: int | None = 12345, **options) -> BootstrapResult:
    """Corpus BLEU with a 95% bootstrap confidence interval (sacrebleu's ``--confidence``).

    ``references`` is the per-segment list (as for ``corpus_bleu``) or a ``BleuScorer``
    built on it; ``options`` are ``corpus_bleu``'s.
    """
    n_samples = _check_samples(n_samples)
    scorer = _scorer(references, options)
    stats = scorer.segment_stats(candidates)
    actual: BleuResult = scorer.score_stats(sum_stats(stats))
    scores = resample_scores(stats, scorer, bootstrap_indices(len(stats), n_samples, seed))
    mean, ci = _estimate_ci(scores)
    return BootstrapResult(actual.score, mean, ci, n_samples, seed)


def paired_bootstrap(baseline: Sequence[str], system: Sequence[str], references, *,
                     n_samples: int = 1000, seed: int | None = 12345,
                     **options) -> PairedBootstrapResult:
    """Paired bootstrap resampling test (Koehn 2004), as sacrebleu's ``--paired-bs``.

    Both systems are rescored on the same resampled segments; a small p-value says
    the observed difference is unlikely to be an accident of which segments were chosen.
    """
    n_samples = _check_samples(n_samples)
    scorer = _scorer(references, options)
    base_stats = scorer.segment_stats(baseline)
    sys_stats = scorer.segment_stats(system)
    base_score = scorer.score_stats(sum_stats(base_stats)).score
    sys_score = scorer.score_stats(sum_stats(sys_stats)).score
    idx = bootstrap_indices(len(sys_stats), n_samples, seed)
    base_scores = resample_scores(base_stats, scorer, idx)
    sys_scores = resample_scores(sys_stats, scorer, idx)
    mean, ci = _estimate_ci(sys_scores)
    p_value = paired_p_value(base_scores, sys_scores, sys_score - base_score)
    return PairedBootstrapResult(base_score, sys_score, p_value, mean, ci, n_samples, seed)


def paired_p_value(base_scores: Sequence[float], sys_scores: Sequence[float],
                   observed: float) -> float:
    """The paired bootstrap p-value: (c + 1) / (n + 1), c = #{i : |Δ_i| - mean|Δ| > |observed|}.

    ``base_scores[i]`` and ``sys_scores[i]`` are the two systems' scores on resample i.

    >>> paired_p_value([0.30, 0.31, 0.29], [0.32, 0.30, 0.31], 0.01)   # |Δ| = .02 .01 .02
    0.25
    """
    diffs = [abs(s - b) for s, b in zip(sys_scores, base_scores, strict=True)]
    if not diffs:
        raise ValueError("paired_p_value needs at least one resample")
    centre = sum(diffs) / len(diffs)
    exceed = sum(1 for d in diffs if d - centre > abs(observed))
    return (exceed + 1) / (len(diffs) + 1)


def holm(p_values: dict, alpha: float = 0.05) -> dict:
    """Holm's step-down correction: which hypotheses are rejected at family-wise level alpha.

    Sort the m p-values; reject while p_(i) <= alpha / (m - i) (i = 0, 1, …), then stop.
    Bonferroni's rule is the first step applied to all: p <= alpha / m.

    >>> holm({"a": 0.001, "b": 0.02, "c": 0.04})   # 0.001 <= .05/3, 0.02 <= .05/2, 0.04 <= .05
    {'a': True, 'b': True, 'c': True}
    >>> holm({"a": 0.02, "b": 0.02, "c": 0.04})    # 0.02 > .05/3: nothing is rejected
    {'a': False, 'b': False, 'c': False}
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, got {alpha!r}")
    order = sorted(p_values, key=lambda key: p_values[key])
    rejected = dict.fromkeys(p_values, False)
    for i, key in enumerate(order):
        if p_values[key] > alpha / (len(order) - i):
            break
        rejected[key] = True
    return rejected
