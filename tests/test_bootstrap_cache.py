"""Chapter 09's Holm cell reads every zh-en system's 2000 resampled BLEU scores from
bleu_lesson/analysis/bootstrap_cache.json.gz: they must be the chapter's resamples (numpy's
generator drawn here, as sacrebleu draws them), each cached score must be what the taught
code computes AND what sacrebleu computes from its own per-segment counts, and any other
resamples or options must be computed, not read."""

from __future__ import annotations

import gzip
import json

import pytest

from bleu_lesson.analysis import bootstrap_cache
from bleu_lesson.analysis.resample_cache import indices_digest
from bleu_lesson.analysis.significance import resample_scores
from bleu_lesson.core.bleu import BleuScorer

np = pytest.importorskip("numpy")
sacrebleu = pytest.importorskip("sacrebleu")

SAMPLES = (0, 777, 1999)


@pytest.fixture(scope="module")
def chapter():
    try:
        return bootstrap_cache._chapter_inputs()
    except (FileNotFoundError, OSError) as err:   # no WMT22 data here
        pytest.skip(f"WMT22 data not available: {err}")


def _chapter_indices():
    """sacrebleu's paired bootstrap draws: default_rng(seed).choice(n, (samples, n))."""
    return np.random.default_rng(12345).choice(1875, size=(2000, 1875), replace=True)


def test_the_file_is_made_with_the_chapters_resamples(chapter):
    corpus, _, _ = chapter
    stored = json.loads(gzip.decompress(bootstrap_cache.CACHE_FILE.read_bytes()))
    assert stored["key"]["indices_sha256"] == indices_digest(_chapter_indices())
    assert (stored["seed"], stored["n_samples"]) == (12345, 2000)
    assert set(stored["scores"]) == set(corpus.systems) and len(stored["scores"]) == 12
    assert all(len(v) == 2000 for v in stored["scores"].values())


def test_cached_scores_equal_the_taught_code_and_sacrebleu(chapter):
    corpus, scorer, indices = chapter
    cached = bootstrap_cache.resampled_systems(corpus, scorer, indices)
    sacre = sacrebleu.metrics.BLEU(tokenize="13a",
                                   references=corpus.reference_streams("both"))
    rows = indices[list(SAMPLES)]
    for name in ("AISP-SJTU", "Online-W"):
        hyps = corpus.systems[name]
        taught = resample_scores(scorer.segment_stats(hyps), scorer, rows)
        theirs = np.asarray(sacre._extract_corpus_statistics(list(hyps), None), dtype=np.int64)
        for k, i in enumerate(SAMPLES):
            assert cached[name][i] == taught[k], (name, i)
            summed = [int(x) for x in theirs[indices[i]].sum(axis=0)]
            expected = sacre._compute_score_from_stats(summed).score / 100
            assert cached[name][i] == pytest.approx(expected, abs=1e-12), (name, i)


def test_other_resamples_or_options_are_computed_not_read(chapter):
    corpus, scorer, indices = chapter
    other = np.random.default_rng(7).choice(1875, size=(3, 1875), replace=True)
    got = bootstrap_cache.resampled_systems(corpus, scorer, other)
    hyps = corpus.systems["Online-B"]
    assert got["Online-B"] == resample_scores(scorer.segment_stats(hyps), scorer, other)
    # the chapter's indices, but a scorer with other options: recounted
    lowercase = BleuScorer(corpus.references_for("both"), tokenizer=corpus.tokenizer,
                           lowercase=True)
    got = bootstrap_cache.resampled_systems(corpus, lowercase, indices)
    stats = lowercase.segment_stats(hyps)
    assert got["Online-B"][:3] == resample_scores(stats, lowercase, indices[:3])
