"""How long one explorer update takes: recompute + render, no plot.

    python benchmarks/bench_widgets.py [--repeat 200]

Drives ``BleuExplorer`` headlessly with a 30-word candidate and three 30-word
references, changing the candidate text each time (which fires the observer, recomputes
BLEU and renders the HTML), and prints the median and 95th percentile in milliseconds.
The pure ``render_bleu`` is timed too, to show what the ipywidgets wiring adds. Then the
candidate box of chapter 03's ClippingExplorer and chapter 06's BleuExplorer (the
chapters' own inputs) is edited ``--repeat`` times: the kernel's part of a learner's edit
(the page's round trip on top of it is what ``bench_browser.py`` measures).

With the WMT22 data (``$BLEU_LESSON_WMT22_DIR`` or the cache ``make data`` fills), chapter
10's AgreementExplorer is timed too: one metric change (statistics, table and the SVG
plot), the slowest explorer a learner drives; without the data that line says it is skipped.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from _goals import verdict
from _wmt22 import add_data_argument, find_wmt22

from bleu_lesson.analysis.metric_cache import system_tables
from bleu_lesson.data.datasets import (
    SEED_CANDIDATE,
    SEED_REFERENCES,
    DatasetNotFoundError,
    load_wmt22,
    load_wmt22_human,
)
from bleu_lesson.teaching.widgets import (
    AgreementExplorer,
    BleuExplorer,
    ClippingExplorer,
    render_bleu,
)

WORDS = ("the a cat dog sat on mat is was there here and of to in it that with for "
         "as by at from this be are not").split()


def sentence(rng: random.Random, n: int = 30) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    add_data_argument(parser)
    args = parser.parse_args()
    rng = random.Random(1)
    refs = [sentence(rng) for _ in range(3)]
    candidates = [sentence(rng) for _ in range(args.repeat)]
    explorer = BleuExplorer(candidates[0], refs)

    widget_ms = []
    for cand in candidates:
        start = time.perf_counter()
        explorer.candidate.value = cand + " "  # always a change, so the observer fires
        widget_ms.append(1000 * (time.perf_counter() - start))
    render_ms = []
    ref_text = "\n".join(refs)
    for cand in candidates:
        start = time.perf_counter()
        render_bleu(cand, ref_text)
        render_ms.append(1000 * (time.perf_counter() - start))
    for label, ms in (("BleuExplorer update", widget_ms), ("render_bleu alone", render_ms)):
        q = statistics.quantiles(ms, n=20)
        print(f"{label:20} median {statistics.median(ms):.3f} ms, p95 {q[-1]:.3f} ms "
              f"({len(ms)} updates, 3 references of 30 words)")
    candidate_edits(rng, args.repeat)
    agreement(max(3, args.repeat // 20), args.data)
    return 0


def candidate_edits(rng: random.Random, repeat: int) -> None:
    """Chapter 03's ClippingExplorer and chapter 06's BleuExplorer as the chapters make them
    (the seed's candidate and three references): one edit of the candidate box each time,
    in the kernel (the browser's round trip is bench_browser.py's)."""
    for label, explorer in (("ch03 ClippingExplorer", ClippingExplorer(SEED_CANDIDATE,
                                                                        SEED_REFERENCES, 4)),
                            ("ch06 BleuExplorer", BleuExplorer(SEED_CANDIDATE,
                                                               SEED_REFERENCES))):
        ms = []
        for _ in range(repeat):
            text = " ".join(rng.choice(WORDS) for _ in range(8))
            start = time.perf_counter()
            explorer.candidate.value = text
            ms.append(1000 * (time.perf_counter() - start))
        q = statistics.quantiles(ms, n=20)
        print(f"{label:20} candidate edit: median {statistics.median(ms):.3f} ms, p95 "
              f"{q[-1]:.3f} ms, max {max(ms):.3f} ms ({len(ms)} edits, in the kernel; "
              f"goal <= 500 ms) {verdict(max(ms) <= 500)}")


def agreement(repeat: int, data: str | None) -> None:
    """Time AgreementExplorer's metric changes on the WMT22 zh-en tables, if the data is here
    (found as every benchmark finds it; never downloaded)."""
    try:
        folder = find_wmt22(data)
        corpus = load_wmt22("zh-en", folder, download=False)
        human = load_wmt22_human("zh-en", folder)
    except (DatasetNotFoundError, OSError, ValueError) as exc:
        print(f"{'AgreementExplorer':20} skipped: no WMT22 data ({str(exc).splitlines()[0]})")
        return
    explorer = AgreementExplorer(system_tables(corpus), human.z())
    ms = []
    for k in range(repeat):
        start = time.perf_counter()
        explorer.metric.value = ("chrF", "TER", "BLEU")[k % 3]
        ms.append(1000 * (time.perf_counter() - start))
    print(f"{'AgreementExplorer':20} median {statistics.median(ms):.1f} ms, max {max(ms):.1f} ms "
          f"({len(ms)} metric changes, WMT22 zh-en, with the plot)")


if __name__ == "__main__":
    raise SystemExit(main())
