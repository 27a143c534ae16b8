"""Chapter 10's bootstrap: every zh-en candidate's BLEU, chrF and TER on each resample.

Scoring 13 candidates x 3 metrics on 2000 resamples is 78,000 scorings from summed
statistics, seconds of every Run All. ``resample_cache.json.gz`` keeps their results for the
chapter's resamples (``bootstrap_indices(1875, n_samples=2000, seed=12345)``), with the
SHA-256 of those indices; ``resampled_scores`` reads it only when it is given the very same
indices, and otherwise computes the scores (``compute_resampled``: BLEU from
``bleu_cache``'s per-segment counts, chrF and TER from ``metric_cache``'s). The scores are
what ``compute_resampled`` returns; ``tests/test_resample_cache.py`` rescores resamples
with sacrebleu from the summed rows.

    python -m bleu_lesson.analysis.resample_cache    # recompute and rewrite the file
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

from bleu_lesson.analysis.bleu_cache import load_bleu_cache
from bleu_lesson.analysis.metric_cache import load_metric_cache
from bleu_lesson.analysis.significance import bootstrap_indices

__all__ = ["CACHE_FILE", "METRICS", "SEED", "N_SAMPLES", "indices_digest",
           "compute_resampled", "resampled_scores"]

CACHE_FILE = Path(__file__).with_name("resample_cache.json.gz")
METRICS: tuple[str, ...] = ("BLEU", "chrF", "TER")
SEED, N_SAMPLES = 12345, 2000   # chapter 10's resamples


def indices_digest(indices) -> str:
    """SHA-256 of an index matrix (its shape and its values as 64-bit integers)."""
    import numpy as np

    array = np.ascontiguousarray(indices, dtype=np.int64)
    return hashlib.sha256(repr(array.shape).encode() + array.tobytes()).hexdigest()


def compute_resampled(indices) -> dict[tuple[str, str], list[float]]:
    """(metric, candidate) -> its corpus score (0-100) on each resample, reference A."""
    bleu, other = load_bleu_cache(), load_metric_cache()
    out: dict[tuple[str, str], list[float]] = {}
    for name in bleu.segments:
        out["BLEU", name] = bleu.resampled(name, indices)
        for metric in METRICS[1:]:
            out[metric, name] = other.resampled(metric, name, indices)
    return out


def resampled_scores(indices) -> dict[tuple[str, str], list[float]]:
    """``compute_resampled(indices)``, read from the shipped file when ``indices`` are the
    ones it was made with (same SHA-256), else computed."""
    if CACHE_FILE.exists():
        data = json.loads(gzip.decompress(CACHE_FILE.read_bytes()).decode("utf-8"))
        if data["indices_sha256"] == indices_digest(indices):
            return {(metric, name): values for metric, by_name in data["scores"].items()
                    for name, values in by_name.items()}
    return compute_resampled(indices)


if __name__ == "__main__":
    chosen = bootstrap_indices(load_metric_cache().n_segments, n_samples=N_SAMPLES, seed=SEED)
    nested: dict[str, dict[str, list[float]]] = {}
    for (metric, name), values in compute_resampled(chosen).items():
        nested.setdefault(metric, {})[name] = values
    data = {"seed": SEED, "n_samples": N_SAMPLES, "indices_sha256": indices_digest(chosen),
            "scores": nested}
    CACHE_FILE.write_bytes(gzip.compress(json.dumps(data).encode("utf-8"), mtime=0))
    print(f"wrote {CACHE_FILE}")
