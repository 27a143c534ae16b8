"""chrF and TER of the WMT22 zh-en systems, computed once by sacrebleu and shipped.

sacrebleu's corpus TER takes about half a minute per WMT22 zh-en system, so chapter 10
reads these tables instead of recomputing them. ``tools/make_metric_cache.py`` wrote them
with sacrebleu (its version and the metrics' signatures are stored beside the numbers):

- ``metric_cache.json``: per system and reference set ("A", "B", "A+B") the summed
  sacrebleu statistics and the score; the SHA-256 of the segment file;
- ``metric_cache_segments.json.gz``: per system its per-segment statistics against
  reference A, what a bootstrap over segments resamples.

Scores are computed from statistics by sacrebleu's own ``_compute_score_from_stats``: chrF
from character n-gram counts, TER = edits / reference words. Nothing here reimplements them.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from bleu_lesson.analysis.bleu_cache import BleuCache
from bleu_lesson.analysis.significance import resample_rows, resample_scores
from bleu_lesson.core.bleu import BleuScorer

__all__ = ["METRICS", "REFERENCE_SETS", "MetricCache", "load_metric_cache", "sacrebleu_metric",
           "bleu_resampled", "system_tables"]

#: The cached metrics and whether higher is better.
METRICS: dict[str, bool] = {"chrF": True, "TER": False}
#: Reference sets of the cached tables.
REFERENCE_SETS: tuple[str, ...] = ("A", "B", "A+B")
_META = "metric_cache.json"


def sacrebleu_metric(metric: str):
    """A sacrebleu metric object with default settings: ``CHRF()`` or ``TER()``."""
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {', '.join(map(repr, METRICS))}, "
                         f"got {metric!r}")
    from sacrebleu.metrics import CHRF, TER

    return CHRF() if metric == "chrF" else TER()


@dataclass(frozen=True)
class MetricCache:
    """The shipped chrF/TER tables (``load_metric_cache``)."""

    sacrebleu_version: str
    signatures: dict[str, str]
    n_segments: int
    systems: dict  # metric -> refset -> system -> {"score", "stats"}
    segments: dict  # metric -> system -> per-segment stats (reference A)

    def scores(self, metric: str, refset: str = "A") -> dict[str, float]:
        """System -> corpus score (0-100) of one metric against one reference set."""
        if metric not in METRICS:
            raise ValueError(f"metric must be one of {', '.join(map(repr, METRICS))}, "
                             f"got {metric!r}")
        if refset not in REFERENCE_SETS:
            raise ValueError(f"refset must be one of {', '.join(map(repr, REFERENCE_SETS))}, "
                             f"got {refset!r}")
        if refset not in self.systems[metric]:
            raise ValueError(f"no cached {metric} against reference {refset}; cached: "
                             f"{', '.join(self.refsets(metric))}")
        return {name: entry["score"] for name, entry in self.systems[metric][refset].items()}

    def refsets(self, metric: str) -> tuple[str, ...]:
        """The reference sets this metric was cached for, in ``REFERENCE_SETS`` order."""
        return tuple(r for r in REFERENCE_SETS if r in self.systems.get(metric, {}))

    def segment_stats(self, metric: str, system: str) -> list[list[float]]:
        """One system's per-segment sacrebleu statistics against reference A."""
        if system not in self.segments[metric]:
            raise ValueError(f"no cached {metric} for system {system!r}")
        return self.segments[metric][system]

    def resampled(self, metric: str, system: str, indices) -> list[float]:
        """The corpus score on each bootstrap resample (row i of ``indices`` = resample i).

        A resample's statistics are the sum of its segments' rows; sacrebleu scores them.
        """
        scorer = sacrebleu_metric(metric)
        totals = resample_rows(self.segment_stats(metric, system), indices)
        return [scorer._compute_score_from_stats(list(row)).score for row in totals]


@lru_cache(maxsize=1)
def load_metric_cache() -> MetricCache:
    """Read the shipped tables; the segment file must have the SHA-256 the metadata records."""
    root = resources.files(__package__)
    meta = json.loads(root.joinpath(_META).read_text(encoding="utf-8"))
    packed = root.joinpath(meta["segments_file"]).read_bytes()
    actual = hashlib.sha256(packed).hexdigest()
    if actual != meta["segments_sha256"]:
        raise ValueError(f"{meta['segments_file']} is corrupted or from another run: expected "
                         f"sha256 {meta['segments_sha256']}, got {actual}; regenerate it with "
                         "tools/make_metric_cache.py")
    segments = json.loads(gzip.decompress(packed).decode("utf-8"))
    return MetricCache(meta["sacrebleu_version"], meta["signatures"], meta["n_segments"],
                       meta["systems"], segments)


def system_tables(corpus, cache: MetricCache | None = None, candidates: dict | None = None,
                  scorers: dict | None = None, bleu: BleuCache | None = None,
                  ) -> dict[tuple[str, str], dict[str, float]]:
    """(metric, refset) -> system -> corpus score (0-100) for BLEU, chrF and TER.

    BLEU is computed here (``BleuScorer``, the corpus's tokenizer), or scored from the
    shipped counts when ``bleu`` (``bleu_cache.load_bleu_cache()``) is given; chrF and TER
    come from the cache. ``candidates`` (default: the corpus's systems plus ``HUMAN-B`` = reference
    B) are scored against every reference set that does not contain them. ``scorers``
    (refset -> ``BleuScorer``) is used and filled in, so a caller can reuse the counts.
    """
    cache = cache if cache is not None else load_metric_cache()
    if candidates is None:
        candidates = {**corpus.systems, "HUMAN-B": corpus.references["B"]}
    scorers = scorers if scorers is not None else {}
    tables: dict[tuple[str, str], dict[str, float]] = {}
    for refset in REFERENCE_SETS:
        names = refset.split("+")
        which = "both" if len(names) > 1 else names[0]
        usable = {n: h for n, h in candidates.items() if not (n == "HUMAN-B" and "B" in names)}
        if bleu is not None:
            counted = bleu.scores(refset)
            missing = [n for n in usable if n not in counted]
            if missing:
                raise ValueError(f"bleu has no counts of {', '.join(missing)} against {refset}")
            tables["BLEU", refset] = {n: counted[n] for n in usable}
        else:
            if refset not in scorers:
                scorers[refset] = BleuScorer(corpus.references_for(which),
                                             tokenizer=corpus.tokenizer)
            scorer = scorers[refset]
            tables["BLEU", refset] = {n: 100 * scorer.score(h).score for n, h in usable.items()}
        for metric in METRICS:
            if refset not in cache.refsets(metric):
                continue  # not cached (the script can leave TER's B and A+B out)
            cached = cache.scores(metric, refset)
            tables[metric, refset] = {n: cached[n] for n in usable}
    return tables


def bleu_resampled(scorer: BleuScorer, candidates, indices) -> list[float]:
    """BLEU of one system on each resample, beside ``MetricCache.resampled`` for chrF and TER:
    ``significance.resample_scores`` of its segment statistics (0-1 scale).
    """
    return resample_scores(scorer.segment_stats(candidates), scorer, indices)
