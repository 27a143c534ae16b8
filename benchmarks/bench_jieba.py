"""Chinese word segmentation of WMT22 en-zh: jieba's own ``lcut`` against ``tokenizer="jieba"``.

    python benchmarks/bench_jieba.py [--repeat 3] [--data FOLDER]

The WMT22 folder is found as every benchmark finds it (``benchmarks/_wmt22.py``):
``--data``, else ``$BLEU_LESSON_WMT22_DIR``, else the user cache that ``make data`` fills;
without it, one line on stderr and exit status 2.

Two workloads, each side in its own ``python -c`` program, so each starts with empty caches
and pays its own jieba start-up (the dictionary from jieba's cache file):

- ``segment``: every line of the 13 en-zh systems and both references (30,555 lines), one
  after another: jieba's ``Tokenizer().lcut`` on each line, then the whitespace split,
  against ``bleu_lesson.core.tokenizers.get_tokenizer("jieba")`` (each run of Chinese characters
  cut once and remembered, and each line). The start-up is printed apart.
- ``chapter 09``: what chapter 09 does in section 7.1, start-up included:
  ``BleuScorer(en_zh.references_for("both"), tokenizer=...)``, then each of the 13 systems
  scored, with ``tokenizer="jieba"`` against a callable giving jieba's own ``lcut`` words.

Figures are CPU seconds of the process (``time.process_time``; the machine may be shared),
best of ``--repeat``, the two sides interleaved; wall seconds beside them. Both sides must
give the same tokens and the same scores (their digests are compared).
"""

from __future__ import annotations

import argparse
import subprocess
import sys

from _goals import verdict
from _wmt22 import add_data_argument, wmt22_folder

PROGRAM = """
import hashlib, logging, sys, time
from pathlib import Path
workload, side, folder = sys.argv[1], sys.argv[2], Path(sys.argv[3])


def jiebas_own():
    import jieba
    jieba.setLogLevel(logging.WARNING)
    segmenter = jieba.Tokenizer()
    segmenter.initialize()
    return lambda line: " ".join(segmenter.lcut(line.rstrip())).split()


if workload == "segment":
    lines = []
    for path in sorted(folder.glob("generaltest2022.en-zh.*.zh")):
        if ".hyp." in path.name or ".ref." in path.name:
            lines += path.read_text(encoding="utf-8").split("\\n")[:-1]
    cpu, wall = time.process_time(), time.perf_counter()
    if side == "jieba":
        split = jiebas_own()
    else:
        from bleu_lesson.core.tokenizers import get_tokenizer
        split = get_tokenizer("jieba")
        split("预热")  # jieba is imported and its dictionary loaded on first use
    setup = time.process_time() - cpu
    cpu, wall = time.process_time(), time.perf_counter()
    out = "\\n".join(" ".join(split(line)) for line in lines)
    lines = len(lines)
else:
    from bleu_lesson import BleuScorer
    from bleu_lesson.data.datasets import load_wmt22
    en_zh = load_wmt22("en-zh", folder, download=False)
    references = en_zh.references_for("both")
    lines, setup = 0, 0.0
    cpu, wall = time.process_time(), time.perf_counter()
    scorer = BleuScorer(references, tokenizer=jiebas_own() if side == "jieba" else "jieba")
    out = repr([scorer.score(hyps).score for hyps in en_zh.systems.values()])
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
print(lines, setup, cpu, wall, hashlib.sha256(out.encode()).hexdigest()[:16])
"""

WORKLOADS = ("segment", "chapter 09")
SIDES = ("jieba", "bleu_lesson")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    add_data_argument(parser)
    args = parser.parse_args()
    folder = str(wmt22_folder(args.data, "bench_jieba"))
    best: dict[tuple[str, str], list[float]] = {}
    digests: dict[tuple[str, str], str] = {}
    lines: dict[str, int] = {}
    for _ in range(args.repeat):
        for workload in WORKLOADS:
            for side in SIDES:
                out = subprocess.run([sys.executable, "-c", PROGRAM, workload, side, folder],
                                     capture_output=True, text=True, check=True).stdout.split()
                lines[workload], digests[workload, side] = int(out[0]), out[4]
                figures = [float(x) for x in out[1:4]]  # setup, cpu, wall
                kept = best.setdefault((workload, side), figures)
                best[workload, side] = [min(a, b) for a, b in zip(kept, figures, strict=True)]
    same = True
    for workload in WORKLOADS:
        what = (f"{lines[workload]} lines" if workload == "segment"
                else "13 systems, 2 references, start-up included")
        print(f"{workload} ({what}):")
        for side in SIDES:
            setup, cpu, wall = best[workload, side]
            extra = f" (start-up {setup:4.2f} s cpu)" if workload == "segment" else ""
            print(f"  {side:12s} {cpu:5.2f} s cpu, {wall:5.2f} s wall{extra}")
        agree = digests[workload, "jieba"] == digests[workload, "bleu_lesson"]
        same = same and agree
        ratio = best[workload, "jieba"][1] / best[workload, "bleu_lesson"][1]
        print(f"  ratio jieba / bleu_lesson (cpu): {ratio:.2f}x; "
              f"same {'tokens' if workload == 'segment' else 'scores'}: {agree} "
              f"(goal: the same, and not slower than jieba, >= 1.00x) "
              f"{verdict(agree and ratio >= 1.0)}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
