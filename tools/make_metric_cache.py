"""Compute chapter 10's chrF and TER tables with sacrebleu and store them in bleu_lesson/.

sacrebleu's corpus TER takes about half a minute per WMT22 zh-en system, far too long for a
chapter that runs in seconds, so this script computes, once, for the 12 zh-en systems and
HUMAN-B (reference B judged as a system):

- system-level chrF and TER statistics against reference A, B and A+B (HUMAN-B: A only,
  since B is its own text); TER against A+B is combined from TER against A and B by
  sacrebleu's multi-reference rule (fewest edits, mean reference length);
- per-segment chrF and TER statistics against reference A (what a bootstrap over segments
  resamples).

It writes ``bleu_lesson/metric_cache_segments.json.gz`` (the per-segment statistics) and
``bleu_lesson/metric_cache.json`` (system-level statistics, the sacrebleu version and
signatures, and the SHA-256 of the segment file). ``bleu_lesson.analysis.metric_cache`` reads them.

Usage (about a quarter of an hour of CPU; the arguments: the number of processes, and the
reference sets for TER, "A,B" by default)::

    BLEU_LESSON_WMT22_DIR=../shared/data/wmt22 .venv/bin/python tools/make_metric_cache.py 2 A,B
"""

from __future__ import annotations

import gzip
import hashlib
import json
import multiprocessing
import sys
import tempfile
import time
from pathlib import Path

import sacrebleu
from sacrebleu.metrics import CHRF, TER

from bleu_lesson.data.datasets import load_wmt22

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bleu_lesson"
REFSETS = {"A": ("A",), "B": ("B",), "A+B": ("A", "B")}


PARTS = Path(tempfile.gettempdir()) / "bleu_lesson_metric_cache_parts"


def _job(job: tuple[str, str, str]) -> tuple[str, str, str, list, float]:
    """One (metric, reference set, system): sacrebleu's per-segment statistics and score.

    Each result is also saved in PARTS, so an interrupted run resumes where it stopped.
    """
    metric_name, refset, name = job
    part = PARTS / f"{metric_name}.{refset}.{name}.json"
    if part.exists():
        return tuple(json.loads(part.read_text(encoding="utf-8")))
    data = load_wmt22("zh-en", download=False)
    hyps = data.references["B"] if name == "HUMAN-B" else data.systems[name]
    cls = {"chrF": CHRF, "TER": TER}[metric_name]
    metric = cls(references=[list(data.references[n]) for n in REFSETS[refset]])
    start = time.perf_counter()
    stats = metric._extract_corpus_statistics(list(hyps), None)
    total = [sum(col) for col in zip(*stats, strict=True)]
    score = metric._compute_score_from_stats(total).score
    if metric_name == "chrF":  # TER's corpus_score would take another half minute
        assert abs(score - metric.corpus_score(list(hyps), None).score) < 1e-9
    print(f"{metric_name:4s} {refset:3s} {name:18s} {score:7.3f} "
          f"({time.perf_counter() - start:.1f} s)", file=sys.stderr, flush=True)
    result = (metric_name, refset, name, stats, score)
    part.write_text(json.dumps(result), encoding="utf-8")
    return result


def main() -> None:
    workers = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    # TER against these reference sets ("A" alone leaves TER's B and A+B tables out)
    ter_refsets = sys.argv[2].split(",") if len(sys.argv) > 2 else ["A", "B"]
    PARTS.mkdir(exist_ok=True)
    data = load_wmt22("zh-en", download=False)
    names = [*data.systems, "HUMAN-B"]
    jobs = [(m, r, n) for m in ("chrF", "TER") for r in REFSETS for n in names
            if not (n == "HUMAN-B" and "B" in REFSETS[r])
            and not (m == "TER" and r not in ter_refsets)]
    with multiprocessing.Pool(workers) as pool:
        results = pool.map(_job, jobs, chunksize=1)
    # TER against A+B from the same segments' TER against A and against B: sacrebleu's own
    # multi-reference rule (TER._compute_segment_statistics): the fewest edits over the
    # references, divided by their mean length. tests/test_metric_cache.py checks the rule
    # against sacrebleu's TER with both references on a slice. (Scoring A+B directly would
    # double the time this script takes.)
    ter = {(r, n): stats for m, r, n, stats, _ in results if m == "TER"}
    scorer = TER()
    for name in data.systems if "B" in ter_refsets else ():
        combined = [[min(a[0], b[0]), (a[1] + b[1]) / 2]
                    for a, b in zip(ter["A", name], ter["B", name], strict=True)]
        total = [sum(col) for col in zip(*combined, strict=True)]
        results.append(("TER", "A+B", name, combined,
                        scorer._compute_score_from_stats(total).score))
    systems: dict = {}
    segments: dict = {"chrF": {}, "TER": {}}
    for metric_name, refset, name, stats, score in results:
        total = [sum(col) for col in zip(*stats, strict=True)]
        systems.setdefault(metric_name, {}).setdefault(refset, {})[name] = {
            "score": score, "stats": total}
        if refset == "A":
            segments[metric_name][name] = stats
    signatures = {}
    for metric_name, cls in (("chrF", CHRF), ("TER", TER)):
        for refset, refs in REFSETS.items():
            if refset not in systems[metric_name]:
                continue
            metric = cls(references=[list(data.references[n]) for n in refs])
            signatures[metric_name, refset] = str(metric.get_signature())
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
