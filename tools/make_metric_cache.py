"""Compute chapter 10's chrF and TER tables with sacrebleu and store them in bleu_lesson/.

sacrebleu's corpus TER takes about half a minute per WMT22 zh-en system, far too long for a
chapter that runs in seconds, so this script computes, once, for the 12 zh-en systems and
HUMAN-B (reference B judged as a system):

- system-level chrF and TER statistics against reference A, B and A+B (HUMAN-B: A only,
  since B is its own text);
- per-segment chrF and TER statistics against reference A (what a bootstrap over segments
  resamples).

It writes ``bleu_lesson/metric_cache_segments.json.gz`` (the per-segment statistics) and
``bleu_lesson/metric_cache.json`` (system-level statistics, the sacrebleu version and
signatures, and the SHA-256 of the segment file). ``bleu_lesson.metric_cache`` reads them.

Usage (about half an hour on one core)::

    BLEU_LESSON_WMT22_DIR=../shared/data/wmt22 .venv/bin/python tools/make_metric_cache.py
"""

from __future__ import annotations

import gzip
import hashlib
import json
import sys
import time
from pathlib import Path

import sacrebleu
from sacrebleu.metrics import CHRF, TER

from bleu_lesson.datasets import load_wmt22

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bleu_lesson"
REFSETS = {"A": ("A",), "B": ("B",), "A+B": ("A", "B")}


def main() -> None:
    data = load_wmt22("zh-en", download=False)
    candidates = dict(data.systems)
    candidates["HUMAN-B"] = data.references["B"]
    metrics = {"chrF": CHRF, "TER": TER}
    systems: dict = {}
    segments: dict = {"chrF": {}, "TER": {}}
    signatures = {}
    for metric_name, cls in metrics.items():
        for refset, names in REFSETS.items():
            metric = cls(references=[list(data.references[n]) for n in names])
            signatures[metric_name, refset] = str(metric.get_signature())
            for name, hyps in candidates.items():
                if name == "HUMAN-B" and "B" in names:
                    continue
                start = time.perf_counter()
                stats = metric._extract_corpus_statistics(list(hyps), None)
                total = [sum(col) for col in zip(*stats, strict=True)]
                score = metric._compute_score_from_stats(total).score
                want = metric.corpus_score(list(hyps), None).score if metric_name == "chrF" \
                    else score  # TER's corpus_score would take another half minute
                assert abs(score - want) < 1e-9
                systems.setdefault(metric_name, {}).setdefault(refset, {})[name] = {
                    "score": score, "stats": total}
                if refset == "A":
                    segments[metric_name][name] = stats
                print(f"{metric_name:4s} {refset:3s} {name:18s} {score:7.3f} "
                      f"({time.perf_counter() - start:.1f} s)", file=sys.stderr, flush=True)
    blob = json.dumps(segments, separators=(",", ":"), sort_keys=True).encode("utf-8")
    packed = gzip.compress(blob, compresslevel=9, mtime=0)
    (OUT / "metric_cache_segments.json.gz").write_bytes(packed)
    meta = {
        "description": "chrF and TER of the WMT22 zh-en systems and HUMAN-B, from "
                       "tools/make_metric_cache.py",
        "sacrebleu_version": sacrebleu.__version__,
        "signatures": {f"{m}|{r}": s for (m, r), s in signatures.items()},
        "segments_file": "metric_cache_segments.json.gz",
        "segments_sha256": hashlib.sha256(packed).hexdigest(),
        "segments_reference": "A",
        "n_segments": len(data),
        "systems": systems,
    }
    (OUT / "metric_cache.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n",
                                           encoding="utf-8")


if __name__ == "__main__":
    main()
