"""Bootstrap intervals and paired tests on WMT22 zh-en, side by side with sacrebleu.

Both libraries get the same segment statistics (counted once, before the clock starts), so
the times are those of resampling and rescoring alone. For every system: a 1000-resample
95% interval; for every system against the first: a paired bootstrap test (1000 resamples)
and, with --ar, an approximate randomization test (10000 trials; slow in sacrebleu). Each
figure is checked against sacrebleu's: intervals within 1e-6, p-values exactly equal.

    python benchmarks/bench_significance.py [--ar] [--data FOLDER]
"""

from __future__ import annotations

import argparse
import logging
import time

import numpy as np
from _goals import verdict
from _wmt22 import add_data_argument, wmt22_folder
from sacrebleu.metrics import BLEU
from sacrebleu.significance import (
    Result,
    _bootstrap_resample,
    _paired_ar_test,
    _paired_bs_test,
    estimate_ci,
)

from bleu_lesson import BleuScorer
from bleu_lesson.analysis.significance import (
    _estimate_ci,
    bootstrap_indices,
    paired_approximate_randomization_stats,
    paired_bootstrap_stats,
    resample_scores,
)
from bleu_lesson.data.datasets import load_wmt22

logging.getLogger("sacrebleu").setLevel(logging.ERROR)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ar", action="store_true",
                        help="also time approximate randomization (10000 trials per system)")
    parser.add_argument("--ar-systems", type=int, default=3, metavar="N",
                        help="systems compared with --ar (default 3; sacrebleu takes ~1 s each)")
    add_data_argument(parser)
    args = parser.parse_args()
    data = load_wmt22("zh-en", wmt22_folder(args.data, "bench_significance"), download=False)
    names = list(data.systems)
    streams = data.reference_streams("both")
    scorer = BleuScorer(data.references_for("both"), tokenizer=data.tokenizer)
    ours = {n: scorer.segment_stats(data.systems[n]) for n in names}
    metric = BLEU(tokenize=data.tokenizer)
    metric._ref_cache = metric._cache_references(streams)
    theirs = {n: metric._extract_corpus_statistics(list(data.systems[n]), None) for n in names}
    print(f"{len(names)} systems x {len(data)} segments, references A+B, tokenizer "
          f"{data.tokenizer}; segment statistics counted beforehand")

    # --- 1000-resample intervals, every system -----------------------------------------------
    start = time.perf_counter()
    intervals = {}
    for n in names:  # what bootstrap_ci does once the statistics are counted
        indices = bootstrap_indices(len(ours[n]), 1000, 12345)
        intervals[n] = _estimate_ci(resample_scores(ours[n], scorer, indices))
    t_ours = time.perf_counter() - start
    start = time.perf_counter()
    sacre = {}
    for n in names:
        _, scores = _bootstrap_resample(theirs[n], metric, 1000)
        sacre[n] = estimate_ci(np.array([s.score for s in scores]))
    t_sacre = time.perf_counter() - start
    worst = max(max(abs(100 * intervals[n][0] - sacre[n][0]),
                    abs(100 * intervals[n][1] - sacre[n][1])) / 100 for n in names)
    print(f"intervals, 1000 resamples x {len(names)} systems: bleu_lesson {t_ours:.2f} s, "
          f"sacrebleu {t_sacre:.2f} s ({t_sacre / t_ours:.1f}x); largest difference of mean "
          f"or half-width {worst:.1e} (0-1 scale; goal <= 1e-6, not slower than sacrebleu) "
          f"{verdict(worst <= 1e-6 and t_ours <= t_sacre)}")

    # --- paired bootstrap, every system against the first --------------------------------
    base = names[0]
    base_result = Result(metric._compute_score_from_stats(np.sum(theirs[base], axis=0)).score)
    info = {"BLEU": (theirs[base], base_result)}
    start = time.perf_counter()
    ours_bs = {n: paired_bootstrap_stats(ours[base], ours[n], scorer) for n in names[1:]}
    t_ours = time.perf_counter() - start
    start = time.perf_counter()
    sacre_bs = {n: _paired_bs_test(info, n, list(data.systems[n]), None, {"BLEU": metric},
                                   1000, -1, 12345)[1]["BLEU"] for n in names[1:]}
    t_sacre = time.perf_counter() - start
    same = sum(ours_bs[n].p_value == sacre_bs[n].p_value for n in names[1:])
    met = same == len(names) - 1 and t_ours <= t_sacre
    print(f"paired bootstrap, {len(names) - 1} systems vs {base}: bleu_lesson {t_ours:.2f} s, "
          f"sacrebleu {t_sacre:.2f} s; p-values equal for {same} of {len(names) - 1} (goal: "
          f"all, not slower than sacrebleu) {verdict(met)}")

    if args.ar:
        chosen = names[1:1 + args.ar_systems]
        start = time.perf_counter()
        ours_ar = {n: paired_approximate_randomization_stats(ours[base], ours[n], scorer)
                   for n in chosen}
        t_ours = time.perf_counter() - start
        start = time.perf_counter()
        sacre_ar = {n: _paired_ar_test(info, n, list(data.systems[n]), None, {"BLEU": metric},
                                       10000, -1, 12345)[1]["BLEU"] for n in chosen}
        t_sacre = time.perf_counter() - start
        same = sum(ours_ar[n].p_value == sacre_ar[n].p_value for n in chosen)
        print(f"approximate randomization, 10000 trials x {len(chosen)} systems: bleu_lesson "
              f"{t_ours:.2f} s, sacrebleu {t_sacre:.2f} s; p-values equal for {same} of "
              f"{len(chosen)} (goal: all, not slower than sacrebleu) "
              f"{verdict(same == len(chosen) and t_ours <= t_sacre)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
