"""Chapter 10's bootstrap reads its resampled scores from
bleu_lesson/analysis/resample_cache.json.gz: they must be the chapter's resamples
(numpy's generator drawn here, as sacrebleu draws them), and each cached score must be what
sacrebleu computes from that resample's summed per-segment statistics."""

from __future__ import annotations

import gzip
import json

import pytest

from bleu_lesson.analysis import resample_cache
from bleu_lesson.analysis.bleu_cache import load_bleu_cache
from bleu_lesson.analysis.metric_cache import load_metric_cache

np = pytest.importorskip("numpy")
sacrebleu = pytest.importorskip("sacrebleu")


def _sacrebleu_metric(metric):
    from sacrebleu.metrics import BLEU, CHRF, TER

    return {"BLEU": BLEU(), "chrF": CHRF(), "TER": TER()}[metric]


def _segment_rows(metric, name):
    if metric == "BLEU":
        return load_bleu_cache().segments[name]
    return load_metric_cache().segment_stats(metric, name)


def _by_sacrebleu(metric, name, row_indices):
    """sacrebleu's score of the sum of the listed segments' statistics."""
    rows = np.asarray(_segment_rows(metric, name), dtype=np.float64)
    totals = rows[np.asarray(row_indices)].sum(axis=0)
    if metric == "BLEU":
        totals = [int(x) for x in totals]
    return _sacrebleu_metric(metric)._compute_score_from_stats(list(totals)).score


def _chapter_indices():
    """sacrebleu's paired bootstrap draws: default_rng(seed).choice(n, (samples, n))."""
    rng = np.random.default_rng(12345)
    return rng.choice(1875, size=(2000, 1875), replace=True)


def test_the_file_is_made_with_the_chapters_resamples():
    stored = json.loads(gzip.decompress(resample_cache.CACHE_FILE.read_bytes()))
    indices = _chapter_indices()
    assert stored["indices_sha256"] == resample_cache.indices_digest(indices)
    assert (stored["seed"], stored["n_samples"]) == (12345, 2000)
    assert set(stored["scores"]) == {"BLEU", "chrF", "TER"}
    for by_name in stored["scores"].values():
        assert len(by_name) == 13 and "HUMAN-B" in by_name
        assert all(len(v) == 2000 for v in by_name.values())


def test_cached_scores_equal_sacrebleu_on_summed_statistics():
    indices = _chapter_indices()
    scores = resample_cache.resampled_scores(indices)
    for (metric, name), values in scores.items():
        for i in (0, 777, 1999):
            expected = _by_sacrebleu(metric, name, indices[i])
            assert values[i] == pytest.approx(expected, abs=1e-9), (metric, name, i)


def test_other_resamples_are_computed_not_read():
    indices = np.random.default_rng(7).choice(1875, size=(3, 1875), replace=True)
    scores = resample_cache.resampled_scores(indices)
    for metric in ("BLEU", "chrF", "TER"):
        got = scores[metric, "Online-B"]
        assert len(got) == 3
        for i in range(3):
            assert got[i] == pytest.approx(_by_sacrebleu(metric, "Online-B", indices[i]),
                                           abs=1e-9), (metric, i)
