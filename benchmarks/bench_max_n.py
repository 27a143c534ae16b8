"""The cost of ``max_n``: sentence BLEU of a 7-token sentence for max_n = 4 … 10**6.

    python benchmarks/bench_max_n.py

Issue 10's goal: cost linear in ``max_n``, and orders above the longest segment scored at
once (they have no n-grams, so their counts are 0 / 0 and nothing is enumerated). Each
row's goal: at most ``max_n / 4`` times the cost of ``max_n = 4`` (linear or better). Printed
beside sacrebleu's ``BLEU(max_ngram_order=...)`` on the same sentence, with the ratio
(sacrebleu / bleu_lesson). Best of 3 runs each; no data needed.
"""

from __future__ import annotations

import sys
import time

from _goals import verdict
from sacrebleu.metrics import BLEU

from bleu_lesson import sentence_bleu

HYP = "the cat sat on the mat ."
REF = "the cat sat on a mat ."
ORDERS = (4, 100, 1_000, 10_000, 100_000, 1_000_000)


def best(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    print(f"sentence BLEU of {len(HYP.split())} tokens, smoothing exp, effective order; "
          "best of 3")
    print(f"{'max_n':>9} {'bleu_lesson':>12} {'sacrebleu':>10} {'ratio':>6} {'goal (linear)':>14}")
    base = None
    for n in ORDERS:
        ours = best(lambda n=n: sentence_bleu(HYP, [REF], tokenizer="none", max_n=n))
        metric = BLEU(tokenize="none", max_ngram_order=n, effective_order=True)
        theirs = best(lambda m=metric: m.sentence_score(HYP, [REF]))
        base = ours if base is None else base
        limit = base * n / ORDERS[0]
        print(f"{n:>9} {ours:11.4f}s {theirs:9.4f}s {theirs / ours:5.1f}x "
              f"{'<=':>4}{limit:9.4f}s {verdict(ours <= limit)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
