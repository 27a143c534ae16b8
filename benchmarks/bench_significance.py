"""Every WMT22 zh-en system scored, each with a 1000-resample bootstrap interval, and a
paired bootstrap test between the two closest systems: how long chapter 09's statistics take.

    BLEU_LESSON_WMT22_DIR=../shared/data/wmt22 python benchmarks/bench_significance.py
"""

from __future__ import annotations

import os
import sys
import time

from bleu_lesson import BleuScorer
from bleu_lesson.datasets import load_wmt22
from bleu_lesson.significance import bootstrap_ci, paired_bootstrap


def main() -> int:
    folder = os.environ.get("BLEU_LESSON_WMT22_DIR")
    if not folder:
        print("bench_significance: set BLEU_LESSON_WMT22_DIR", file=sys.stderr)
        return 2
    data = load_wmt22("zh-en", folder)
    start = time.perf_counter()
    scorer = BleuScorer(data.references_for("both"), tokenizer=data.tokenizer)
    scores = {name: scorer.score(hyps).score for name, hyps in data.systems.items()}
    scored = time.perf_counter()
    intervals = {name: bootstrap_ci(hyps, scorer, n_samples=1000)
                 for name, hyps in data.systems.items()}
    booted = time.perf_counter()
    paired = paired_bootstrap(data.systems["AISP-SJTU"], data.systems["HuaweiTSC"], scorer)
    done = time.perf_counter()
    print(f"{len(scores)} systems x {len(data)} segments, both references, tokenizer 13a")
    print(f"score every system:                {scored - start:6.2f} s")
    print(f"1000-resample interval per system: {booted - scored:6.2f} s "
          f"({(booted - scored) / len(intervals):.3f} s each)")
    print(f"paired bootstrap (1000 resamples): {done - booted:6.2f} s  p = {paired.p_value:.4f}")
    print(f"total:                             {done - start:6.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
