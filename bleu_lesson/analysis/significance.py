"""Is a BLEU difference real? Bootstrap intervals, paired bootstrap and randomization tests.

Both resample *segments* with replacement and rescore each resample from the
segments' ``BleuStats``: a resample's statistics are the sum of the chosen segments'
records, so no text is re-tokenized. The procedure is sacrebleu's (``--confidence`` and
``--paired-bs``, after Koehn 2004), with the same random indices for the same seed, so
a learner gets the same answer from both:

- the 95% interval's half-width is ``(s[n - n//40 - 1] - s[n//40]) / 2`` over the
  ``n`` sorted resample scores;
- the paired test's p-value is ``(c + 1) / (n + 1)``, where c counts resamples whose
  centred difference ``|Δ_i| - mean|Δ|`` exceeds the observed ``|Δ|``;
- approximate randomization (``--paired-ar``) swaps the two systems' outputs on a random
  half of the segments per trial, and counts trials whose ``|Δ_i|`` exceeds ``|Δ|``.

The metric contract (sacrebleu's split): a metric counts each segment into additive
statistics with one row form (``BleuStats.to_row`` / ``BleuStats.from_row``), and scores
any sum of them (``BleuScorer.score_stats``). All resamples of a corpus are one matrix
product (``resample_rows``: how often each segment is drawn × the segments' rows), each
row then scored by the metric's one scoring function; chrF and TER (``metric_cache``) are
resampled by the same ``resample_rows``, and every 95% interval is ``percentile_interval``.

Scores, means and half-widths are on the 0–1 scale.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from bleu_lesson.core._validate import checks, non_empty, positive_int, probability
from bleu_lesson.core.bleu import BleuResult, BleuScorer
from bleu_lesson.core.stats import BleuStats, sum_stats

__all__ = ["BootstrapResult", "PairedBootstrapResult", "PairedRandomizationResult",
           "bootstrap_ci", "bootstrap_indices", "holm", "paired_approximate_randomization",
           "paired_approximate_randomization_stats", "paired_bootstrap",
           "paired_bootstrap_stats", "paired_p_value", "percentile_interval",
           "resample_rows", "resample_scores"]


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
class _PairedResult:
    """What every paired test of ``system`` against ``baseline`` reports."""

    baseline: float
    system: float
    p_value: float

    @property
    def difference(self) -> float:
        return self.system - self.baseline

    def significant(self, alpha: float = 0.05) -> bool:
        return self.p_value < alpha


@dataclass(frozen=True)
class PairedBootstrapResult(_PairedResult):
    """Paired bootstrap test of ``system`` against ``baseline`` on the same segments."""

    mean: float   # of the system's resampled scores
    ci: float     # half-width of the system's 95% interval
    n_samples: int
    seed: int | None

    def __str__(self) -> str:
        return (f"baseline BLEU = {100 * self.baseline:.2f}, system BLEU = "
                f"{100 * self.system:.2f} (μ = {100 * self.mean:.2f} ± {100 * self.ci:.2f}), "
                f"p = {self.p_value:.4f}")


def seed_or_none(seed: object, name: str = "seed") -> None:
    """A ``seed`` as numpy's ``default_rng`` takes it: None or a non-negative int."""
    if seed is None:
        return
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"{name} must be a non-negative int or None, got {type(seed).__name__}"
                        f" {seed!r}")
    if seed < 0:
        raise ValueError(f"{name} must be a non-negative int or None, got {seed}")


def _check_samples(n_samples: object, name: str = "n_samples") -> int:
    positive_int(n_samples, name)
    return n_samples  # type: ignore[return-value]


def _check_seed(seed: object) -> int | None:
    seed_or_none(seed)
    return seed  # type: ignore[return-value]


def bootstrap_indices(n_segments: int, n_samples: int = 1000, seed: int | None = 12345):
    """sacrebleu's resampling indices: ``default_rng(seed).choice(n, (samples, n))``.

    Row i lists the segments (with repeats) of resample i; a numpy array. With a fixed
    seed every system of a test set is resampled alike (as in sacrebleu), so the array is
    made once and shared, read-only.
    """
    seed = _check_seed(seed)
    if seed is None:
        return _draw(n_segments, n_samples, None)
    return _shared_indices(n_segments, n_samples, seed)


def _draw(n_segments: int, n_samples: int, seed: int | None):
    import numpy as np

    rng = np.random.default_rng(seed)
    return rng.choice(n_segments, size=(n_samples, n_segments), replace=True)


@lru_cache(maxsize=2)
def _shared_indices(n_segments: int, n_samples: int, seed: int):
    indices = _draw(n_segments, n_samples, seed)
    indices.flags.writeable = False
    return indices


def _stats_table(stats: Sequence[BleuStats]):
    """One row per segment: ``hyp_len, ref_len, matches..., totals...`` (float64, exact)."""
    import numpy as np

    if not stats:
        raise ValueError("cannot resample an empty corpus")
    return np.array([s.to_row() for s in stats], dtype=np.float64)


# The weights of the last index array seen, kept with the array itself: every system of a
# test set is resampled with the same (shared) indices, so they are counted once.
_last_weights: list = [None, None]


def _weights(indices, n_segments: int):
    """How often each segment is drawn in each resample: a (samples, segments) matrix.

    A resample's statistics are then ``weights @ table``, the counts-weighted sum of the
    segments' records (exact: the counts are integers far below 2**53).
    """
    import numpy as np

    if _last_weights[0] is indices:
        return _last_weights[1]
    n_samples = len(indices)
    flat = (indices + n_segments * np.arange(n_samples)[:, None]).ravel()
    counts = np.bincount(flat, minlength=n_samples * n_segments)
    weights = counts.reshape(n_samples, n_segments).astype(np.float64)
    if not indices.flags.writeable:
        _last_weights[:] = [indices, weights]  # only arrays nobody can change are remembered
    return weights


def resample_rows(table, indices):
    """Row i: the sum of ``table``'s rows listed in ``indices[i]`` (repeats counted), for
    any metric whose segment statistics are additive rows.

    Computed as ``W @ table`` with ``W[i, j]`` = how often segment j is in resample i.

    >>> resample_rows([[1, 10], [2, 20], [3, 30]], [[0, 0, 2], [1, 2, 2]]).tolist()
    [[5.0, 50.0], [8.0, 80.0]]
    """
    import numpy as np

    table = np.asarray(table, dtype=np.float64)
    indices = indices if hasattr(indices, "flags") else np.asarray(indices)
    return _weights(indices, len(table)) @ table


def _score_rows(rows, scorer: BleuScorer) -> list[float]:
    """Score each row of summed statistics with the scorer's one scoring function."""
    return [scorer.score_stats(BleuStats.from_row(row)).score for row in rows.tolist()]


def resample_scores(stats: Sequence[BleuStats], scorer: BleuScorer, indices) -> list[float]:
    """Score each resample: row i of ``indices`` lists the segments of resample i.

    A resample's statistics are the sum of its segments' records; all of them at once are
    one matrix product (how often each segment is drawn × the segments' records), and each
    row is then scored by ``scorer.score_stats``, as any corpus is.
    """
    import numpy as np

    table = _stats_table(stats)
    indices = indices if hasattr(indices, "flags") else np.asarray(indices)
    if indices.ndim != 2 or (len(indices) and indices.shape[1] != len(stats)):
        raise ValueError(f"indices must have one row per resample of {len(stats)} segments, "
                         f"got shape {indices.shape}")
    return _score_rows(resample_rows(table, indices), scorer)


def percentile_interval(values: Sequence[float]) -> tuple[float, float]:
    """The 95% interval of bootstrap values: sorted ``s[n//40]`` and ``s[n - n//40 - 1]``
    (the order statistics sacrebleu's bootstrap uses). The one home of this rule.

    >>> percentile_interval([i / 100 for i in range(100)])
    (0.02, 0.97)
    """
    ordered = sorted(values)
    if not ordered:
        raise ValueError("percentile_interval needs at least one value")
    lower = len(ordered) // 40
    return ordered[lower], ordered[len(ordered) - lower - 1]


def _estimate_ci(scores: Sequence[float]) -> tuple[float, float]:
    """The mean of the resampled scores and the half-width of their 95% interval."""
    low, high = percentile_interval(scores)
    return sum(scores) / len(scores), 0.5 * (high - low)


def _scorer(references, options: dict) -> BleuScorer:
    if isinstance(references, BleuScorer):
        if options:
            raise TypeError("pass BLEU options to the BleuScorer, not with it")
        return references
    return BleuScorer(references, **options)


@checks(candidates=non_empty, n_samples=positive_int, seed=seed_or_none)
def bootstrap_ci(candidates: Sequence[str], references, *, n_samples: int = 1000,
                 seed: int | None = 12345, **options) -> BootstrapResult:
    """Corpus BLEU with a 95% bootstrap confidence interval (sacrebleu's ``--confidence``).

    ``references`` is the per-segment list (as for ``corpus_bleu``) or a ``BleuScorer``
    built on it; ``options`` are ``corpus_bleu``'s.
    """
    scorer = _scorer(references, options)
    stats = scorer.segment_stats(candidates)
    actual: BleuResult = scorer.score_stats(sum_stats(stats))
    scores = resample_scores(stats, scorer, bootstrap_indices(len(stats), n_samples, seed))
    mean, ci = _estimate_ci(scores)
    return BootstrapResult(actual.score, mean, ci, n_samples, seed)


@checks(n_samples=positive_int, seed=seed_or_none)
def paired_bootstrap(baseline: Sequence[str], system: Sequence[str], references, *,
                     n_samples: int = 1000, seed: int | None = 12345,
                     **options) -> PairedBootstrapResult:
    """Paired bootstrap resampling test (Koehn 2004), as sacrebleu's ``--paired-bs``.

    Both systems are rescored on the same resampled segments; a small p-value says
    the observed difference is unlikely to be an accident of which segments were chosen.
    The p-value is sacrebleu's convention (``paired_p_value``: centre the resampled
    |Δ| and count those beyond |observed|), not Koehn's, who counted the resamples the
    system wins.
    """
    scorer = _scorer(references, options)
    return paired_bootstrap_stats(scorer.segment_stats(baseline), scorer.segment_stats(system),
                                  scorer, n_samples=n_samples, seed=seed)


def _p_value(statistics, observed: float) -> float:
    """sacrebleu's (and multeval's) p-value: ``(c + 1) / (n + 1)``, c counting ``> observed``."""
    exceed = sum(1 for d in statistics if d > observed)
    return (exceed + 1) / (len(statistics) + 1)


def paired_bootstrap_stats(base_stats: Sequence[BleuStats], sys_stats: Sequence[BleuStats],
                           scorer: BleuScorer, *, n_samples: int = 1000,
                           seed: int | None = 12345) -> PairedBootstrapResult:
    """``paired_bootstrap`` on segment statistics already counted (many systems, one baseline)."""
    n_samples = _check_samples(n_samples)
    seed = _check_seed(seed)
    if len(base_stats) != len(sys_stats):
        raise ValueError(f"the baseline has {len(base_stats)} segments and the system "
                         f"{len(sys_stats)}: a paired test needs the same segments")
    _stats_table(sys_stats)  # refuses an empty corpus before drawing indices
    base_score = scorer.score_stats(sum_stats(base_stats)).score
    sys_score = scorer.score_stats(sum_stats(sys_stats)).score
    indices = bootstrap_indices(len(sys_stats), n_samples, seed)
    base_scores = resample_scores(base_stats, scorer, indices)
    sys_scores = resample_scores(sys_stats, scorer, indices)
    mean, ci = _estimate_ci(sys_scores)
    p_value = paired_p_value(base_scores, sys_scores, sys_score - base_score)
    return PairedBootstrapResult(base_score, sys_score, p_value, mean, ci, n_samples, seed)


@checks(base_scores=non_empty, sys_scores=non_empty)
def paired_p_value(base_scores: Sequence[float], sys_scores: Sequence[float],
                   observed: float) -> float:
    """The paired bootstrap p-value: (c + 1) / (n + 1), c = #{i : |Δ_i| - mean|Δ| > |observed|}.

    Centring |Δ| is sacrebleu's (and multeval's) convention, two-sided; Koehn (2004)
    counted instead how often the system wins.

    ``base_scores[i]`` and ``sys_scores[i]`` are the two systems' scores on resample i.

    >>> paired_p_value([0.30, 0.31, 0.29], [0.32, 0.30, 0.31], 0.01)   # |Δ| = .02 .01 .02
    0.25
    """
    diffs = [abs(s - b) for s, b in zip(sys_scores, base_scores, strict=True)]
    centre = sum(diffs) / len(diffs)
    return _p_value([d - centre for d in diffs], abs(observed))


@dataclass(frozen=True)
class PairedRandomizationResult(_PairedResult):
    """Paired approximate randomization test of ``system`` against ``baseline``."""

    n_samples: int
    seed: int | None

    def __str__(self) -> str:
        return (f"baseline BLEU = {100 * self.baseline:.2f}, system BLEU = "
                f"{100 * self.system:.2f}, p = {self.p_value:.4f}")


def paired_approximate_randomization(baseline: Sequence[str], system: Sequence[str],
                                     references, *, n_samples: int = 10000,
                                     seed: int | None = 12345,
                                     **options) -> PairedRandomizationResult:
    """Paired approximate randomization test (Riezler and Maxwell 2005), as sacrebleu's
    ``--paired-ar``: the same random swaps for the same seed, so the same p-value.

    Each trial swaps the two systems' outputs on a random half of the segments (a fair coin
    per segment) and rescores both pseudo-systems; the p-value is ``(c + 1) / (n + 1)``,
    where c counts trials whose ``|BLEU(a) - BLEU(b)|`` exceeds the observed difference.
    """
    n_samples = _check_samples(n_samples)
    seed = _check_seed(seed)
    scorer = _scorer(references, options)
    return paired_approximate_randomization_stats(
        scorer.segment_stats(baseline), scorer.segment_stats(system), scorer,
        n_samples=n_samples, seed=seed)


def paired_approximate_randomization_stats(
        base_stats: Sequence[BleuStats], sys_stats: Sequence[BleuStats], scorer: BleuScorer,
        *, n_samples: int = 10000, seed: int | None = 12345,
        chunk: int = 1000) -> PairedRandomizationResult:
    """``paired_approximate_randomization`` on segment statistics already counted."""
    import numpy as np

    n_samples = _check_samples(n_samples)
    seed = _check_seed(seed)
    if len(base_stats) != len(sys_stats):
        raise ValueError(f"the baseline has {len(base_stats)} segments and the system "
                         f"{len(sys_stats)}: a paired test needs the same segments")
    base, system = _stats_table(base_stats), _stats_table(sys_stats)
    base_score = scorer.score_stats(sum_stats(base_stats)).score
    sys_score = scorer.score_stats(sum_stats(sys_stats)).score
    # sacrebleu: rng.integers(2, size=(trials, segments), dtype=bool); True takes the
    # baseline's segment into pseudo-system a, and the system's into b.
    swap = np.random.default_rng(seed).integers(2, size=(n_samples, len(sys_stats)), dtype=bool)
    delta = base - system
    sys_total, both_total = system.sum(axis=0), base.sum(axis=0) + system.sum(axis=0)
    differences = []
    for start in range(0, n_samples, chunk):  # a (chunk, segments) float block at a time
        a = sys_total + swap[start:start + chunk].astype(np.float64) @ delta
        scores_a = _score_rows(a, scorer)
        scores_b = _score_rows(both_total - a, scorer)
        differences += [abs(x - y) for x, y in zip(scores_a, scores_b, strict=True)]
    p = _p_value(differences, abs(base_score - sys_score))
    return PairedRandomizationResult(base_score, sys_score, p, n_samples, seed)


@checks(alpha=probability)
def holm(p_values: dict, alpha: float = 0.05) -> dict:
    """Holm's step-down correction: which hypotheses are rejected at family-wise level alpha.

    Sort the m p-values; reject while p_(i) <= alpha / (m - i) (i = 0, 1, …), then stop.
    Bonferroni's rule is the first step applied to all: p <= alpha / m.

    >>> holm({"a": 0.001, "b": 0.02, "c": 0.04})   # 0.001 <= .05/3, 0.02 <= .05/2, 0.04 <= .05
    {'a': True, 'b': True, 'c': True}
    >>> holm({"a": 0.02, "b": 0.02, "c": 0.04})    # 0.02 > .05/3: nothing is rejected
    {'a': False, 'b': False, 'c': False}
    """
    order = sorted(p_values, key=lambda key: p_values[key])
    rejected = dict.fromkeys(p_values, False)
    for i, key in enumerate(order):
        if p_values[key] > alpha / (len(order) - i):
            break
        rejected[key] = True
    return rejected
