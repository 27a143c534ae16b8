"""Chapter 09's bootstrap over all 13 zh-en systems, scored once and shipped.

Counting 13 systems against both references and scoring each on 2000 resamples
(``bootstrap_indices(1875, n_samples=2000, seed=12345)``) is 26,000 scorings, seconds of
every Run All. ``bootstrap_cache.json.gz`` keeps what ``resample_scores`` returned for them,
with the SHA-256 of the indices, of every text counted and the scorer's options;
``resampled_systems`` reads it only for those very indices, texts and options, and otherwise
computes the scores with the taught code. ``tests/test_bootstrap_cache.py`` recounts the
cached scores with the taught code and with sacrebleu.

    python -m bleu_lesson.analysis.bootstrap_cache    # recompute and rewrite the file
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from bleu_lesson.analysis.bleu_cache import _digests
from bleu_lesson.analysis.resample_cache import indices_digest
from bleu_lesson.analysis.significance import bootstrap_indices, resample_scores
from bleu_lesson.core.bleu import BleuScorer
from bleu_lesson.data.datasets import load_wmt22

__all__ = ["CACHE_FILE", "SEED", "N_SAMPLES", "compute_systems", "resampled_systems"]

CACHE_FILE = Path(__file__).with_name("bootstrap_cache.json.gz")
SEED, N_SAMPLES = 12345, 2000   # chapter 09's resamples for the Holm correction


def compute_systems(corpus, scorer: BleuScorer, indices) -> dict[str, list[float]]:
    """System -> its corpus BLEU (0-1) on each resample: ``resample_scores`` of its
    per-segment statistics, counted by ``scorer``."""
    return {name: resample_scores(scorer.segment_stats(hyps), scorer, indices)
            for name, hyps in corpus.systems.items()}


def _key(corpus, scorer: BleuScorer, indices) -> dict:
    return {"pair": getattr(corpus, "pair", None), "files": _digests(corpus),
            "options": repr(scorer.options), "nrefs": scorer.nrefs,
            "indices_sha256": indices_digest(indices)}


def resampled_systems(corpus, scorer: BleuScorer, indices) -> dict[str, list[float]]:
    """``compute_systems(corpus, scorer, indices)``, read from the shipped file when the
    texts, the scorer's options and the indices are the ones it was made with (same
    SHA-256s and options), else computed."""
    if CACHE_FILE.exists():
        data = json.loads(gzip.decompress(CACHE_FILE.read_bytes()).decode("utf-8"))
        if data["key"] == _key(corpus, scorer, indices):
            return data["scores"]
    return compute_systems(corpus, scorer, indices)


def _chapter_inputs():
    """Chapter 09's corpus, scorer (zh-en, both references) and 2000 resamples."""
    corpus = load_wmt22("zh-en")
    scorer = BleuScorer(corpus.references_for("both"), tokenizer=corpus.tokenizer)
    return corpus, scorer, bootstrap_indices(len(corpus), n_samples=N_SAMPLES, seed=SEED)


if __name__ == "__main__":
    corpus, scorer, chosen = _chapter_inputs()
    data = {"key": _key(corpus, scorer, chosen), "seed": SEED, "n_samples": N_SAMPLES,
            "scores": compute_systems(corpus, scorer, chosen)}
    CACHE_FILE.write_bytes(gzip.compress(json.dumps(data).encode("utf-8"), mtime=0))
    print(f"wrote {CACHE_FILE}")
